#include "deathburgh/pool.hpp"

namespace mh::deathburgh {

namespace {

// dist convolved with one die giving 0 / 1 / 2 successes with probabilities q[0..2].
std::vector<double> add_die(const std::vector<double>& dist, const double q[3]) {
    std::vector<double> out(dist.size() + 2, 0.0);
    for (std::size_t s = 0; s < dist.size(); ++s) {
        for (int k = 0; k < 3; ++k) out[s + k] += dist[s] * q[k];
    }
    return out;
}

}  // namespace

std::vector<double> pool_pmf(const PoolSpec& pool) {
    if (pool.auto_hits >= 0) {
        std::vector<double> point(pool.auto_hits + 1, 0.0);
        point[pool.auto_hits] = 1.0;
        return point;
    }
    // Each from its own count of faces, so that a 6+ die has exactly 0 plain successes.
    const double fail = (pool.target - 1) / 6.0;
    const double hit = (6 - pool.target) / 6.0;
    const double crit = 1.0 / 6.0;
    const double die[3] = {fail, hit, crit};

    std::vector<double> rolled;
    if (pool.reroll == Reroll::one_fail) {
        // Split on whether a failed die has been seen; the first one is rerolled as a fresh die.
        std::vector<double> clean{1.0};   // no failure yet
        std::vector<double> failed{0.0};  // at least one failure (the reroll still to come)
        for (int i = 0; i < pool.rolled; ++i) {
            const double success_only[3] = {0.0, hit, crit};
            const double any_face[3] = {fail, hit, crit};
            std::vector<double> next_failed = add_die(failed, any_face);
            for (std::size_t s = 0; s < clean.size(); ++s) next_failed[s] += clean[s] * fail;
            clean = add_die(clean, success_only);
            failed = std::move(next_failed);
        }
        rolled = add_die(failed, die);
        for (std::size_t s = 0; s < clean.size(); ++s) rolled[s] += clean[s];
        rolled.resize(2 * pool.rolled + 1);  // the reroll cannot push past 2 per rolled die
    } else {
        double q[3] = {fail, hit, crit};
        if (pool.reroll == Reroll::all_fails) {  // a failed die is rolled once more
            q[0] = fail * fail;
            q[1] = hit * (1.0 + fail);
            q[2] = crit * (1.0 + fail);
        }
        rolled = {1.0};
        for (int i = 0; i < pool.rolled; ++i) rolled = add_die(rolled, q);
    }

    std::vector<double> pmf(2 * pool.instant_crits + rolled.size(), 0.0);
    for (std::size_t s = 0; s < rolled.size(); ++s) pmf[2 * pool.instant_crits + s] = rolled[s];
    return pmf;
}

std::vector<double> checked_pool_pmf(const PoolSpec& pool) {
    check_pool(pool);
    return pool_pmf(pool);
}

}  // namespace mh::deathburgh

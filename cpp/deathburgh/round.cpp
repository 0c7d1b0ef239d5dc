#include "deathburgh/round.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/dice.hpp"
#include "core/parallel.hpp"
#include "deathburgh/pool.hpp"

namespace mh::deathburgh {

std::size_t round_bins(const RoundSpec& spec) {
    std::size_t bins = spec.combats.size();
    for (int w : spec.start_wounds) bins += std::size_t(w) + 1;
    return bins;
}

void check_round(const RoundSpec& spec) {
    const int n = static_cast<int>(spec.start_wounds.size());
    if (n < 1 || n > kMaxMiniatures) throw std::invalid_argument("deathburgh: miniature count out of range");
    if (spec.combats.size() > std::size_t(kMaxCombats)) throw std::invalid_argument("deathburgh: too many combats");
    for (int w : spec.start_wounds) {
        if (w < 0 || w > kMaxWounds) throw std::invalid_argument("deathburgh: wounds out of range");
    }
    for (const RoundCombat& c : spec.combats) {
        if (c.attacker < 0 || c.attacker >= n || c.defender < 0 || c.defender >= n || c.attacker == c.defender) {
            throw std::invalid_argument("deathburgh: combat participants out of range");
        }
        for (int mode : {c.attacker_mode, c.defender_mode}) {
            if (mode != kModeFromState && mode != kAggressive && mode != kDefensive) {
                throw std::invalid_argument("deathburgh: unknown mode");
            }
        }
        for (int m = 0; m < 2; ++m) {
            check_pool(c.attacker_pool[m]);
            check_pool(c.defender_pool[m]);
        }
        check_rules(c.rules);
    }
}

namespace {

// A combat's outcome from real dice: the attacker's pool, then the defender's, then resolve().
struct SampledOutcome {
    DiceSource& dice;

    template <class F>
    void each(std::size_t, int mode_a, int mode_d, const RoundCombat& c, F&& f) {
        const PoolSpec& pa = c.attacker_pool[mode_a];
        const PoolSpec& pd = c.defender_pool[mode_d];
        const int sa = roll_pool(pa, dice);
        const int sd = roll_pool(pd, dice);
        f(resolve(c.rules, sa, sd, pa.wound_cap, pd.wound_cap), 1.0);
    }
};

}  // namespace

std::vector<uint64_t> round_monte_carlo(const RoundSpec& spec, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                        uint64_t chunk_end, int threads) {
    check_round(spec);
    const int n_minis = static_cast<int>(spec.start_wounds.size());
    int offsets[kMaxMiniatures + 1];  // first bin of each miniature; then the first combat bin
    offsets[0] = 0;
    for (int i = 0; i < n_minis; ++i) offsets[i + 1] = offsets[i] + spec.start_wounds[i] + 1;
    return run_chunks(
        seed, total, chunk_begin, chunk_end, round_bins(spec), threads,
        [&spec, &offsets, n_minis](Rng& rng, uint64_t n, uint64_t* counts) {
            DiceSource dice(rng);
            SampledOutcome outcomes{dice};
            const std::size_t n_combats = spec.combats.size();
            uint64_t* fought_counts = counts + offsets[n_minis];
            for (uint64_t sample = 0; sample < n; ++sample) {
                RoundState state{};
                for (int i = 0; i < n_minis; ++i) state.wounds[i] = spec.start_wounds[i];
                for (std::size_t k = 0; k < n_combats; ++k) {
                    const RoundCombat& c = spec.combats[k];
                    CombatEnd end{};
                    play_combat(c, k, state, outcomes, [&](const CombatEnd& e, double, bool fought) {
                        end = e;
                        fought_counts[k] += fought;
                    });
                    apply_end(c, end, state);
                }
                for (int i = 0; i < n_minis; ++i) ++counts[offsets[i] + state.wounds[i]];
            }
        });
}

}  // namespace mh::deathburgh

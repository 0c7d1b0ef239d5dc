#include "deathburgh/round.hpp"

#include "core/dice.hpp"
#include "core/parallel.hpp"
#include "deathburgh/layout.hpp"
#include "deathburgh/pool.hpp"
#include "deathburgh/resolve.hpp"

namespace mh::deathburgh {

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

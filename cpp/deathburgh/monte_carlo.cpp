#include "deathburgh/monte_carlo.hpp"

#include "core/dice.hpp"
#include "core/parallel.hpp"
#include "deathburgh/layout.hpp"
#include "deathburgh/pool.hpp"
#include "deathburgh/resolve.hpp"

namespace mh::deathburgh {

std::vector<uint64_t> combat_monte_carlo(const CombatSpec& spec, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                         uint64_t chunk_end, int threads) {
    check_pool(spec.attacker);
    check_pool(spec.defender);
    check_rules(spec.rules);
    const CombatShape shape = combat_shape(spec);
    const std::size_t wounds_offset = shape.successes_cells();
    const std::size_t bins = wounds_offset + shape.wounds_cells();
    return run_chunks(seed, total, chunk_begin, chunk_end, bins, threads,
                      [&spec, shape, wounds_offset](Rng& rng, uint64_t n, uint64_t* counts) {
                          DiceSource dice(rng);
                          const PoolSpec attacker = spec.attacker;
                          const PoolSpec defender = spec.defender;
                          const OutcomeRules rules = spec.rules;
                          for (uint64_t i = 0; i < n; ++i) {
                              const int sa = roll_pool(attacker, dice);
                              const int sd = roll_pool(defender, dice);
                              const Wounds w = resolve(rules, sa, sd, attacker.wound_cap, defender.wound_cap);
                              ++counts[std::size_t(sa) * shape.successes_defender + sd];
                              ++counts[wounds_offset + std::size_t(w.to_defender) * shape.wounds_attacker +
                                       w.to_attacker];
                          }
                      });
}

}  // namespace mh::deathburgh

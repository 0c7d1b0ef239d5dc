#include "deathburgh/combat.hpp"

#include "core/dice.hpp"
#include "core/parallel.hpp"
#include "deathburgh/pool.hpp"

namespace mh::deathburgh {

CombatShape combat_shape(const CombatSpec& spec) {
    return {max_successes(spec.attacker) + 1, max_successes(spec.defender) + 1,
            max_wounds_inflicted(spec.attacker) + 1, max_wounds_inflicted(spec.defender) + 1};
}

ExactCombat combat_exact(const CombatSpec& spec) {
    check_pool(spec.attacker);
    check_pool(spec.defender);
    check_rules(spec.rules);
    ExactCombat out;
    out.shape = combat_shape(spec);
    const CombatShape& shape = out.shape;
    out.successes_attacker = pool_pmf(spec.attacker);
    out.successes_defender = pool_pmf(spec.defender);
    const std::vector<double>& pa = out.successes_attacker;
    const std::vector<double>& pd = out.successes_defender;
    out.successes.assign(shape.successes_cells(), 0.0);
    out.wounds.assign(shape.wounds_cells(), 0.0);
    for (int sa = 0; sa < shape.successes_attacker; ++sa) {
        for (int sd = 0; sd < shape.successes_defender; ++sd) {
            const double p = pa[sa] * pd[sd];
            out.successes[std::size_t(sa) * shape.successes_defender + sd] = p;
            const Wounds w = resolve(spec.rules, sa, sd, spec.attacker.wound_cap, spec.defender.wound_cap);
            out.wounds[std::size_t(w.to_defender) * shape.wounds_attacker + w.to_attacker] += p;
        }
    }
    return out;
}

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

#include "deathburgh/exact.hpp"

#include "deathburgh/pool.hpp"
#include "deathburgh/resolve.hpp"

namespace mh::deathburgh {

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

}  // namespace mh::deathburgh

// Deathburgh: the outcome of one combat (docs/rules/deathburgh.md §4).
#pragma once
#include <algorithm>

#include "deathburgh/config.hpp"

namespace mh::deathburgh {

struct Wounds {
    int to_defender;
    int to_attacker;
};

// The resolution of one combat (docs/rules/deathburgh.md §4): the single source of truth for the exact and
// the Monte Carlo engines. sA / sD are the attacker's and defender's successes (sD = 0 when the
// defender does not react); cap_a / cap_d are the most wounds each side may inflict.
inline Wounds resolve(const OutcomeRules& rules, int sA, int sD, int cap_a, int cap_d) {
    const bool alpha = rules.edition == Edition::alpha;
    // An alpha draw costs each side 1 wound; draw="scored" ignores a 0-0 draw.
    const bool draw = alpha && sA == sD && (rules.draw_at_zero || sA > 0);
    int to_defender = 0;
    int to_attacker = 0;
    switch (rules.reaction) {
        case Reaction::none:
            to_defender = sA;  // DB-12: every attacker success wounds
            break;
        case Reaction::attack:
            if (!alpha) {  // web: opposed attacks wound simultaneously with all successes (DB-1)
                to_defender = sA;
                to_attacker = sD;
            } else if (sA > sD) {  // alpha: only the difference wounds
                to_defender = sA - sD;
            } else if (sD > sA) {
                to_attacker = sD - sA;
            } else if (draw) {
                to_defender = to_attacker = 1;
            }
            break;
        case Reaction::dodge:
            if (sA > sD) {  // each dodge success parries one attack success
                to_defender = sA - sD;
            } else if (sD > sA) {  // web only: excess parries wound back between same roles
                if (!alpha && rules.same_role) to_attacker = sD - sA;
            } else if (draw && rules.draw_in_dodge) {
                to_defender = to_attacker = 1;
            }
            break;
    }
    return {std::min(to_defender, cap_a), std::min(to_attacker, cap_d)};
}

}  // namespace mh::deathburgh

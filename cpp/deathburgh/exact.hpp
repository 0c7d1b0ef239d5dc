// Deathburgh: the exact engine of one combat (docs/rules/deathburgh.md §4): each pool by
// convolution, their outer product (the rolls are independent), resolve() per cell.
#pragma once
#include <vector>

#include "deathburgh/config.hpp"
#include "deathburgh/layout.hpp"

namespace mh::deathburgh {

struct ExactCombat {
    CombatShape shape;
    std::vector<double> successes_attacker;  // P(sA), from the pool alone
    std::vector<double> successes_defender;  // P(sD)
    std::vector<double> successes;  // P(sA, sD), row-major [sA][sD]
    std::vector<double> wounds;     // P(to defender, to attacker), row-major
};

// Exact: each pool by convolution, their outer product (the rolls are independent), resolve() per cell.
ExactCombat combat_exact(const CombatSpec& spec);

}  // namespace mh::deathburgh

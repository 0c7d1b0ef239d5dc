// One combat between two miniatures (docs/rules/deathburgh.md §4 and §7): exact and Monte Carlo engines,
// both built on resolve() from rules.hpp.
#pragma once
#include <cstdint>
#include <vector>

#include "deathburgh/rules.hpp"

namespace mh::deathburgh {

struct CombatSpec {
    PoolSpec attacker;
    PoolSpec defender;  // a defender that does not react has auto_hits = 0 (it rolls nothing)
    OutcomeRules rules;
};

// Sizes of the two grids every engine reports: successes (attacker x defender) and inflicted
// wounds (to defender x to attacker).
struct CombatShape {
    int successes_attacker;  // rows of the successes grid (max + 1)
    int successes_defender;
    int wounds_defender;     // rows of the wounds grid (max + 1)
    int wounds_attacker;
    std::size_t successes_cells() const { return std::size_t(successes_attacker) * successes_defender; }
    std::size_t wounds_cells() const { return std::size_t(wounds_defender) * wounds_attacker; }
};

CombatShape combat_shape(const CombatSpec& spec);

struct ExactCombat {
    CombatShape shape;
    std::vector<double> successes_attacker;  // P(sA), from the pool alone
    std::vector<double> successes_defender;  // P(sD)
    std::vector<double> successes;  // P(sA, sD), row-major [sA][sD]
    std::vector<double> wounds;     // P(to defender, to attacker), row-major
};

// Exact: each pool by convolution, their outer product (the rolls are independent), resolve() per cell.
ExactCombat combat_exact(const CombatSpec& spec);

// Monte Carlo counts for chunks [chunk_begin, chunk_end) of a run of `total` combats: the
// successes grid followed by the wounds grid (sizes from combat_shape). Call without the GIL.
std::vector<uint64_t> combat_monte_carlo(const CombatSpec& spec, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                         uint64_t chunk_end, int threads);

}  // namespace mh::deathburgh

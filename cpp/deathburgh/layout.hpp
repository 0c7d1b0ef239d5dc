// Deathburgh: where each outcome lives in the arrays both engines return.
#pragma once
#include <cstddef>

#include "deathburgh/config.hpp"
#include "deathburgh/pool.hpp"

namespace mh::deathburgh {

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

inline CombatShape combat_shape(const CombatSpec& spec) {
    return {max_successes(spec.attacker) + 1, max_successes(spec.defender) + 1,
            max_wounds_inflicted(spec.attacker) + 1, max_wounds_inflicted(spec.defender) + 1};
}

// Layout of both engines' results: for each miniature, its wounds left 0..start (start + 1 bins),
// in order; then one bin per combat for it being fought (Monte Carlo: counts of samples; exact:
// probabilities).
inline std::size_t round_bins(const RoundSpec& spec) {
    std::size_t bins = spec.combats.size();
    for (int w : spec.start_wounds) bins += std::size_t(w) + 1;
    return bins;
}

}  // namespace mh::deathburgh

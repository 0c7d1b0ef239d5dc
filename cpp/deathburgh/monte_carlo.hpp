// Deathburgh: the Monte Carlo engine of one combat (docs/rules/deathburgh.md §4): both pools rolled,
// resolve() on the successes.
#pragma once
#include <cstdint>
#include <vector>

#include "deathburgh/config.hpp"

namespace mh::deathburgh {

// Monte Carlo counts for chunks [chunk_begin, chunk_end) of a run of `total` combats: the
// successes grid followed by the wounds grid (sizes from combat_shape). Call without the GIL.
std::vector<uint64_t> combat_monte_carlo(const CombatSpec& spec, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                         uint64_t chunk_end, int threads);

}  // namespace mh::deathburgh

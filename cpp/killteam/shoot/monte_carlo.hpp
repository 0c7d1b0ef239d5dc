// The Monte Carlo shooting engine (docs/rules/killteam.md §2): real dice for the attack, the
// defence, the relic and Feel No Pain, resolved by resolve.hpp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "killteam/shoot/config.hpp"

namespace mh::kt {

// The Monte Carlo engine: histogram of [total damage (rounds * max_attack_damage + 1 bins),
// retained attack dice (kTableSide^2 bins, every round counted), retained saves (kSaveSide^2 bins),
// with Hot the shooter's own damage over all rounds (self_damage_bins bins)].
std::size_t shoot_histogram_bins(const ShootConfig& cfg);
std::vector<uint64_t> shoot_monte_carlo(const ShootConfig& cfg, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                        uint64_t chunk_end, int threads);

}  // namespace mh::kt

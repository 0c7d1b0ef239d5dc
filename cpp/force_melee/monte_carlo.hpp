// Force melee: the Monte Carlo engines (docs/rules/force_melee.md §2, §3): each side's dice rolled
// (hit_roll.hpp), resolve_exchange() on the rolls.
#pragma once
#include <cstdint>
#include <vector>

#include "force_melee/config.hpp"

namespace mh::force_melee {

// Monte Carlo counts for chunks [chunk_begin, chunk_end) of a run of `total` exchanges.
std::vector<uint64_t> exchange_sample(const ExchangeConfig& config, uint64_t seed, uint64_t total,
                                      uint64_t chunk_begin, uint64_t chunk_end, int threads);

// Monte Carlo counts for chunks [chunk_begin, chunk_end) of a run of `total` melees.
std::vector<uint64_t> melee_sample(const MeleeConfig& config, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                   uint64_t chunk_end, int threads);

}  // namespace mh::force_melee

// The Monte Carlo engine: roll_batch on random dice, counted into the layouts of layout.hpp.
#pragma once
#include <cstdint>
#include <vector>

#include "starcraft/config.hpp"

namespace mh::starcraft {

// Monte Carlo counts for chunks [chunk_begin, chunk_end) of a run of `total` samples.
std::vector<uint64_t> sample_attack(const BatchConfig& c, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                    uint64_t chunk_end, int threads);
std::vector<uint64_t> sample_sequence(const UnitProfile& unit, const UnitState& start,
                                      const std::vector<BatchConfig>& batches, uint64_t seed, uint64_t total,
                                      uint64_t chunk_begin, uint64_t chunk_end, int threads);

}  // namespace mh::starcraft

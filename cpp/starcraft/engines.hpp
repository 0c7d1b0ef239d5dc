// The two engines over roll_batch's stages: exact (nested conditioning) and Monte Carlo.
#pragma once
#include <cstdint>
#include <vector>

#include "starcraft/batch.hpp"
#include "starcraft/layout.hpp"

namespace mh::starcraft {

// Probabilities of every stage of one batch, laid out by attack_layout.
std::vector<double> exact_attack(const BatchConfig& c);

// Probabilities of a sequence of batches, laid out by sequence_layout. Returns an empty vector when
// the propagation would take more than max_work steps (the caller then samples instead).
std::vector<double> exact_sequence(const UnitProfile& unit, const UnitState& start,
                                   const std::vector<BatchConfig>& batches, double max_work);

// Monte Carlo counts for chunks [chunk_begin, chunk_end) of a run of `total` samples.
std::vector<uint64_t> sample_attack(const BatchConfig& c, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                    uint64_t chunk_end, int threads);
std::vector<uint64_t> sample_sequence(const UnitProfile& unit, const UnitState& start,
                                      const std::vector<BatchConfig>& batches, uint64_t seed, uint64_t total,
                                      uint64_t chunk_begin, uint64_t chunk_end, int threads);

}  // namespace mh::starcraft

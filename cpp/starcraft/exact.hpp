// The exact engine over roll_batch's stages (docs/rules/starcraft.md §7): nested conditioning.
#pragma once
#include <vector>

#include "starcraft/config.hpp"

namespace mh::starcraft {

// Probabilities of every stage of one batch, laid out by attack_layout.
std::vector<double> exact_attack(const BatchConfig& c);

// Probabilities of a sequence of batches, laid out by sequence_layout. Returns an empty vector when
// the propagation would take more than max_work steps (the caller then samples instead).
std::vector<double> exact_sequence(const UnitProfile& unit, const UnitState& start,
                                   const std::vector<BatchConfig>& batches, double max_work);

}  // namespace mh::starcraft

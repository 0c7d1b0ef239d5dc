// The exact engine over roll_batch's stages (docs/rules/starcraft.md §7): nested conditioning.
#pragma once
#include <vector>

#include "starcraft/attack_tables.hpp"
#include "starcraft/config.hpp"

namespace mh::starcraft {

// Probabilities of every stage of one batch, laid out by attack_layout.
std::vector<double> exact_attack(const BatchConfig& c);

// One exact attack shaped for its result (attack_tables over exact_attack): what sc.attack and
// sc.attack_batch read.
AttackTables exact_attack_tables(const AttackCase& a);

// Probabilities of a sequence of batches, laid out by sequence_layout. Returns an empty vector when
// the propagation would take more than max_work steps (the caller then samples instead).
std::vector<double> exact_sequence(const UnitProfile& unit, const UnitState& start,
                                   const std::vector<BatchConfig>& batches, double max_work);

}  // namespace mh::starcraft

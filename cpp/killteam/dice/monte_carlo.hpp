// Attack dice rolled (docs/rules/killteam.md §8.1): one random roll, and the Monte Carlo histogram
// of the retained dice.
#pragma once
#include <cstdint>
#include <vector>

#include "core/dice.hpp"
#include "killteam/dice/config.hpp"

namespace mh::kt {

// One random roll (Monte Carlo).
Retained roll_attack(const AttackProfile& p, DiceSource& dice);

// Monte Carlo histogram of retained (crits, norms), flattened like RetainedTable, for chunks
// [chunk_begin, chunk_end) of a run of `total` rolls.
std::vector<uint64_t> attack_dice_counts(const AttackProfile& p, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                         uint64_t chunk_end, int threads);

}  // namespace mh::kt

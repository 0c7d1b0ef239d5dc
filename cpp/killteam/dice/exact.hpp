// The exact distribution of one pool's retained attack dice (docs/rules/killteam.md §8.1): every
// first roll and every reroll enumerated by face groups, each resolved by finish_roll.
#pragma once
#include "killteam/dice/config.hpp"

namespace mh::kt {

// The exact distribution of the retained dice.
RetainedTable attack_distribution(const AttackProfile& p);

}  // namespace mh::kt

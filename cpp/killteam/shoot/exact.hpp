// The exact shooting engine (docs/rules/killteam.md §2): every retained attack x every retained save,
// resolved by resolve.hpp; Saintly Relics and Feel No Pain expanded as exact branches.
#pragma once
#include <array>
#include <vector>

#include "killteam/dice/config.hpp"
#include "killteam/shoot/config.hpp"

namespace mh::kt {

// The exact engine: distributions of total damage over all rounds and of the intermediate dice.
struct ShootExact {
    std::vector<double> damage;                           // P(total damage = i), i = 0..max
    RetainedTable attack{};                               // P(crits, norms) retained by the attacker
    std::array<double, kSaveSide * kSaveSide> saves{};    // P(crit saves, normal saves) per attack
};
ShootExact shoot_exact(const ShootConfig& cfg);

}  // namespace mh::kt

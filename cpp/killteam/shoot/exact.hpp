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
    std::vector<double> self_damage;  // Hot: P(the shooter takes i over all rounds); empty without Hot
};
ShootExact shoot_exact(const ShootConfig& cfg);

// The exact shot as kt.shoot's result holds it: the damage pmf without its trailing zeros (it
// always has some mass), the attack table cut to the weapon's dice, and the saves table.
struct ShotTables {
    std::vector<double> damage;
    int side = 1;                // the attack table is side x side: crits and norms 0..dice
    std::vector<double> attack;  // P(crits, norms), [crits * side + norms]
    std::array<double, kSaveSide * kSaveSide> saves{};
    std::vector<double> self_damage;  // as ShootExact's, without its trailing zeros (empty without Hot)
};
ShotTables shot_tables(const ShootExact& exact, int dice);

// shoot_exact shaped by shot_tables: what kt.shoot and kt.shoot_batch read.
ShotTables exact_shot_tables(const ShootConfig& cfg);

}  // namespace mh::kt

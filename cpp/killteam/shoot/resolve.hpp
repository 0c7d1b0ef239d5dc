// Kill Team 2024 shooting (docs/rules/killteam.md §2): the resolution of one attack once the dice are retained.
//
// The steps run in the order of §2: Devastating, blocks, Just a Scratch, Saintly Relics, Durable,
// damage, Feel No Pain; the target's defences of §2.3 change the weapon they act on, and Hot (§2.2)
// the shooter. The deterministic steps (blocks and Just a Scratch) and the damage count
// given the chance outcomes (which die the relic ignores) live here; the exact engine (exact.cpp)
// takes expectations over the chance steps, the Monte Carlo engine (monte_carlo.cpp) rolls them.
// Both call these functions and nothing else to resolve.
#pragma once
#include <cstdint>

#include "killteam/dice/config.hpp"
#include "killteam/shoot/config.hpp"

namespace mh::kt {

// Most damage one attack can inflict, Devastating included.
int max_attack_damage(const ShootConfig& cfg);

// The weapon against this target (§2.3): the attack dice it rolls (the target's Ignore Lethal,
// Ignore Rending, Ignore Severe applied) and what a normal / critical success inflicts (Crits as
// Normal Dmg, Reduce Normal Dmg, Reduce Dmg applied). Every step below reads the damage so.
AttackProfile attack_against(const ShootConfig& cfg);
int normal_damage_against(const ShootConfig& cfg);
int critical_damage_against(const ShootConfig& cfg);

// Step 1: the defence dice rolled against these retained hits (Piercing / Piercing Crits, less the
// target's Ignore Piercing / Worsen Piercing).
int defence_dice(const ShootConfig& cfg, const Retained& hits);

// Steps 2-3: the defence dice as an attack-dice profile (crits on 6, cover saves as Accurate).
AttackProfile defence_profile(const ShootConfig& cfg, int dice);

// Steps 5-6: the defender's block allocation and Just a Scratch.
struct Blocks {
    Retained blocked;    // attack dice cancelled by saves
    Retained unblocked;  // attack dice left after blocks and Just a Scratch
    int hit_damage = 0;  // what `unblocked` deals after Durable, before relics and Feel No Pain
};
Blocks allocate_blocks(const ShootConfig& cfg, const Retained& hits, const Retained& saves);

// Step 6 alone: Just a Scratch (either kind, or both) on the dice left after blocks.
Retained just_a_scratch(const ShootConfig& cfg, Retained hits);

// Steps 7-8 for the hits alone: damage of the surviving crits and norms, Durable applied.
int hit_damage(const ShootConfig& cfg, const Retained& hits);

// Step 9: the groups of damaging dice in the order the relic tries them (highest damage first,
// Durable taken into account; crits before norms on equal damage). Dice dealing 0 are never tried.
enum class RelicPick : uint8_t { None, Crit, Norm };
struct RelicOrder {
    int groups = 0;
    RelicPick kind[2] = {RelicPick::None, RelicPick::None};
    int count[2] = {0, 0};
};
RelicOrder relic_order(const ShootConfig& cfg, const Retained& unblocked);

// P(one relic attempt ignores the die): any 6 on 1D6 or 2D6.
double relic_chance(int mode);

// Steps 4, 7, 8 given the relic outcome: total damage before Feel No Pain and the number of Feel No
// Pain rolls: per damage instance, each damaging surviving hit and each crit's Devastating damage
// (each success takes 1 off its own instance); per hit (the reference), each surviving hit, and each
// other retained crit when there is Devastating (each success takes 1 off the attack's total).
struct AttackDamage {
    int damage = 0;
    int instances = 0;
};
AttackDamage attack_damage(const ShootConfig& cfg, int retained_crits, Retained unblocked, RelicPick ignored);

// Hot (§2.2): after each round the shooter rolls one D6; a roll below the weapon's Hit inflicts
// twice the roll on the shooter (no Feel No Pain). The damage of `roll` (0 without Hot).
constexpr int kMaxHotDamage = 10;  // 2 x 5, the most a roll below 6+ inflicts
int hot_damage(const ShootConfig& cfg, int roll);
// Bins of a distribution of the shooter's damage over all rounds: 0 without Hot.
int self_damage_bins(const ShootConfig& cfg);

}  // namespace mh::kt

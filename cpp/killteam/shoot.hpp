// Kill Team 2024 shooting (docs/rules/killteam.md §2): the resolution of one attack once the dice are retained.
//
// The steps run in the order of §2: Devastating, blocks, Just a Scratch, Saintly Relics, Durable,
// damage, Feel No Pain. The deterministic steps (blocks and Just a Scratch) and the damage count
// given the chance outcomes (which die the relic ignores) live here; the exact engine
// (shoot_exact.cpp) takes expectations over the chance steps, the Monte Carlo engine
// (shoot_monte_carlo.cpp) rolls them. Both call these functions and nothing else to resolve.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "killteam/attack_dice.hpp"

namespace mh::kt {

constexpr int kDefenceDice = 3;
constexpr int kMaxRounds = 9;
constexpr int kSaveSide = kDefenceDice + 1;  // saves tables are [crit saves * 4 + normal saves]

// The reference calculator's readings of shooting (docs/rules/killteam.md §8.5); the first value is the default.
enum class BlockRule : uint8_t { Optimal = 0, Greedy = 1 };
enum class ScratchTiming : uint8_t { AfterBlocks = 0, BeforeBlocks = 1 };
enum class FnpRule : uint8_t { PerDamageInstance = 0, PerHit = 1 };

// Everything one shot needs, already validated (ranges of docs/rules/killteam.md §5).
struct ShootConfig {
    AttackProfile attack;       // the weapon's attack dice, obscured target included
    int normal_damage = 3;      // dn
    int critical_damage = 4;    // dc
    int devastating = 0;        // per retained crit, blocked or not
    int piercing = 0;           // defence dice removed
    int piercing_crits = 0;     // defence dice removed when at least one crit was retained
    bool saturate = false;      // no cover saves
    int save = 3;               // defence dice succeed on save+, crit on 6
    int cover = 0;              // cover saves retained as normal saves (0 = not in cover)
    int cover_crits = 0;        // cover saves retained as crit saves, taken before `cover`
    int hardy = 0;              // 0: crit saves on 6; x: on max(x, save)
    Reroll save_reroll = Reroll::None;
    bool defender_punishing = false;
    bool indomitus = false;     // Purity Seal on the save dice
    int save_fails_to_norms = 0;
    int save_norms_to_crits = 0;
    Ones ones = Ones::UnmodifiedOnes;  // Indomitus' reading (Purity Seal's is in `attack`)
    BlockRule blocks = BlockRule::Optimal;
    ScratchTiming scratch = ScratchTiming::AfterBlocks;
    FnpRule fnp = FnpRule::PerDamageInstance;
    bool just_a_scratch = false;          // cancel one unblocked die, a crit if any
    bool just_a_scratch_normals = false;  // cancel one unblocked normal hit
    bool durable = false;                 // the first damaging crit deals 1 less (if more than 3)
    int feel_no_pain = 0;                 // 0: none; x: each roll of x+ removes 1 from an instance
    int saintly_relics = 0;               // 0: none; 1: 1D6; 2: 2D6 (INSPIRING)
    int rounds = 1;                       // independent attacks; the relic cap spans them
};

// Most damage one attack can inflict, Devastating included.
int max_attack_damage(const ShootConfig& cfg);

// Step 1: the defence dice rolled against these retained hits (Piercing / Piercing Crits).
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

// The exact engine: distributions of total damage over all rounds and of the intermediate dice.
struct ShootExact {
    std::vector<double> damage;                           // P(total damage = i), i = 0..max
    RetainedTable attack{};                               // P(crits, norms) retained by the attacker
    std::array<double, kSaveSide * kSaveSide> saves{};    // P(crit saves, normal saves) per attack
};
ShootExact shoot_exact(const ShootConfig& cfg);

// The Monte Carlo engine: histogram of [total damage (rounds * max_attack_damage + 1 bins),
// retained attack dice (kTableSide^2 bins, every round counted), retained saves (kSaveSide^2 bins)].
std::size_t shoot_histogram_bins(const ShootConfig& cfg);
std::vector<uint64_t> shoot_monte_carlo(const ShootConfig& cfg, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                        uint64_t chunk_end, int threads);

}  // namespace mh::kt

// Kill Team 2024 attack dice (docs/rules/killteam.md §1, §8.1): the profile of one pool of attack
// dice and what it retains.
//
// Defence dice reuse the same profile (§8.2: crit saves on 6 or Hardy, cover crit saves and cover
// saves retained like auto crits and Accurate norms, Indomitus as Purity Seal).
#pragma once
#include <array>
#include <cstdint>

namespace mh::kt {

constexpr int kMaxDice = 12;
constexpr int kTableSide = kMaxDice + 1;

enum class Reroll : uint8_t {
    None,
    Balanced,               // one fail
    DoubleBalanced,         // up to two fails
    Ceaseless,              // every die showing the most common fail face
    CeaselessBalanced,      // Ceaseless, then one fail not rerolled yet
    Relentless,             // every fail
    RelentlessCritFishing,  // every non-crit, norms included
    RerollOnes,             // every 1
    RerollOnesBalanced,     // every 1, then one fail not rerolled yet
};

// Which norms an upgrade (Waaagh, Norms to Crits, Mystic Scry) takes (docs/rules/killteam.md §8.5 `upgrades`):
// Accurate norms first, keeping rolled norms for Rending (the default), or rolled norms first (the reference).
enum class Upgrades : uint8_t { AccurateFirst = 0, RolledFirst = 1 };

// What Purity Seal / Indomitus count (docs/rules/killteam.md §8.5 `ones`): rolled dice showing an unmodified 1
// after rerolls (the default), or any two fails (the reference).
enum class Ones : uint8_t { UnmodifiedOnes = 0, AnyTwoFails = 1 };

struct AttackProfile {
    int dice = 4;             // dice in the pool, auto-retained ones included (0..12)
    int hit = 3;              // success on hit+ (2..6)
    int crit = 6;             // crit on crit+; Lethal x → max(x, hit); Hardy x+ for defence
    int auto_crits = 0;       // dice retained as crits without rolling (cover crit saves for defence)
    int accurate = 0;         // dice retained as norms without rolling (cover saves for defence)
    Reroll reroll = Reroll::None;
    bool punishing = false;   // a crit and a fail: one fail becomes a norm
    bool purity_seal = false; // two 1s (or fails): one discarded, one becomes a norm (Indomitus for defence)
    bool close_assault = false;  // two successes and a fail: one fail becomes a norm
    bool waaagh = false;      // two norms: one becomes a crit
    bool severe = false;      // no crit: one norm becomes a crit (then no Rending)
    bool rending = false;     // a crit: one rolled norm becomes a crit
    bool mystic_scry = false; // the best of: a norm becomes a crit, a fail becomes a norm, nothing
    int scry_crit_value = 0;  // what Mystic Scry scores a crit at (dc + Devastating; dc in a fight)
    int scry_norm_value = 0;  // what Mystic Scry scores a norm at (dn)
    int fails_to_norms = 0;
    int norms_to_crits = 0;
    bool obscured = false;    // crits become norms, then one success is discarded
    Upgrades upgrades = Upgrades::AccurateFirst;
    Ones ones = Ones::UnmodifiedOnes;
};

struct Retained {
    int crits = 0;
    int norms = 0;
};

// Probability of each retained result: table[crits * kTableSide + norms].
using RetainedTable = std::array<double, kTableSide * kTableSide>;

}  // namespace mh::kt

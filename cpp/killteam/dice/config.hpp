// Kill Team 2024 attack dice (docs/rules/killteam.md §1, §8.1): the profile of one pool of attack
// dice and what it retains.
//
// Defence dice reuse the same profile (§8.2: crit saves on 6 or Hardy, cover crit saves and cover
// saves retained like auto crits and Accurate norms, Indomitus as Purity Seal).
#pragma once
#include <array>
#include <cstdint>

#include "core/fields.hpp"

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

// What reads each field of Kill Team's configs (core/fields.hpp): one bit per reader.
namespace tags {
constexpr unsigned kDiceTable = 1u << 0;  // the attack-dice table caches: exact.cpp's and the plan's
constexpr unsigned kWeapon = 1u << 1;     // a shot's weapon half (shoot_config_join)
constexpr unsigned kTarget = 1u << 2;     // a shot's target half (shoot_config_join)
constexpr unsigned kSituation = 1u << 3;  // a shot's situation, given to shoot_config_join apart
constexpr unsigned kBlocks = 1u << 4;     // the blocks tables' key (shoot/exact.cpp BlocksCache)
constexpr unsigned kDecisions = 1u << 5;  // the fight decisions' key (fight/exact.cpp DecisionPool)
}  // namespace tags

// The tags' names, as the bindings expose them (FIELD_TAGS).
struct TagName {
    unsigned tag;
    const char* name;
};
constexpr TagName kTagNames[] = {{tags::kDiceTable, "dice_table"}, {tags::kWeapon, "weapon"},
                                 {tags::kTarget, "target"},        {tags::kSituation, "situation"},
                                 {tags::kBlocks, "blocks"},        {tags::kDecisions, "decisions"}};

// The profile of one pool of dice: X(type, name, default, tags), one line per field.
#define MH_KT_ATTACK_PROFILE_FIELDS(X)                                                                              \
    X(int, dice, 4, tags::kDiceTable)     /* dice in the pool, auto-retained ones included (0..12) */             \
    X(int, hit, 3, tags::kDiceTable)      /* success on hit+ (2..6) */                                            \
    X(int, crit, 6, tags::kDiceTable)     /* crit on crit+; Lethal x: max(x, hit); Hardy x+ for defence */         \
    X(int, auto_crits, 0, tags::kDiceTable) /* retained as crits without rolling (cover crit saves for defence) */ \
    X(int, accurate, 0, tags::kDiceTable) /* retained as norms without rolling (cover saves for defence) */       \
    X(Reroll, reroll, Reroll::None, tags::kDiceTable)                                                             \
    X(bool, punishing, false, tags::kDiceTable)     /* a crit and a fail: one fail becomes a norm */              \
    X(bool, purity_seal, false, tags::kDiceTable)   /* two 1s (or fails): one discarded, one a norm (Indomitus) */ \
    X(bool, close_assault, false, tags::kDiceTable) /* two successes and a fail: one fail becomes a norm */       \
    X(bool, waaagh, false, tags::kDiceTable)        /* two norms: one becomes a crit */                           \
    X(bool, severe, false, tags::kDiceTable)        /* no crit: one norm becomes a crit (then no Rending) */      \
    X(bool, rending, false, tags::kDiceTable)       /* a crit: one rolled norm becomes a crit */                  \
    X(bool, mystic_scry, false, tags::kDiceTable)   /* the best of: norm to crit, fail to norm, nothing */        \
    X(int, scry_crit_value, 0, tags::kDiceTable)    /* Mystic Scry's crit value (dc + Devastating; dc in a fight) */ \
    X(int, scry_norm_value, 0, tags::kDiceTable)    /* Mystic Scry's norm value (dn) */                           \
    X(int, fails_to_norms, 0, tags::kDiceTable)                                                                   \
    X(int, norms_to_crits, 0, tags::kDiceTable)                                                                   \
    X(bool, obscured, false, tags::kDiceTable)      /* crits become norms, then one success is discarded */       \
    X(Upgrades, upgrades, Upgrades::AccurateFirst, tags::kDiceTable)                                              \
    X(Ones, ones, Ones::UnmodifiedOnes, tags::kDiceTable)

struct AttackProfile {
    MH_DECLARE_FIELDS(AttackProfile, MH_KT_ATTACK_PROFILE_FIELDS)
};

// The key of the attack-dice table caches: every field tagged kDiceTable.
inline auto dice_table_key(const AttackProfile& p) { return fields::key_of<tags::kDiceTable>(p); }

struct Retained {
    int crits = 0;
    int norms = 0;
};

// Probability of each retained result: table[crits * kTableSide + norms].
using RetainedTable = std::array<double, kTableSide * kTableSide>;

}  // namespace mh::kt

// Force melee: the profile and switch values the C++ engine works with.
//
// Python validates every field (docs/rules/force_melee.md §7) and turns profiles into these plain structs;
// the engine assumes them valid and in range.
#pragma once
#include <cstdint>

namespace mh::force_melee {

// Ranges from docs/rules/force_melee.md §7; array sizes below rely on them.
constexpr int kMaxDice = 40;
constexpr int kMaxModels = 30;
constexpr int kMaxHp = 30;
constexpr int kMaxUnits = 8;
constexpr int kMaxPairs = 16;

enum class Reroll : int { none = 0, fails = 1, ones = 2 };
enum class WinnerDamage : int { once = 0, excess = 1, per_hit = 2, pairing = 3 };
enum class Allocation : int { spill = 0, no_spill = 1 };
enum class SustainedMode : int { bonus = 0, extra_hits = 1 };

// One side of one exchange: its weapon, already reduced to what the dice and the damage need.
struct SideConfig {
    int dice = 0;             // dice rolled in this exchange, 0..40
    int target = 4;           // final hit target, clamp(hit - hit_mod, 2, 6)
    int crit_face = 6;        // max(crit, target): natural faces from here up are crits
    Reroll reroll = Reroll::none;
    int force = 0;            // the weapon's Force (damage value)
    int sustained = 0;        // Sustained Damage X
    int critical_damage = 0;  // Critical Damage X
    int bonus_flat = 0;       // flat bonus damage
};

// The switches of docs/rules/force_melee.md §4 that change the exchange itself.
struct ExchangeRules {
    WinnerDamage winner_damage = WinnerDamage::once;
    SustainedMode sustained_mode = SustainedMode::bonus;
    bool bonus_always = false;
};

// What a side's dice produced: natural hits (crits included) and, of those, crits.
struct SideRoll {
    int hits = 0;
    int crits = 0;
};

// The result of one exchange: the hits compared in step 2 and the damage each side takes.
struct ExchangeOutcome {
    int hits_a = 0;
    int hits_b = 0;
    int damage_to_a = 0;
    int damage_to_b = 0;
};

}  // namespace mh::force_melee

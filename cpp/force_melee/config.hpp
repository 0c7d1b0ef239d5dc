// Force melee: the typed configurations of one exchange and of a melee of several units
// (docs/rules/force_melee.md §2, §3), and the bounds the engines rely on.
//
// Python validates every field (docs/rules/force_melee.md §7) and turns profiles into these plain structs;
// the engine assumes them valid and in range.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

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

struct ExchangeConfig {
    SideConfig a;
    SideConfig b;
    ExchangeRules rules;
};

// A unit in allocation order (allocation.hpp make_unit): wounded models first.
struct UnitConfig {
    int models = 1;
    int hp = 1;
    std::array<int, kMaxModels> start{};  // starting HP per model, in allocation order

    // A unit's state histogram is a (models + 1) x (hp + 1) table, C order: rows are the models
    // removed, columns the HP of the first living model (state_index below).
    int removed_bins() const { return models + 1; }
    int front_hp_bins() const { return hp + 1; }
    std::size_t state_count() const { return static_cast<std::size_t>(removed_bins()) * front_hp_bins(); }
};

struct PairConfig {
    int first = 0;   // index of a unit
    int second = 0;  // index of the unit it is engaged with
    // exchange.a is `first` striking `second` (its dice assigned to it), exchange.b the reverse.
    ExchangeConfig exchange;
};

struct MeleeConfig {
    std::vector<UnitConfig> units;
    std::vector<PairConfig> pairs;
    Allocation allocation = Allocation::spill;
};

}  // namespace mh::force_melee

// StarCraft: Tabletop Miniatures Game: the step functions of one attack (docs/rules/starcraft.md §2).
//
// Both engines call these: the Monte Carlo engine on rolled dice, the exact engine on every
// value a stage can take.
#pragma once
#include <algorithm>

#include "starcraft/config.hpp"

namespace mh::starcraft {

// A +X modifier to a roll lowers the target number by X; a penalty raises it. Natural 1 always
// fails and natural 6 always succeeds, which is the same as clamping the target to 2..6.
inline int final_target(int base, int roll_mod, int penalty) { return std::clamp(base - roll_mod + penalty, 2, 6); }

// Chance that one d6 meets the target (any integer target; it is clamped first).
inline double p_success(int target) { return (7 - std::clamp(target, 2, 6)) / 6.0; }

// The Surge value a d6 face gives: D3 = ceil(face / 2), D3+1 = that + 1, D6 = the face.
inline int surge_value(SurgeKind kind, int face) {
    switch (kind) {
        case SurgeKind::d3: return (face + 1) / 2;
        case SurgeKind::d3_plus_1: return (face + 1) / 2 + 1;
        case SurgeKind::d6: return face;
        default: return 0;
    }
}

// Largest value surge_value can give for a die kind (the histogram size of the Surge stage).
inline int surge_max(SurgeKind kind, int fixed) {
    switch (kind) {
        case SurgeKind::d3: return 3;
        case SurgeKind::d3_plus_1: return 4;
        case SurgeKind::d6: return 6;
        case SurgeKind::fixed: return fixed;
        default: return 0;
    }
}

// PRECISION (X): up to X missed dice join the Armour Pool.
inline int precision_hits(int dice, int hits, int x) { return hits + std::min(x, dice - hits); }

// Surge and Critical Hit dice skip Armour: capped by the Armour Pool first, then one shared Dodge budget.
inline int bypass(int hits, int surge, int crit, int dodge) { return std::max(0, std::min(hits, surge + crit) - dodge); }

// TOUGH (X): up to X failed Armour results become successes.
inline int tough(int fails, int x) { return std::max(0, fails - x); }

// Damage per surviving die: a setter (Pierce, Aftershock, ...; -1 = none) replaces the weapon's
// damage, then a cap (Improved Barrier; -1 = none) limits it.
inline int damage_per_die(int base, int setter, int cap) {
    int damage = setter >= 0 ? setter : base;
    if (cap >= 0) damage = std::min(damage, cap);
    return damage;
}

}  // namespace mh::starcraft

// StarCraft: Tabletop Miniatures Game — the step functions of one attack (docs/rules/starcraft.md §2, §4).
//
// Both engines call these: the Monte Carlo engine on rolled dice, the exact engine on every
// value a stage can take. Inputs are validated in Python; nothing here checks ranges.
#pragma once
#include <algorithm>
#include <vector>

namespace mh::starcraft {

// A +X modifier to a roll lowers the target number by X; a penalty raises it. Natural 1 always
// fails and natural 6 always succeeds, which is the same as clamping the target to 2..6.
inline int final_target(int base, int roll_mod, int penalty) { return std::clamp(base - roll_mod + penalty, 2, 6); }

// Chance that one d6 meets the target (any integer target; it is clamped first).
inline double p_success(int target) { return (7 - std::clamp(target, 2, 6)) / 6.0; }

// How the Surge result is found. fixed is a template weapon: the number of affected models.
enum class SurgeKind : int { none = 0, d3 = 1, d3_plus_1 = 2, d6 = 3, fixed = 4 };

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

// ---- casualties and the Damage Marker (§4) ----------------------------------------------------

struct UnitProfile {
    int hp = 1;
    int shield = 0;
};

struct UnitState {
    int models = 1;  // models left
    int marker = 0;  // damage on the Damage Marker
    bool shielded = false;
    bool first_model_alive = true;  // the model that carries the Shield on top of its HP
};

struct AllocParams {
    int concentrated_fire = 0;  // 0: no CONCENTRATED FIRE
    int visible_models = -1;    // -1: every model is visible
    bool engaged = false;       // engaged units ignore the visible-model cap
    int td_reduction = 0;
    int td_floor = 0;
    bool leftover_lost = false;  // rules.leftover = "lost": never keep a Damage Marker
};

struct Allocation {
    UnitState state;
    int casualties = 0;
    bool destroyed = false;
    bool shield_lost = false;
};

inline Allocation allocate(const UnitProfile& unit, const UnitState& before, int attack_damage, const AllocParams& p) {
    Allocation out;
    out.state = before;
    out.destroyed = before.models == 0;
    if (attack_damage <= 0 || before.models == 0) return out;

    int total = std::max(p.td_floor, attack_damage + before.marker - p.td_reduction);
    total = std::max(total, 0);
    UnitState& s = out.state;
    if (s.shielded && total > unit.shield) s.shielded = false;

    int cap = s.models;
    if (!p.engaged && p.visible_models >= 0) cap = std::min(cap, p.visible_models);
    if (p.concentrated_fire > 0) cap = std::min(cap, p.concentrated_fire);

    while (out.casualties < cap) {
        const int need = s.first_model_alive ? unit.hp + unit.shield : unit.hp;
        if (total < need) break;
        total -= need;
        ++out.casualties;
        if (s.first_model_alive) {
            s.first_model_alive = false;
            s.shielded = false;
        }
    }
    s.models -= out.casualties;
    // Damage beyond the cap (every model, every visible model, the CONCENTRATED FIRE limit) is lost.
    s.marker = (out.casualties == cap || p.leftover_lost) ? 0 : total;
    out.destroyed = s.models == 0;
    out.shield_lost = before.shielded && !s.shielded;
    return out;
}

// Unit states as columns, one entry per state: the form numpy bins by.
struct StateColumns {
    std::vector<int> models, marker, shielded, first_model_alive;

    void push_back(const UnitState& s) {
        models.push_back(s.models);
        marker.push_back(s.marker);
        shielded.push_back(s.shielded);
        first_model_alive.push_back(s.first_model_alive);
    }
};

// allocate() for attack damage k * damage_per_die, k = 0..k_max: one batch's casualties, marker and
// state follow from the law of its inflicting dice through this table.
struct AllocationTable {
    std::vector<int> casualties;
    StateColumns state;
    std::vector<int> destroyed, shield_lost;
};

inline AllocationTable allocation_table(const UnitProfile& unit, const UnitState& before, const AllocParams& p,
                                        int damage_per_die, int k_max) {
    AllocationTable t;
    for (int k = 0; k <= k_max; ++k) {
        const Allocation a = allocate(unit, before, k * damage_per_die, p);
        t.casualties.push_back(a.casualties);
        t.state.push_back(a.state);
        t.destroyed.push_back(a.destroyed);
        t.shield_lost.push_back(a.shield_lost);
    }
    return t;
}

}  // namespace mh::starcraft

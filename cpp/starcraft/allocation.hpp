// StarCraft: Tabletop Miniatures Game: casualties and the Damage Marker (docs/rules/starcraft.md §4).
//
// allocate() is how one attack's damage lands on a unit; both engines and sc.resolve go through it.
#pragma once
#include <algorithm>
#include <vector>

#include "starcraft/config.hpp"

namespace mh::starcraft {

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

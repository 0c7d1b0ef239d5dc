// Damage allocation (docs/rules/force_melee.md §2 step 5, a stand-in for the unpublished allocation chapter).
//
// A lump of damage goes to a wounded model first, else to the first model in the owner's order;
// "spill" carries the excess on to the next model, "no_spill" loses it. Models are kept in
// allocation order (wounded first, then the owner's order), and damage only ever lands on the
// first living model, so a unit's state is (models removed, HP of the first living model): every
// model behind it still has its starting HP.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "force_melee/config.hpp"

namespace mh::force_melee {

struct UnitState {
    int removed = 0;  // models at 0 HP so far (they are the first `removed` in allocation order)
    int front_hp = 0; // HP of the first living model (0 when the unit is wiped)
    int lost = 0;     // damage that found no model to take it
};

// Wounded models first, each group in the owner's order (a stable partition).
inline UnitConfig make_unit(int models, int hp, const int* current) {
    UnitConfig unit;
    unit.models = models;
    unit.hp = hp;
    int n = 0;
    for (int i = 0; i < models; ++i)
        if (current[i] < hp) unit.start[n++] = current[i];
    for (int i = 0; i < models; ++i)
        if (current[i] >= hp) unit.start[n++] = current[i];
    return unit;
}

inline UnitState fresh_state(const UnitConfig& unit) { return UnitState{0, unit.start[0], 0}; }

inline void allocate(const UnitConfig& unit, UnitState& state, int damage, Allocation allocation) {
    if (damage <= 0) return;
    if (allocation == Allocation::no_spill) {
        if (state.removed == unit.models) {
            state.lost += damage;
            return;
        }
        const int taken = std::min(damage, state.front_hp);
        state.front_hp -= taken;
        state.lost += damage - taken;
        if (state.front_hp == 0 && ++state.removed < unit.models) state.front_hp = unit.start[state.removed];
        return;
    }
    while (damage > 0 && state.removed < unit.models) {
        const int taken = std::min(damage, state.front_hp);
        state.front_hp -= taken;
        damage -= taken;
        if (state.front_hp == 0 && ++state.removed < unit.models) state.front_hp = unit.start[state.removed];
    }
    state.lost += damage;
}

// HP of every living model, in allocation order (so a wounded model comes first).
inline std::vector<int> survivors(const UnitConfig& unit, const UnitState& state) {
    std::vector<int> alive;
    if (state.removed < unit.models) alive.push_back(state.front_hp);
    for (int i = state.removed + 1; i < unit.models; ++i) alive.push_back(unit.start[i]);
    return alive;
}

// Index of a state in a (models + 1) x (hp + 1) table: removed * (hp + 1) + front_hp.
inline int state_index(const UnitConfig& unit, const UnitState& state) {
    return state.removed * unit.front_hp_bins() + state.front_hp;
}

// One lump of each damage 0..max_damage on a fresh unit: the state index and models removed (a single
// exchange's casualties follow from its damage through this table).
struct AllocationTable {
    std::vector<int> state;
    std::vector<int> removed;
};

inline AllocationTable allocation_table(const UnitConfig& unit, int max_damage, Allocation allocation) {
    AllocationTable table;
    for (int damage = 0; damage <= max_damage; ++damage) {
        UnitState state = fresh_state(unit);
        allocate(unit, state, damage, allocation);
        table.state.push_back(state_index(unit, state));
        table.removed.push_back(state.removed);
    }
    return table;
}

// fm.allocate: lumps applied in order to a fresh unit.
struct AllocationOutcome {
    int removed = 0;
    std::vector<int> survivors;  // HP of every living model, in allocation order
    int lost = 0;
};

inline AllocationOutcome allocate_lumps(const UnitConfig& unit, const std::vector<int>& lumps, Allocation allocation) {
    UnitState state = fresh_state(unit);
    for (int lump : lumps) allocate(unit, state, lump, allocation);
    return AllocationOutcome{state.removed, survivors(unit, state), state.lost};
}

// Starting HP per model, in allocation order.
inline std::vector<int> start_hp(const UnitConfig& unit) {
    return std::vector<int>(unit.start.begin(), unit.start.begin() + unit.models);
}

}  // namespace mh::force_melee

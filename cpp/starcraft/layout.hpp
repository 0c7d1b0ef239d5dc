// Where each outcome lives in the flat arrays both engines return.
//
// The exact engine fills probabilities and the Monte Carlo engine fills counts into the same
// layout, so Python turns either into results with one piece of code.
#pragma once
#include <cstddef>
#include <vector>

#include "starcraft/allocation.hpp"
#include "starcraft/config.hpp"
#include "starcraft/steps.hpp"

namespace mh::starcraft {

// One attack: a histogram per stage.
struct AttackLayout {
    int dice = 0;
    int surge_max = 0;
    std::size_t hits = 0, surge = 0, bypass = 0, armour_fails = 0, damage_pool = 0, inflicting = 0, size = 0;
};

inline AttackLayout attack_layout(const BatchConfig& c) {
    AttackLayout l;
    l.dice = c.dice();
    l.surge_max = surge_max(c.surge_kind, c.surge_fixed);
    const std::size_t per_die = static_cast<std::size_t>(l.dice) + 1;
    std::size_t at = 0;
    l.hits = at, at += per_die;
    l.surge = at, at += static_cast<std::size_t>(l.surge_max) + 1;
    l.bypass = at, at += per_die;
    l.armour_fails = at, at += per_die;
    l.damage_pool = at, at += per_die;
    l.inflicting = at, at += per_die;
    l.size = at;
    return l;
}

// Several batches against one unit: the total damage, the final state, and per batch its damage,
// casualties, marker afterwards, and whether the unit was destroyed / lost Shielded in it.
struct BatchSlots {
    std::size_t damage = 0, damage_size = 0, casualties = 0, marker = 0, destroyed = 0, shield_lost = 0;
};

struct SequenceLayout {
    int models = 0;
    int marker_max = 0;
    std::size_t total_damage = 0, total_damage_size = 0;
    std::size_t state = 0, state_size = 0;
    std::vector<BatchSlots> batches;
    std::size_t size = 0;

    // A unit state as one index: models left, marker, Shielded, first model alive.
    std::size_t state_index(const UnitState& s) const {
        return ((static_cast<std::size_t>(s.models) * (marker_max + 1) + s.marker) * 2 + s.shielded) * 2 +
               s.first_model_alive;
    }
    UnitState state_at(std::size_t index) const {
        UnitState s;
        s.first_model_alive = index % 2;
        index /= 2;
        s.shielded = index % 2;
        index /= 2;
        s.marker = static_cast<int>(index % (marker_max + 1));
        s.models = static_cast<int>(index / (marker_max + 1));
        return s;
    }
    // Every state, in index order (what the state slot of the flat array holds).
    StateColumns states() const {
        StateColumns columns;
        for (std::size_t i = 0; i < state_size; ++i) columns.push_back(state_at(i));
        return columns;
    }
};

inline SequenceLayout sequence_layout(const UnitProfile& unit, const UnitState& start,
                                      const std::vector<BatchConfig>& batches) {
    SequenceLayout l;
    l.models = start.models;
    // A leftover marker is below what the next model needs; only the starting marker can be larger.
    l.marker_max = std::max(start.marker, unit.hp + unit.shield);
    const std::size_t models_size = static_cast<std::size_t>(l.models) + 1;
    const std::size_t marker_size = static_cast<std::size_t>(l.marker_max) + 1;
    std::size_t at = 0;
    std::size_t total_max = 0;
    for (const auto& b : batches) total_max += static_cast<std::size_t>(b.dice()) * b.damage_per_die;
    l.total_damage = at, l.total_damage_size = total_max + 1, at += l.total_damage_size;
    l.state = at, l.state_size = models_size * marker_size * 4, at += l.state_size;
    for (const auto& b : batches) {
        BatchSlots s;
        s.damage = at, s.damage_size = static_cast<std::size_t>(b.dice()) * b.damage_per_die + 1, at += s.damage_size;
        s.casualties = at, at += models_size;
        s.marker = at, at += marker_size;
        s.destroyed = at++;
        s.shield_lost = at++;
        l.batches.push_back(s);
    }
    l.size = at;
    return l;
}

}  // namespace mh::starcraft

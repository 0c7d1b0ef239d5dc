// Several units in one melee (docs/rules/force_melee.md §3): engaged pairs, each one exchange with the dice
// each unit assigned to that enemy. Exchanges are independent and use the state before the melee;
// the damage of each exchange is one lump per unit, applied in the order the pairs are listed.
// Both engines (melee_exact in exact.cpp, melee_sample in monte_carlo.cpp) go through these.
#pragma once
#include <array>
#include <cstddef>

#include "force_melee/allocation.hpp"
#include "force_melee/config.hpp"
#include "force_melee/layout.hpp"

namespace mh::force_melee {

// What the melee did to every unit: damage taken and allocation state, updated lump by lump.
struct MeleeState {
    std::array<int, kMaxUnits> damage{};
    std::array<UnitState, kMaxUnits> units{};
};

inline MeleeState fresh_melee(const MeleeConfig& config) {
    MeleeState state;
    for (std::size_t u = 0; u < config.units.size(); ++u) state.units[u] = fresh_state(config.units[u]);
    return state;
}

// One exchange's lumps, in pair order: the first unit's, then the second's (different units).
inline void apply_exchange(const MeleeConfig& config, const PairConfig& pair, int to_first, int to_second,
                           MeleeState& state) {
    state.damage[pair.first] += to_first;
    state.damage[pair.second] += to_second;
    allocate(config.units[pair.first], state.units[pair.first], to_first, config.allocation);
    allocate(config.units[pair.second], state.units[pair.second], to_second, config.allocation);
}

// The per-unit and per-pair bins of a finished melee.
template <class Weight, class Sink>
void record_units(const MeleeConfig& config, const MeleeLayout& layout, const MeleeState& state, Weight w, Sink* out) {
    for (std::size_t u = 0; u < config.units.size(); ++u) {
        out[layout.damage_offset[u] + state.damage[u]] += w;
        out[layout.state_offset[u] + state_index(config.units[u], state.units[u])] += w;
    }
    for (std::size_t k = 0; k < config.pairs.size(); ++k) {
        const PairConfig& pair = config.pairs[k];
        const std::size_t cell = static_cast<std::size_t>(state.units[pair.first].removed) *
                                     (config.units[pair.second].models + 1) +
                                 state.units[pair.second].removed;
        out[layout.casualties_offset[k] + cell] += w;
    }
}

}  // namespace mh::force_melee

// sc.resolve: one batch on scripted d6 faces, then its allocation (docs/rules/starcraft.md §7).
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "starcraft/allocation.hpp"
#include "starcraft/config.hpp"
#include "starcraft/resolve.hpp"

namespace mh::starcraft {

// A list of faces consumed in order, or one face for every die.
class ScriptedDice {
public:
    ScriptedDice(const std::vector<int>& faces, int every_face) : faces_(faces), every_face_(every_face) {}
    // Throws std::invalid_argument (a ValueError in Python) when the list runs out.
    int d6() {
        if (every_face_ > 0) {
            ++used_;
            return every_face_;
        }
        if (used_ >= faces_.size())
            throw std::invalid_argument("faces: ran out after " + std::to_string(faces_.size()) +
                                        " dice; the batch rolls more (hit dice, Surge die, Armour dice, Evade dice)");
        return faces_[used_++];
    }
    std::size_t used() const { return used_; }

private:
    const std::vector<int>& faces_;
    int every_face_;
    std::size_t used_ = 0;
};

// Every stage of one scripted batch and what its damage did to the unit.
struct Resolution {
    BatchRoll roll;
    int damage = 0;  // inflicting dice x damage per die
    Allocation allocation;
    std::size_t faces_used = 0;
};

// every_face > 0: every die shows it; otherwise `faces` in order (roll_batch documents the order).
inline Resolution resolve_scripted(const BatchConfig& c, const UnitProfile& unit, const UnitState& state,
                                   const std::vector<int>& faces, int every_face) {
    ScriptedDice dice(faces, every_face);
    Resolution r;
    r.roll = roll_batch(c, dice);
    r.damage = r.roll.inflicting * c.damage_per_die;
    r.allocation = allocate(unit, state, r.damage, c.alloc);
    r.faces_used = dice.used();
    return r;
}

}  // namespace mh::starcraft

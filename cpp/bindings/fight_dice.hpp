// Kill Team fights' dice tables from numpy (the fight and fight batch bindings): glue only.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "killteam/fight/injury.hpp"

namespace mh::bindings {

using DiceArray = pybind11::array_t<double, pybind11::array::c_style | pybind11::array::forcecast>;

inline kt::RetainedTable dice_table(const DiceArray& array) {
    if (array.size() != kt::kTableSide * kt::kTableSide) {
        throw std::invalid_argument("dice table: expected a 13x13 array of probabilities");
    }
    kt::RetainedTable table{};
    std::copy(array.data(), array.data() + array.size(), table.begin());
    return table;
}

// Both fighters' tables; an injured table not given is the fighter's own (no injury to model).
inline kt::FightDice fight_dice(const DiceArray& dice_a, const DiceArray& dice_b,
                                const std::optional<DiceArray>& injured_a, const std::optional<DiceArray>& injured_b) {
    kt::FightDice dice;
    dice.own[0] = dice_table(dice_a);
    dice.own[1] = dice_table(dice_b);
    dice.injured[0] = injured_a ? dice_table(*injured_a) : dice.own[0];
    dice.injured[1] = injured_b ? dice_table(*injured_b) : dice.own[1];
    return dice;
}

}  // namespace mh::bindings

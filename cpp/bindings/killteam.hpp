// Kill Team bindings are split by topic; register_killteam calls each.
#pragma once
#include <pybind11/pybind11.h>

namespace mh::bindings {
void register_killteam_dice(pybind11::module_ m);
void register_killteam_fight(pybind11::module_ m);
void register_killteam_shoot(pybind11::module_ m);
}  // namespace mh::bindings

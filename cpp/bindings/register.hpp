// One registration function per bindings file; bindings hold no game logic.
#pragma once
#include <pybind11/pybind11.h>

namespace mh::bindings {
void register_core(pybind11::module_ m);
void register_killteam(pybind11::module_ m);
void register_starcraft(pybind11::module_ m);
void register_deathburgh(pybind11::module_ m);
void register_force_melee(pybind11::module_ m);
}  // namespace mh::bindings

// One registration function per bindings file (Kill Team: one per dice, fight, fight batch and
// shoot, all into the killteam submodule); bindings hold no game logic.
#pragma once
#include <pybind11/pybind11.h>

namespace mh::bindings {
void register_core(pybind11::module_ m);
void register_killteam_dice(pybind11::module_ m);
void register_killteam_fight(pybind11::module_ m);
void register_killteam_fight_batch(pybind11::module_ m);
void register_killteam_shoot(pybind11::module_ m);
void register_starcraft(pybind11::module_ m);
void register_deathburgh(pybind11::module_ m);
void register_force_melee(pybind11::module_ m);
}  // namespace mh::bindings

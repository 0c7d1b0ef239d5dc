// mathhammer._core: one private extension module; each game registers its own submodule.
#include <pybind11/pybind11.h>

#include "bindings/register.hpp"

PYBIND11_MODULE(_core, m) {
    using namespace mh::bindings;
    m.doc() = "mathhammer C++ core (private: use the mathhammer package)";
    register_core(m.def_submodule("core", "RNG, dice and chunked sampling"));
    pybind11::module_ killteam = m.def_submodule("killteam", "Kill Team 2024");
    register_killteam_dice(killteam);  // first: the fight and shoot configs hold attack profiles
    register_killteam_fight(killteam);
    register_killteam_fight_batch(killteam);
    register_killteam_shoot(killteam);
    register_starcraft(m.def_submodule("starcraft", "StarCraft: Tabletop Miniatures Game"));
    register_deathburgh(m.def_submodule("deathburgh", "Deathburgh"));
    register_force_melee(m.def_submodule("force_melee", "Force-based simultaneous melee"));
}

// mathhammer._core: one private extension module; each game registers its own submodule.
#include <pybind11/pybind11.h>

#include "bindings/register.hpp"

PYBIND11_MODULE(_core, m) {
    m.doc() = "mathhammer C++ core (private: use the mathhammer package)";
    mh::bindings::register_core(m.def_submodule("core", "RNG, dice and chunked sampling"));
    mh::bindings::register_killteam(m.def_submodule("killteam", "Kill Team 2024"));
    mh::bindings::register_starcraft(m.def_submodule("starcraft", "StarCraft: Tabletop Miniatures Game"));
    mh::bindings::register_deathburgh(m.def_submodule("deathburgh", "Deathburgh"));
    mh::bindings::register_force_melee(m.def_submodule("force_melee", "Force-based simultaneous melee"));
}

#include "bindings/killteam.hpp"
#include "bindings/register.hpp"

namespace mh::bindings {

void register_killteam(pybind11::module_ m) {
    register_killteam_dice(m);
    register_killteam_fight(m);
    register_killteam_shoot(m);
}

}  // namespace mh::bindings

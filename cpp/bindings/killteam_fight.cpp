#include "bindings/killteam.hpp"

namespace mh::bindings {

void register_killteam_fight(pybind11::module_ m) {
    (void)m;  // filled in when the Kill Team fight engine lands
}

}  // namespace mh::bindings

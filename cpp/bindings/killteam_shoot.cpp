#include "bindings/killteam.hpp"

namespace mh::bindings {

void register_killteam_shoot(pybind11::module_ m) {
    (void)m;  // filled in when the Kill Team shoot engine lands
}

}  // namespace mh::bindings

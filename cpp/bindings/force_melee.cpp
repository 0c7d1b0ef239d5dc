#include "bindings/register.hpp"

namespace py = pybind11;

namespace mh::bindings {

void register_force_melee(py::module_ m) {
    (void)m;  // filled in when the force_melee engine lands
}

}  // namespace mh::bindings

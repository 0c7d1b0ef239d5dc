#include "bindings/register.hpp"

namespace py = pybind11;

namespace mh::bindings {

void register_deathburgh(py::module_ m) {
    (void)m;  // filled in when the deathburgh engine lands
}

}  // namespace mh::bindings

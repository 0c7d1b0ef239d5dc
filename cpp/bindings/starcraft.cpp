#include "bindings/register.hpp"

namespace py = pybind11;

namespace mh::bindings {

void register_starcraft(py::module_ m) {
    (void)m;  // filled in when the starcraft engine lands
}

}  // namespace mh::bindings

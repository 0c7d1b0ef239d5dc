#include "bindings/register.hpp"

namespace py = pybind11;

namespace mh::bindings {

void register_killteam(py::module_ m) {
    (void)m;  // filled in when the killteam engine lands
}

}  // namespace mh::bindings

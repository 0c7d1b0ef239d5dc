// Core bindings: chunk sizes, worker counts, interrupts and a histogram of the dice source.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/common.hpp"
#include "bindings/register.hpp"
#include "core/d6_histogram.hpp"
#include "core/interrupt.hpp"
#include "core/parallel.hpp"

namespace py = pybind11;

namespace mh::bindings {

void register_core(py::module_ m) {
    // Work stopped by an interrupt request surfaces in Python as Ctrl-C does; work stopped by its
    // call's stop token as that token's Stopped (mathhammer.core.stop).
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const Interrupted&) {
            PyErr_SetNone(PyExc_KeyboardInterrupt);
        } catch (const Stopped& stopped) {
            const py::object type = py::module_::import("mathhammer.core.stop").attr("Stopped");
            PyErr_SetString(type.ptr(), stopped.what());
        }
    });
    m.attr("CHUNK_SAMPLES") = kChunkSamples;
    m.def("usable_cores", &usable_cores, "Cores this process may run on: the most workers a run uses");
    m.def("worker_count", &worker_count, py::arg("threads"), py::arg("chunks"),
          "Workers a run of `chunks` chunks uses when `threads` are asked for");
    m.def("request_interrupt", &request_interrupt,
          "Ask every running C++ computation to stop (each raises KeyboardInterrupt)");
    m.def("d6_histogram", released_to_numpy(&d6_histogram), py::arg("seed"), py::arg("total"), py::arg("chunk_begin"),
          py::arg("chunk_end"), py::arg("threads"), "Counts of d6 faces 1..6 (index 0..5) from the chunked streams");
}

}  // namespace mh::bindings

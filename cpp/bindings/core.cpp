// Core bindings: chunk sizes and a histogram of the dice source.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/numpy.hpp"
#include "bindings/register.hpp"
#include "core/d6_histogram.hpp"
#include "core/parallel.hpp"

namespace py = pybind11;

namespace mh::bindings {

void register_core(py::module_ m) {
    m.attr("CHUNK_SAMPLES") = kChunkSamples;
    m.def("chunk_count", &chunk_count, py::arg("total"), "Chunks of CHUNK_SAMPLES in a run of `total` samples");
    m.def("d6_histogram", released_to_numpy(&d6_histogram), py::arg("seed"), py::arg("total"), py::arg("chunk_begin"),
          py::arg("chunk_end"), py::arg("threads"), "Counts of d6 faces 1..6 (index 0..5) from the chunked streams");
}

}  // namespace mh::bindings

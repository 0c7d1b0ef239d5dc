#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/numpy.hpp"
#include "bindings/register.hpp"
#include "core/dice.hpp"
#include "core/parallel.hpp"

namespace py = pybind11;

namespace mh::bindings {

void register_core(py::module_ m) {
    m.attr("CHUNK_SAMPLES") = kChunkSamples;
    m.def("chunk_count", &chunk_count, py::arg("total"));
    // Histogram of d6 faces (index 0..5 = face 1..6): lets tests check the dice source itself.
    m.def(
        "d6_histogram",
        [](uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end, int threads) {
            std::vector<uint64_t> counts;
            {
                py::gil_scoped_release release;
                counts = run_chunks(seed, total, chunk_begin, chunk_end, 6, threads,
                                    [](Rng& rng, uint64_t n, uint64_t* c) {
                                        DiceSource dice(rng);
                                        for (uint64_t i = 0; i < n; ++i) ++c[dice.d6() - 1];
                                    });
            }
            return to_numpy(counts);
        },
        py::arg("seed"), py::arg("total"), py::arg("chunk_begin"), py::arg("chunk_end"), py::arg("threads"));
}

}  // namespace mh::bindings

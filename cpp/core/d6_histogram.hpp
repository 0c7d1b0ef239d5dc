// Histogram of d6 faces from the chunked dice streams: lets tests check the dice source itself.
#pragma once
#include <cstdint>
#include <vector>

namespace mh {

// counts[face - 1] for chunks [chunk_begin, chunk_end) of a run of `total` rolls. Defined in
// d6_histogram.cpp, with the engine: its loop is the dice benchmark's, so it is compiled as the
// engine is (the bindings are optimised for size, CMakeLists.txt).
std::vector<uint64_t> d6_histogram(uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
                                   int threads);

}  // namespace mh

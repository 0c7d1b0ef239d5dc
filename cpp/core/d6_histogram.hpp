// Histogram of d6 faces from the chunked dice streams: lets tests check the dice source itself.
#pragma once
#include <cstdint>
#include <vector>

#include "core/dice.hpp"
#include "core/parallel.hpp"

namespace mh {

// counts[face - 1] for chunks [chunk_begin, chunk_end) of a run of `total` rolls.
inline std::vector<uint64_t> d6_histogram(uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
                                          int threads) {
    return run_chunks(seed, total, chunk_begin, chunk_end, 6, threads, [](Rng& rng, uint64_t n, uint64_t* c) {
        DiceSource dice(rng);
        for (uint64_t i = 0; i < n; ++i) ++c[dice.d6() - 1];
    });
}

}  // namespace mh

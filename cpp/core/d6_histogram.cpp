#include "core/d6_histogram.hpp"

#include "core/dice.hpp"
#include "core/parallel.hpp"

namespace mh {

std::vector<uint64_t> d6_histogram(uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
                                   int threads) {
    return run_chunks(seed, total, chunk_begin, chunk_end, 6, threads, [](Rng& rng, uint64_t n, uint64_t* c) {
        DiceSource dice(rng);
        for (uint64_t i = 0; i < n; ++i) ++c[dice.d6() - 1];
    });
}

}  // namespace mh

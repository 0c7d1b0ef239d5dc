// Monte Carlo work split into fixed-size chunks over threads.
//
// A run of `total` samples is cut into chunks of kChunkSamples; chunk k draws from
// Rng(seed, k) only. Counts are integers, so summing per-thread histograms gives the same result
// whatever the thread count or scheduling: same seed, same answer, on 1 or 64 threads.
// Python may run a long job as several calls over consecutive chunk ranges (for progress bars and
// Ctrl-C); the result is identical to one call over all chunks.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/rng.hpp"

namespace mh {

constexpr uint64_t kChunkSamples = 1ULL << 16;

inline uint64_t chunk_count(uint64_t total) { return (total + kChunkSamples - 1) / kChunkSamples; }

// Runs body(rng, n_samples, counts) for every chunk in [chunk_begin, chunk_end) of a run of
// `total` samples; `counts` is the calling thread's histogram of `bins` entries. Returns the sum of
// all histograms. Call it without the GIL: body must not touch Python.
template <class Body>
std::vector<uint64_t> run_chunks(uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
                                 std::size_t bins, int threads, Body&& body) {
    const uint64_t n_chunks = chunk_count(total);
    chunk_end = std::min(chunk_end, n_chunks);
    std::vector<uint64_t> result(bins, 0);
    if (chunk_begin >= chunk_end) return result;
    const uint64_t work = chunk_end - chunk_begin;
    const int n_threads = static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(std::max(threads, 1), work)));

    std::atomic<uint64_t> next{chunk_begin};
    std::mutex merge;
    std::exception_ptr error;
    auto worker = [&]() {
        try {
            std::vector<uint64_t> counts(bins, 0);
            for (uint64_t k = next++; k < chunk_end; k = next++) {
                Rng rng(seed, k);
                const uint64_t n = std::min(kChunkSamples, total - k * kChunkSamples);
                body(rng, n, counts.data());
            }
            std::lock_guard<std::mutex> lock(merge);
            for (std::size_t i = 0; i < bins; ++i) result[i] += counts[i];
        } catch (...) {
            std::lock_guard<std::mutex> lock(merge);
            if (!error) error = std::current_exception();
            next = chunk_end;
        }
    };
    if (n_threads == 1) {
        worker();
    } else {
        std::vector<std::thread> pool;
        pool.reserve(n_threads);
        for (int t = 0; t < n_threads; ++t) pool.emplace_back(worker);
        for (auto& t : pool) t.join();
    }
    if (error) std::rethrow_exception(error);
    return result;
}

}  // namespace mh

// Monte Carlo work split into fixed-size chunks over threads.
//
// A run of `total` samples is cut into chunks of kChunkSamples; chunk k draws from
// Rng(seed, k) only. Counts are integers, so summing per-thread histograms gives the same result
// whatever the thread count or scheduling: same seed, same answer, on 1 or 64 threads.
// Python may run a long job as several calls over consecutive chunk ranges (for progress bars and
// Ctrl-C); the result is identical to one call over all chunks.
//
// `threads` asks for up to that many workers, but no more run than the process has usable cores:
// more would only add per-worker memory (histograms, engines' workspaces) and switching, and the
// chunks, not the workers, decide the numbers. Workers stop between chunks once an interrupt is
// requested or the call is stopped (core/interrupt.hpp); bodies with costly samples check within a chunk too.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/interrupt.hpp"
#include "core/rng.hpp"

#if defined(__linux__)
#include <sched.h>
#endif

namespace mh {

constexpr uint64_t kChunkSamples = 1ULL << 16;
constexpr std::size_t kPadWords = 64 / sizeof(uint64_t);  // one cache line

inline uint64_t chunk_count(uint64_t total) { return (total + kChunkSamples - 1) / kChunkSamples; }

// Cores this process may run on (its affinity mask on Linux), at least 1.
inline int usable_cores() {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
#endif
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// Workers a run of `chunks` chunks uses when `threads` are asked for.
inline int worker_count(int threads, uint64_t chunks) {
    const uint64_t cap = std::min<uint64_t>(std::max(threads, 1), static_cast<uint64_t>(usable_cores()));
    return static_cast<int>(std::max<uint64_t>(1, std::min(cap, chunks)));
}

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
    const int n_threads = worker_count(threads, work);
    const Arming arming = armed();  // workers stop when the caller's call does

    std::atomic<uint64_t> next{chunk_begin};
    std::mutex merge;
    std::exception_ptr error;
    auto worker = [&]() {
        InterruptScope scope(arming);
        try {
            // Padded by a cache line on each side: a worker's histogram never shares a line with
            // another thread's data, whatever the allocator puts next to it.
            std::vector<uint64_t> padded(bins + 2 * kPadWords, 0);
            uint64_t* counts = padded.data() + kPadWords;
            for (uint64_t k = next++; k < chunk_end; k = next++) {
                check_interrupt();
                Rng rng(seed, k);
                const uint64_t n = std::min(kChunkSamples, total - k * kChunkSamples);
                body(rng, n, counts);
            }
            std::lock_guard<std::mutex> lock(merge);
            for (std::size_t i = 0; i < bins; ++i) result[i] += counts[i];
        } catch (...) {
            std::lock_guard<std::mutex> lock(merge);
            if (!error) error = std::current_exception();
            next = chunk_end;
        }
    };
    // The calling thread is one of the workers: one thread fewer to start and to wait for.
    std::vector<std::thread> pool;
    pool.reserve(n_threads - 1);
    for (int t = 1; t < n_threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    if (error) std::rethrow_exception(error);
    return result;
}

}  // namespace mh

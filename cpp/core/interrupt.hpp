// Stopping long C++ work on request (Ctrl-C), without the engines knowing about Python.
//
// A process-wide counter, the interrupt epoch, goes up by one for every request. A computation is
// armed with the epoch it started under (InterruptScope, set by the binding that runs it, and handed
// on by run_chunks to its worker threads); check_interrupt() throws Interrupted once the epoch has
// moved on. The check is one relaxed atomic load, cheap enough for every state or sample. Work
// outside any scope (plain C++ callers) is never interrupted.
//
// A request stops every armed computation in the process: Ctrl-C is meant for the whole run.
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>

namespace mh {

// Thrown by check_interrupt(); the bindings turn it into KeyboardInterrupt.
struct Interrupted : std::exception {
    const char* what() const noexcept override { return "interrupted"; }
};

namespace detail {
constexpr uint64_t kUnarmed = ~uint64_t{0};
inline std::atomic<uint64_t> interrupt_epoch{0};
inline thread_local uint64_t armed_epoch = kUnarmed;
}  // namespace detail

inline uint64_t interrupt_epoch() { return detail::interrupt_epoch.load(std::memory_order_acquire); }

// Asks every armed computation to stop at its next check.
inline void request_interrupt() { detail::interrupt_epoch.fetch_add(1, std::memory_order_acq_rel); }

// Whether the calling thread's computation has been asked to stop.
inline bool interrupt_requested() {
    const uint64_t mine = detail::armed_epoch;
    return mine != detail::kUnarmed && detail::interrupt_epoch.load(std::memory_order_relaxed) != mine;
}

inline void check_interrupt() {
    if (interrupt_requested()) throw Interrupted{};
}

// The epoch the calling thread is armed with (kUnarmed outside any scope), for handing to workers.
inline uint64_t armed_epoch() { return detail::armed_epoch; }

// Arms the calling thread with `epoch` for its lifetime (the previous arming is restored after).
class InterruptScope {
public:
    explicit InterruptScope(uint64_t epoch) : previous_(detail::armed_epoch) { detail::armed_epoch = epoch; }
    ~InterruptScope() { detail::armed_epoch = previous_; }
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;

private:
    uint64_t previous_;
};

}  // namespace mh

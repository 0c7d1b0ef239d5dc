// Stopping long C++ work on request, without the engines knowing about Python. Two kinds:
//
// - An interrupt (Ctrl-C) stops every armed computation in the process: it is meant for the whole
//   run. A process-wide counter, the interrupt epoch, goes up by one for every request; a
//   computation armed with the epoch it started under throws Interrupted once the epoch has moved.
// - A stop stops one call only (its stop token, docs/architecture.md "Stopping one call"): the
//   call is armed with a flag of its own, which the binding raises when the call's token is stopped;
//   the computation then throws Stopped.
//
// The arming (Arming: the epoch and the flag) is set by the binding that runs the work
// (InterruptScope) and handed on by run_chunks to its worker threads. check_interrupt() is two
// relaxed atomic loads, cheap enough for every state or sample. Work outside any scope (plain C++
// callers) is never stopped.
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>

namespace mh {

// Thrown by check_interrupt() after an interrupt; the bindings turn it into KeyboardInterrupt.
struct Interrupted : std::exception {
    const char* what() const noexcept override { return "interrupted"; }
};

// Thrown by check_interrupt() when the call's own flag is raised; the bindings turn it into the
// Python stop tokens' Stopped.
struct Stopped : std::exception {
    const char* what() const noexcept override { return "stopped by its stop token"; }
};

namespace detail {
constexpr uint64_t kUnarmed = ~uint64_t{0};
inline std::atomic<uint64_t> interrupt_epoch{0};
}  // namespace detail

// What a thread's computation stops on: interrupts requested after `epoch` (kUnarmed: none) and its
// call's `stop` flag (nullptr: none). The flag belongs to the call and outlives its workers.
struct Arming {
    uint64_t epoch = detail::kUnarmed;
    const std::atomic<bool>* stop = nullptr;
};

namespace detail {
inline thread_local Arming armed;
}  // namespace detail

inline uint64_t interrupt_epoch() { return detail::interrupt_epoch.load(std::memory_order_acquire); }

// Asks every armed computation to stop at its next check.
inline void request_interrupt() { detail::interrupt_epoch.fetch_add(1, std::memory_order_acq_rel); }

// Whether the calling thread's computation has been interrupted (Ctrl-C).
inline bool interrupt_requested() {
    const uint64_t mine = detail::armed.epoch;
    return mine != detail::kUnarmed && detail::interrupt_epoch.load(std::memory_order_relaxed) != mine;
}

// Whether the calling thread's call has been stopped by its own flag.
inline bool stop_requested() {
    const std::atomic<bool>* flag = detail::armed.stop;
    return flag != nullptr && flag->load(std::memory_order_relaxed);
}

inline void check_interrupt() {
    if (interrupt_requested()) throw Interrupted{};
    if (stop_requested()) throw Stopped{};
}

// What the calling thread is armed with, for handing to workers.
inline Arming armed() { return detail::armed; }

// Arms the calling thread for its lifetime (the previous arming is restored after).
class InterruptScope {
public:
    explicit InterruptScope(Arming arming) : previous_(detail::armed) { detail::armed = arming; }
    ~InterruptScope() { detail::armed = previous_; }
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;

private:
    Arming previous_;
};

}  // namespace mh

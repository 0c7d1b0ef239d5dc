// The two things every binding of long C++ work does, written once: run the work with the GIL
// released (other Python threads, and executors driving several calls, keep running) and
// interruptible by Ctrl-C, then copy its result into numpy arrays.
#pragma once
#include <pybind11/numpy.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <unistd.h>

#include "core/interrupt.hpp"

namespace mh::bindings {

// A 1-D array holding a copy of `values`.
template <class T>
pybind11::array_t<T> to_numpy(const std::vector<T>& values) {
    return pybind11::array_t<T>(static_cast<pybind11::ssize_t>(values.size()), values.data());
}

// An array of `shape` filled, in C order, with a copy of `values` (a vector or std::array).
template <class Container>
pybind11::array_t<typename Container::value_type> to_numpy(const Container& values,
                                                             std::vector<pybind11::ssize_t> shape) {
    pybind11::array_t<typename Container::value_type> out(shape);
    std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
}

// How often the calling thread looks for a pending signal while C++ work runs: well inside the
// second a user waits after Ctrl-C, rare enough that taking the GIL costs nothing measurable.
constexpr std::chrono::milliseconds kSignalPoll{20};

namespace detail {

// Helper threads kept between calls: starting a thread costs more than a small engine call (tens of
// microseconds, hundreds on a loaded machine). A job never waits for another: when no helper is idle
// a new one starts and stays. A forked child starts afresh (the parent's helpers are not in it).
class Helpers {
public:
    static void run(std::function<void()> job) {
        // never destroyed: helpers may outlive static destruction
        static std::atomic<Helpers*> current{new Helpers};
        Helpers* helpers = current.load();
        if (helpers->pid_ != ::getpid()) {
            Helpers* fresh = new Helpers;
            if (current.compare_exchange_strong(helpers, fresh)) {
                helpers = fresh;
            } else {
                delete fresh;  // another caller of this child got there first; `helpers` is its
            }
        }
        helpers->submit(std::move(job));
    }

private:
    void submit(std::function<void()> job) {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_.push_back(std::move(job));
        if (jobs_.size() > idle_) {
            std::thread([this] { loop(); }).detach();
        } else {
            wake_.notify_one();
        }
    }

    void loop() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            ++idle_;
            wake_.wait(lock, [this] { return !jobs_.empty(); });
            --idle_;
            std::function<void()> job = std::move(jobs_.front());
            jobs_.pop_front();
            lock.unlock();
            job();
            lock.lock();
        }
    }

    const pid_t pid_ = ::getpid();
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> jobs_;
    std::size_t idle_ = 0;
};

}  // namespace detail

// Runs `work` (which must not touch Python objects) with the GIL released and returns its result.
//
// Python runs signal handlers only between bytecodes of the main thread, never while C++ holds it.
// So the work runs on a helper thread (kept for later calls), armed for interrupts, while the calling thread waits and
// every kSignalPoll takes the GIL for PyErr_CheckSignals(). When a handler raises (Ctrl-C:
// KeyboardInterrupt) the work is asked to stop (core/interrupt.hpp), and once it has unwound the
// handler's exception is raised. Work stopped by a request from elsewhere (another call that saw
// the signal) raises KeyboardInterrupt through the mh::Interrupted translator.
template <class Work>
auto without_gil(Work&& work) {
    using Result = std::decay_t<decltype(work())>;
    std::optional<Result> result;
    std::exception_ptr error;
    std::optional<pybind11::error_already_set> raised;  // created and destroyed with the GIL held
    {
        pybind11::gil_scoped_release release;
        const uint64_t epoch = interrupt_epoch();
        std::mutex mutex;
        std::condition_variable finished;
        bool done = false;
        detail::Helpers::run([&] {
            {
                InterruptScope scope(epoch);
                try {
                    result.emplace(work());
                } catch (...) {
                    error = std::current_exception();
                }
            }
            // the last touch of this call's state: the caller returns once it sees `done`
            std::lock_guard<std::mutex> lock(mutex);
            done = true;
            finished.notify_one();
        });
        std::unique_lock<std::mutex> lock(mutex);
        while (!finished.wait_for(lock, kSignalPoll, [&] { return done; })) {
            if (raised) continue;  // already stopping: wait for the work to unwind
            lock.unlock();
            {
                pybind11::gil_scoped_acquire gil;
                if (PyErr_CheckSignals() != 0) raised.emplace();
            }
            if (raised) request_interrupt();
            lock.lock();
        }
        lock.unlock();
    }
    if (raised) throw *raised;
    if (error) std::rethrow_exception(error);
    return std::move(*result);
}

// A Python function for an engine entry point returning a std::vector: it releases the GIL for the
// call and copies the vector into a 1-D numpy array. Arguments keep the entry point's own types.
template <class T, class... Args>
auto released_to_numpy(std::vector<T> (*engine)(Args...)) {
    return [engine](Args... args) { return to_numpy(without_gil([&] { return engine(args...); })); };
}

// A read-only property giving a std::vector member as a numpy array (a copy).
template <class Class, class T>
auto numpy_member(std::vector<T> Class::*member) {
    return [member](const Class& self) { return to_numpy(self.*member); };
}

}  // namespace mh::bindings

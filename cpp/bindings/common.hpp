// The two things every binding of long C++ work does, written once: run the work with the GIL
// released (other Python threads, and executors driving several calls, keep running) and
// interruptible by Ctrl-C, then copy its result into numpy arrays.
#pragma once
#include <pybind11/numpy.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/helper_threads.hpp"
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

// Runs `work` (which must not touch Python objects) with the GIL released and returns its result.
//
// Python runs signal handlers only between bytecodes of the main thread, never while C++ holds it.
// So the work runs on a helper thread (core/helper_threads.hpp), armed for interrupts, while the
// calling thread waits and every kSignalPoll takes the GIL for PyErr_CheckSignals(). When a handler
// raises (Ctrl-C: KeyboardInterrupt) the work is asked to stop (core/interrupt.hpp), and once it has
// unwound the handler's exception is raised. Work stopped by a request from elsewhere (another call
// that saw the signal) raises KeyboardInterrupt through the mh::Interrupted translator.
template <class Work>
auto without_gil(Work&& work) {
    using Result = std::decay_t<decltype(work())>;
    std::optional<Result> result;
    std::exception_ptr error;
    std::optional<pybind11::error_already_set> raised;  // created and destroyed with the GIL held
    {
        pybind11::gil_scoped_release release;
        try {
            result.emplace(run_on_helper(std::forward<Work>(work), kSignalPoll, [&] {
                if (raised) return;  // already stopping: wait for the work to unwind
                {
                    pybind11::gil_scoped_acquire gil;
                    if (PyErr_CheckSignals() != 0) raised.emplace();
                }
                if (raised) request_interrupt();
            }));
        } catch (...) {
            error = std::current_exception();
        }
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

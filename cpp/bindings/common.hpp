// What every binding does, written once: run the C++ work with the GIL released (other Python
// threads, and executors driving several calls, keep running) and interruptible by Ctrl-C, copy its
// result into numpy arrays, and hand many exact results back in one shape (bind_exact_batch).
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/exact_batch.hpp"
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

// The stop token of the Python code calling in (mathhammer.core.stop.current()), or None.
inline pybind11::object current_stop_token() {
    PYBIND11_CONSTINIT static pybind11::gil_safe_call_once_and_store<pybind11::object> current;
    const pybind11::object& get = current
                                      .call_once_and_store_result([] {
                                          return pybind11::module_::import("mathhammer.core.stop").attr("current");
                                      })
                                      .get_stored();
    return get();
}

// Whether `token` (a mathhammer.core.stop.StopToken) has been stopped. Called with the GIL held;
// never throws (a token that cannot answer counts as stopped).
inline bool token_stopped(const pybind11::object& token) noexcept {
    PyObject* value = PyObject_GetAttrString(token.ptr(), "stopped");
    const int stopped = value != nullptr ? PyObject_IsTrue(value) : -1;
    Py_XDECREF(value);
    if (stopped < 0) PyErr_Clear();
    return stopped != 0;
}

// Runs `work` (which must not touch Python objects) with the GIL released and returns its result.
//
// Python runs signal handlers only between bytecodes of the main thread, never while C++ holds it.
// So the work runs on a helper thread (core/helper_threads.hpp), armed for interrupts, while the
// calling thread waits and every kSignalPoll takes the GIL for PyErr_CheckSignals(). When a handler
// raises (Ctrl-C: KeyboardInterrupt) the work is asked to stop (core/interrupt.hpp), and once it has
// unwound the handler's exception is raised. Work stopped by a request from elsewhere (another call
// that saw the signal) raises KeyboardInterrupt through the mh::Interrupted translator.
//
// The call's stop token (docs/architecture.md "Stopping one call") is looked at on the same polls:
// once it is stopped, this call's own flag is raised, and the work throws mh::Stopped, which the
// translator turns into the Python Stopped. No other call is touched.
template <class Work>
auto without_gil(Work&& work) {
    using Result = std::decay_t<decltype(work())>;
    std::optional<Result> result;
    std::exception_ptr error;
    std::optional<pybind11::error_already_set> raised;  // created and destroyed with the GIL held
    const pybind11::object token = current_stop_token();
    std::atomic<bool> stop{!token.is_none() && token_stopped(token)};
    {
        pybind11::gil_scoped_release release;
        try {
            result.emplace(run_on_helper(
                std::forward<Work>(work), kSignalPoll,
                [&] {
                    if (raised || stop.load()) return;  // already stopping: wait for the work to unwind
                    {
                        pybind11::gil_scoped_acquire gil;
                        if (PyErr_CheckSignals() != 0) {
                            raised.emplace();
                        } else if (!token.is_none() && token_stopped(token)) {
                            stop.store(true);
                        }
                    }
                    if (raised) request_interrupt();
                },
                &stop));
        } catch (...) {
            error = std::current_exception();
        }
    }
    if (raised) throw *raised;
    if (error) std::rethrow_exception(error);
    return std::move(*result);
}

// Runs `work` on the calling thread with the GIL released, for a call known to take microseconds to
// a few milliseconds: handing it to a helper thread (without_gil) would cost more than the work.
// Not interruptible.
template <class Work>
auto on_calling_thread(Work&& work) {
    pybind11::gil_scoped_release release;
    return work();
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

// ---- exact batches: one convention for every game ---------------------------------------------
//
// `name(configs)` resolves many configurations in one call, with the GIL released and Ctrl-C
// honoured between two of them; a configuration object given more than once (the Python side
// hands out one cached object per distinct configuration) is resolved once (core/exact_batch.hpp).
// It returns the module's ExactBatch: len(batch) == len(configs), and batch[i] is item i's arrays,
// the very tuple the game's single exact call returns for configs[i]. An item's arrays are made
// when it is read, and afresh at every read: a result owns its arrays, and a sweep or a batch
// whose items are never read does not pay for them.
//
// `solve(config)` is the game's C++ function giving one item's result; `arrays(result)` copies a
// result into the item's tuple of numpy arrays (typed, so that the stubs carry the types). The
// class is returned so that a game can add an accessor reading part of an item. A game with two
// exact batches in one submodule names the second one's class (`class_name`).
// bind_exact_batch_of takes `solve_all(configs)` instead, for a batch whose items share work (it
// must still resolve each distinct object once, through solve_distinct).

// Item `index` of a batch (negative counts from the end), or IndexError.
template <class Result>
const Result& batch_item(const ExactBatch<Result>& batch, pybind11::ssize_t index) {
    const auto size = static_cast<pybind11::ssize_t>(batch.size());
    if (index < 0) index += size;
    if (index < 0 || index >= size) throw pybind11::index_error("batch index out of range");
    return batch[static_cast<std::size_t>(index)];
}

template <class Config, class SolveAll, class Arrays>
auto bind_exact_batch_of(pybind11::module_ m, const char* name, const char* configs_name, SolveAll solve_all,
                         Arrays arrays, const char* doc, const char* class_name = "ExactBatch") {
    using Batch = std::decay_t<decltype(solve_all(std::declval<const std::vector<const Config*>&>()))>;
    pybind11::class_<Batch> cls(m, class_name, "Exact results of many configurations: batch[i] is item i's arrays");
    cls.def("__len__", &Batch::size)
        .def(
            "__getitem__",
            [arrays](const Batch& batch, pybind11::ssize_t index) { return arrays(batch_item(batch, index)); },
            pybind11::arg("index"));
    // on_caller: a batch the caller expects to take a few milliseconds runs on the calling thread
    // (as on_calling_thread says: a helper thread would cost more than the work; not interruptible).
    m.def(
        name,
        [solve_all](const std::vector<const Config*>& configs, bool on_caller) {
            auto run = [&] { return solve_all(configs); };
            return on_caller ? on_calling_thread(run) : without_gil(run);
        },
        pybind11::arg(configs_name), pybind11::arg("on_caller") = false, doc);
    return cls;
}

template <class Config, class Solve, class Arrays>
auto bind_exact_batch(pybind11::module_ m, const char* name, const char* configs_name, Solve solve, Arrays arrays,
                      const char* doc, const char* class_name = "ExactBatch") {
    return bind_exact_batch_of<Config>(
        m, name, configs_name, [solve](const std::vector<const Config*>& configs) { return solve_distinct(configs, solve); },
        arrays, doc, class_name);
}

}  // namespace mh::bindings

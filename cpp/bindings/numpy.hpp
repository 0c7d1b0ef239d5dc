// The two things every binding of long C++ work does, written once: run the work with the GIL
// released (other Python threads, and executors driving several calls, keep running), then copy
// its result into numpy arrays.
#pragma once
#include <pybind11/numpy.h>

#include <algorithm>
#include <utility>
#include <vector>

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

// Runs `work` (which must not touch Python objects) with the GIL released and returns its result.
template <class Work>
auto without_gil(Work&& work) {
    pybind11::gil_scoped_release release;
    return std::forward<Work>(work)();
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

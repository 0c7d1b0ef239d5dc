// Copying C++ results into numpy arrays: one place for every bindings file.
#pragma once
#include <pybind11/numpy.h>

#include <algorithm>
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

}  // namespace mh::bindings

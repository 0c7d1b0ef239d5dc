// Many exact results in one call: what every game's exact batch does, written once.
//
// The Python side hands out one cached configuration object per distinct configuration, so a batch
// of thousands of items often holds a few hundred distinct objects: each is resolved once, and
// every item points at its object's result. Ctrl-C is honoured between two resolutions.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/interrupt.hpp"

namespace mh {

template <class Result>
struct ExactBatch {
    std::vector<Result> results;    // one per distinct configuration object, in order of first use
    std::vector<std::size_t> slot;  // item i's result is results[slot[i]]

    std::size_t size() const { return slot.size(); }
    const Result& operator[](std::size_t i) const { return results[slot[i]]; }
};

// One vector field of every distinct result, end to end: result k's values are
// values[offsets[k]] .. values[offsets[k + 1] - 1]. A batch's summaries read every item's pmf from it
// in one call instead of one call per item (ExactBatch::slot says which result each item is).
struct Ragged {
    std::vector<double> values;
    std::vector<std::int64_t> offsets;
};

template <class Result>
Ragged ragged(const ExactBatch<Result>& batch, std::vector<double> Result::*field) {
    Ragged out;
    out.offsets.reserve(batch.results.size() + 1);
    out.offsets.push_back(0);
    std::size_t total = 0;
    for (const Result& r : batch.results) total += (r.*field).size();
    out.values.reserve(total);
    for (const Result& r : batch.results) {
        const std::vector<double>& v = r.*field;
        out.values.insert(out.values.end(), v.begin(), v.end());
        out.offsets.push_back(static_cast<std::int64_t>(out.values.size()));
    }
    return out;
}

// solve(config) for each distinct object of `configs` (compared by address), in order.
template <class Config, class Solve>
auto solve_distinct(const std::vector<const Config*>& configs, Solve&& solve) {
    using Result = std::decay_t<decltype(solve(std::declval<const Config&>()))>;
    ExactBatch<Result> batch;
    batch.slot.resize(configs.size());
    std::unordered_map<const Config*, std::size_t> seen;
    for (std::size_t i = 0; i < configs.size(); ++i) {
        const auto [it, fresh] = seen.emplace(configs[i], batch.results.size());
        if (fresh) {
            check_interrupt();
            batch.results.push_back(solve(*configs[i]));
        }
        batch.slot[i] = it->second;
    }
    return batch;
}

}  // namespace mh

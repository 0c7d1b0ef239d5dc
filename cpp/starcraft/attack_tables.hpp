// One batch's result tables, shaped in C++ as sc.attack's result holds them (docs/rules/starcraft.md §6).
//
// From the stage histograms (exact probabilities, or Monte Carlo frequencies) and the allocation
// of each count of inflicting dice: the attack damage, casualties, residual marker, P(destroyed),
// P(Shielded lost) and the distinct unit states after the batch. Every sum is taken in the order,
// and with the pairwise grouping, of the numpy code it replaces, so the figures are bit-for-bit those
// the Python side computed before.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "starcraft/allocation.hpp"
#include "starcraft/config.hpp"
#include "starcraft/layout.hpp"

namespace mh::starcraft {

struct AttackTables {
    // The distributions back to back, in the order of kSegments: damage, casualties, marker, the six
    // stage histograms (as attack_layout lays them out: hits, surge, bypass, armour_fails, damage_pool,
    // inflicting), then the probability of each state in `states`.
    static constexpr std::size_t kSegments = 10;
    std::vector<double> values;
    std::array<std::size_t, kSegments> sizes{};
    double destroyed = 0.0;
    double shield_lost = 0.0;
    // The distinct states of positive probability, sorted by (models, marker, shielded,
    // first_model_alive): four rows of state_count() values, row-major.
    std::vector<int64_t> states;

    std::size_t state_count() const { return sizes[kSegments - 1]; }
};

namespace detail {

// The sum numpy's add.reduce gives for a contiguous float64 array: a plain loop below 8 values,
// eight interleaved partial sums up to 128, halves (cut at a multiple of 8) above.
inline double numpy_sum(const double* a, std::size_t n) {
    if (n < 8) {
        double res = 0.0;
        for (std::size_t i = 0; i < n; ++i) res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        for (std::size_t j = 0; j < 8; ++j) r[j] = a[j];
        std::size_t i = 8;
        for (; i < n - (n % 8); i += 8)
            for (std::size_t j = 0; j < 8; ++j) r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i) res += a[i];
        return res;
    }
    std::size_t n2 = n / 2;
    n2 -= n2 % 8;
    return numpy_sum(a, n2) + numpy_sum(a + n2, n - n2);
}

// The sum of probs[k] over the k where flag[k] is set, as numpy sums probs[flag == 1] (`picked`:
// scratch space, reused).
inline double masked_sum(const std::vector<double>& probs, const std::vector<char>& flag, std::vector<double>& picked) {
    picked.clear();
    for (std::size_t k = 0; k < probs.size(); ++k)
        if (flag[k]) picked.push_back(probs[k]);
    return numpy_sum(picked.data(), picked.size());
}

}  // namespace detail

// `stages`: the flat stage histograms of one batch, laid out by attack_layout(c).
inline AttackTables attack_tables(const AttackCase& a, const std::vector<double>& stages) {
    const BatchConfig& c = a.config;
    const AttackLayout l = attack_layout(c);
    const int n = l.dice;
    const int per_die = c.damage_per_die;
    const auto k_probs = std::vector<double>(stages.begin() + static_cast<std::ptrdiff_t>(l.inflicting),
                                             stages.begin() + static_cast<std::ptrdiff_t>(l.inflicting + n + 1));

    std::vector<Allocation> after;
    after.reserve(k_probs.size());
    int max_casualties = 0, max_marker = 0;
    for (int k = 0; k <= n; ++k) {
        after.push_back(allocate(a.unit, a.state, k * per_die, c.alloc));
        max_casualties = std::max(max_casualties, after.back().casualties);
        max_marker = std::max(max_marker, after.back().state.marker);
    }

    AttackTables t;
    const std::size_t damage_size = static_cast<std::size_t>(n) * per_die + 1;
    const std::size_t casualties_size = static_cast<std::size_t>(std::max(a.state.models, max_casualties)) + 1;
    const std::size_t marker_size = static_cast<std::size_t>(max_marker) + 1;

    // Distinct states of positive probability (few: found by a scan), their probabilities summed in
    // k order, then sorted.
    using StateKey = std::tuple<int, int, int, int>;
    std::vector<std::pair<StateKey, double>> by_state;
    for (int k = 0; k <= n; ++k) {
        if (!(k_probs[k] > 0.0)) continue;
        const UnitState& s = after[k].state;
        const StateKey key{s.models, s.marker, s.shielded, s.first_model_alive};
        auto it = std::find_if(by_state.begin(), by_state.end(), [&](const auto& entry) { return entry.first == key; });
        if (it == by_state.end()) it = by_state.insert(by_state.end(), {key, 0.0});
        it->second += k_probs[k];
    }
    std::sort(by_state.begin(), by_state.end(), [](const auto& x, const auto& y) { return x.first < y.first; });

    t.sizes = {damage_size, casualties_size, marker_size,
               static_cast<std::size_t>(n) + 1, static_cast<std::size_t>(l.surge_max) + 1,
               static_cast<std::size_t>(n) + 1, static_cast<std::size_t>(n) + 1,
               static_cast<std::size_t>(n) + 1, static_cast<std::size_t>(n) + 1, by_state.size()};
    std::size_t total = 0;
    for (std::size_t s : t.sizes) total += s;
    t.values.assign(total, 0.0);

    double* damage = t.values.data();
    double* casualties = damage + damage_size;
    double* marker = casualties + casualties_size;
    double* stage_out = marker + marker_size;
    double* state_p = stage_out + l.size;
    std::vector<char> destroyed(k_probs.size()), shield_lost(k_probs.size());
    for (int k = 0; k <= n; ++k) {
        const double p = k_probs[k];
        damage[static_cast<std::size_t>(k) * per_die] += p;
        casualties[after[k].casualties] += p;
        marker[after[k].state.marker] += p;
        destroyed[k] = after[k].destroyed;
        shield_lost[k] = after[k].shield_lost;
    }
    std::copy(stages.begin(), stages.begin() + static_cast<std::ptrdiff_t>(l.size), stage_out);
    std::vector<double> picked;
    picked.reserve(k_probs.size());
    t.destroyed = detail::masked_sum(k_probs, destroyed, picked);
    t.shield_lost = detail::masked_sum(k_probs, shield_lost, picked);

    const std::size_t m = by_state.size();
    t.states.assign(4 * m, 0);
    std::size_t i = 0;
    for (const auto& [key, p] : by_state) {
        const auto& [models, mark, shielded, first_alive] = key;
        t.states[i] = models;
        t.states[m + i] = mark;
        t.states[2 * m + i] = shielded;
        t.states[3 * m + i] = first_alive;
        state_p[i] = p;
        ++i;
    }
    return t;
}

}  // namespace mh::starcraft

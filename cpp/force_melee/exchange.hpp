// One exchange between two sides (docs/rules/force_melee.md §2, §6): the exact law and the Monte Carlo kernel.
//
// Both fill the same histogram: the joint law of (damage to A, damage to B) followed by the joint
// law of the hits compared (hits A, hits B). Casualties follow from the damage by allocation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "force_melee/rules.hpp"

namespace mh::force_melee {

struct ExchangeConfig {
    SideConfig a;
    SideConfig b;
    ExchangeRules rules;
};

// Shape of an exchange histogram: damage bins are 0..max damage, hits bins 0..max compared hits.
struct ExchangeLayout {
    int damage_a_bins = 1;  // damage to A
    int damage_b_bins = 1;  // damage to B
    int hits_a_bins = 1;
    int hits_b_bins = 1;
    // The damage table (damage_a_bins x damage_b_bins, C order) starts at 0, the hits table
    // (hits_a_bins x hits_b_bins) right after it.
    std::size_t damage_cells() const { return static_cast<std::size_t>(damage_a_bins) * damage_b_bins; }
    std::size_t hits_offset() const { return damage_cells(); }
    std::size_t hits_cells() const { return static_cast<std::size_t>(hits_a_bins) * hits_b_bins; }
    std::size_t total() const { return damage_cells() + hits_cells(); }
    std::size_t damage_bin(const ExchangeOutcome& o) const {
        return static_cast<std::size_t>(o.damage_to_a) * damage_b_bins + o.damage_to_b;
    }
    std::size_t hits_bin(const ExchangeOutcome& o) const {
        return damage_cells() + static_cast<std::size_t>(o.hits_a) * hits_b_bins + o.hits_b;
    }
};

ExchangeLayout exchange_layout(const ExchangeConfig& config);

// One side's law of (hits, crits) before any extra hits: a trinomial over its dice.
struct RollCell {
    SideRoll roll;
    double p;
};
std::vector<RollCell> roll_law(const SideConfig& side);

// Exact probabilities, laid out as exchange_layout() says.
std::vector<double> exchange_exact(const ExchangeConfig& config);

// Monte Carlo counts for chunks [chunk_begin, chunk_end) of a run of `total` exchanges.
std::vector<uint64_t> exchange_sample(const ExchangeConfig& config, uint64_t seed, uint64_t total,
                                      uint64_t chunk_begin, uint64_t chunk_end, int threads);

}  // namespace mh::force_melee

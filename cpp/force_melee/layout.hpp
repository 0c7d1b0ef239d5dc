// Force melee: where each outcome lives in the flat arrays both engines return.
#pragma once
#include <cstddef>
#include <vector>

#include "force_melee/config.hpp"
#include "force_melee/resolve.hpp"

namespace mh::force_melee {

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

inline ExchangeLayout exchange_layout(const ExchangeConfig& config) {
    ExchangeLayout layout;
    layout.damage_a_bins = max_damage_dealt(config.b, config.rules) + 1;
    layout.damage_b_bins = max_damage_dealt(config.a, config.rules) + 1;
    layout.hits_a_bins = max_compared_hits(config.a, config.rules) + 1;
    layout.hits_b_bins = max_compared_hits(config.b, config.rules) + 1;
    return layout;
}

// Where each part of the flat histogram starts.
//   per pair:  the exchange's own histogram (exchange_layout)
//   per unit:  total damage taken (0..max), then its final state ((models+1) x (hp+1), allocation.hpp)
//   per pair:  joint final casualties of the two units ((models+1) x (models+1))
struct MeleeLayout {
    std::vector<ExchangeLayout> exchanges;
    std::vector<std::size_t> exchange_offset;
    std::vector<int> damage_bins;
    std::vector<std::size_t> damage_offset;
    std::vector<std::size_t> state_offset;
    std::vector<std::size_t> casualties_offset;
    std::size_t total = 0;
};

inline MeleeLayout melee_layout(const MeleeConfig& config) {
    MeleeLayout layout;
    std::size_t at = 0;
    for (const PairConfig& pair : config.pairs) {
        layout.exchanges.push_back(exchange_layout(pair.exchange));
        layout.exchange_offset.push_back(at);
        at += layout.exchanges.back().total();
    }
    layout.damage_bins.assign(config.units.size(), 1);
    for (std::size_t k = 0; k < config.pairs.size(); ++k) {
        layout.damage_bins[config.pairs[k].first] += layout.exchanges[k].damage_a_bins - 1;
        layout.damage_bins[config.pairs[k].second] += layout.exchanges[k].damage_b_bins - 1;
    }
    for (std::size_t u = 0; u < config.units.size(); ++u) {
        layout.damage_offset.push_back(at);
        at += layout.damage_bins[u];
        layout.state_offset.push_back(at);
        at += config.units[u].state_count();
    }
    for (const PairConfig& pair : config.pairs) {
        layout.casualties_offset.push_back(at);
        at += static_cast<std::size_t>(config.units[pair.first].removed_bins()) * config.units[pair.second].removed_bins();
    }
    layout.total = at;
    return layout;
}

}  // namespace mh::force_melee

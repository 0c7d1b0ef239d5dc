// Several units in one melee (docs/rules/force_melee.md §3): engaged pairs, each one exchange with the dice
// each unit assigned to that enemy. Exchanges are independent and use the state before the melee;
// the damage of each exchange is one lump per unit, applied in the order the pairs are listed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "force_melee/allocation.hpp"
#include "force_melee/exchange.hpp"

namespace mh::force_melee {

struct PairConfig {
    int first = 0;   // index of a unit
    int second = 0;  // index of the unit it is engaged with
    // exchange.a is `first` striking `second` (its dice assigned to it), exchange.b the reverse.
    ExchangeConfig exchange;
};

struct MeleeConfig {
    std::vector<UnitConfig> units;
    std::vector<PairConfig> pairs;
    Allocation allocation = Allocation::spill;
};

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

MeleeLayout melee_layout(const MeleeConfig& config);

// Cells of the product of the exchanges' joint damage laws (what the exact engine enumerates).
double exact_cells(const MeleeConfig& config);

std::vector<double> melee_exact(const MeleeConfig& config);

std::vector<uint64_t> melee_sample(const MeleeConfig& config, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                   uint64_t chunk_end, int threads);

}  // namespace mh::force_melee

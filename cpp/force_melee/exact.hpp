// Force melee: the exact engines (docs/rules/force_melee.md §2, §3, §6): one exchange as the
// product of both sides' trinomial laws, resolve_exchange() per cell; a melee of several units as
// the product of its exchanges' damage laws.
#pragma once
#include <vector>

#include "force_melee/config.hpp"
#include "force_melee/layout.hpp"
#include "force_melee/resolve.hpp"

namespace mh::force_melee {

// One side's law of (hits, crits) before any extra hits: a trinomial over its dice.
struct RollCell {
    SideRoll roll;
    double p;
};
std::vector<RollCell> roll_law(const SideConfig& side);

// Exact probabilities, laid out as exchange_layout() says.
std::vector<double> exchange_exact(const ExchangeConfig& config);

// One exchange's exact law as fm.melee's result holds it: the damage table and the hits table.
struct ExchangeTables {
    ExchangeLayout layout;
    std::vector<double> damage;  // damage to A x damage to B (layout.damage_a_bins x damage_b_bins), C order
    std::vector<double> hits;    // hits A x hits B (layout.hits_a_bins x hits_b_bins), C order
};
ExchangeTables exchange_tables(const ExchangeConfig& config);

// Cells of the product of the exchanges' joint damage laws (what the exact engine enumerates).
double exact_cells(const MeleeConfig& config);

// Exact probabilities of a melee, laid out as melee_layout() says.
std::vector<double> melee_exact(const MeleeConfig& config);

}  // namespace mh::force_melee

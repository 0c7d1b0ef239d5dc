#include "force_melee/exact.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include "force_melee/hit_roll.hpp"
#include "force_melee/layout.hpp"
#include "force_melee/melee_many.hpp"

namespace mh::force_melee {

std::vector<RollCell> roll_law(const SideConfig& side) {
    const DieLaw die = die_law(side);
    // Binomial coefficients up to 40 are exact in a double. Only rows 0..dice are filled, each to its
    // end, and nothing past them is read: zeroing the whole 41 x 41 table cost more than a small
    // exchange.
    double choose[kMaxDice + 1][kMaxDice + 1];
    for (int n = 0; n <= side.dice; ++n) {
        choose[n][0] = 1.0;
        for (int k = 1; k < n; ++k) choose[n][k] = choose[n - 1][k - 1] + choose[n - 1][k];
        choose[n][n] = 1.0;
    }
    std::vector<RollCell> cells;
    const int n = side.dice;
    for (int hits = 0; hits <= n; ++hits) {
        for (int crits = 0; crits <= hits; ++crits) {
            // n!/(misses! plain! crits!) = C(n, hits) C(hits, crits)
            const double p = choose[n][hits] * choose[hits][crits] * std::pow(die.miss, n - hits) *
                             std::pow(die.hit, hits - crits) * std::pow(die.crit, crits);
            if (p > 0.0) cells.push_back(RollCell{SideRoll{hits, crits}, p});
        }
    }
    return cells;
}

std::vector<double> exchange_exact(const ExchangeConfig& config) {
    const ExchangeLayout layout = exchange_layout(config);
    std::vector<double> probs(layout.total(), 0.0);
    const std::vector<RollCell> law_a = roll_law(config.a);
    const std::vector<RollCell> law_b = roll_law(config.b);
    for (const RollCell& ca : law_a) {
        for (const RollCell& cb : law_b) {
            const ExchangeOutcome o = resolve_exchange(config.a, ca.roll, config.b, cb.roll, config.rules);
            const double p = ca.p * cb.p;
            probs[layout.damage_bin(o)] += p;
            probs[layout.hits_bin(o)] += p;
        }
    }
    return probs;
}

ExchangeTables exchange_tables(const ExchangeConfig& config) {
    ExchangeTables t;
    t.layout = exchange_layout(config);
    std::vector<double> flat = exchange_exact(config);
    const auto split = flat.begin() + static_cast<std::ptrdiff_t>(t.layout.hits_offset());
    t.hits.assign(split, split + static_cast<std::ptrdiff_t>(t.layout.hits_cells()));
    flat.resize(t.layout.damage_cells());
    t.damage = std::move(flat);
    return t;
}

namespace {

// Non-zero cells (damage to first, damage to second, p) of one exchange's exact law.
struct DamageCell {
    int to_first;
    int to_second;
    double p;
};

std::vector<DamageCell> damage_cells(const ExchangeLayout& layout, const std::vector<double>& probs) {
    std::vector<DamageCell> cells;
    for (int da = 0; da < layout.damage_a_bins; ++da)
        for (int db = 0; db < layout.damage_b_bins; ++db) {
            const double p = probs[static_cast<std::size_t>(da) * layout.damage_b_bins + db];
            if (p > 0.0) cells.push_back(DamageCell{da, db, p});
        }
    return cells;
}

// Depth-first over the product of the exchanges' laws, applying each exchange's lumps on the way
// down (so lumps land in pair order) and recording the finished melee at the leaves.
void enumerate(const MeleeConfig& config, const MeleeLayout& layout, const std::vector<std::vector<DamageCell>>& laws,
               std::size_t depth, const MeleeState& state, double p, double* out) {
    if (depth == laws.size()) {
        record_units(config, layout, state, p, out);
        return;
    }
    for (const DamageCell& cell : laws[depth]) {
        MeleeState next = state;
        apply_exchange(config, config.pairs[depth], cell.to_first, cell.to_second, next);
        enumerate(config, layout, laws, depth + 1, next, p * cell.p, out);
    }
}

}  // namespace

double exact_cells(const MeleeConfig& config) {
    double cells = 1.0;
    for (const PairConfig& pair : config.pairs) {
        const ExchangeLayout layout = exchange_layout(pair.exchange);
        cells *= static_cast<double>(damage_cells(layout, exchange_exact(pair.exchange)).size());
    }
    return cells;
}

std::vector<double> melee_exact(const MeleeConfig& config) {
    const MeleeLayout layout = melee_layout(config);
    std::vector<double> out(layout.total, 0.0);
    std::vector<std::vector<DamageCell>> laws;
    for (std::size_t k = 0; k < config.pairs.size(); ++k) {
        const std::vector<double> probs = exchange_exact(config.pairs[k].exchange);
        std::copy(probs.begin(), probs.end(), out.begin() + static_cast<std::ptrdiff_t>(layout.exchange_offset[k]));
        laws.push_back(damage_cells(layout.exchanges[k], probs));
    }
    enumerate(config, layout, laws, 0, fresh_melee(config), 1.0, out.data());
    return out;
}

}  // namespace mh::force_melee

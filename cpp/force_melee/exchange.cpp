#include "force_melee/exchange.hpp"

#include <cmath>

#include "core/dice.hpp"
#include "core/parallel.hpp"
#include "force_melee/hit_roll.hpp"
#include "force_melee/resolve.hpp"

namespace mh::force_melee {

ExchangeLayout exchange_layout(const ExchangeConfig& config) {
    ExchangeLayout layout;
    layout.damage_a_bins = max_damage_dealt(config.b, config.rules) + 1;
    layout.damage_b_bins = max_damage_dealt(config.a, config.rules) + 1;
    layout.hits_a_bins = max_compared_hits(config.a, config.rules) + 1;
    layout.hits_b_bins = max_compared_hits(config.b, config.rules) + 1;
    return layout;
}

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

std::vector<uint64_t> exchange_sample(const ExchangeConfig& config, uint64_t seed, uint64_t total,
                                      uint64_t chunk_begin, uint64_t chunk_end, int threads) {
    const ExchangeLayout layout = exchange_layout(config);
    const FaceMasks masks_a = face_masks(config.a);
    const FaceMasks masks_b = face_masks(config.b);
    return run_chunks(seed, total, chunk_begin, chunk_end, layout.total(), threads,
                      [&](Rng& rng, uint64_t n, uint64_t* counts) {
                          DiceSource dice(rng);
                          for (uint64_t i = 0; i < n; ++i) {
                              const SideRoll ra = roll_side(config.a.dice, masks_a, dice);
                              const SideRoll rb = roll_side(config.b.dice, masks_b, dice);
                              const ExchangeOutcome o = resolve_exchange(config.a, ra, config.b, rb, config.rules);
                              ++counts[layout.damage_bin(o)];
                              ++counts[layout.hits_bin(o)];
                          }
                      });
}

}  // namespace mh::force_melee

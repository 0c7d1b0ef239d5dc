#include "force_melee/many.hpp"

#include <array>

#include "core/dice.hpp"
#include "core/parallel.hpp"
#include "force_melee/hit_roll.hpp"
#include "force_melee/resolve.hpp"

namespace mh::force_melee {

MeleeLayout melee_layout(const MeleeConfig& config) {
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

namespace {

// What the melee did to every unit: damage taken and allocation state, updated lump by lump.
struct MeleeState {
    std::array<int, kMaxUnits> damage{};
    std::array<UnitState, kMaxUnits> units{};
};

MeleeState fresh_melee(const MeleeConfig& config) {
    MeleeState state;
    for (std::size_t u = 0; u < config.units.size(); ++u) state.units[u] = fresh_state(config.units[u]);
    return state;
}

// One exchange's lumps, in pair order: the first unit's, then the second's (different units).
void apply_exchange(const MeleeConfig& config, const PairConfig& pair, int to_first, int to_second, MeleeState& state) {
    state.damage[pair.first] += to_first;
    state.damage[pair.second] += to_second;
    allocate(config.units[pair.first], state.units[pair.first], to_first, config.allocation);
    allocate(config.units[pair.second], state.units[pair.second], to_second, config.allocation);
}

// The per-unit and per-pair bins of a finished melee.
template <class Weight, class Sink>
void record_units(const MeleeConfig& config, const MeleeLayout& layout, const MeleeState& state, Weight w, Sink* out) {
    for (std::size_t u = 0; u < config.units.size(); ++u) {
        out[layout.damage_offset[u] + state.damage[u]] += w;
        out[layout.state_offset[u] + state_index(config.units[u], state.units[u])] += w;
    }
    for (std::size_t k = 0; k < config.pairs.size(); ++k) {
        const PairConfig& pair = config.pairs[k];
        const std::size_t cell = static_cast<std::size_t>(state.units[pair.first].removed) *
                                     (config.units[pair.second].models + 1) +
                                 state.units[pair.second].removed;
        out[layout.casualties_offset[k] + cell] += w;
    }
}

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

std::vector<uint64_t> melee_sample(const MeleeConfig& config, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                   uint64_t chunk_end, int threads) {
    const MeleeLayout layout = melee_layout(config);
    std::vector<std::array<FaceMasks, 2>> masks;
    for (const PairConfig& pair : config.pairs)
        masks.push_back({face_masks(pair.exchange.a), face_masks(pair.exchange.b)});
    const MeleeState start = fresh_melee(config);
    return run_chunks(seed, total, chunk_begin, chunk_end, layout.total, threads,
                      [&](Rng& rng, uint64_t n, uint64_t* counts) {
                          DiceSource dice(rng);
                          for (uint64_t i = 0; i < n; ++i) {
                              MeleeState state = start;
                              for (std::size_t k = 0; k < config.pairs.size(); ++k) {
                                  const ExchangeConfig& ex = config.pairs[k].exchange;
                                  const SideRoll ra = roll_side(ex.a.dice, masks[k][0], dice);
                                  const SideRoll rb = roll_side(ex.b.dice, masks[k][1], dice);
                                  const ExchangeOutcome o = resolve_exchange(ex.a, ra, ex.b, rb, ex.rules);
                                  uint64_t* part = counts + layout.exchange_offset[k];
                                  ++part[layout.exchanges[k].damage_bin(o)];
                                  ++part[layout.exchanges[k].hits_bin(o)];
                                  apply_exchange(config, config.pairs[k], o.damage_to_a, o.damage_to_b, state);
                              }
                              record_units(config, layout, state, uint64_t{1}, counts);
                          }
                      });
}

}  // namespace mh::force_melee

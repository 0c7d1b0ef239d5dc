#include "force_melee/monte_carlo.hpp"

#include <array>

#include "core/dice.hpp"
#include "core/parallel.hpp"
#include "force_melee/hit_roll.hpp"
#include "force_melee/layout.hpp"
#include "force_melee/melee_many.hpp"

namespace mh::force_melee {

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

// The Monte Carlo shooting engine: real dice for the attack, the defence, the relic, Feel No
// Pain and Hot; blocks and Just a Scratch from allocate_blocks (tabulated once per call, not per sample).
#include <algorithm>

#include "core/dice.hpp"
#include "core/parallel.hpp"
#include "killteam/dice/monte_carlo.hpp"
#include "killteam/shoot/monte_carlo.hpp"
#include "killteam/shoot/resolve.hpp"

namespace mh::kt {

namespace {

int block_index(const Retained& hits, const Retained& saves) {
    return ((hits.crits * kTableSide + hits.norms) * kSaveSide + saves.crits) * kSaveSide + saves.norms;
}

// The relic tries each damaging die in turn; the first die with a 6 on its 1D6 / 2D6 is ignored.
RelicPick roll_relic(const ShootConfig& cfg, const Retained& unblocked, DiceSource& dice) {
    const RelicOrder order = relic_order(cfg, unblocked);
    for (int g = 0; g < order.groups; ++g) {
        for (int i = 0; i < order.count[g]; ++i) {
            bool six = dice.d6() == 6;
            if (cfg.saintly_relics == 2) six = (dice.d6() == 6) || six;
            if (six) return order.kind[g];
        }
    }
    return RelicPick::None;
}

}  // namespace

std::size_t shoot_histogram_bins(const ShootConfig& cfg) {
    return static_cast<std::size_t>(cfg.rounds) * max_attack_damage(cfg) + 1 + kTableSide * kTableSide +
           kSaveSide * kSaveSide + self_damage_bins(cfg);
}

std::vector<uint64_t> shoot_monte_carlo(const ShootConfig& cfg, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                        uint64_t chunk_end, int threads) {
    const int dice = cfg.attack.dice;
    const AttackProfile attack = attack_against(cfg);
    AttackProfile defence[kDefenceDice + 1];
    for (int d = 0; d <= kDefenceDice; ++d) defence[d] = defence_profile(cfg, d);
    std::vector<Retained> unblocked(static_cast<std::size_t>(kTableSide) * kTableSide * kSaveSide * kSaveSide);
    for (int c = 0; c <= dice; ++c)
        for (int n = 0; c + n <= dice; ++n)
            for (int sc = 0; sc <= kDefenceDice; ++sc)
                for (int sn = 0; sc + sn <= kDefenceDice; ++sn)
                    unblocked[block_index({c, n}, {sc, sn})] = allocate_blocks(cfg, {c, n}, {sc, sn}).unblocked;

    const std::size_t damage_bins = static_cast<std::size_t>(cfg.rounds) * max_attack_damage(cfg) + 1;
    const std::size_t attack_offset = damage_bins;
    const std::size_t saves_offset = damage_bins + kTableSide * kTableSide;
    const std::size_t self_offset = saves_offset + kSaveSide * kSaveSide;
    return run_chunks(seed, total, chunk_begin, chunk_end, shoot_histogram_bins(cfg), threads,
                      [&](Rng& rng, uint64_t n_samples, uint64_t* counts) {
                          DiceSource dice_source(rng);
                          for (uint64_t i = 0; i < n_samples; ++i) {
                              int total_damage = 0;
                              int self_damage = 0;
                              int relics_left = cfg.saintly_relics > 0 ? 2 : 0;
                              for (int round = 0; round < cfg.rounds; ++round) {
                                  const Retained hits = roll_attack(attack, dice_source);
                                  const Retained saves = roll_attack(defence[defence_dice(cfg, hits)], dice_source);
                                  const Retained left = unblocked[block_index(hits, saves)];
                                  RelicPick ignored = RelicPick::None;
                                  if (relics_left > 0) {
                                      ignored = roll_relic(cfg, left, dice_source);
                                      if (ignored != RelicPick::None) --relics_left;
                                  }
                                  const AttackDamage a = attack_damage(cfg, hits.crits, left, ignored);
                                  int damage = a.damage;
                                  if (cfg.feel_no_pain > 0)
                                      for (int k = 0; k < a.instances; ++k)
                                          if (dice_source.d6() >= cfg.feel_no_pain) --damage;
                                  total_damage += std::max(0, damage);  // per hit: the total is floored
                                  ++counts[attack_offset + hits.crits * kTableSide + hits.norms];
                                  ++counts[saves_offset + saves.crits * kSaveSide + saves.norms];
                                  // Hot: the shooter's own D6 after the round (§2.2)
                                  if (cfg.hot) self_damage += hot_damage(cfg, dice_source.d6());
                              }
                              ++counts[total_damage];
                              if (cfg.hot) ++counts[self_offset + self_damage];
                          }
                      });
}

}  // namespace mh::kt

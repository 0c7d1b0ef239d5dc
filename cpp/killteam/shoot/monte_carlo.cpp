// The Monte Carlo shooting engine: real dice for the attack, the defence, the relic, Feel No
// Pain and Hot. The attack and the defence dice are read through AttackRoller (the same dice in the same
// order as roll_attack, looked up); what follows from a (retained hits, saves) pair without a die
// (blocks, Just a Scratch, Durable, the damage before relics and Feel No Pain) is tabulated once per
// call, not per sample.
#include <algorithm>
#include <array>

#include "core/dice.hpp"
#include "core/parallel.hpp"
#include "killteam/dice/roller.hpp"
#include "killteam/shoot/monte_carlo.hpp"
#include "killteam/shoot/resolve.hpp"

namespace mh::kt {

namespace {

// AttackRoller's index of a defence roll (crit saves * kTableSide + normal saves) stays below this.
constexpr int kSaveIndexSide = kDefenceDice * kTableSide + kDefenceDice + 1;
// One (retained hits, saves) pair: the attack roller's index * kSaveIndexSide + the defence roller's.
constexpr int kOutcomes = kTableSide * kTableSide * kSaveIndexSide;

// What a (hits, saves) pair leads to before any chance step.
struct Outcome {
    Retained hits, saves, unblocked;
    AttackDamage damage;  // with no relic pick
};

// Feel No Pain's successes among g dice read as one base-6 number (DiceSource::digits), g <= kGroup.
class FnpCounter {
public:
    static constexpr int kGroup = 4;
    explicit FnpCounter(int threshold) {
        for (int g = 1; g <= kGroup; ++g) {
            table_[g].resize(DiceSource::kPow6[g]);
            for (uint64_t v = 0; v < DiceSource::kPow6[g]; ++v) {
                int successes = 0;
                for (uint64_t x = v, i = 0; i < static_cast<uint64_t>(g); ++i, x /= 6)
                    successes += static_cast<int>(x % 6) + 1 >= threshold ? 1 : 0;
                table_[g][v] = static_cast<uint8_t>(successes);
            }
        }
    }
    // Successes among `rolls` dice: the same dice, in the same order, as `rolls` calls of d6().
    int successes(int rolls, DiceSource& dice) const {
        int total = 0;
        for (; rolls > 0; rolls -= kGroup) {
            const int g = std::min(rolls, kGroup);
            total += table_[g][dice.digits(g)];
        }
        return total;
    }

private:
    std::array<std::vector<uint8_t>, kGroup + 1> table_;
};

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
    const AttackRoller attack(attack_against(cfg));  // the target's defences applied (§2.3)
    // The defence rollers a shot can reach: without a retained crit, and with one (Piercing Crits).
    const int defence_without_crit = defence_dice(cfg, {0, dice});
    const int defence_with_crit = defence_dice(cfg, {1, 0});
    const AttackRoller defence_plain(defence_profile(cfg, defence_without_crit));
    const AttackRoller defence_pierced(defence_profile(cfg, defence_with_crit));

    std::vector<Outcome> outcomes(kOutcomes);
    for (int c = 0; c <= dice; ++c)
        for (int n = 0; c + n <= dice; ++n)
            for (int sc = 0; sc <= kDefenceDice; ++sc)
                for (int sn = 0; sc + sn <= kDefenceDice; ++sn) {
                    Outcome& o = outcomes[(c * kTableSide + n) * kSaveIndexSide + sc * kTableSide + sn];
                    o.hits = {c, n};
                    o.saves = {sc, sn};
                    o.unblocked = allocate_blocks(cfg, o.hits, o.saves).unblocked;
                    o.damage = attack_damage(cfg, c, o.unblocked, RelicPick::None);
                }
    const FnpCounter fnp(cfg.feel_no_pain);

    const std::size_t damage_bins = static_cast<std::size_t>(cfg.rounds) * max_attack_damage(cfg) + 1;
    const std::size_t attack_offset = damage_bins;
    const std::size_t saves_offset = damage_bins + kTableSide * kTableSide;
    const std::size_t self_offset = saves_offset + kSaveSide * kSaveSide;
    // One round and no chance step: the damage is a function of the outcome, so a sample is its dice
    // and one count of its outcome; the histogram is read off the outcomes' counts once per chunk.
    const bool dice_only = cfg.rounds == 1 && cfg.saintly_relics == 0 && cfg.feel_no_pain == 0 && !cfg.hot;
    return run_chunks(seed, total, chunk_begin, chunk_end, shoot_histogram_bins(cfg), threads,
                      [&](Rng& rng, uint64_t n_samples, uint64_t* counts) {
                          DiceSource dice_source(rng);
                          std::vector<uint32_t> by_outcome(kOutcomes, 0);  // a chunk has at most 2^16 * kMaxRounds outcomes
                          auto roll_outcome = [&]() {
                              const int h = attack.roll(dice_source);
                              const AttackRoller& d = h >= kTableSide ? defence_pierced : defence_plain;
                              const int index = h * kSaveIndexSide + d.roll(dice_source);
                              ++by_outcome[index];
                              return index;
                          };
                          if (dice_only) {
                              for (uint64_t i = 0; i < n_samples; ++i) roll_outcome();
                          } else {
                              for (uint64_t i = 0; i < n_samples; ++i) {
                                  int total_damage = 0;
                                  int self_damage = 0;
                                  int relics_left = cfg.saintly_relics > 0 ? 2 : 0;
                                  for (int round = 0; round < cfg.rounds; ++round) {
                                      const Outcome& o = outcomes[roll_outcome()];
                                      AttackDamage a = o.damage;
                                      if (relics_left > 0) {
                                          const RelicPick ignored = roll_relic(cfg, o.unblocked, dice_source);
                                          if (ignored != RelicPick::None) {
                                              --relics_left;
                                              a = attack_damage(cfg, o.hits.crits, o.unblocked, ignored);
                                          }
                                      }
                                      if (cfg.feel_no_pain > 0) a.damage -= fnp.successes(a.instances, dice_source);
                                      total_damage += std::max(0, a.damage);  // per hit: the total is floored
                                      // Hot: the shooter's own D6 after the round (§2.2)
                                      if (cfg.hot) self_damage += hot_damage(cfg, dice_source.d6());
                                  }
                                  ++counts[total_damage];
                                  if (cfg.hot) ++counts[self_offset + self_damage];
                              }
                          }
                          for (int index = 0; index < kOutcomes; ++index) {
                              const uint64_t k = by_outcome[index];
                              if (k == 0) continue;
                              const Outcome& o = outcomes[index];
                              if (dice_only) counts[std::max(0, o.damage.damage)] += k;
                              counts[attack_offset + o.hits.crits * kTableSide + o.hits.norms] += k;
                              counts[saves_offset + o.saves.crits * kSaveSide + o.saves.norms] += k;
                          }
                      });
}

}  // namespace mh::kt

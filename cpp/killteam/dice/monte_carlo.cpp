#include "killteam/dice/monte_carlo.hpp"

#include "core/parallel.hpp"
#include "killteam/dice/resolve.hpp"
#include "killteam/dice/roller.hpp"

namespace mh::kt {

using namespace dice_steps;

Retained roll_attack(const AttackProfile& p, DiceSource& dice) {
    const int k = rolled_dice(p);
    int faces[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < k; ++i) ++faces[dice.d6()];
    const Kept kept = keep_first_roll(p, faces);
    int count[3] = {kept.f, kept.n, kept.c};
    int ones = kept.ones;
    for (int i = 0; i < kept.rerolled; ++i) {
        const int face = dice.d6();
        ++count[classify(p, face)];
        if (face == 1) ++ones;
    }
    return finish_roll(p, count[kCrit], count[kNorm], count[kFail], ones);
}

std::vector<uint64_t> attack_dice_counts(const AttackProfile& p, uint64_t seed, uint64_t total, uint64_t chunk_begin,
                                         uint64_t chunk_end, int threads) {
    const AttackRoller roller(p);  // the same dice as roll_attack, looked up
    return run_chunks(seed, total, chunk_begin, chunk_end, kTableSide * kTableSide, threads,
                      [&roller](Rng& rng, uint64_t n, uint64_t* c) {
                          DiceSource dice(rng);
                          for (uint64_t i = 0; i < n; ++i) ++c[roller.roll(dice)];
                      });
}

}  // namespace mh::kt

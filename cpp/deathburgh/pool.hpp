// One side's successes (deathburgh.md §2): exactly, by convolution, and by rolling real dice.
#pragma once
#include <vector>

#include "core/dice.hpp"
#include "deathburgh/rules.hpp"

namespace mh::deathburgh {

// Successes of one die showing `face` against `target`: 0 below it, 1 from it to 5, 2 on a 6.
inline int die_successes(int face, int target) { return (face >= target) + (face == 6); }

// P(successes = s) for s = 0..max_successes(pool).
std::vector<double> pool_pmf(const PoolSpec& pool);

// One roll of the pool with real dice: failed dice are rerolled once as the pool says, never a success.
inline int roll_pool(const PoolSpec& pool, DiceSource& dice) {
    if (pool.auto_hits >= 0) return pool.auto_hits;
    const int target = pool.target;
    int successes = 2 * pool.instant_crits;
    switch (pool.reroll) {
        case Reroll::none:
            for (int i = 0; i < pool.rolled; ++i) successes += die_successes(dice.d6(), target);
            break;
        case Reroll::all_fails:
            for (int i = 0; i < pool.rolled; ++i) {
                int s = die_successes(dice.d6(), target);
                if (s == 0) s = die_successes(dice.d6(), target);
                successes += s;
            }
            break;
        case Reroll::one_fail: {
            bool reroll_left = true;
            for (int i = 0; i < pool.rolled; ++i) {
                int s = die_successes(dice.d6(), target);
                if (s == 0 && reroll_left) {
                    reroll_left = false;
                    s = die_successes(dice.d6(), target);
                }
                successes += s;
            }
            break;
        }
    }
    return successes;
}

}  // namespace mh::deathburgh

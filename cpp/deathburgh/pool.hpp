// One side's successes (docs/rules/deathburgh.md §2): exactly, by convolution, and by rolling real dice.
#pragma once
#include <algorithm>
#include <vector>

#include "core/dice.hpp"
#include "deathburgh/config.hpp"

namespace mh::deathburgh {

// Most successes a pool can produce.
inline int max_successes(const PoolSpec& pool) {
    if (pool.auto_hits >= 0) return pool.auto_hits;
    return 2 * (pool.rolled + pool.instant_crits);
}

// Most wounds a side with this pool can inflict: its successes, or 1 from an alpha draw.
inline int max_wounds_inflicted(const PoolSpec& pool) {
    return std::min(std::max(max_successes(pool), 1), pool.wound_cap);
}

// Successes of one die showing `face` against `target`: 0 below it, 1 from it to 5, 2 on a 6.
inline int die_successes(int face, int target) { return (face >= target) + (face == 6); }

// P(successes = s) for s = 0..max_successes(pool).
std::vector<double> pool_pmf(const PoolSpec& pool);

// pool_pmf for an entry point: the pool is checked first (check_pool).
std::vector<double> checked_pool_pmf(const PoolSpec& pool);

// One roll of the pool with real dice: failed dice are rerolled once as the pool says, never a success.
// The dice are rolled first and the failures counted, then that many (or one) dice are rolled again:
// the same law as rerolling each failed die in turn, without a hard-to-predict branch per die.
inline int roll_pool(const PoolSpec& pool, DiceSource& dice) {
    if (pool.auto_hits >= 0) return pool.auto_hits;
    const int target = pool.target;
    int successes = 2 * pool.instant_crits;
    int failures = 0;
    for (int i = 0; i < pool.rolled; ++i) {
        const int s = die_successes(dice.d6(), target);
        successes += s;
        failures += (s == 0);
    }
    int rerolls = 0;
    switch (pool.reroll) {
        case Reroll::none: break;
        case Reroll::all_fails: rerolls = failures; break;
        case Reroll::one_fail: rerolls = failures > 0 ? 1 : 0; break;
    }
    for (int i = 0; i < rerolls; ++i) successes += die_successes(dice.d6(), target);
    return successes;
}

}  // namespace mh::deathburgh

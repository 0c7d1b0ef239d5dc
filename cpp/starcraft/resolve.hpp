// One batch (all models firing one weapon profile at one unit), resolved on dice (docs/rules/starcraft.md §3).
//
// roll_batch is the resolution function of the game: the Monte Carlo engine calls it with random
// dice, sc.resolve with scripted faces. The exact engine (exact.cpp) walks the same stages with
// the same step functions (steps.hpp) over distributions.
#pragma once
#include <algorithm>

#include "starcraft/config.hpp"
#include "starcraft/steps.hpp"

namespace mh::starcraft {

// What one batch did, stage by stage (the numbers players look at).
struct BatchRoll {
    int dice = 0;
    int hits = 0;  // Armour Pool after Precision (H')
    int surge = 0;
    int bypass = 0;
    int armour_fails = 0;  // after Tough
    int damage_pool = 0;
    int inflicting = 0;  // damage-pool dice left after Evade
};

// What the hit roll showed: hits, and the hits / misses whose natural face is crit_face().
struct HitCount {
    int hits = 0;
    int hits_showing_c = 0;
    int misses_showing_c = 0;
};

// The hit stage (docs/rules/starcraft.md §3.1-2) once the hit dice are counted: the Armour Pool after Precision
// (H') and the Critical Hit dice. Under "natural" the attacker promotes misses showing the Critical Hit
// face first, so those promoted dice count too. Both engines call this: Monte Carlo on rolled dice,
// the exact engine on every count the hit dice can show.
struct HitStage {
    int pool = 0;  // H'
    int crit = 0;
};

inline HitStage hit_stage(const BatchConfig& c, const HitCount& count) {
    HitStage s;
    s.pool = precision_hits(c.dice(), count.hits, c.precision);
    s.crit = c.crit_natural ? count.hits_showing_c + std::min(c.precision, count.misses_showing_c) : c.critical_hit;
    return s;
}

namespace detail {

// crit_face 0 never matches a die.
template <class Dice>
inline void roll_hit_group(Dice& dice, int n, int target, int crit_face, HitCount& count) {
    for (int i = 0; i < n; ++i) {
        const int face = dice.d6();
        const bool hit = face >= target;
        const bool shows_c = face == crit_face;
        count.hits += hit;
        count.hits_showing_c += hit & shows_c;
        count.misses_showing_c += !hit & shows_c;
    }
}

template <class Dice>
inline int count_at_least(Dice& dice, int n, int target) {
    int successes = 0;
    for (int i = 0; i < n; ++i) successes += dice.d6() >= target;
    return successes;
}

}  // namespace detail

// Dice are consumed in the order sc.resolve documents: hit dice (normal range, then long range),
// the Surge die (whenever a Surge die applies), Armour dice, Evade dice.
template <class Dice>
inline BatchRoll roll_batch(const BatchConfig& c, Dice& dice) {
    BatchRoll r;
    r.dice = c.dice();

    HitCount count;
    if (c.roll_hits) {
        detail::roll_hit_group(dice, c.dice_normal, c.hit_target_normal, c.crit_face(), count);
        detail::roll_hit_group(dice, c.dice_long, c.hit_target_long, c.crit_face(), count);
    } else {
        count.hits = r.dice;
    }
    const HitStage hit = hit_stage(c, count);
    r.hits = hit.pool;

    const SurgeKind kind = c.surge_kind;
    if (kind == SurgeKind::fixed) {
        r.surge = c.surge_fixed;
    } else if (kind != SurgeKind::none) {
        r.surge = surge_value(kind, dice.d6());
    }
    r.bypass = bypass(r.hits, r.surge, hit.crit, c.dodge);

    const int armour_dice = r.hits - r.bypass;
    const int fails = armour_dice - detail::count_at_least(dice, armour_dice, c.armour_target);
    r.armour_fails = tough(fails, c.tough);
    r.damage_pool = r.bypass + r.armour_fails;

    r.inflicting = r.damage_pool;
    if (c.evade) r.inflicting -= detail::count_at_least(dice, r.damage_pool, c.evade_target);
    return r;
}

}  // namespace mh::starcraft

// The hit roll (docs/rules/force_melee.md §2 step 1): a d6 per die, hit on face >= target, crit on face >=
// crit_face, one reroll of every miss ("fails") or every natural 1 ("ones").
#pragma once
#include <array>

#include "core/dice.hpp"
#include "force_melee/config.hpp"
#include "force_melee/resolve.hpp"

namespace mh::force_melee {

// Per-die probabilities of miss / non-critical hit / critical hit after rerolls.
struct DieLaw {
    double miss = 0.0;
    double hit = 0.0;  // hit that is not a crit
    double crit = 0.0;
};

inline DieLaw die_law(const SideConfig& side) {
    const double miss0 = (side.target - 1) / 6.0;
    const double hit0 = (side.crit_face - side.target) / 6.0;
    const double crit0 = (7 - side.crit_face) / 6.0;
    // Chance that a die's first face is rerolled: every miss, or only a natural 1.
    double rerolled = 0.0;
    if (side.reroll == Reroll::fails) rerolled = miss0;
    else if (side.reroll == Reroll::ones) rerolled = 1.0 / 6.0;
    return DieLaw{miss0 - rerolled + rerolled * miss0, hit0 * (1.0 + rerolled), crit0 * (1.0 + rerolled)};
}

// Faces as bit masks (bit f set for face f), so a die costs a couple of shifts, not branches.
struct FaceMasks {
    unsigned hit = 0;
    unsigned crit = 0;
    unsigned reroll = 0;
};

inline FaceMasks face_masks(const SideConfig& side) {
    FaceMasks m;
    for (int face = 1; face <= 6; ++face) {
        if (face >= side.target) m.hit |= 1u << face;
        if (face >= side.crit_face) m.crit |= 1u << face;
        const bool miss = face < side.target;
        if ((side.reroll == Reroll::fails && miss) || (side.reroll == Reroll::ones && face == 1)) m.reroll |= 1u << face;
    }
    return m;
}

inline SideRoll roll_side(int dice_count, const FaceMasks& masks, DiceSource& dice) {
    SideRoll roll;
    for (int i = 0; i < dice_count; ++i) {
        int face = dice.d6();
        if ((masks.reroll >> face) & 1u) face = dice.d6();
        roll.hits += static_cast<int>((masks.hit >> face) & 1u);
        roll.crits += static_cast<int>((masks.crit >> face) & 1u);
    }
    return roll;
}

}  // namespace mh::force_melee

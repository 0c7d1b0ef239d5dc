// What a parry cancels (docs/rules/killteam.md §3.2, the parry table), and the parry a careful fighter picks.
#pragma once
#include <algorithm>

#include "killteam/fight/state.hpp"

namespace mh::kt {

// Brutal on the enemy's weapon: only crits can parry it.
inline bool can_norm_parry(const FighterSpec& enemy) { return !enemy.brutal; }

// A crit parry by `parrier` (spec `p`) against `enemy`. Returns how many successes it cancelled.
//   plain:        one enemy crit, or a norm if it has no crit;
//   Storm Shield: that, twice;
//   Dueller:      one crit and one norm, or two norms (Dueller decides even with Storm Shield).
inline int crit_parry(const FighterSpec& p, Side& parrier, Side& enemy) {
    --parrier.crits;
    const int before = enemy.successes();
    if (p.dueller) {
        if (enemy.crits > 0) {
            --enemy.crits;
            enemy.norms = static_cast<int8_t>(std::max(0, enemy.norms - 1));
        } else {
            enemy.norms = static_cast<int8_t>(std::max(0, enemy.norms - 2));
        }
    } else {
        for (int i = 0; i < p.cancels_per_parry(); ++i) {
            if (enemy.crits > 0) --enemy.crits;
            else if (enemy.norms > 0) --enemy.norms;
        }
    }
    return before - enemy.successes();
}

// A norm parry: one enemy norm (two with Storm Shield). Never against Brutal, never a crit.
inline int norm_parry(const FighterSpec& p, Side& parrier, Side& enemy) {
    --parrier.norms;
    const int before = enemy.norms;
    enemy.norms = static_cast<int8_t>(std::max(0, enemy.norms - p.cancels_per_parry()));
    return before - enemy.norms;
}

// wiseParry: crit-parry an enemy crit if possible; else norm-parry an enemy norm (not against
// Brutal); else crit-parry an enemy norm; else (only norms against crits or Brutal) strike.
// Assumes both fighters hold successes.
inline Action wise_parry(const FighterSpec& enemy_spec, const Side& me, const Side& enemy) {
    if (enemy.crits > 0 && me.crits > 0) return Action::CritParry;
    if (me.norms > 0 && enemy.norms > 0 && can_norm_parry(enemy_spec)) return Action::NormParry;
    if (me.crits > 0) return Action::CritParry;
    return Action::NormStrike;
}

}  // namespace mh::kt

// Injured fighters between rounds (docs/rules/killteam.md §3.9): a fighter that starts a round
// with fewer than half its starting wounds left rolls that round's attack dice with its Hit stat
// worsened by 1. Every engine picks a round's dice here, by the wounds the round starts from.
#pragma once
#include <algorithm>

#include "killteam/dice/config.hpp"
#include "killteam/fight/config.hpp"

namespace mh::kt {

// Whether fighter `side` starting a round on `wounds` is injured (2 x wounds < its starting wounds).
inline bool is_injured(const FightSpec& spec, int side, int wounds) {
    return spec.injured && 2 * wounds < spec.fighter[side].wounds;
}

// The attack dice of an injured fighter: Hit worse by 1, never past 6+, and crits never below it
// (a Lethal threshold the new Hit passes rises with it, §1.2).
inline AttackProfile injured_profile(AttackProfile p) {
    p.hit = std::min(6, p.hit + 1);
    p.crit = std::max(p.crit, p.hit);
    return p;
}

// Both fighters' retained-dice tables: a fighter's own and its injured one.
struct FightDice {
    RetainedTable own[2] = {};
    RetainedTable injured[2] = {};

    // The table fighter `side` rolls in a round it starts on `wounds`.
    const RetainedTable& of(const FightSpec& spec, int side, int wounds) const {
        return is_injured(spec, side, wounds) ? injured[side] : own[side];
    }
};

}  // namespace mh::kt

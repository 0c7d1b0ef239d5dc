// The resolution of one pool of attack dice (docs/rules/killteam.md §1, §8.1): the first roll kept
// or rerolled, then the post-roll pipeline (`finish_roll`) that turns the dice as rolled and
// rerolled into retained (crits, norms). The exact enumeration (exact.cpp), the Monte Carlo roll
// (monte_carlo.cpp) and the roller's tables (roller.cpp) all go through these functions.
#pragma once
#include <algorithm>

#include "killteam/dice/config.hpp"

namespace mh::kt {

// The post-roll pipeline (§8.1) on rolled dice already rerolled: c crits, n norms, f fails, of which
// `ones` show an unmodified 1 (read only by Purity Seal's default reading).
Retained finish_roll(const AttackProfile& p, int c, int n, int f, int ones);

// The first roll's steps, shared by every engine of the attack dice.
namespace dice_steps {

enum Category { kFail = 0, kNorm = 1, kCrit = 2 };

inline Category classify(const AttackProfile& p, int face) {
    if (face >= p.crit) return kCrit;
    return face >= p.hit ? kNorm : kFail;
}

inline int auto_crit_dice(const AttackProfile& p) { return std::min(p.auto_crits, p.dice); }
inline int accurate_dice(const AttackProfile& p) { return std::min(p.accurate, p.dice - auto_crit_dice(p)); }
inline int rolled_dice(const AttackProfile& p) { return p.dice - auto_crit_dice(p) - accurate_dice(p); }

// Purity Seal's default reading needs the 1s among the fails; with a 2+ stat every fail is a 1.
inline bool tracks_ones(const AttackProfile& p) { return p.purity_seal && p.ones == Ones::UnmodifiedOnes && p.hit > 2; }

// How many fails and norms the reroll rule rerolls, and how many of those fails show a 1.
// `ones` = fails showing 1, `top_other` = count of the most common fail face other than 1. Where the
// rule leaves a choice, fails other than 1s are rerolled first: a kept 1 can only help Purity Seal.
struct Rerolls {
    int fails = 0;
    int norms = 0;
    int ones = 0;
};

inline Rerolls choose_rerolls(Reroll rule, int n, int f, int ones, int top_other) {
    const int others = f - ones;
    auto fails_preferring_others = [&](int k) { return Rerolls{k, 0, std::max(0, k - others)}; };
    switch (rule) {
        case Reroll::None: return {};
        case Reroll::Balanced: return fails_preferring_others(std::min(f, 1));
        case Reroll::DoubleBalanced: return fails_preferring_others(std::min(f, 2));
        case Reroll::Ceaseless:
        case Reroll::CeaselessBalanced: {
            // The most common fail face; on a tie a face other than 1.
            Rerolls r = ones > top_other ? Rerolls{ones, 0, ones} : Rerolls{top_other, 0, 0};
            if (rule == Reroll::CeaselessBalanced && f > r.fails) {
                const int others_left = others - (r.fails - r.ones);
                ++r.fails;
                if (others_left == 0) ++r.ones;
            }
            return r;
        }
        case Reroll::Relentless: return {f, 0, ones};
        case Reroll::RelentlessCritFishing: return {f, n, ones};
        case Reroll::RerollOnes: return {ones, 0, ones};
        case Reroll::RerollOnesBalanced: return {ones + (f > ones ? 1 : 0), 0, ones};
    }
    return {};
}

// The first roll, as counts per face (faces[1..6]): what is kept and how many dice are rolled again.
struct Kept {
    int c = 0, n = 0, f = 0;
    int ones = 0;  // kept fails showing 1
    int rerolled = 0;
};

inline Kept keep_first_roll(const AttackProfile& p, const int faces[7]) {
    int count[3] = {0, 0, 0};
    int top_other = 0;
    for (int face = 1; face <= 6; ++face) {
        const Category cat = classify(p, face);
        count[cat] += faces[face];
        if (cat == kFail && face != 1) top_other = std::max(top_other, faces[face]);
    }
    const Rerolls r = choose_rerolls(p.reroll, count[kNorm], count[kFail], faces[1], top_other);
    return {count[kCrit], count[kNorm] - r.norms, count[kFail] - r.fails, faces[1] - r.ones, r.fails + r.norms};
}

}  // namespace dice_steps

}  // namespace mh::kt

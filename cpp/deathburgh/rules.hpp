// Deathburgh combat rules (docs/rules/deathburgh.md §2 and §4): one side's roll and the outcome of a combat.
//
// Python works out each side's pool (mode dice, extra dice, instant 6! and 1!, Soul's Dice) and
// the rule switches, validates them, and hands this file plain structs. Everything here assumes
// valid input; check_pool / check_rules guard the entry points against out-of-range values.
#pragma once
#include <algorithm>

namespace mh::deathburgh {

enum class Reroll : int { none = 0, all_fails = 1, one_fail = 2 };
enum class Edition : int { web = 0, alpha = 1 };
enum class Reaction : int { attack = 0, dodge = 1, none = 2 };

constexpr int kMaxDice = 20;                   // dice per side after extras and added 6!
constexpr int kMaxSuccesses = 2 * kMaxDice;    // every die a critic (auto hits stay below this)
constexpr int kNoCap = kMaxSuccesses + 1;      // wound_cap when cap_wounds_at_dice is off

// One side's dice once the instant dice are placed.
struct PoolSpec {
    int rolled = 0;             // dice actually rolled
    int target = 4;             // 2..6: success at target..5, critic (2 successes) on a 6
    int instant_crits = 0;      // 6! dice, each worth 2 successes
    Reroll reroll = Reroll::none;
    int auto_hits = -1;         // >= 0: exactly this many successes, nothing rolled (DB-17)
    int wound_cap = kNoCap;     // most wounds this side may inflict (DB-7)
};

struct OutcomeRules {
    Edition edition = Edition::web;
    Reaction reaction = Reaction::attack;
    bool same_role = true;        // web dodge: excess parries wound back only between same roles (DB-5)
    bool draw_at_zero = true;     // alpha: a 0-0 draw counts as a draw (draw="always", DB-2)
    bool draw_in_dodge = false;   // alpha: a drawn dodge also costs each side 1 wound (DB-2)
};

struct Wounds {
    int to_defender;
    int to_attacker;
};

// Throw std::invalid_argument on anything outside the ranges above (entry-point guard only).
void check_pool(const PoolSpec& pool);
void check_rules(const OutcomeRules& rules);

// Most successes a pool can produce.
inline int max_successes(const PoolSpec& pool) {
    if (pool.auto_hits >= 0) return pool.auto_hits;
    return 2 * (pool.rolled + pool.instant_crits);
}

// Most wounds a side with this pool can inflict: its successes, or 1 from an alpha draw.
inline int max_wounds_inflicted(const PoolSpec& pool) {
    return std::min(std::max(max_successes(pool), 1), pool.wound_cap);
}

// The resolution of one combat (docs/rules/deathburgh.md §4): the single source of truth for the exact and
// the Monte Carlo engines. sA / sD are the attacker's and defender's successes (sD = 0 when the
// defender does not react); cap_a / cap_d are the most wounds each side may inflict.
inline Wounds resolve(const OutcomeRules& rules, int sA, int sD, int cap_a, int cap_d) {
    const bool alpha = rules.edition == Edition::alpha;
    // An alpha draw costs each side 1 wound; draw="scored" ignores a 0-0 draw.
    const bool draw = alpha && sA == sD && (rules.draw_at_zero || sA > 0);
    int to_defender = 0;
    int to_attacker = 0;
    switch (rules.reaction) {
        case Reaction::none:
            to_defender = sA;  // DB-12: every attacker success wounds
            break;
        case Reaction::attack:
            if (!alpha) {  // web: opposed attacks wound simultaneously with all successes (DB-1)
                to_defender = sA;
                to_attacker = sD;
            } else if (sA > sD) {  // alpha: only the difference wounds
                to_defender = sA - sD;
            } else if (sD > sA) {
                to_attacker = sD - sA;
            } else if (draw) {
                to_defender = to_attacker = 1;
            }
            break;
        case Reaction::dodge:
            if (sA > sD) {  // each dodge success parries one attack success
                to_defender = sA - sD;
            } else if (sD > sA) {  // web only: excess parries wound back between same roles
                if (!alpha && rules.same_role) to_attacker = sD - sA;
            } else if (draw && rules.draw_in_dodge) {
                to_defender = to_attacker = 1;
            }
            break;
    }
    return {std::min(to_defender, cap_a), std::min(to_attacker, cap_d)};
}

}  // namespace mh::deathburgh

// Deathburgh: the typed configurations of one combat and of a round (docs/rules/deathburgh.md §2,
// §4, §7), and the bounds the engines rely on.
//
// Python works out each side's pool (mode dice, extra dice, instant 6! and 1!, Soul's Dice) and
// the rule switches, validates them, and hands the engines these plain structs. The engines assume
// valid input; check_pool / check_rules / check_round guard the entry points against out-of-range
// values.
#pragma once
#include <cstddef>
#include <vector>

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

struct CombatSpec {
    PoolSpec attacker;
    PoolSpec defender;  // a defender that does not react has auto_hits = 0 (it rolls nothing)
    OutcomeRules rules;
};

constexpr int kMaxMiniatures = 20;
constexpr int kMaxCombats = 50;
constexpr int kMaxWounds = 20;

enum Mode : int { kAggressive = 0, kDefensive = 1 };
constexpr int kModeFromState = -1;  // the mode follows the miniature's state (Aggressive until it fought)

struct RoundCombat {
    int attacker = 0;  // miniature indices
    int defender = 1;
    int attacker_mode = kModeFromState;
    int defender_mode = kModeFromState;
    PoolSpec attacker_pool[2];  // by Mode
    PoolSpec defender_pool[2];
    OutcomeRules rules;
};

struct RoundSpec {
    std::vector<int> start_wounds;  // per miniature, 0..kMaxWounds
    std::vector<RoundCombat> combats;
};

// Throw std::invalid_argument on anything outside the ranges above (entry-point guard only).
void check_pool(const PoolSpec& pool);
void check_rules(const OutcomeRules& rules);
void check_round(const RoundSpec& spec);

}  // namespace mh::deathburgh

// Kill Team 2024 fight (docs/rules/killteam.md §3): the fighters' profiles and the state of one fight round.
//
// A round's state is the dice each fighter still holds, its wounds, the per-round flags the
// first-strike abilities need, and whose turn it is. Every decision depends only on the
// deterministic part of it (decision_key), which is what lets the engine cache decisions.
#pragma once
#include <cstdint>

namespace mh::kt {

constexpr int kMaxFightWounds = 40;
constexpr int kRelicIgnoresPerFight = 2;

// Optimal: reads the dice and plays the best move for its objective (docs/rules/killteam.md §7, fight_optimal.hpp).
enum class Strategy : uint8_t { Strike = 0, Parry = 1, MaxDamage = 2, MinDamage = 3, Optimal = 4 };

// What an optimal fighter plays for (docs/rules/killteam.md §7): a tuple compared lexicographically.
enum class Objective : uint8_t { Trade = 0, Net = 1, Kill = 2, Survive = 3 };

enum class Action : uint8_t { CritStrike = 0, NormStrike = 1, CritParry = 2, NormParry = 3 };

inline bool is_strike(Action a) { return a == Action::CritStrike || a == Action::NormStrike; }

// What a fighter brings to the fight besides its attack dice.
struct FighterSpec {
    int wounds = 12;
    int normal_damage = 3;
    int critical_damage = 4;
    Strategy strategy = Strategy::MaxDamage;
    Objective objective = Objective::Trade;  // read only when strategy is Optimal
    // weapon rules acting in the fight (the others only shape the attack dice)
    bool brutal = false;
    bool shock = false;
    // abilities
    bool storm_shield = false;
    bool dueller = false;
    bool duelist = false;
    bool hammerhand = false;
    bool just_a_scratch = false;
    bool just_a_scratch_normals = false;
    bool half_damage_first_strike = false;
    bool durable = false;
    bool murderous_entrance = false;
    int feel_no_pain = 0;    // 0: none, else x (a roll of x+ saves 1 damage)
    int saintly_relics = 0;  // dice rolled per try: 0 (none), 1, or 2 (INSPIRING)

    int cancels_per_parry() const { return storm_shield ? 2 : 1; }
    bool has_chance() const { return feel_no_pain != 0 || saintly_relics != 0; }
};

// The reference calculator's readings of the fight (docs/rules/killteam.md §8.5); the first value is the default.
enum class ShockRule : uint8_t { DiscardCrit = 0, NormsOnly = 1 };
enum class LethalTest : uint8_t { RealDamage = 0, Nominal = 1 };
enum class DuelistRule : uint8_t { NeverParryNothing = 0, Always = 1 };
enum class DurableRule : uint8_t { AfterDamageModifiers = 0, BeforeDamageModifiers = 1 };

struct FightSpec {
    FighterSpec fighter[2];
    int first = 0;  // who resolves first each round: 0 = fighter A, 1 = fighter B
    ShockRule shock = ShockRule::DiscardCrit;
    LethalTest lethal_test = LethalTest::RealDamage;
    DuelistRule duelist = DuelistRule::NeverParryNothing;
    DurableRule durable = DurableRule::AfterDamageModifiers;

    // True when the resolution rolls dice of its own (Feel No Pain, Saintly Relics).
    bool has_chance() const { return fighter[0].has_chance() || fighter[1].has_chance(); }
    bool has_optimal() const {
        return fighter[0].strategy == Strategy::Optimal || fighter[1].strategy == Strategy::Optimal;
    }
};

// One fighter during a round.
struct Side {
    int8_t crits = 0;
    int8_t norms = 0;
    int8_t wounds = 0;
    bool struck = false;         // has struck this round (Hammerhand; the enemy's first-strike abilities)
    bool crit_struck = false;    // has struck with a crit this round (Shock, Murderous Entrance, enemy Durable)
    bool scratch_used = false;   // its own Just a Scratch (normals) is spent this round
    bool forced_strike = false;  // inside a lookahead: plays the Strike strategy instead of its own
    // chance only (never part of a decision):
    bool relic_used_round = false;
    int8_t relic_uses = 0;  // ignores spent this fight

    int successes() const { return crits + norms; }
};

struct FightState {
    Side side[2];
    int mover = 0;  // whose turn it is

    // The round is over when somebody is incapacitated or nobody holds a success.
    bool over() const {
        return side[0].wounds == 0 || side[1].wounds == 0 || side[0].successes() + side[1].successes() == 0;
    }
    int successes() const { return side[0].successes() + side[1].successes(); }
};

inline Strategy strategy_of(const FightSpec& spec, const FightState& st, int who) {
    return st.side[who].forced_strike ? Strategy::Strike : spec.fighter[who].strategy;
}

// The deterministic part of a state: what decisions and lookaheads depend on.
inline uint64_t decision_key(const FightState& st) {
    auto pack = [](const Side& s) -> uint64_t {
        return static_cast<uint64_t>(s.crits) | static_cast<uint64_t>(s.norms) << 4 |
               static_cast<uint64_t>(s.wounds) << 8 | static_cast<uint64_t>(s.struck) << 14 |
               static_cast<uint64_t>(s.crit_struck) << 15 | static_cast<uint64_t>(s.scratch_used) << 16 |
               static_cast<uint64_t>(s.forced_strike) << 17;
    };
    return 1ULL << 63 | pack(st.side[0]) | pack(st.side[1]) << 18 | static_cast<uint64_t>(st.mover) << 36;
}

// Everything, chance fields included: states with equal keys have equal futures.
inline uint64_t full_key(const FightState& st) {
    auto relic = [](const Side& s) -> uint64_t {
        return static_cast<uint64_t>(s.relic_used_round) | static_cast<uint64_t>(s.relic_uses) << 1;
    };
    return decision_key(st) | relic(st.side[0]) << 37 | relic(st.side[1]) << 40;
}

}  // namespace mh::kt

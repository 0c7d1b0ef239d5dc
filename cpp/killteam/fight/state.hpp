// Kill Team 2024 fight (docs/rules/killteam.md §3): the state of one fight round.
//
// A round's state is the dice each fighter still holds, its wounds, the per-round flags the
// first-strike abilities need, and whose turn it is. Every decision depends only on the
// deterministic part of it (decision_key), which is what lets the engine cache decisions.
#pragma once
#include <cstdint>

#include "killteam/fight/config.hpp"

namespace mh::kt {

constexpr int kRelicIgnoresPerFight = 2;

enum class Action : uint8_t { CritStrike = 0, NormStrike = 1, CritParry = 2, NormParry = 3 };

inline bool is_strike(Action a) { return a == Action::CritStrike || a == Action::NormStrike; }

// An action's name in kt.advise's rows.
inline const char* action_name(Action a) {
    switch (a) {
        case Action::CritStrike: return "crit_strike";
        case Action::NormStrike: return "norm_strike";
        case Action::CritParry: return "crit_parry";
        case Action::NormParry: return "norm_parry";
    }
    return "unknown";
}

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

// One round from fixed retained dice, with a readable log of every step (kt.resolve_fight).
#pragma once
#include <cstdint>
#include <vector>

#include "killteam/fight/resolve.hpp"
#include "killteam/fight/state.hpp"

namespace mh::kt {

struct LogEntry {
    int side;  // 0 = A, 1 = B
    LogKind kind;
    int value;
};

struct LoggedRound {
    int wounds[2];
    int relic_uses[2];
    std::vector<LogEntry> actions;
};

// Resolves one round. Feel No Pain / relic dice, if any, come from stream (seed, 0).
LoggedRound resolve_logged(const FightSpec& spec, int crits_a, int norms_a, int crits_b, int norms_b, int wounds_a,
                           int wounds_b, uint64_t seed);

const char* log_kind_name(LogKind kind);

}  // namespace mh::kt

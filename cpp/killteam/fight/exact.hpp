// The exact fight engine (docs/rules/killteam.md §3.7 "Exact fights").
//
// A round is a sum over pairs of retained dice, P(A's dice) x P(B's dice) x resolve(...); rounds
// recurse on the wounds (and relic uses) a round ends on. Without Feel No Pain / relics a
// resolution is the deterministic play-out; with them every roll is a chance node (and so is a
// decision the rolled lookahead makes: docs/rules/killteam.md §3.6): heuristic fighters' rounds go
// through the ends each state leads to, worked out once per state (exact_chance.hpp); an optimal
// fighter's round states are carried forward with their probabilities (equal states merged).
// Either way the expectation is exact.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "killteam/dice/config.hpp"
#include "killteam/fight/injury.hpp"
#include "killteam/fight/optimal.hpp"
#include "killteam/fight/state.hpp"

namespace mh::kt {

// What the exact engine did: resolutions (round start x dice pair, each played or looked up), chance
// states worked out or carried forward, and states the decision cache worked out.
struct ExactWork {
    uint64_t resolutions = 0;
    uint64_t chance_states = 0;
    uint64_t decisions = 0;
    uint64_t solver_states = 0;
    std::size_t solver_bytes = 0;
    // The optimal solver passed the budget's states (1) or bytes (2); 0: it did not.
    int solver_refused = 0;

    // In resolutions: a chance state or a decision costs about an eighth of a resolution's share of
    // a typical fight (measured), so a budget in these units tracks running time.
    double units() const { return static_cast<double>(resolutions) + (chance_states + decisions) / 8.0; }
};

// Joint probability of the wounds left after `rounds` rounds: [wounds_a * (B's wounds + 1) + wounds_b].
// Each round start rolls the dice FightDice gives for its wounds (a fighter's own, or injured).
// With work_limit > 0 the engine gives up (returns an empty vector) once work.units() exceeds it;
// it also gives up (work.solver_refused set) when an optimal fighter's game passes `budget`.
// cache_entries bounds the decision cache (0: the default size); a small one only costs work, the
// cache starts over when full, so tests can exercise that path without changing any number.
// reuse_decisions: a fight without optimal fighters, with the default cache, uses and keeps the
// decisions of earlier fights of the same rules (see DecisionPool in exact.cpp); work.decisions
// then counts only the states this call worked out. It gives up where a new cache would have, and
// nowhere else (a fight that cannot tell starts over with a new cache). No result changes, only the work.
std::vector<double> fight_exact(const FightSpec& spec, const FightDice& dice, int rounds, ExactWork* work = nullptr,
                                double work_limit = 0.0, std::size_t cache_entries = 0, SolverBudget budget = {},
                                bool reuse_decisions = false);

// While one lives on a thread, the exact fights that thread runs with reuse_decisions keep their
// decision caches in it instead of the process's pool (kt.fight_batch: thousands of fights of a few
// rule sets share far more decisions than a pool cache, kept only while small, holds). At most
// eight caches of at most kMaxEntries states each (16 MB of slots), freed with the scope. Like the
// pool's, its caches change no result, and no fight gives up where a new cache would not have.
class DecisionCache;

class DecisionScope {
public:
    using Caches = std::vector<std::unique_ptr<DecisionCache>>;
    static constexpr std::size_t kMaxEntries = std::size_t{1} << 20;

    DecisionScope();
    ~DecisionScope();
    DecisionScope(const DecisionScope&) = delete;
    DecisionScope& operator=(const DecisionScope&) = delete;

    // The innermost scope's caches on this thread, or nullptr.
    static Caches* current();

private:
    Caches caches_;
    Caches* outer_;
};


}  // namespace mh::kt

// Many exact fights in one call (kt.fight_batch; docs/rules/killteam.md §3.7 "Exact fights"): each
// item is one fight as kt.fight's exact engine runs it, with its own work limit and solver budget.
#pragma once
#include <vector>

#include "core/exact_batch.hpp"
#include "killteam/dice/config.hpp"
#include "killteam/fight/config.hpp"
#include "killteam/fight/injury.hpp"
#include "killteam/fight/optimal.hpp"

namespace mh::kt {

// One fight of a batch: the spec, both fighters' retained-dice tables (own and injured) and the
// bounds kt.fight gives the exact engine for it (work_limit 0: unbounded).
struct FightExactItem {
    FightSpec spec;
    FightDice dice;
    int rounds = 1;
    double work_limit = 0.0;
    SolverBudget budget;
};

// What the exact engine gave for one item: the joint wounds pmf ((A's wounds + 1) x (B's wounds + 1),
// C order; empty when it gave up or the solver passed its budget), solver_refused (1 states, 2
// bytes, 0 not) and the states the solver valued.
struct FightExactOutcome {
    std::vector<double> joint;
    int rows = 0;
    int columns = 0;
    int solver_refused = 0;
    double solver_states = 0.0;
};

// A batch item from its parts.
FightExactItem fight_exact_item(const FightSpec& spec, const FightDice& dice, int rounds, double work_limit,
                                SolverBudget budget);

// The item's fight, exactly as kt.fight's exact engine runs it (decisions of earlier fights of
// the same rules reused: fight_exact's reuse_decisions, which changes no number).
FightExactOutcome solve_fight_item(const FightExactItem& item);

// Every distinct item once (core/exact_batch.hpp), the batch's fights sharing their decisions for
// the whole call (exact.hpp's DecisionScope): a batch of thousands of different fights works out
// each decision about once instead of once per fight.
ExactBatch<FightExactOutcome> solve_fight_batch(const std::vector<const FightExactItem*>& items);

}  // namespace mh::kt

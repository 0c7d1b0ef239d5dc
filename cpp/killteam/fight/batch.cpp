#include "killteam/fight/batch.hpp"

#include <utility>

#include "killteam/fight/exact.hpp"

namespace mh::kt {

FightExactItem fight_exact_item(const FightSpec& spec, const FightDice& dice, int rounds, double work_limit,
                                SolverBudget budget) {
    FightExactItem item;
    item.spec = spec;
    item.dice = dice;
    item.rounds = rounds;
    item.work_limit = work_limit;
    item.budget = budget;
    return item;
}

FightExactOutcome solve_fight_item(const FightExactItem& item) {
    ExactWork work;
    FightExactOutcome out;
    out.joint = fight_exact(item.spec, item.dice, item.rounds, &work, item.work_limit, 0, item.budget, true);
    out.rows = item.spec.wounds_rows();
    out.columns = item.spec.wounds_columns();
    out.solver_refused = work.solver_refused;
    out.solver_states = static_cast<double>(work.solver_states);
    return out;
}

ExactBatch<FightExactOutcome> solve_fight_batch(const std::vector<const FightExactItem*>& items) {
    DecisionScope scope;
    return solve_distinct(items, solve_fight_item);
}

}  // namespace mh::kt

// Optimal play (docs/rules/killteam.md §7): once the dice are retained a fight round is a two-player game
// with perfect information (plus Feel No Pain / relic chance nodes). An optimal fighter plays the
// move that maximises the expectation of its objective tuple, compared lexicographically.
//
// The solver searches the game with the resolution of resolve.hpp (the same apply_action,
// pass_turn, start_round), memoising every state it values. A state's value is an Outlook: the
// expected final outcome of the whole fight (both death chances and both expected wounds lost), so
// one value serves every objective and both sides; an objective is a linear function of it.
// Several rounds are solved by backward induction, lazily: a round's terminal value is the value
// of the next round's start (an expectation over both fighters' dice) from the wounds it ends on.
//
// A heuristic mover plays what DecisionCache decides (its lookaheads treat an optimal enemy as
// playing Strike), or with the rolled lookahead each of its rule 5 lines with the chance it wins
// (ChanceMemo::choose); an optimal mover its best response. With two optimal fighters sharing the
// objective "trade" or "net" the objectives are exact opposites, so both maximising their own is
// zero-sum minimax on A's objective.
#pragma once
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "killteam/dice/config.hpp"
#include "killteam/fight/cache.hpp"
#include "killteam/fight/decision.hpp"
#include "killteam/fight/injury.hpp"
#include "killteam/fight/state.hpp"

namespace mh::kt {

class ChanceMemo;

// The expected final outcome of the fight: P(dies) and E[wounds lost this fight] per fighter.
struct Outlook {
    double dead[2] = {0.0, 0.0};
    double lost[2] = {0.0, 0.0};

    void add(const Outlook& o, double p) {
        for (int s = 0; s < 2; ++s) {
            dead[s] += p * o.dead[s];
            lost[s] += p * o.lost[s];
        }
    }
};

// An objective's tuple (2 or 3 components) from fighter `side`'s point of view.
struct ObjectiveValue {
    double v[3] = {0.0, 0.0, 0.0};
    int size = 0;
};

ObjectiveValue objective_value(Objective objective, const Outlook& outlook, int side);

// Lexicographically greater; components within kObjectiveTolerance count as equal, so that
// values reached by different sums of the same probabilities tie as they should.
constexpr double kObjectiveTolerance = 1e-9;
bool objective_greater(const ObjectiveValue& x, const ObjectiveValue& y);

// The moves in tie-break order: crit strike, norm strike, crit parry, norm parry.
constexpr Action kMoveOrder[4] = {Action::CritStrike, Action::NormStrike, Action::CritParry, Action::NormParry};

// Whether the mover may play `action`: it holds the die, and a parry cancels something.
bool legal_move(const FightSpec& spec, const FightState& st, Action action);

// What a solver may use: valued states and bytes of its own tables (0: no bound). The budget
// counts as the solver goes, so a game too big for it is refused as soon as it passes, not after.
struct SolverBudget {
    uint64_t max_states = 0;
    uint64_t max_bytes = 0;
};

// Thrown when the solver passes its budget (see SolverBudget).
struct SolverLimitExceeded {
    bool memory;  // the byte bound, rather than the state bound, was passed
};

class OptimalSolver {
public:
    // dice: each fighter's retained-dice distributions, its own and injured (for the later rounds' starts).
    OptimalSolver(const FightSpec& spec, const FightDice& dice, int rounds, SolverBudget budget = {});
    ~OptimalSolver();

    // What the fighter to move in `st` (not over; its mover holds a success) plays in round `round`
    // (0-based): the optimal fighter's best move, or the heuristic's choice.
    Choice choose(const FightState& st, int round);

    // A heuristic mover's choice in `st` (the same in every round).
    Choice heuristic_choice(const FightState& st);

    // The value of `st` (a state after start_round / pass_turn) in round `round`.
    Outlook value(const FightState& st, int round);

    // The value of playing `action` in `st`: the expectation over its chance outcomes.
    Outlook action_value(const FightState& st, Action action, int round);

    // The value of starting round `round` from these wounds and relic uses (before the dice).
    Outlook round_start(int round, int wounds_a, int wounds_b, int relic_uses_a, int relic_uses_b);

    // Values the whole fight from its start: afterwards every state any play of it can reach is
    // known, and solved_action() answers without changing the solver (so threads may share it).
    Outlook solve_all();

    // The action stored for `st` in round `round`; throws std::logic_error if it was never valued.
    Action solved_action(const FightState& st, int round) const;

    // Bytes held by the solver's own tables (the heuristic cache is bounded on its own).
    std::size_t memory_bytes() const;

    uint64_t states() const { return nodes_.size() + starts_.size(); }
    const FightSpec& spec() const { return spec_; }

private:
    struct Node {
        Outlook value;
        Action action;
    };
    struct Roll {
        int crits;
        int norms;
        double prob;
    };
    Node node(const FightState& st, int round);
    FightState canonical(const FightState& st, int round, int shift[2]) const;
    Node solve(const FightState& st, int round);
    Outlook terminal(int wounds_a, int wounds_b) const;
    uint64_t key(const FightState& st, int round) const;
    void count_state();

    FightSpec spec_;
    DecisionCache heuristics_;
    std::unique_ptr<ChanceMemo> rolled_;  // a heuristic's rolled lookahead (FightSpec::rolls_lookahead), or none
    std::vector<Roll> rolls_[2][2];  // [fighter][injured]
    int rounds_;
    SolverBudget budget_;
    // full_key bits no ability reads (the memo key clears them; see key())
    uint64_t key_mask_;
    // No Feel No Pain or relics: the last round's values are whole wounds (see canonical())
    bool whole_wounds_;
    // Valued states with their values in the slots: the solver's hot lookup costs one cache miss.
    SlotMap<Node> nodes_;
    StateMap start_index_;
    std::vector<Outlook> starts_;
};

// What plays round `round` with a solver: its choice in each state.
struct OptimalDecider {
    OptimalSolver& solver;
    int round;
    Choice choose(const FightState& st) { return solver.choose(st, round); }
};

// kt.advise: the position after the Duelist parries from fixed dice, one round.
struct MoveAdvice {
    Action action;
    Outlook outlook;
    bool best;
};
struct Advice {
    int mover = -1;  // -1: the round is over before anyone moves
    std::vector<MoveAdvice> moves;
    // what each heuristic strategy plays, by Strategy value (Strike, Parry, MaxDamage, MinDamage); with
    // the rolled lookahead, the action it plays the more often (the first line on a tie)
    Action heuristic[4] = {Action::CritStrike, Action::CritStrike, Action::CritStrike, Action::CritStrike};
    bool has_heuristic = false;
};

// `spec`: the mover is evaluated with its own strategy replaced by Optimal (its objective kept).
Advice advise(const FightSpec& spec, int crits_a, int norms_a, int crits_b, int norms_b);

}  // namespace mh::kt

#include "killteam/fight/optimal.hpp"

#include <cmath>
#include <stdexcept>

#include "core/interrupt.hpp"

#include "killteam/fight/chance.hpp"
#include "killteam/fight/exact_chance.hpp"
#include "killteam/fight/parry.hpp"
#include "killteam/fight/resolve.hpp"

namespace mh::kt {

ObjectiveValue objective_value(Objective objective, const Outlook& o, int side) {
    const int e = 1 - side;
    const double deaths = o.dead[e] - o.dead[side];  // [enemy dies] - [self dies]
    const double trade = o.lost[e] - o.lost[side];   // enemy lost - own lost
    ObjectiveValue out;
    switch (objective) {
        case Objective::Trade:
            out.v[0] = deaths;
            out.v[1] = trade;
            out.size = 2;
            break;
        case Objective::Net:
            out.v[0] = trade;
            out.v[1] = deaths;
            out.size = 2;
            break;
        case Objective::Kill:
            out.v[0] = o.dead[e];
            out.v[1] = -o.lost[side];
            out.v[2] = o.lost[e];
            out.size = 3;
            break;
        case Objective::Survive:
            out.v[0] = -o.dead[side];
            out.v[1] = trade;
            out.size = 2;
            break;
    }
    return out;
}

bool objective_greater(const ObjectiveValue& x, const ObjectiveValue& y) {
    for (int i = 0; i < x.size; ++i) {
        if (std::fabs(x.v[i] - y.v[i]) > kObjectiveTolerance) return x.v[i] > y.v[i];
    }
    return false;
}

bool legal_move(const FightSpec& spec, const FightState& st, Action action) {
    const int m = st.mover;
    Side x = st.side[m];
    Side y = st.side[1 - m];
    switch (action) {
        case Action::CritStrike:
            return x.crits > 0;
        case Action::NormStrike:
            return x.norms > 0;
        case Action::CritParry:
            return x.crits > 0 && crit_parry(spec.fighter[m], x, y) > 0;
        case Action::NormParry:
            return x.norms > 0 && can_norm_parry(spec.fighter[1 - m]) && norm_parry(spec.fighter[m], x, y) > 0;
    }
    return false;
}

OptimalSolver::OptimalSolver(const FightSpec& spec, const FightDice& dice, int rounds, SolverBudget budget)
    : spec_(spec), heuristics_(spec), rounds_(rounds), budget_(budget), whole_wounds_(!spec.has_chance()) {
    for (int s = 0; s < 2; ++s) {
        const RetainedTable* tables[2] = {&dice.own[s], &dice.injured[s]};
        for (int injured = 0; injured < 2; ++injured) {
            for (int c = 0; c < kTableSide; ++c) {
                for (int n = 0; c + n < kTableSide; ++n) {
                    const double p = (*tables[injured])[c * kTableSide + n];
                    if (p > 0.0) rolls_[s][injured].push_back(Roll{c, n, p});
                }
            }
        }
    }
    // The memo key clears the flags no ability reads: full_key of a state whose flag is set and of
    // the same state with it cleared differ only in that flag's bit, so a mask clears it. The
    // bits are found from full_key itself, so its layout stays its own business.
    FightState none;
    const uint64_t base = full_key(none);
    uint64_t mask = ~uint64_t{0};
    for (int s = 0; s < 2; ++s) {
        const FighterSpec& me = spec.fighter[s];
        const FighterSpec& enemy = spec.fighter[1 - s];
        auto clear = [&](bool Side::*flag) {
            FightState one;
            one.side[s].*flag = true;
            mask &= ~(full_key(one) ^ base);
        };
        if (!(me.hammerhand || enemy.just_a_scratch || enemy.half_damage_first_strike)) clear(&Side::struck);
        if (!(me.shock || me.murderous_entrance || enemy.durable)) clear(&Side::crit_struck);
        if (!me.just_a_scratch_normals) clear(&Side::scratch_used);
        clear(&Side::forced_strike);
    }
    key_mask_ = mask;
    if (heuristics_.spec().rolls_lookahead()) {
        rolled_ = std::make_unique<ChanceMemo>(heuristics_.spec(), heuristics_);
    }
}

OptimalSolver::~OptimalSolver() = default;

Choice OptimalSolver::heuristic_choice(const FightState& st) {
    return rolled_ ? rolled_->choose(st) : Choice::certain(heuristics_.decide(st));
}

// The memo key: the state with the flags no ability reads cleared, and the round.
uint64_t OptimalSolver::key(const FightState& st, int round) const {
    return (full_key(st) & key_mask_) | static_cast<uint64_t>(round) << 44;
}

// Called before a new state is stored: the budget is checked against the tables as they will be
// after it (a vector or map about to grow counts at its grown size), and so is Ctrl-C.
void OptimalSolver::count_state() {
    check_interrupt();
    if (budget_.max_states > 0 && states() >= budget_.max_states) throw SolverLimitExceeded{false};
    if (budget_.max_bytes > 0) {
        auto grown = [](std::size_t size, std::size_t capacity) { return size == capacity ? 2 * capacity + 1 : capacity; };
        const std::size_t bytes = nodes_.bytes_after_insert() +
                                  grown(starts_.size(), starts_.capacity()) * sizeof(Outlook) +
                                  start_index_.bytes_after_insert();
        if (bytes > budget_.max_bytes) throw SolverLimitExceeded{true};
    }
}

std::size_t OptimalSolver::memory_bytes() const {
    return nodes_.bytes() + starts_.capacity() * sizeof(Outlook) + start_index_.bytes();
}

Outlook OptimalSolver::solve_all() {
    return round_start(0, spec_.fighter[0].wounds, spec_.fighter[1].wounds, 0, 0);
}

// The state a state is valued as. In the last round of a fight without chance effects every value
// is exact in whole wounds (a copy of the end's: no expectation is taken), and a fighter with more
// wounds than the enemy can still take away this round can never reach 0: its wounds change no
// move's value but by the same whole number. Such wounds are valued as that reach plus one, the
// least of them, and `shift` says how many wounds were taken off (node() adds them back, exactly).
FightState OptimalSolver::canonical(const FightState& st, int round, int shift[2]) const {
    FightState c = st;
    shift[0] = shift[1] = 0;
    if (!whole_wounds_ || round != rounds_ - 1) return c;
    for (int s = 0; s < 2; ++s) {
        const int reach = heuristics_.most_damage(st, 1 - s) + 1;
        if (c.side[s].wounds > reach) {
            shift[s] = c.side[s].wounds - reach;
            c.side[s].wounds = static_cast<int8_t>(reach);
        }
    }
    return c;
}

Action OptimalSolver::solved_action(const FightState& st, int round) const {
    int shift[2];
    Node n{};
    if (!nodes_.find(key(canonical(st, round, shift), round), n)) {
        throw std::logic_error("optimal solver: a state was never valued");
    }
    return n.action;
}

Outlook OptimalSolver::terminal(int wounds_a, int wounds_b) const {
    Outlook o;
    const int wounds[2] = {wounds_a, wounds_b};
    for (int s = 0; s < 2; ++s) {
        o.dead[s] = wounds[s] == 0 ? 1.0 : 0.0;
        o.lost[s] = spec_.fighter[s].wounds - wounds[s];
    }
    return o;
}

Outlook OptimalSolver::round_start(int round, int wounds_a, int wounds_b, int relic_uses_a, int relic_uses_b) {
    if (round >= rounds_ || wounds_a == 0 || wounds_b == 0) return terminal(wounds_a, wounds_b);
    const uint64_t k = 1ULL << 63 | static_cast<uint64_t>(round) << 20 | static_cast<uint64_t>(wounds_a) << 12 |
                       static_cast<uint64_t>(wounds_b) << 4 | static_cast<uint64_t>(relic_uses_a) << 2 |
                       static_cast<uint64_t>(relic_uses_b);
    uint32_t index = 0;
    if (start_index_.find(k, index)) return starts_[index];
    Outlook sum;
    NoLog log;
    // the dice this start rolls: a fighter's own, or injured (§3.9)
    const std::vector<Roll>& rolls_a = rolls_[0][is_injured(spec_, 0, wounds_a) ? 1 : 0];
    const std::vector<Roll>& rolls_b = rolls_[1][is_injured(spec_, 1, wounds_b) ? 1 : 0];
    for (const Roll& a : rolls_a) {
        check_interrupt();
        for (const Roll& b : rolls_b) {
            FightState st = round_state(a.crits, a.norms, wounds_a, b.crits, b.norms, wounds_b, relic_uses_a,
                                        relic_uses_b);
            start_round(spec_, st, log);
            sum.add(value(st, round), a.prob * b.prob);
        }
    }
    count_state();
    start_index_.insert(k, static_cast<uint32_t>(starts_.size()));
    starts_.push_back(sum);
    return sum;
}

Outlook OptimalSolver::value(const FightState& st, int round) {
    if (st.over()) {
        return round_start(round + 1, st.side[0].wounds, st.side[1].wounds, st.side[0].relic_uses,
                           st.side[1].relic_uses);
    }
    return node(st, round).value;
}

Choice OptimalSolver::choose(const FightState& st, int round) {
    if (spec_.fighter[st.mover].strategy != Strategy::Optimal) return heuristic_choice(st);
    return Choice::certain(node(st, round).action);
}

OptimalSolver::Node OptimalSolver::node(const FightState& st, int round) {
    int shift[2];
    const FightState c = canonical(st, round, shift);
    const uint64_t k = key(c, round);
    Node n{};
    if (!nodes_.find(k, n)) {
        n = solve(c, round);
        count_state();
        nodes_.insert(k, n);
    }
    // The fighter ends on `shift` more wounds than the valued state: it loses that many fewer.
    for (int s = 0; s < 2; ++s) {
        if (shift[s] != 0) n.value.lost[s] -= shift[s];
    }
    return n;
}

Outlook OptimalSolver::action_value(const FightState& st, Action action, int round) {
    Outlook sum;
    for_each_outcome(spec_, st, action, [&](const FightState& next, double p) { sum.add(value(next, round), p); });
    return sum;
}

OptimalSolver::Node OptimalSolver::solve(const FightState& st, int round) {
    const int m = st.mover;
    const FighterSpec& me = spec_.fighter[m];
    if (me.strategy != Strategy::Optimal) {
        const Choice choice = heuristic_choice(st);
        if (choice.is_certain()) return Node{action_value(st, choice.action, round), choice.action};
        Outlook value;
        value.add(action_value(st, choice.action, round), choice.p);
        value.add(action_value(st, choice.other, round), choice.q);
        return Node{value, choice.action};
    }
    Node best{};
    ObjectiveValue best_value;
    bool found = false;
    for (Action action : kMoveOrder) {
        if (!legal_move(spec_, st, action)) continue;
        const Outlook o = action_value(st, action, round);
        const ObjectiveValue v = objective_value(me.objective, o, m);
        if (!found || objective_greater(v, best_value)) {  // ties keep the earlier move
            best = Node{o, action};
            best_value = v;
            found = true;
        }
    }
    return best;
}

Advice advise(const FightSpec& spec, int crits_a, int norms_a, int crits_b, int norms_b) {
    Advice out;
    FightState st = round_state(crits_a, norms_a, spec.fighter[0].wounds, crits_b, norms_b, spec.fighter[1].wounds);
    NoLog log;
    start_round(spec, st, log);
    if (st.over()) return out;
    const int m = st.mover;
    out.mover = m;
    FightSpec optimal = spec;
    optimal.fighter[m].strategy = Strategy::Optimal;
    // One round from fixed dice: the dice tables are never read (no later round).
    const FightDice none{};
    OptimalSolver solver(optimal, none, 1);
    const Action best = solver.choose(st, 0).action;  // the mover is optimal: its one best move
    for (Action action : kMoveOrder) {
        if (!legal_move(optimal, st, action)) continue;
        out.moves.push_back(MoveAdvice{action, solver.action_value(st, action, 0), action == best});
    }
    out.has_heuristic = true;
    for (int s = 0; s < 4; ++s) {
        FightSpec heuristic = spec;
        heuristic.fighter[m].strategy = static_cast<Strategy>(s);
        DecisionCache cache(heuristic);
        if (!cache.spec().rolls_lookahead()) {
            out.heuristic[s] = cache.decide(st);
            continue;
        }
        ChanceMemo memo(cache.spec(), cache);
        const Choice choice = memo.choose(st);
        out.heuristic[s] = choice.q > choice.p ? choice.other : choice.action;
    }
    return out;
}

}  // namespace mh::kt

#include "killteam/fight_exact.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include "core/interrupt.hpp"
#include "killteam/fight_chance.hpp"
#include "killteam/fight_decision.hpp"
#include "killteam/fight_optimal.hpp"
#include "killteam/fight_resolve.hpp"

namespace mh::kt {

namespace {

// Carries one round's states forward with their probabilities. Every action spends at least one
// success, so states are processed by total successes, highest first; equal states are merged.
class ChanceExplorer {
public:
    explicit ChanceExplorer(const FightSpec& spec) : spec_(spec) {}

    uint64_t states() const { return states_; }

    // `decider.decide(state)` picks every action (DecisionCache, or OptimalDecider).
    template <class Decider, class Leaf>
    void explore(const FightState& start, double prob, Decider& decider, Leaf&& leaf) {
        if (start.over()) {
            leaf(start, prob);
            return;
        }
        const int top = start.successes();
        add(start, prob);
        NoLog log;
        for (int s = top; s > 0; --s) {
            std::vector<Weighted>& bucket = buckets_[s];
            for (std::size_t i = 0; i < bucket.size(); ++i) {  // children land in lower buckets only
                const Weighted item = bucket[i];
                if ((++states_ & 255) == 0) check_interrupt();
                const Action action = decider.decide(item.state);
                ScriptedChance chance;
                do {
                    chance.rewind();
                    FightState next = item.state;
                    apply_action(spec_, next, action, chance, log);
                    pass_turn(next, log);
                    const double p = item.prob * chance.probability();
                    if (next.over()) leaf(next, p);
                    else add(next, p);
                } while (chance.next());
            }
            bucket.clear();
        }
    }

private:
    struct Weighted {
        FightState state;
        uint64_t key;
        double prob;
    };

    void add(const FightState& st, double prob) {
        const uint64_t key = full_key(st);
        std::vector<Weighted>& bucket = buckets_[st.successes()];
        for (Weighted& w : bucket) {
            if (w.key == key) {
                w.prob += prob;
                return;
            }
        }
        bucket.push_back(Weighted{st, key, prob});
    }

    const FightSpec& spec_;
    std::vector<Weighted> buckets_[2 * kMaxDice + 1];
    uint64_t states_ = 0;
};

// One cache for the whole computation: a bigger one than each Monte Carlo thread keeps.
constexpr std::size_t kExactCacheEntries = std::size_t{1} << 22;

struct Outcome {
    int crits;
    int norms;
    double prob;
};

std::vector<Outcome> outcomes(const RetainedTable& table) {
    std::vector<Outcome> out;
    for (int c = 0; c < kTableSide; ++c) {
        for (int n = 0; c + n < kTableSide; ++n) {
            const double p = table[c * kTableSide + n];
            if (p > 0.0) out.push_back({c, n, p});
        }
    }
    return out;
}

}  // namespace

std::vector<double> fight_exact(const FightSpec& spec, const RetainedTable& dice_a, const RetainedTable& dice_b,
                                int rounds, ExactWork* work, double work_limit, std::size_t cache_entries,
                                SolverBudget budget) {
    const int wounds_a = spec.fighter[0].wounds;
    const int wounds_b = spec.fighter[1].wounds;
    const int side_b = wounds_b + 1;
    constexpr int kUses = kRelicIgnoresPerFight + 1;
    // A round starts from (wounds A, wounds B, relic uses A, relic uses B).
    auto index = [&](int wa, int wb, int ua, int ub) { return ((wa * side_b + wb) * kUses + ua) * kUses + ub; };
    const std::size_t states = static_cast<std::size_t>(wounds_a + 1) * side_b * kUses * kUses;

    const std::vector<Outcome> rolls_a = outcomes(dice_a);
    const std::vector<Outcome> rolls_b = outcomes(dice_b);
    DecisionCache cache(spec, cache_entries == 0 ? kExactCacheEntries : cache_entries);
    ChanceExplorer explorer(spec);
    // With an optimal fighter the game is solved first (lazily, as the rounds need it); its moves
    // then drive the same forward pass as chance effects do.
    const bool optimal = spec.has_optimal();
    std::unique_ptr<OptimalSolver> solver;
    // A work limit bounds the solver too (its states count as decisions); the tighter bound applies.
    const uint64_t work_states = work_limit > 0.0 ? static_cast<uint64_t>(work_limit * 8.0) : 0;
    const bool work_binds = work_states > 0 && (budget.max_states == 0 || work_states < budget.max_states);
    if (optimal) {
        SolverBudget bound = budget;
        if (work_binds) bound.max_states = work_states;
        solver = std::make_unique<OptimalSolver>(spec, dice_a, dice_b, rounds, bound);
    }
    const bool chance = spec.has_chance() || optimal;
    NoLog log;

    ExactWork done;
    auto report = [&]() {
        done.chance_states = explorer.states();
        done.decisions = cache.computed() + (solver ? solver->states() : 0);
        done.solver_states = solver ? solver->states() : 0;
        done.solver_bytes = solver ? solver->memory_bytes() : 0;
        if (work != nullptr) *work = done;
    };
    std::vector<double> current(states, 0.0), next(states, 0.0);
    current[index(wounds_a, wounds_b, 0, 0)] = 1.0;
    for (int round = 0; round < rounds; ++round) {
        std::fill(next.begin(), next.end(), 0.0);
        for (int wa = 0; wa <= wounds_a; ++wa) {
            for (int wb = 0; wb <= wounds_b; ++wb) {
                for (int ua = 0; ua < kUses; ++ua) {
                    for (int ub = 0; ub < kUses; ++ub) {
                        const double p = current[index(wa, wb, ua, ub)];
                        if (p == 0.0) continue;
                        if (wa == 0 || wb == 0) {  // the fight is over: nothing changes any more
                            next[index(wa, wb, ua, ub)] += p;
                            continue;
                        }
                        report();
                        if (work_limit > 0.0 && done.units() > work_limit) return {};
                        for (const Outcome& a : rolls_a) {
                            for (const Outcome& b : rolls_b) {
                                const double q = p * a.prob * b.prob;
                                if ((++done.resolutions & 63) == 0) check_interrupt();
                                FightState st = round_state(a.crits, a.norms, wa, b.crits, b.norms, wb, ua, ub);
                                start_round(spec, st, log);
                                if (!chance) {
                                    const std::pair<int, int> end = cache.playout(st);
                                    next[index(end.first, end.second, ua, ub)] += q;
                                } else {
                                    auto leaf = [&](const FightState& end, double pr) {
                                        next[index(end.side[0].wounds, end.side[1].wounds, end.side[0].relic_uses,
                                                   end.side[1].relic_uses)] += pr;
                                    };
                                    if (optimal) {
                                        OptimalDecider decider{*solver, round};
                                        try {
                                            explorer.explore(st, q, decider, leaf);
                                        } catch (const SolverLimitExceeded& e) {
                                            report();
                                            const bool budget_hit = e.memory || !work_binds;
                                            if (budget_hit) done.solver_refused = e.memory ? 2 : 1;
                                            if (work != nullptr) *work = done;
                                            return {};
                                        }
                                    } else {
                                        explorer.explore(st, q, cache, leaf);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        current.swap(next);
    }

    report();
    if (work_limit > 0.0 && done.units() > work_limit) return {};
    std::vector<double> joint(static_cast<std::size_t>(wounds_a + 1) * side_b, 0.0);
    for (int wa = 0; wa <= wounds_a; ++wa) {
        for (int wb = 0; wb <= wounds_b; ++wb) {
            double total = 0.0;
            for (int ua = 0; ua < kUses; ++ua) {
                for (int ub = 0; ub < kUses; ++ub) total += current[index(wa, wb, ua, ub)];
            }
            joint[wa * side_b + wb] = total;
        }
    }
    return joint;
}

}  // namespace mh::kt

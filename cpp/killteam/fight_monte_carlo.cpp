#include "killteam/fight_monte_carlo.hpp"

#include <tuple>
#include <utility>

#include "core/dice.hpp"
#include "core/interrupt.hpp"
#include "core/parallel.hpp"
#include "killteam/fight_cache.hpp"
#include "killteam/fight_decision.hpp"
#include "killteam/fight_optimal.hpp"
#include "killteam/fight_resolve.hpp"

namespace mh::kt {

namespace {

// Feel No Pain and relic dice from the sample's own stream.
struct RandomChance {
    static constexpr bool kEnabled = true;
    DiceSource& dice;

    bool relic(int count) {
        bool six = false;
        for (int i = 0; i < count; ++i) six |= dice.d6() == 6;  // roll every die, a 6 on any ignores
        return six;
    }
    bool feel_no_pain(int x) { return dice.d6() >= x; }
};

constexpr uint16_t kUnknown = 0xFFFF;
constexpr int kDicePairs = kTableSide * kTableSide * kTableSide * kTableSide;

int dice_index(const Retained& a, const Retained& b) {
    return ((a.crits * kTableSide + a.norms) * kTableSide + b.crits) * kTableSide + b.norms;
}

// Moves from a solved game shared by every thread (read only), heuristic ones from the thread's cache.
struct SolvedDecider {
    const OptimalSolver& solver;
    DecisionCache& cache;
    int round;
    Action decide(const FightState& st) {
        if (solver.spec().fighter[st.mover].strategy != Strategy::Optimal) return cache.decide(st);
        return solver.solved_action(st, round);
    }
};

}  // namespace

struct FightMonteCarlo::Workspace {
    Workspace(const FightSpec& spec, const OptimalSolver* solver) : spec(spec), cache(spec), solver(solver) {}

    // Wounds (A, B) after round `r` without chance effects, from these dice and wounds. Heuristic
    // play does not depend on the round; optimal play does, so the round is part of the key.
    std::pair<int, int> round(int r, const Retained& a, int wounds_a, const Retained& b, int wounds_b) {
        const bool opening = wounds_a == spec.fighter[0].wounds && wounds_b == spec.fighter[1].wounds &&
                             (!solver || r == 0);
        uint64_t key = 0;
        if (opening) {  // the first round's wounds are known: a flat table
            if (first_round.empty()) first_round.assign(kDicePairs, kUnknown);
            const uint16_t known = first_round[dice_index(a, b)];
            if (known != kUnknown) return {known & 63, known >> 6};
        } else {
            key = 1ULL << 63 | static_cast<uint64_t>(dice_index(a, b)) << 12 | static_cast<uint64_t>(wounds_a) << 6 |
                  static_cast<uint64_t>(wounds_b) | static_cast<uint64_t>(solver ? r : 0) << 40;
            uint32_t known = 0;
            if (later_rounds.find(key, known)) return {static_cast<int>(known & 63), static_cast<int>(known >> 6)};
        }
        FightState st = round_state(a.crits, a.norms, wounds_a, b.crits, b.norms, wounds_b);
        NoLog log;
        start_round(spec, st, log);
        std::pair<int, int> end;
        if (solver) {
            SolvedDecider decider{*solver, cache, r};
            NoChance chance;
            resolve_from(st, decider, chance);
            end = {st.side[0].wounds, st.side[1].wounds};
        } else {
            end = cache.playout(st);
        }
        const uint16_t packed = static_cast<uint16_t>(end.first | end.second << 6);
        if (opening) first_round[dice_index(a, b)] = packed;
        else later_rounds.insert(key, packed);
        return end;
    }

    template <class Decider, class Chance>
    void resolve_from(FightState& st, Decider& decider, Chance& chance) {
        NoLog log;
        while (!st.over()) {
            check_interrupt();
            apply_action(spec, st, decider.decide(st), chance, log);
            pass_turn(st, log);
        }
    }

    FightSpec spec;
    DecisionCache cache;
    const OptimalSolver* solver;  // the engine's, solved before any sample
    std::vector<uint16_t> first_round;
    StateMap later_rounds;
};

FightMonteCarlo::FightMonteCarlo(const FightSpec& spec, const AttackProfile& dice_a, const AttackProfile& dice_b,
                                 int rounds)
    : spec_(spec), dice_{dice_a, dice_b}, rounds_(rounds) {
    if (spec.has_optimal()) {
        tables_[0] = attack_distribution(dice_a);
        tables_[1] = attack_distribution(dice_b);
    }
}

FightMonteCarlo::~FightMonteCarlo() = default;

// One solver for every thread: solved once, then only read, so memory does not grow with threads.
SolverStats FightMonteCarlo::prepare(SolverBudget budget) {
    if (!spec_.has_optimal()) return {};
    std::lock_guard<std::mutex> lock(solver_mutex_);
    if (!solver_) {
        auto solver = std::make_unique<OptimalSolver>(spec_, tables_[0], tables_[1], rounds_, budget);
        solver->solve_all();  // throws SolverLimitExceeded / Interrupted: nothing is kept
        solver_ = std::move(solver);
    }
    return SolverStats{solver_->states(), solver_->memory_bytes()};
}

std::size_t FightMonteCarlo::bins() const {
    return static_cast<std::size_t>(spec_.fighter[0].wounds + 1) * (spec_.fighter[1].wounds + 1);
}

std::unique_ptr<FightMonteCarlo::Workspace> FightMonteCarlo::acquire() {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    if (pool_.empty()) return std::make_unique<Workspace>(spec_, solver_.get());
    std::unique_ptr<Workspace> workspace = std::move(pool_.back());
    pool_.pop_back();
    return workspace;
}

void FightMonteCarlo::release(std::unique_ptr<Workspace> workspace) {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    pool_.push_back(std::move(workspace));
}

std::vector<uint64_t> FightMonteCarlo::counts(uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
                                              int threads) {
    const int wounds_a = spec_.fighter[0].wounds;
    const int wounds_b = spec_.fighter[1].wounds;
    const int side_b = wounds_b + 1;
    const bool chance = spec_.has_chance();
    prepare(SolverBudget{});  // a no-op once prepared (Python prepares with the fight's budget first)
    return run_chunks(seed, total, chunk_begin, chunk_end, bins(), threads, [&](Rng& rng, uint64_t n, uint64_t* c) {
        std::unique_ptr<Workspace> ws = acquire();
        DiceSource dice(rng);
        if (!chance) {
            for (uint64_t i = 0; i < n; ++i) {
                int wa = wounds_a, wb = wounds_b;
                for (int r = 0; r < rounds_ && wa > 0 && wb > 0; ++r) {
                    const Retained a = roll_attack(dice_[0], dice);
                    const Retained b = roll_attack(dice_[1], dice);
                    std::tie(wa, wb) = ws->round(r, a, wa, b, wb);
                }
                ++c[wa * side_b + wb];
            }
        } else {
            RandomChance roll{dice};
            NoLog log;
            for (uint64_t i = 0; i < n; ++i) {
                check_interrupt();
                FightState st = round_state(0, 0, wounds_a, 0, 0, wounds_b);
                for (int r = 0; r < rounds_ && st.side[0].wounds > 0 && st.side[1].wounds > 0; ++r) {
                    const Retained a = roll_attack(dice_[0], dice);
                    const Retained b = roll_attack(dice_[1], dice);
                    st = round_state(a.crits, a.norms, st.side[0].wounds, b.crits, b.norms, st.side[1].wounds,
                                     st.side[0].relic_uses, st.side[1].relic_uses);
                    if (ws->solver) {
                        SolvedDecider decider{*ws->solver, ws->cache, r};
                        resolve_round(spec_, st, decider, roll, log);
                    } else {
                        resolve_round(spec_, st, ws->cache, roll, log);
                    }
                }
                ++c[st.side[0].wounds * side_b + st.side[1].wounds];
            }
        }
        release(std::move(ws));
    });
}

}  // namespace mh::kt

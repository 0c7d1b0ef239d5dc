// The Monte Carlo fight engine: each sample rolls both fighters' attack dice (AttackRoller: the
// dice of roll_attack, looked up) every round and resolves the round with the same resolution as
// the exact engine.
//
// Without Feel No Pain / relics a round is a deterministic function of (dice, wounds), worked out
// once per thread and looked up per sample. With them, a round from given dice and wounds is a
// small graph whose branch points are the FNP / relic rolls: worked out once (every branch, by the
// same resolution) and shared by the threads. Each sample rolls the round's FNP / relic dice from
// its own stream before the round, in blocks (a try for every roll the round can ask for), and
// follows the graph with them; a start a thread meets often gets a table of what the round loses
// by those dice, worked out by the same walk, so that the round is one lookup.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "killteam/dice/config.hpp"
#include "killteam/dice/roller.hpp"
#include "killteam/fight/injury.hpp"
#include "killteam/fight/optimal.hpp"
#include "killteam/fight/state.hpp"

namespace mh::kt {

// The size of a solved game: valued states and bytes of the solver's tables; or the game refused.
struct SolverStats {
    uint64_t states = 0;
    std::size_t bytes = 0;
    int refused = 0;  // 1 / 2: the budget's states / bytes bound was passed (and nothing is kept)
};

class FightMonteCarlo {
public:
    // dice_a / dice_b: each fighter's attack dice; injured_a / injured_b: the dice it rolls in a round
    // it starts injured (§3.9).
    FightMonteCarlo(const FightSpec& spec, const AttackProfile& dice_a, const AttackProfile& dice_b, int rounds,
                    const AttackProfile& injured_a, const AttackProfile& injured_b);
    ~FightMonteCarlo();

    // Histogram of the wounds left, [wounds_a * (B's wounds + 1) + wounds_b], over chunks
    // [chunk_begin, chunk_end) of a run of `total` samples (see core/parallel.hpp).
    std::vector<uint64_t> counts(uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end, int threads);

    std::size_t bins() const;

    // With an optimal fighter: solves the game (once; past `budget` it keeps nothing and says
    // refused) and says how big it is. Every thread reads the one solved game.
    SolverStats prepare(SolverBudget budget);

private:
    struct Workspace;
    struct ChanceGraph;
    struct ChanceDice;
    std::unique_ptr<Workspace> acquire();
    void chance_samples(Workspace& ws, DiceSource& dice, uint64_t n, uint64_t* c) const;
    void release(std::unique_ptr<Workspace> workspace);

    FightSpec spec_;
    AttackProfile dice_[2];
    AttackRoller rollers_[2][2];  // [fighter][injured]
    FightDice tables_;  // the retained-dice distributions, for an optimal fighter's solver
    int rounds_;
    // Caches survive between calls (Python runs a long job as several batches) and are handed to
    // one thread at a time; what they hold is deterministic, so results never depend on them.
    std::mutex pool_mutex_;
    std::vector<std::unique_ptr<Workspace>> pool_;
    std::mutex solver_mutex_;
    std::unique_ptr<OptimalSolver> solver_;
    // With Feel No Pain / relics: the rounds' chance graph, one for every thread (built once, read
    // without locks), so threads do not each work it out again.
    std::unique_ptr<ChanceGraph> graph_;
    std::unique_ptr<ChanceDice> chance_dice_;  // rolls each round's Feel No Pain and relic dice
};

}  // namespace mh::kt

#include "killteam/fight/monte_carlo.hpp"

#include <algorithm>
#include <atomic>
#include <tuple>
#include <utility>

#include "core/dice.hpp"
#include "core/interrupt.hpp"
#include "core/parallel.hpp"
#include "killteam/dice/exact.hpp"
#include "killteam/fight/cache.hpp"
#include "killteam/fight/chance.hpp"
#include "killteam/fight/decision.hpp"
#include "killteam/fight/exact_chance.hpp"
#include "killteam/fight/optimal.hpp"
#include "killteam/fight/resolve.hpp"

namespace mh::kt {

namespace {

constexpr uint16_t kUnknown = 0xFFFF;
constexpr uint32_t kNoStep = 0xFFFFFFFF;
constexpr int kDicePairs = kTableSide * kTableSide * kTableSide * kTableSide;

// Both fighters' retained dice as one index; a fighter's dice index is crits * kTableSide + norms.
int dice_index(int a, int b) { return a * kTableSide * kTableSide + b; }

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

// Groups of tries rolled at once (ChanceDice): a fighter's relic tries two at a time (2D6), its
// Feel No Pain four, a try for every enemy attack die.
constexpr int kMaxRollGroups = 2 * (kMaxDice / 2 + kMaxDice / 4);

// A round's Feel No Pain and relic rolls come from dice rolled before the round is resolved, in
// blocks: one per fighter and kind of roll, the relic tries against a fighter (its relic dice
// each) and its Feel No Pain dice, a try for every attack die the enemy rolls, each round the
// same dice. A strike spends a success and makes at most one relic try and one Feel No Pain roll,
// so only the first `successes` tries of a block (the enemy's retained successes) can be asked
// for: the i-th roll of a kind against a fighter reads bit i of its block (1: ignored / saved),
// and tries no roll can ask for are dropped. Block q is 2 * fighter + (0: relic tries, 1: Feel No
// Pain); the blocks' bits lie one after the other in the round's word, which a round's table of
// losses (Workspace::RoundTable) is indexed by.
struct BlockStarts {
    uint8_t at[4] = {};  // block q's first bit in the round's word
};

struct RollBlocks {
    BlockStarts starts;
    int bits = 0;  // the word's bits
    // Per group of tries rolled at once: which of its tries the round keeps, and where they go.
    uint8_t keep[kMaxRollGroups] = {};
    uint8_t shift[kMaxRollGroups] = {};
};

// The round's rolls answered from its word (see RollBlocks): the striker is the state's mover, so
// the fighter rolling is the other one. The resolution of a round the chance graph does not hold.
struct BlockChance {
    static constexpr bool kEnabled = true;
    const FightState& st;
    uint64_t word;
    BlockStarts next;  // at[q]: the bit block q's next roll reads

    bool relic(int) { return take(2 * (1 - st.mover)); }
    bool feel_no_pain(int) { return take(2 * (1 - st.mover) + 1); }
    bool take(int q) { return (word >> next.at[q]++) & 1; }
};

struct GraphFull {};

// One step of a round's chance graph: a Feel No Pain or relic roll and where each outcome leads,
// what the round loses on the way there (a round_loss code: wounds and relic ignores), a step that
// only loses something (kShift), the rolled lookahead's choice between two actions (kChoice), or
// the end of the round. A sample adds up the losses of the steps it goes through.
struct ChanceStep {
    enum Kind : uint8_t { kEnd, kFeelNoPain, kRelic, kShift, kChoice };
    Kind kind = kEnd;
    uint8_t block = 0;      // a roll: the RollBlocks block it reads
    uint16_t yes_loss = 0;  // lost on the way to `yes`; kChoice: the low half of choice_threshold
    uint16_t no_loss = 0;   // lost on the way to `no`; kChoice: its high half (a choice loses nothing)
    uint32_t yes = 0;       // the step after a save / an ignore / the first action; kShift: the step it leads to
    uint32_t no = 0;        // the step after the roll failed / the other action
};

// Where an action's outcome leads in the graph, and what the round loses on the way.
struct Edge {
    uint32_t step;
    uint32_t loss;
};

// Feeds an action (played from `st`) the outcomes in `prefix`, then "no", and records the rolls it
// asks for: running an action with longer and longer prefixes visits every branch of its chance rolls.
struct PrefixChance {
    static constexpr bool kEnabled = true;
    const bool* prefix;
    int known;
    const FightState& st;
    int asked = 0;
    ChanceStep::Kind next_kind = ChanceStep::kEnd;  // the first roll past the prefix
    int next_block = 0;

    bool relic(int) { return ask(ChanceStep::kRelic, 2 * (1 - st.mover)); }
    bool feel_no_pain(int) { return ask(ChanceStep::kFeelNoPain, 2 * (1 - st.mover) + 1); }
    bool ask(ChanceStep::Kind kind, int block) {
        if (asked < known) return prefix[asked++];
        if (asked++ == known) {
            next_kind = kind;
            next_block = block;
        }
        return false;
    }
};

// What the round from step `at` loses: each Feel No Pain / relic roll answered from the round's
// word (RollBlocks), each choice of the rolled lookahead drawn from `rng` as drawn_action draws it.
// Without `rng` (working out a table of the round's words) a choice ends the walk: kChoiceMet.
constexpr uint32_t kChoiceMet = 0xFFFFFFFF;

template <class Graph>
uint32_t walk_round(const Graph& graph, uint32_t at, uint64_t word, BlockStarts next, Rng* rng) {
    uint32_t loss = 0;
    for (ChanceStep step = graph.step(at); step.kind != ChanceStep::kEnd; step = graph.step(at)) {
        if (step.kind == ChanceStep::kChoice) {
            if (!rng) return kChoiceMet;
            const uint32_t threshold = step.yes_loss | static_cast<uint32_t>(step.no_loss) << 16;
            at = static_cast<uint32_t>(rng->next() >> 32) < threshold ? step.yes : step.no;
            continue;
        }
        bool yes = true;  // a shift's one way
        if (step.kind != ChanceStep::kShift) yes = (word >> next.at[step.block]++) & 1;
        loss += yes ? step.yes_loss : step.no_loss;
        at = yes ? step.yes : step.no;
    }
    return loss;
}

// One flat slot per round start (round, both fighters' dice, wounds, relic ignores spent) when
// that table is small: a start is then one load instead of a hash lookup. Heuristic play does not
// depend on the round, optimal play does; relic ignores only vary for a fighter with relics.
struct StartLayout {
    static constexpr std::size_t kMaxSlots = std::size_t{1} << 21;

    StartLayout(const FightSpec& spec, const int dice[2], int rounds, bool by_round) {
        int ids[2] = {};
        for (int side = 0; side < 2; ++side) {
            int id = 0;  // every (crits, norms) with crits + norms <= dice gets a dense id
            for (int c = 0; c <= dice[side]; ++c) {
                for (int n = 0; c + n <= dice[side]; ++n) dense[side][c * kTableSide + n] = static_cast<uint32_t>(id++);
            }
            ids[side] = id;
        }
        // The dice vary fastest: the slots of one (round, wounds, ignores spent) lie together. Each
        // field times its stride, so that the wounds a round starts from are a few independent
        // multiplications away from its slot.
        std::size_t stride = 1;
        for (int n = 0; n < kTableSide * kTableSide; ++n) dense[1][n] *= static_cast<uint32_t>(stride);
        stride *= static_cast<std::size_t>(ids[1]);
        for (int n = 0; n < kTableSide * kTableSide; ++n) dense[0][n] *= static_cast<uint32_t>(stride);
        stride *= static_cast<std::size_t>(ids[0]);
        for (int side = 1; side >= 0; --side) {
            uses_stride[side] = stride;
            stride *= spec.fighter[side].saintly_relics != 0 ? kRelicIgnoresPerFight + 1 : 1;
        }
        for (int side = 1; side >= 0; --side) {
            wounds_stride[side] = stride;
            stride *= static_cast<std::size_t>(spec.fighter[side].wounds + 1);
        }
        round_stride = by_round ? stride : 0;
        const std::size_t size = stride * (by_round ? static_cast<std::size_t>(rounds) : 1);
        slots = size <= kMaxSlots ? size : 0;
    }

    std::size_t index(int r, int a, int wa, int b, int wb, int ua, int ub) const {
        return r * round_stride + wa * wounds_stride[0] + wb * wounds_stride[1] + ua * uses_stride[0] +
               ub * uses_stride[1] + dense[0][a] + dense[1][b];
    }

    uint32_t dense[2][kTableSide * kTableSide] = {};  // a fighter's dice -> its dense id times its stride
    std::size_t wounds_stride[2] = {}, uses_stride[2] = {}, round_stride = 0;
    std::size_t slots = 0;  // 0: too many, starts go to a hash map
};

}  // namespace

// Rolls a round's chance dice (RollBlocks): every block's tries, a few at a time, as one base-6
// number (DiceSource::digits) that a table built once per kind of roll turns into which of those
// tries succeeded.
struct FightMonteCarlo::ChanceDice {
    static constexpr int kGroupDice = 4;  // dice looked up at once (6^4 = 1296 entries)

    ChanceDice(const FightSpec& spec, const int attack_dice[2]) {
        struct Placed {
            int block, first, tries;  // the group's block, its first try there and its tries
        };
        std::vector<Placed> placed;
        for (int q = 0; q < 4; ++q) {
            const FighterSpec& f = spec.fighter[q / 2];
            // A relic try ignores the strike on a 6 on any of its dice; Feel No Pain saves on x+.
            const int x = f.feel_no_pain;
            const bool relic = q % 2 == 0;
            const int dice = relic ? f.saintly_relics : (x != 0 ? 1 : 0);
            if (dice == 0) continue;
            active_[q] = true;
            const int tries = attack_dice[1 - q / 2];
            const int per_group = kGroupDice / dice;
            // Whole groups of kGroupDice dice, so that every group is read alike (a last group's
            // tries past the enemy's dice are dropped as the round's unused tries are).
            masks_[q] = relic ? masks(per_group, dice, [](int face) { return face == 6; })
                              : masks(per_group, dice, [x](int face) { return face >= x; });
            for (int done = 0; done < tries; done += per_group) {
                groups_.push_back(masks_[q].data());
                placed.push_back(Placed{q, done, per_group});
            }
        }
        for (int d = 0; d < kTableSide * kTableSide; ++d) successes_[d] = static_cast<uint8_t>(d / kTableSide + d % kTableSide);
        for (int sa = 0; sa <= kMaxDice; ++sa) {
            for (int sb = 0; sb <= kMaxDice; ++sb) {
                RollBlocks& b = layouts_[sa][sb];
                int width[4] = {};
                // Feel No Pain's bits first, then the relics' (mostly 0): a table's likely words lie close together.
                for (const int q : {1, 3, 0, 2}) {  // the rolls against fighter q / 2 are the enemy's strikes
                    width[q] = active_[q] ? (q < 2 ? sb : sa) : 0;
                    b.starts.at[q] = static_cast<uint8_t>(b.bits);
                    b.bits += width[q];
                }
                for (std::size_t g = 0; g < groups_.size(); ++g) {
                    const Placed& p = placed[g];
                    const int kept = std::clamp(width[p.block] - p.first, 0, p.tries);
                    b.keep[g] = static_cast<uint8_t>((1u << kept) - 1);
                    b.shift[g] = static_cast<uint8_t>(kept ? b.starts.at[p.block] + p.first : 0);
                }
            }
        }
    }

    // The blocks of a round whose fighters retained these successes.
    const RollBlocks& blocks(int successes_a, int successes_b) const { return layouts_[successes_a][successes_b]; }

    // A fighter's successes from its retained dice (crits * kTableSide + norms).
    int successes(int dice) const { return successes_[dice]; }

    // The round's word: every group's dice rolled, the tries it keeps put in place.
    uint64_t roll(DiceSource& dice, const RollBlocks& b) const {
        uint64_t word = 0;
        std::size_t g = 0;
        // Two groups' dice split off the draw at once (the same dice, in the same order): one step
        // fewer along the draw's chain of divisions.
        for (; g + 1 < groups_.size(); g += 2) {
            const uint64_t both = dice.digits<2 * kGroupDice>();
            constexpr uint64_t kGroupNumbers = DiceSource::kPow6[kGroupDice];
            word |= static_cast<uint64_t>(groups_[g][both % kGroupNumbers] & b.keep[g]) << b.shift[g];
            word |= static_cast<uint64_t>(groups_[g + 1][both / kGroupNumbers] & b.keep[g + 1]) << b.shift[g + 1];
        }
        if (g < groups_.size()) word |= static_cast<uint64_t>(groups_[g][dice.digits<kGroupDice>()] & b.keep[g]) << b.shift[g];
        return word;
    }

private:
    // For `tries` tries of `dice` dice each: their dice' number -> bit t set when try t succeeded
    // (digit i of the number is die i's face - 1; try t's dice are t * dice ... t * dice + dice - 1).
    template <class Success>
    static std::vector<uint8_t> masks(int tries, int dice, Success success) {
        std::vector<uint8_t> out(DiceSource::kPow6[tries * dice], 0);
        for (uint64_t v = 0; v < out.size(); ++v) {
            uint64_t rest = v;
            for (int t = 0; t < tries; ++t) {
                bool yes = false;
                for (int d = 0; d < dice; ++d, rest /= 6) yes |= success(static_cast<int>(rest % 6) + 1);
                if (yes) out[v] |= static_cast<uint8_t>(1u << t);
            }
        }
        return out;
    }

    std::vector<uint8_t> masks_[4];     // by block: a group's dice' number -> which of its tries succeeded
    std::vector<const uint8_t*> groups_;  // every block's groups, in order: their masks
    bool active_[4] = {};
    RollBlocks layouts_[kMaxDice + 1][kMaxDice + 1];
    uint8_t successes_[kTableSide * kTableSide] = {};
};

// Steps live in blocks that never move and are only appended, under `mutex`; a round start's slot
// is published (release) once its whole subgraph is built, so a reader that sees the slot (acquire)
// sees every step it leads to, without a lock. Past its bound the graph stops growing and rounds
// it does not hold are resolved directly (the same dice, so the same results).
struct FightMonteCarlo::ChanceGraph {
    static constexpr int kBlockBits = 16;
    static constexpr std::size_t kBlockSteps = std::size_t{1} << kBlockBits;
    static constexpr std::size_t kMaxBlocks = 16;                     // 1M steps, 16 MB
    static constexpr std::size_t kMaxNodes = std::size_t{1} << 20;    // the states' map: up to 32 MB

    explicit ChanceGraph(const StartLayout& layout)
        : first(new std::atomic<uint32_t>[kDicePairs]), later(new std::atomic<uint32_t>[layout.slots]) {
        for (int i = 0; i < kDicePairs; ++i) first[i].store(kNoStep, std::memory_order_relaxed);
        for (std::size_t i = 0; i < layout.slots; ++i) later[i].store(kNoStep, std::memory_order_relaxed);
    }

    const ChanceStep& step(uint32_t i) const { return blocks[i >> kBlockBits][i & (kBlockSteps - 1)]; }
    ChanceStep& step(uint32_t i) { return blocks[i >> kBlockBits][i & (kBlockSteps - 1)]; }
    uint32_t push(const ChanceStep& s) {  // under `mutex`
        if (size == kMaxBlocks * kBlockSteps) throw GraphFull{};
        if ((size & (kBlockSteps - 1)) == 0) blocks[size >> kBlockBits].reset(new ChanceStep[kBlockSteps]);
        step(size) = s;
        return size++;
    }

    std::unique_ptr<std::atomic<uint32_t>[]> first;  // opening rounds by dice
    std::unique_ptr<std::atomic<uint32_t>[]> later;  // later rounds by StartLayout, when it fits
    std::mutex mutex;
    // under `mutex`:
    std::unique_ptr<ChanceStep[]> blocks[kMaxBlocks];
    uint32_t size = 0;
    StateMap nodes;   // the first step from each state (its chance_canonical form, for heuristic play)
    StateMap starts;  // later rounds when StartLayout does not fit
    uint32_t end = kNoStep;  // the one end step
    bool full = false;
};

// Aligned to a cache line: two threads' workspaces never share one.
struct alignas(64) FightMonteCarlo::Workspace {
    // A graph step's table of the round's losses by word, for the successes it was built for.
    static constexpr uint32_t kNoTable = 0xFFFFFFFE, kNotBuilt = 0xFFFFFFFF;
    struct RoundTable {
        uint32_t offset = kNotBuilt;  // into `losses`, or kNoTable (none will be built), or kNotBuilt (not yet)
        uint16_t visits = 0;
        uint8_t successes_a = 0, successes_b = 0;
    };

    Workspace(const FightSpec& spec, const OptimalSolver* solver, const int dice[2], int rounds, ChanceGraph* graph)
        : spec(spec), cache(spec), solver(solver), layout(spec, dice, rounds, spec.has_optimal()), graph(graph) {
        if (cache.spec().rolls_lookahead()) {
            rolled = std::make_unique<ChanceMemo>(cache.spec(), cache, kRolledEnds);
        }
        if (graph) start_tables.assign(kDicePairs + (layout.slots <= kMaxStartTables ? layout.slots : 0), 0);
    }

    // What the fighter to move plays in `st` in round `r`: the solved move of an optimal fighter, a
    // heuristic's decision, or with the rolled lookahead each of its rule 5 lines with its chance.
    Choice choose(const FightState& st, int r) {
        if (solver && spec.fighter[st.mover].strategy == Strategy::Optimal) {
            return Choice::certain(solver->solved_action(st, r));
        }
        return rolled ? rolled->choose(st) : Choice::certain(cache.decide(st));
    }

    // Plays round `r`'s choices, drawing an uncertain one from the sample's stream.
    struct Drawn {
        Workspace& ws;
        int r;
        DiceSource& dice;
        Action decide(const FightState& st) { return drawn_action(ws.choose(st, r), dice.rng()); }
    };

    // Wounds (A, B) after round `r` without chance effects, from these dice and wounds. Heuristic
    // play does not depend on the round; optimal play does, so the round is part of the key.
    std::pair<int, int> round(int r, int a, int wounds_a, int b, int wounds_b) {
        const bool opening = wounds_a == spec.fighter[0].wounds && wounds_b == spec.fighter[1].wounds &&
                             (!solver || r == 0);
        uint64_t key = 0;
        std::size_t slot = 0;
        if (opening) {  // the first round's wounds are known: a flat table by dice alone
            if (first_round.empty()) first_round.assign(kDicePairs, kUnknown);
            const uint16_t known = first_round[dice_index(a, b)];
            if (known != kUnknown) return {known & 63, known >> 6};
        } else if (layout.slots) {
            if (flat_round.empty()) flat_round.assign(layout.slots, kUnknown);
            slot = layout.index(r, a, wounds_a, b, wounds_b, 0, 0);
            const uint16_t known = flat_round[slot];
            if (known != kUnknown) return {known & 63, known >> 6};
        } else {
            key = 1ULL << 63 | static_cast<uint64_t>(dice_index(a, b)) << 12 | static_cast<uint64_t>(wounds_a) << 6 |
                  static_cast<uint64_t>(wounds_b) | static_cast<uint64_t>(solver ? r : 0) << 40;
            uint32_t known = 0;
            if (later_rounds.find(key, known)) return {static_cast<int>(known & 63), static_cast<int>(known >> 6)};
        }
        FightState st = round_state(a / kTableSide, a % kTableSide, wounds_a, b / kTableSide, b % kTableSide, wounds_b);
        NoLog log;
        start_round(spec, st, log);
        std::pair<int, int> end;
        if (solver) {
            SolvedDecider decider{*solver, cache, r};
            NoChance chance;
            while (!st.over()) {
                check_interrupt();
                apply_action(spec, st, decider.decide(st), chance, log);
                pass_turn(st, log);
            }
            end = {st.side[0].wounds, st.side[1].wounds};
        } else {
            end = cache.playout(st);
        }
        const uint16_t packed = static_cast<uint16_t>(end.first | end.second << 6);
        if (opening) first_round[dice_index(a, b)] = packed;
        else if (layout.slots) flat_round[slot] = packed;
        else later_rounds.insert(key, packed);
        return end;
    }

    // A round start's flat slot: [0, kDicePairs) an opening round (wounds full, no relic ignore
    // spent; only round 0 for optimal play) by dice, then later rounds by StartLayout when it fits;
    // else kNoSlot (the start is hashed).
    static constexpr std::size_t kNoSlot = ~std::size_t{0};
    std::size_t start_slot(int r, int a, int wounds_a, int b, int wounds_b, int uses_a, int uses_b) const {
        if (wounds_a == spec.fighter[0].wounds && wounds_b == spec.fighter[1].wounds && uses_a == 0 && uses_b == 0 &&
            (!solver || r == 0)) {
            return static_cast<std::size_t>(dice_index(a, b));
        }
        if (!layout.slots) return kNoSlot;
        return kDicePairs + layout.index(r, a, wounds_a, b, wounds_b, uses_a, uses_b);
    }

    // With Feel No Pain / relics: the first step of round `r` of the chance graph, from these dice,
    // wounds and relic ignores spent; kNoStep when the graph does not hold it and cannot build it
    // now (full, or another thread is building).
    uint32_t chance_round(int r, int a, int wounds_a, int b, int wounds_b, int uses_a, int uses_b) {
        ChanceGraph& g = *graph;
        const std::size_t start = start_slot(r, a, wounds_a, b, wounds_b, uses_a, uses_b);
        std::atomic<uint32_t>* slot = nullptr;
        uint64_t key = 0;
        if (start < kDicePairs) slot = &g.first[start];
        else if (start != kNoSlot) slot = &g.later[start - kDicePairs];
        uint32_t first = kNoStep;
        if (slot) {
            first = slot->load(std::memory_order_acquire);
            if (first != kNoStep) return first;
        } else {
            key = 1ULL << 63 | static_cast<uint64_t>(dice_index(a, b)) << 24 | static_cast<uint64_t>(solver ? r : 0) << 16 |
                  static_cast<uint64_t>(uses_b) << 14 | static_cast<uint64_t>(uses_a) << 12 |
                  static_cast<uint64_t>(wounds_b) << 6 | static_cast<uint64_t>(wounds_a);
            if (local_starts.find(key, first)) return first;
        }
        // While another thread builds, this one does not wait: it resolves the round directly
        // (the same dice, so the same result) and goes on.
        std::unique_lock<std::mutex> lock(g.mutex, std::try_to_lock);
        if (!lock.owns_lock()) return kNoStep;
        if (slot) first = slot->load(std::memory_order_relaxed);  // another thread may have built it
        else if (!g.starts.find(key, first)) first = kNoStep;
        if (first == kNoStep) {
            if (g.full) return kNoStep;
            FightState st = round_state(a / kTableSide, a % kTableSide, wounds_a, b / kTableSide, b % kTableSide,
                                        wounds_b, uses_a, uses_b);
            NoLog log;
            start_round(spec, st, log);
            try {
                first = node(st, r);  // a state is mapped only once its subgraph is complete
            } catch (const GraphFull&) {
                g.full = true;
                return kNoStep;
            }
            if (slot) slot->store(first, std::memory_order_release);
            else g.starts.insert(key, first);
        }
        if (!slot) local_starts.insert(key, first);
        return first;
    }

    // One round resolved step by step, the Feel No Pain / relic rolls answered from the round's
    // word and the rolled lookahead's choices drawn from `dice` as asked, as the chance graph does.
    void random_round(int r, int a, int& wounds_a, int b, int& wounds_b, int& uses_a, int& uses_b, uint64_t word,
                      const RollBlocks& blocks, DiceSource& dice) {
        FightState st = round_state(a / kTableSide, a % kTableSide, wounds_a, b / kTableSide, b % kTableSide, wounds_b,
                                    uses_a, uses_b);
        BlockChance roll{st, word, blocks.starts};
        NoLog log;
        Drawn decider{*this, r, dice};
        resolve_round(spec, st, decider, roll, log);
        wounds_a = st.side[0].wounds;
        wounds_b = st.side[1].wounds;
        uses_a = st.side[0].relic_uses;
        uses_b = st.side[1].relic_uses;
    }

    // What the round from graph step `at` loses with these rolls (the round's word, its fighters
    // starting with `successes` each): from the step's table of every word once the step has come up
    // often enough to pay for one (a table holds the same losses as the walk, worked out by it),
    // else by walking the graph.
    uint32_t chance_loss(uint32_t at, std::size_t start, int successes_a, int successes_b, uint64_t word,
                         const RollBlocks& blocks, Rng& rng) {
        if (at >= tables.size()) tables.resize(std::max<std::size_t>(at + 1, 2 * tables.size()));
        RoundTable& t = tables[at];
        // A table of 2^bits words pays for itself once its step has come up about 2^bits / 8 times.
        if (t.offset == kNotBuilt && blocks.bits <= kTableBits && ++t.visits >= std::max(1, (1 << blocks.bits) >> 3)) {
            build_table(t, at, successes_a, successes_b, blocks);
        }
        if (t.offset < kNoTable && t.successes_a == successes_a && t.successes_b == successes_b) {
            if (start < start_tables.size()) start_tables[start] = t.offset + 1;  // the start's rounds: one lookup
            return table_loss(t.offset, word);
        }
        return walk_round(*graph, at, word, blocks.starts, &rng);
    }

    // The table of the round from flat slot `start` (start_slot), when this thread knows it: its
    // offset in `losses` plus one, or 0.
    uint32_t start_table(std::size_t start) const { return start < start_tables.size() ? start_tables[start] : 0; }

    // What the round whose table starts at `offset` loses with word `word`.
    uint32_t table_loss(uint32_t offset, uint64_t word) const { return losses[offset + word]; }

    static constexpr int kTableBits = 10;  // 1024 words, 2 KB
    static constexpr std::size_t kMaxLosses = std::size_t{1} << 22;  // per thread: 8 MB

    void build_table(RoundTable& t, uint32_t at, int successes_a, int successes_b, const RollBlocks& blocks) {
        const std::size_t words = std::size_t{1} << blocks.bits;
        t.offset = kNoTable;  // unless it is built below
        if (losses.size() + words > kMaxLosses) return;
        const std::size_t offset = losses.size();
        losses.resize(offset + words);
        for (std::size_t w = 0; w < words; ++w) {
            const uint32_t loss = walk_round(*graph, at, w, blocks.starts, nullptr);
            if (loss == kChoiceMet) {  // a choice draws from the stream as it goes: no table
                losses.resize(offset);
                return;
            }
            losses[offset + w] = static_cast<uint16_t>(loss);
        }
        t.offset = static_cast<uint32_t>(offset);
        t.successes_a = static_cast<uint8_t>(successes_a);
        t.successes_b = static_cast<uint8_t>(successes_b);
    }

    // The step the rest of the round starts with from `st` (its turn passed, or the round started);
    // what the round loses from `st` on is what the steps from there lose. A state whose action rolls
    // no chance dice leads straight to the next state's step (through a kShift step if it loses
    // something). Heuristic play is built on chance_canonical forms, so one node serves every state
    // of its form; optimal play reads every wound and the relic ignores spent, so its states stay
    // as they are (and the round is part of the key).
    uint32_t node(const FightState& st, int r) {
        check_interrupt();
        if (st.over()) return end_step();
        const FightState c = solver ? st : chance_canonical(spec, cache, st);
        const uint64_t key = full_key(c) | static_cast<uint64_t>(solver ? r : 0) << 44;
        uint32_t known = 0;
        if (graph->nodes.find(key, known)) return known;
        if (graph->nodes.size() >= ChanceGraph::kMaxNodes) throw GraphFull{};
        const Choice choice = choose(c, r);
        bool prefix[ScriptedChance::kMaxQueries] = {};
        uint32_t first;
        if (choice.is_certain()) {
            const Edge edge = branch(c, choice.action, r, prefix, 0);
            first = edge.loss == 0 ? edge.step : graph->push(shift(edge));
        } else {
            // The rolled lookahead's choice: a draw, then the action's rolls (what it loses after it).
            ChanceStep pick;
            pick.kind = ChanceStep::kChoice;
            const uint32_t threshold = choice_threshold(choice);
            pick.yes_loss = static_cast<uint16_t>(threshold & 0xFFFFu);
            pick.no_loss = static_cast<uint16_t>(threshold >> 16);
            first = graph->push(pick);
            const Edge yes = branch(c, choice.action, r, prefix, 0);
            const uint32_t yes_step = yes.loss == 0 ? yes.step : graph->push(shift(yes));
            const Edge no = branch(c, choice.other, r, prefix, 0);
            const uint32_t no_step = no.loss == 0 ? no.step : graph->push(shift(no));
            graph->step(first).yes = yes_step;
            graph->step(first).no = no_step;
        }
        graph->nodes.insert(key, first);
        return first;
    }

    // The action from `st` with its first `known` chance rolls decided by `prefix`: the step of the
    // next roll it asks for (nothing lost yet), or (none left) of the state it leads to, with what
    // the action lost.
    Edge branch(const FightState& st, Action action, int r, bool* prefix, int known) {
        FightState next = st;
        PrefixChance chance{prefix, known, next};
        NoLog log;
        apply_action(spec, next, action, chance, log);
        pass_turn(next, log);
        if (chance.asked == known) {
            const Edge edge{node(next, r), round_loss(st, next)};
            const ChanceStep& entry = graph->step(edge.step);
            if (entry.kind != ChanceStep::kShift) return edge;
            return Edge{entry.yes, edge.loss + entry.yes_loss};  // go past the next state's shift
        }
        if (known == ScriptedChance::kMaxQueries) throw GraphFull{};  // more rolls than any action makes
        ChanceStep roll;
        roll.kind = chance.next_kind;
        roll.block = static_cast<uint8_t>(chance.next_block);
        const uint32_t at = graph->push(roll);
        prefix[known] = false;
        const Edge no = branch(st, action, r, prefix, known + 1);
        prefix[known] = true;
        const Edge yes = branch(st, action, r, prefix, known + 1);
        ChanceStep& step = graph->step(at);
        step.no = no.step;
        step.no_loss = static_cast<uint16_t>(no.loss);
        step.yes = yes.step;
        step.yes_loss = static_cast<uint16_t>(yes.loss);
        return Edge{at, 0};
    }

    static ChanceStep shift(const Edge& edge) {
        ChanceStep step;
        step.kind = ChanceStep::kShift;
        step.yes = edge.step;
        step.yes_loss = static_cast<uint16_t>(edge.loss);
        return step;
    }

    // The one end of every round (what a round loses is on the way there).
    uint32_t end_step() {
        if (graph->end == kNoStep) graph->end = graph->push(ChanceStep{});
        return graph->end;
    }

    // The rolled lookahead's ends held per workspace before its memo starts over (10 MB).
    static constexpr std::size_t kRolledEnds = std::size_t{1} << 20;

    FightSpec spec;
    DecisionCache cache;
    std::unique_ptr<ChanceMemo> rolled;  // the rolled lookahead's lines (FightSpec::rolls_lookahead), or none
    const OptimalSolver* solver;  // the engine's, solved before any sample
    StartLayout layout;
    std::vector<uint16_t> first_round;  // the first rounds, by dice
    std::vector<uint16_t> flat_round;   // later rounds by start when the layout fits, else in a map
    StateMap later_rounds;
    ChanceGraph* graph;       // the engine's, with Feel No Pain / relics
    StateMap local_starts;    // this thread's copy of the graph's hashed starts (no lock to read)
    std::vector<RoundTable> tables;  // by graph step: this thread's, so read and built without locks
    std::vector<uint16_t> losses;  // the tables, one after the other: round_loss codes by word
    std::vector<uint32_t> start_tables;  // by start_slot, when the layout's slots are few enough (below)
    static constexpr std::size_t kMaxStartTables = std::size_t{1} << 18;  // 1 MB
};

FightMonteCarlo::FightMonteCarlo(const FightSpec& spec, const AttackProfile& dice_a, const AttackProfile& dice_b,
                                 int rounds, const AttackProfile& injured_a, const AttackProfile& injured_b)
    : spec_(spec),
      dice_{dice_a, dice_b},
      rollers_{{AttackRoller(dice_a), AttackRoller(injured_a)}, {AttackRoller(dice_b), AttackRoller(injured_b)}},
      rounds_(rounds) {
    if (spec.has_chance()) {
        const int dice[2] = {dice_a.dice, dice_b.dice};
        graph_ = std::make_unique<ChanceGraph>(StartLayout(spec, dice, rounds, spec.has_optimal()));
        chance_dice_ = std::make_unique<ChanceDice>(spec, dice);
    }
    if (spec.has_optimal()) {
        tables_.own[0] = attack_distribution(dice_a);
        tables_.own[1] = attack_distribution(dice_b);
        tables_.injured[0] = attack_distribution(injured_a);
        tables_.injured[1] = attack_distribution(injured_b);
    }
}

FightMonteCarlo::~FightMonteCarlo() = default;

// One solver for every thread: solved once, then only read, so memory does not grow with threads.
SolverStats FightMonteCarlo::prepare(SolverBudget budget) {
    if (!spec_.has_optimal()) return {};
    std::lock_guard<std::mutex> lock(solver_mutex_);
    if (!solver_) {
        auto solver = std::make_unique<OptimalSolver>(spec_, tables_, rounds_, budget);
        try {
            solver->solve_all();  // Interrupted goes on up: nothing is kept either way
        } catch (const SolverLimitExceeded& e) {
            SolverStats refused;
            refused.refused = e.memory ? 2 : 1;
            return refused;
        }
        solver_ = std::move(solver);
    }
    return SolverStats{solver_->states(), solver_->memory_bytes()};
}

std::size_t FightMonteCarlo::bins() const {
    return static_cast<std::size_t>(spec_.wounds_rows()) * spec_.wounds_columns();
}

std::unique_ptr<FightMonteCarlo::Workspace> FightMonteCarlo::acquire() {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    if (pool_.empty()) {
        const int dice[2] = {dice_[0].dice, dice_[1].dice};
        return std::make_unique<Workspace>(spec_, solver_.get(), dice, rounds_, graph_.get());
    }
    std::unique_ptr<Workspace> workspace = std::move(pool_.back());
    pool_.pop_back();
    return workspace;
}

void FightMonteCarlo::release(std::unique_ptr<Workspace> workspace) {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    pool_.push_back(std::move(workspace));
}

// The samples of a fight with Feel No Pain / relics (counts), apart from the plain fights' loop so
// that each loop compiles on its own.
void FightMonteCarlo::chance_samples(Workspace& workspace, DiceSource& dice, uint64_t n, uint64_t* c) const {
    Workspace* const ws = &workspace;
    const int full_a = spec_.fighter[0].wounds, full_b = spec_.fighter[1].wounds;
    const int stride = full_b + 1, rounds = rounds_;
    const FightSpec& spec = spec_;
    const auto& rollers = rollers_;
    auto roller = [&spec, &rollers](int side, int wounds) -> const AttackRoller& {
        return rollers[side][is_injured(spec, side, wounds) ? 1 : 0];
    };
    const ChanceDice& chance_dice = *chance_dice_;
    for (uint64_t i = 0; i < n; ++i) {
        if ((i & 63) == 0) check_interrupt();  // a few microseconds apart
        int wa = full_a, wb = full_b, uses_a = 0, uses_b = 0;
        for (int r = 0; r < rounds && wa > 0 && wb > 0; ++r) {
            const int a = roller(0, wa).roll(dice);
            const int b = roller(1, wb).roll(dice);
            // The round's Feel No Pain and relic dice, then its resolution from the graph.
            const int successes_a = chance_dice.successes(a);
            const int successes_b = chance_dice.successes(b);
            const RollBlocks& blocks = chance_dice.blocks(successes_a, successes_b);
            const uint64_t word = chance_dice.roll(dice, blocks);
            // Every fight opens with full wounds and no relic ignore spent: its slot is its dice
            // pair, always among start_tables'.
            std::size_t start = 0;
            uint32_t table = 0;
            if (r == 0) {
                start = static_cast<std::size_t>(dice_index(a, b));
                table = ws->start_tables[start];
            } else {
                start = ws->start_slot(r, a, wa, b, wb, uses_a, uses_b);
                table = ws->start_table(start);
            }
            uint32_t loss = 0;
            if (table) {
                loss = ws->table_loss(table - 1, word);
            } else {
                const uint32_t at = ws->chance_round(r, a, wa, b, wb, uses_a, uses_b);
                if (at == kNoStep) {  // not in the graph now: the same resolution, from the same word
                    ws->random_round(r, a, wa, b, wb, uses_a, uses_b, word, blocks, dice);
                    continue;
                }
                loss = ws->chance_loss(at, start, successes_a, successes_b, word, blocks, dice.rng());
            }
            wa -= static_cast<int>(loss & 63);
            wb -= static_cast<int>(loss >> 6 & 63);
            uses_a += static_cast<int>(loss >> 12 & 3);
            uses_b += static_cast<int>(loss >> 14 & 3);
        }
        ++c[wa * stride + wb];
    }
}

std::vector<uint64_t> FightMonteCarlo::counts(uint64_t seed, uint64_t total, uint64_t chunk_begin, uint64_t chunk_end,
                                              int threads) {
    const int wounds_a = spec_.fighter[0].wounds;
    const int wounds_b = spec_.fighter[1].wounds;
    const int side_b = wounds_b + 1;
    const bool chance = spec_.has_chance();
    prepare(SolverBudget{});  // a no-op once prepared (Python prepares with the fight's budget first)
    return run_chunks(seed, total, chunk_begin, chunk_end, bins(), threads, [&](Rng& rng, uint64_t n, uint64_t* c) {
        // This thread's own copies: the captures live in the calling thread's stack frame, next to
        // what that thread keeps writing, and reading them every sample would share its cache lines.
        const int full_a = wounds_a, full_b = wounds_b, stride = side_b, rounds = rounds_;
        // The dice a round rolls: a fighter's own, or injured when it starts the round so (§3.9).
        const FightSpec& spec = spec_;
        const auto& rollers = rollers_;
        auto roller = [&spec, &rollers](int side, int wounds) -> const AttackRoller& {
            return rollers[side][is_injured(spec, side, wounds) ? 1 : 0];
        };
        std::unique_ptr<Workspace> ws = acquire();
        DiceSource dice(rng);
        if (!chance) {
            for (uint64_t i = 0; i < n; ++i) {
                int wa = full_a, wb = full_b;
                for (int r = 0; r < rounds && wa > 0 && wb > 0; ++r) {
                    const int a = roller(0, wa).roll(dice);
                    const int b = roller(1, wb).roll(dice);
                    std::tie(wa, wb) = ws->round(r, a, wa, b, wb);
                }
                ++c[wa * stride + wb];
            }
        } else {
            chance_samples(*ws, dice, n, c);
        }
        release(std::move(ws));
    });
}

}  // namespace mh::kt

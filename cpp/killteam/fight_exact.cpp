#include "killteam/fight_exact.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <utility>

#include <unistd.h>

#include "core/interrupt.hpp"
#include "killteam/fight_chance.hpp"
#include "killteam/fight_decision.hpp"
#include "killteam/fight_optimal.hpp"
#include "killteam/fight_resolve.hpp"

namespace mh::kt {

namespace {

// What one resolution's forward pass did, kept so that another resolution from an equivalent start
// can redo exactly its arithmetic without the play: every product of a state's probability and a
// chance outcome's, in the order the pass took them, and where it went (a state, by the order it
// was first reached, or an end of the round). Replaying performs the same floating-point
// operations in the same order, so the sums are bit-for-bit those of the pass.
struct Step {
    uint32_t source;  // the state whose probability is multiplied (0: the start)
    uint32_t target;  // a state, or kLeaf | the round's end (packed_end)
    double factor;    // the chance outcome's probability
};
constexpr uint32_t kLeaf = 1u << 31;

inline uint32_t packed_end(const FightState& end) {
    return kLeaf | static_cast<uint32_t>(end.side[0].wounds) << 10 | static_cast<uint32_t>(end.side[1].wounds) << 4 |
           static_cast<uint32_t>(end.side[0].relic_uses) << 2 | static_cast<uint32_t>(end.side[1].relic_uses);
}

// An end recorded from a real start, moved to the canonical start's wounds (shift taken off).
inline uint32_t unshifted(uint32_t packed, const int shift[2]) {
    const uint32_t wa = (packed >> 10 & 63u) - static_cast<uint32_t>(shift[0]);
    const uint32_t wb = (packed >> 4 & 63u) - static_cast<uint32_t>(shift[1]);
    return kLeaf | wa << 10 | wb << 4 | (packed & 15u);
}

struct Recording {
    std::vector<Step> steps;  // while recording; then moved into Recordings' one array
    uint32_t reached = 0;  // states reached (the start included)
    uint64_t processed = 0;  // states carried forward: what ChanceExplorer::states() counts
};

// Carries one round's states forward with their probabilities. Every action spends at least one
// success, so states are processed by total successes, highest first; equal states are merged.
class ChanceExplorer {
public:
    explicit ChanceExplorer(const FightSpec& spec) : spec_(spec) {}

    uint64_t states() const { return states_; }
    void count(uint64_t processed) { states_ += processed; }

    // `decider.decide(state)` picks every action (DecisionCache, or OptimalDecider). With a
    // recording, what the pass does is written into it too (see Step).
    template <class Decider, class Leaf>
    void explore(const FightState& start, double prob, Decider& decider, Leaf&& leaf, Recording* rec = nullptr) {
        const uint64_t before = states_;
        reached_ = 0;
        if (start.over()) {
            leaf(start, prob);
            if (rec != nullptr) rec->steps.push_back(Step{0, packed_end(start), 1.0});
            finish(rec, before);
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
                    const double factor = chance.probability();
                    const double p = item.prob * factor;
                    uint32_t target;
                    if (next.over()) {
                        leaf(next, p);
                        target = packed_end(next);
                    } else {
                        target = add(next, p);
                    }
                    if (rec != nullptr) rec->steps.push_back(Step{item.id, target, factor});
                } while (chance.next());
            }
            bucket.clear();
        }
        finish(rec, before);
    }

private:
    struct Weighted {
        FightState state;
        uint64_t key;
        double prob;
        uint32_t id;  // the order it was first reached in
    };

    void finish(Recording* rec, uint64_t before) {
        if (rec == nullptr) return;
        rec->reached = reached_;
        rec->processed = states_ - before;
    }

    uint32_t add(const FightState& st, double prob) {
        const uint64_t key = full_key(st);
        std::vector<Weighted>& bucket = buckets_[st.successes()];
        for (Weighted& w : bucket) {
            if (w.key == key) {
                w.prob += prob;
                return w.id;
            }
        }
        bucket.push_back(Weighted{st, key, prob, reached_});
        return reached_++;
    }

    const FightSpec& spec_;
    std::vector<Weighted> buckets_[2 * kMaxDice + 1];
    uint64_t states_ = 0;
    uint32_t reached_ = 0;
};

// Recordings of resolutions, by start: the start state after the round's first steps, with wounds
// the enemy cannot take away this round lowered to that reach plus one. From such wounds the play
// is the same whatever they are (the decisions see them so, no strike can bring the fighter to 0,
// chance effects never read wounds) but for the wounds the round ends on, shifted by as many. Later
// rounds start from many wound pairs, and the last two rounds of a three-round fight from the same
// ones: most resolutions are replays. Bounded in steps; once full, the rest are played.
class Recordings {
public:
    static constexpr std::size_t kMaxSteps = std::size_t{1} << 21;  // 32 MB

    // The start a resolution is recorded under, and the wounds taken off each fighter for it.
    // Only where the decisions read wounds as the real damage to come (not the nominal test's).
    static FightState canonical(const FightSpec& spec, const DecisionCache& cache, const FightState& st, int shift[2]) {
        FightState c = st;
        shift[0] = shift[1] = 0;
        if (spec.lethal_test != LethalTest::RealDamage) return c;
        for (int s = 0; s < 2; ++s) {
            const int reach = cache.most_damage(st, 1 - s) + 1;
            if (c.side[s].wounds > reach) {
                shift[s] = c.side[s].wounds - reach;
                c.side[s].wounds = static_cast<int8_t>(reach);
            }
        }
        return c;
    }

    // A recording being made: reused, so that recording allocates nothing once warm.
    Recording& scratch() {
        scratch_.steps.clear();
        return scratch_;
    }

    // Whether a recording is kept under `key`; if so, its index.
    bool find(uint64_t key, uint32_t& index) const { return index_.find(key, index); }
    uint64_t processed(uint32_t index) const { return kept_[index].processed; }

    bool full() const { return steps_.size() >= kMaxSteps; }

    // Keeps the scratch recording under `key`.
    void keep(uint64_t key) {
        index_.insert(key, static_cast<uint32_t>(kept_.size()));
        kept_.push_back(Kept{static_cast<uint32_t>(steps_.size()), static_cast<uint32_t>(scratch_.steps.size()),
                             scratch_.reached, scratch_.processed});
        steps_.insert(steps_.end(), scratch_.steps.begin(), scratch_.steps.end());
    }

    // Redo recording `index` from probability `prob`; `end(packed_end, p)` receives each end of the round.
    template <class End>
    void replay(uint32_t index, double prob, End&& end) {
        const Kept& k = kept_[index];
        probs_.assign(std::max<uint32_t>(k.reached, 1), 0.0);
        probs_[0] = prob;
        for (const Step* step = steps_.data() + k.begin; step != steps_.data() + k.begin + k.steps; ++step) {
            const double p = probs_[step->source] * step->factor;
            if (step->target & kLeaf) end(step->target, p);
            else probs_[step->target] += p;  // 0.0 + p is p: the pass's first arrival
        }
    }

private:
    struct Kept {
        uint32_t begin;
        uint32_t steps;
        uint32_t reached;
        uint64_t processed;
    };
    StateMap index_;
    std::vector<Kept> kept_;
    std::vector<Step> steps_;
    std::vector<double> probs_;
    Recording scratch_;
};

// One cache for the whole computation: a bigger one than each Monte Carlo thread keeps.
constexpr std::size_t kExactCacheEntries = std::size_t{1} << 22;

// The fields of a fight spec the decisions read: everything but the starting wounds and who moves
// first (decisions see only the wounds of the state in hand, and never who started the round).
bool same_decision_rules(const FightSpec& x, const FightSpec& y) {
    static_assert(sizeof(FighterSpec) == 36 && sizeof(FightSpec) == 80,
                  "a field was added to the fight spec: compare it here if decisions can read it");
    for (int s = 0; s < 2; ++s) {
        const FighterSpec& a = x.fighter[s];
        const FighterSpec& b = y.fighter[s];
        const bool same = a.normal_damage == b.normal_damage && a.critical_damage == b.critical_damage &&
                          a.strategy == b.strategy && a.objective == b.objective && a.brutal == b.brutal &&
                          a.shock == b.shock && a.storm_shield == b.storm_shield && a.dueller == b.dueller &&
                          a.duelist == b.duelist && a.hammerhand == b.hammerhand &&
                          a.just_a_scratch == b.just_a_scratch &&
                          a.just_a_scratch_normals == b.just_a_scratch_normals &&
                          a.half_damage_first_strike == b.half_damage_first_strike && a.durable == b.durable &&
                          a.murderous_entrance == b.murderous_entrance && a.feel_no_pain == b.feel_no_pain &&
                          a.saintly_relics == b.saintly_relics;
        if (!same) return false;
    }
    return x.shock == y.shock && x.lethal_test == y.lethal_test && x.duelist == y.duelist && x.durable == y.durable;
}

// Decision caches kept between calls, one per set of decision rules, most recently used first. A
// default fight works out about 1,800 states (0.2 ms) that the next fight of the same fighters,
// or of the same fighters at other wounds, would work out again. Decisions are functions of the
// cached state alone, so a warm cache changes no result; it is used only where no work limit can
// tell the difference (fight_exact). Bounded: a few caches, each kept only while it is small.
class DecisionPool {
public:
    static constexpr std::size_t kCaches = 8;
    static constexpr std::size_t kMaxEntries = std::size_t{1} << 15;  // at most 2 MB of slots each

    // A cache for `spec`'s rules: a kept one (taken out: one caller at a time), else a new one.
    static std::unique_ptr<DecisionCache> take(const FightSpec& spec) {
        Kept& kept = current();
        {
            std::lock_guard<std::mutex> lock(kept.mutex);
            for (auto it = kept.caches.begin(); it != kept.caches.end(); ++it) {
                if (same_decision_rules((*it)->spec(), spec)) {
                    std::unique_ptr<DecisionCache> cache = std::move(*it);
                    kept.caches.erase(it);
                    return cache;
                }
            }
        }
        return std::make_unique<DecisionCache>(spec, kExactCacheEntries);
    }

    // Keeps `cache` for later calls unless it has grown big; the least recently used goes first.
    static void give(std::unique_ptr<DecisionCache> cache) {
        if (cache->size() > kMaxEntries) return;
        Kept& kept = current();
        std::lock_guard<std::mutex> lock(kept.mutex);
        kept.caches.insert(kept.caches.begin(), std::move(cache));
        if (kept.caches.size() > kCaches) kept.caches.pop_back();
    }

private:
    struct Kept {
        const pid_t pid = ::getpid();
        std::mutex mutex;
        std::vector<std::unique_ptr<DecisionCache>> caches;
    };

    // Never destroyed (a call may still run while the process exits). A forked child starts afresh:
    // the parent's mutex may have been held by a thread the child does not have.
    static Kept& current() {
        static std::atomic<Kept*> kept{new Kept};
        Kept* k = kept.load();
        if (k->pid != ::getpid()) {
            Kept* fresh = new Kept;
            if (kept.compare_exchange_strong(k, fresh)) k = fresh;
            else delete fresh;  // another thread of this child got there first; `k` is its
        }
        return *k;
    }
};

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
                                SolverBudget budget, bool reuse_decisions) {
    const int wounds_a = spec.fighter[0].wounds;
    const int wounds_b = spec.fighter[1].wounds;
    const int side_b = wounds_b + 1;
    constexpr int kUses = kRelicIgnoresPerFight + 1;
    // A round starts from (wounds A, wounds B, relic uses A, relic uses B).
    auto index = [&](int wa, int wb, int ua, int ub) { return ((wa * side_b + wb) * kUses + ua) * kUses + ub; };
    const std::size_t states = static_cast<std::size_t>(wounds_a + 1) * side_b * kUses * kUses;

    const std::vector<Outcome> rolls_a = outcomes(dice_a);
    const std::vector<Outcome> rolls_b = outcomes(dice_b);
    // With an optimal fighter the game is solved first (lazily, as the rounds need it); its moves
    // then drive the same forward pass as chance effects do.
    const bool optimal = spec.has_optimal();
    const bool chance = spec.has_chance() || optimal;

    // A kept decision cache only saves decisions, which work.units() counts: it is used only when
    // even a cold cache could not pass work_limit (at most every decision state, and every round
    // start of every pair), so the engine gives up, or not, exactly as it would with a new cache.
    std::unique_ptr<DecisionCache> pooled;
    if (reuse_decisions && !chance && cache_entries == 0) {
        pooled = DecisionPool::take(spec);
        int most_dice[2] = {0, 0};
        for (const Outcome& o : rolls_a) most_dice[0] = std::max(most_dice[0], o.crits + o.norms);
        for (const Outcome& o : rolls_b) most_dice[1] = std::max(most_dice[1], o.crits + o.norms);
        const int start_wounds[2] = {wounds_a, wounds_b};
        const double decision_states = pooled->state_bound(most_dice, start_wounds);
        const double resolutions = static_cast<double>(rolls_a.size()) * static_cast<double>(rolls_b.size()) *
                                   (1.0 + (rounds - 1.0) * wounds_a * wounds_b);
        const bool unbounded_is_safe = decision_states <= static_cast<double>(kExactCacheEntries) &&
                                       (work_limit <= 0.0 || resolutions + decision_states / 8.0 <= work_limit);
        if (!unbounded_is_safe) {
            DecisionPool::give(std::move(pooled));
            pooled.reset();
        }
    }
    std::unique_ptr<DecisionCache> own;
    if (!pooled) own = std::make_unique<DecisionCache>(spec, cache_entries == 0 ? kExactCacheEntries : cache_entries);
    DecisionCache& cache = pooled ? *pooled : *own;
    const uint64_t computed_before = cache.computed();
    ChanceExplorer explorer(spec);
    Recordings recordings;
    std::unique_ptr<OptimalSolver> solver;
    // A work limit bounds the solver too (its states count as decisions); the tighter bound applies.
    const uint64_t work_states = work_limit > 0.0 ? static_cast<uint64_t>(work_limit * 8.0) : 0;
    const bool work_binds = work_states > 0 && (budget.max_states == 0 || work_states < budget.max_states);
    if (optimal) {
        SolverBudget bound = budget;
        if (work_binds) bound.max_states = work_states;
        solver = std::make_unique<OptimalSolver>(spec, dice_a, dice_b, rounds, bound);
    }
    NoLog log;

    ExactWork done;
    auto report = [&]() {
        done.chance_states = explorer.states();
        done.decisions = (cache.computed() - computed_before) + (solver ? solver->states() : 0);
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
                                    } else if (cache.computed() != cache.size()) {
                                        // The cache has started over: a replay would skip states a pass
                                        // now works out again, and the work would no longer match.
                                        explorer.explore(st, q, cache, leaf);
                                    } else {
                                        int shift[2];
                                        const uint64_t key = full_key(Recordings::canonical(spec, cache, st, shift));
                                        auto end = [&](uint32_t packed, double pr) {
                                            next[index(static_cast<int>(packed >> 10 & 63u) + shift[0],
                                                       static_cast<int>(packed >> 4 & 63u) + shift[1],
                                                       static_cast<int>(packed >> 2 & 3u),
                                                       static_cast<int>(packed & 3u))] += pr;
                                        };
                                        uint32_t kept = 0;
                                        if (recordings.find(key, kept)) {
                                            recordings.replay(kept, q, end);
                                            explorer.count(recordings.processed(kept));
                                        } else if (recordings.full()) {
                                            explorer.explore(st, q, cache, leaf);
                                        } else {
                                            // Played from the real start, recorded as from the canonical
                                            // one: the ends are kept relative to it.
                                            Recording& rec = recordings.scratch();
                                            explorer.explore(st, q, cache, leaf, &rec);
                                            for (Step& step : rec.steps) {
                                                if (step.target & kLeaf) step.target = unshifted(step.target, shift);
                                            }
                                            recordings.keep(key);
                                        }
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
    if (pooled) DecisionPool::give(std::move(pooled));  // only after a whole fight: never a half-built entry
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

#include "killteam/fight/exact.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <utility>

#include <unistd.h>

#include "core/interrupt.hpp"
#include "killteam/fight/chance.hpp"
#include "killteam/fight/decision.hpp"
#include "killteam/fight/exact_chance.hpp"
#include "killteam/fight/optimal.hpp"
#include "killteam/fight/resolve.hpp"

namespace mh::kt {

namespace {

// Carries one round's states forward with their probabilities. Every action spends at least one
// success, so states are processed by total successes, highest first; equal states are merged.
class ChanceExplorer {
public:
    explicit ChanceExplorer(const FightSpec& spec) : spec_(spec) {}

    uint64_t states() const { return states_; }

    // `decider.choose(state)` picks every action (the optimal fighter's OptimalDecider).
    template <class Decider, class Leaf>
    void explore(const FightState& start, double prob, Decider& decider, Leaf&& leaf) {
        if (start.over()) {
            leaf(start, prob);
            return;
        }
        const int top = start.successes();
        add(start, prob);
        for (int s = top; s > 0; --s) {
            std::vector<Weighted>& bucket = buckets_[s];
            for (std::size_t i = 0; i < bucket.size(); ++i) {  // children land in lower buckets only
                const Weighted item = bucket[i];
                if ((++states_ & 255) == 0) check_interrupt();
                const Choice choice = decider.choose(item.state);
                for_each_outcome(spec_, item.state, choice, [&](const FightState& next, double factor) {
                    const double p = item.prob * factor;
                    if (next.over()) leaf(next, p);
                    else add(next, p);
                });
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

// Decision caches kept between calls, one per set of decision rules, most recently used first. A
// default fight works out about 1,800 states (0.2 ms) that the next fight of the same fighters,
// or of the same fighters at other wounds, would work out again. Decisions are functions of the
// cached state alone, so a warm cache changes no result; fight_exact makes sure no work limit can
// tell the difference either. Bounded: a few caches, each kept only while it is small.
class DecisionPool {
public:
    static constexpr std::size_t kCaches = 8;
    static constexpr std::size_t kMaxEntries = std::size_t{1} << 16;  // at most 1 MB of slots each

    // A cache for `spec`'s rules: a kept one (taken out: one caller at a time), else a new one.
    static std::unique_ptr<DecisionCache> take(const FightSpec& spec) {
        if (DecisionScope::Caches* scoped = DecisionScope::current()) {  // this thread's batch's own
            for (auto it = scoped->begin(); it != scoped->end(); ++it) {
                if (same_decision_rules((*it)->spec(), spec)) {
                    std::unique_ptr<DecisionCache> cache = std::move(*it);
                    scoped->erase(it);
                    return cache;
                }
            }
            return std::make_unique<DecisionCache>(spec, kExactCacheEntries);
        }
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
        if (DecisionScope::Caches* scoped = DecisionScope::current()) {
            if (cache->size() > DecisionScope::kMaxEntries) return;
            scoped->insert(scoped->begin(), std::move(cache));
            if (scoped->size() > kCaches) scoped->pop_back();
            return;
        }
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

// The memory an exact fight's tables grow into, kept by each thread between its calls, empty: a
// chance fight's tables reach megabytes, and memory fresh from the system costs a page fault at the
// first touch of every 4 KB (a quarter of such a fight's time). A big table is kept only while the
// fight that grew it used it well: one left by a big fight would make each later, smaller fight
// clear more than it used.
class KeptTables {
public:
    static constexpr std::size_t kSmallSlots = std::size_t{1} << 14;  // 128 KB or less: always kept
    static constexpr std::size_t kMostSlots = std::size_t{1} << 19;   // more than 4 MB: never kept

    struct Tables {
        PackedStateMap decisions;
        ChanceMemo::Storage memo;
        std::vector<double> sums;  // RoundKernels': zeros
    };

    // This thread's kept tables (new ones the first time, or after a fight cut short).
    static std::unique_ptr<Tables> take() {
        std::unique_ptr<Tables> tables = std::move(mine());
        return tables ? std::move(tables) : std::make_unique<Tables>();
    }

    // Keeps the tables `cache` (if any), `memo` and `kernels` grew from `tables`, unless the fight
    // was cut short by an exception (they may be half-written).
    static void give(std::unique_ptr<Tables> tables, DecisionCache* cache, ChanceMemo& memo, RoundKernels& kernels) {
        if (std::uncaught_exceptions() > 0) return;
        if (cache != nullptr) {
            tables->decisions = worth_keeping(cache->size(), cache->slots()) ? cache->release() : PackedStateMap();
        }
        tables->memo = worth_keeping(memo.size(), memo.slots()) ? memo.release() : ChanceMemo::Storage();
        tables->sums = kernels.release();
        mine() = std::move(tables);
    }

private:
    static bool worth_keeping(std::size_t used, std::size_t slots) {
        return slots <= kSmallSlots || (slots <= kMostSlots && 8 * used >= slots);
    }
    static std::unique_ptr<Tables>& mine() {
        thread_local std::unique_ptr<Tables> tables;
        return tables;
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

namespace {
thread_local DecisionScope::Caches* scoped_caches = nullptr;
}  // namespace

DecisionScope::DecisionScope() : outer_(scoped_caches) { scoped_caches = &caches_; }

DecisionScope::~DecisionScope() { scoped_caches = outer_; }

DecisionScope::Caches* DecisionScope::current() { return scoped_caches; }

std::vector<double> fight_exact(const FightSpec& spec, const FightDice& dice, int rounds, ExactWork* work,
                                double work_limit, std::size_t cache_entries, SolverBudget budget,
                                bool reuse_decisions) {
    const int wounds_a = spec.fighter[0].wounds;
    const int wounds_b = spec.fighter[1].wounds;
    const int side_b = wounds_b + 1;
    constexpr int kUses = kRelicIgnoresPerFight + 1;
    // A round starts from (wounds A, wounds B, relic uses A, relic uses B).
    auto index = [&](int wa, int wb, int ua, int ub) { return ((wa * side_b + wb) * kUses + ua) * kUses + ub; };
    const std::size_t states = static_cast<std::size_t>(wounds_a + 1) * side_b * kUses * kUses;

    // Each fighter's retained dice, its own and injured (§3.9): a round start picks by its wounds.
    const std::vector<Outcome> rolls[2][2] = {{outcomes(dice.own[0]), outcomes(dice.injured[0])},
                                              {outcomes(dice.own[1]), outcomes(dice.injured[1])}};
    auto rolls_of = [&](int side, int wounds) -> const std::vector<Outcome>& {
        return rolls[side][is_injured(spec, side, wounds) ? 1 : 0];
    };
    // With an optimal fighter the game is solved first (lazily, as the rounds need it); its moves
    // then drive the same forward pass as chance effects do.
    const bool optimal = spec.has_optimal();
    const bool chance = spec.has_chance() || optimal;

    // A kept decision cache (one of the same rules, DecisionPool) only saves decisions, which
    // work.units() counts, and the engine must give up, or not, exactly as it would with a new one.
    // Resolutions and chance states are the same either way, and a new cache would have worked out
    // what the kept one did and at most decision_bound states in all (neither cache starts over:
    // the bound leaves room for what the kept one holds). So where the work so far with that bound
    // stays within work_limit a new cache would go on too, and where the work so far passes it a
    // new cache would have given up as well; in between, the fight starts over with a new cache.
    std::unique_ptr<DecisionCache> pooled;
    double decision_bound = 0.0;
    if (reuse_decisions && !optimal && cache_entries == 0) {
        pooled = DecisionPool::take(spec);
        int most_dice[2] = {0, 0};
        for (int side = 0; side < 2; ++side)
            for (const std::vector<Outcome>& table : rolls[side])
                for (const Outcome& o : table) most_dice[side] = std::max(most_dice[side], o.crits + o.norms);
        const int start_wounds[2] = {wounds_a, wounds_b};
        decision_bound = pooled->state_bound(most_dice, start_wounds);
        // (what the kept cache holds plus what this fight can add must fit, or the cache would start over)
        if (decision_bound + static_cast<double>(pooled->size()) > static_cast<double>(kExactCacheEntries)) {
            DecisionPool::give(std::move(pooled));
            pooled.reset();
        }
    }
    std::unique_ptr<KeptTables::Tables> tables = KeptTables::take();
    std::unique_ptr<DecisionCache> own;
    if (!pooled) {
        own = std::make_unique<DecisionCache>(spec, cache_entries == 0 ? kExactCacheEntries : cache_entries,
                                              std::move(tables->decisions));
    }
    DecisionCache& cache = pooled ? *pooled : *own;
    const uint64_t computed_before = cache.computed();
    // Optimal fighters' rounds are carried forward state by state (their play reads the round and
    // every wound); heuristic fighters' chance rounds go through the memo, by start.
    ChanceExplorer explorer(spec);
    ChanceMemo memo(spec, cache, std::move(tables->memo),
                    spec.rolls_lookahead() ? ChanceMemo::kMaxRolledEnds : ChanceMemo::kMaxEnds);
    const bool memoised = chance && !optimal;
    RoundKernels kernels(spec, memo, memoised ? states : 0, std::move(tables->sums));
    struct GiveBack {  // on every way out
        std::unique_ptr<KeptTables::Tables>& tables;
        DecisionCache* cache;
        ChanceMemo& memo;
        RoundKernels& kernels;
        ~GiveBack() { KeptTables::give(std::move(tables), cache, memo, kernels); }
    } give_back{tables, own.get(), memo, kernels};
    std::unique_ptr<OptimalSolver> solver;
    // A work limit bounds the solver too (its states count as decisions); the tighter bound applies.
    const uint64_t work_states = work_limit > 0.0 ? static_cast<uint64_t>(work_limit * 8.0) : 0;
    const bool work_binds = work_states > 0 && (budget.max_states == 0 || work_states < budget.max_states);
    if (optimal) {
        SolverBudget bound = budget;
        if (work_binds) bound.max_states = work_states;
        solver = std::make_unique<OptimalSolver>(spec, dice, rounds, bound);
    }
    NoLog log;

    ExactWork done;
    auto report = [&]() {
        done.chance_states = explorer.states() + memo.states();
        done.decisions = (cache.computed() - computed_before) + (solver ? solver->states() : 0);
        done.solver_states = solver ? solver->states() : 0;
        done.solver_bytes = solver ? solver->memory_bytes() : 0;
        if (work != nullptr) *work = done;
    };
    // Whether the work so far lets the fight go on (see `pooled`).
    enum class Verdict { GoOn, GiveUp, StartOver };
    auto judge = [&]() {
        report();
        if (work_limit <= 0.0) return Verdict::GoOn;
        if (done.units() > work_limit) return Verdict::GiveUp;
        if (!pooled) return Verdict::GoOn;
        const double new_cache_most =
            static_cast<double>(done.resolutions) + (static_cast<double>(done.chance_states) + decision_bound) / 8.0;
        return new_cache_most <= work_limit ? Verdict::GoOn : Verdict::StartOver;
    };
    auto start_over = [&]() {
        DecisionPool::give(std::move(pooled));  // what it holds is sound, only not usable here
        return fight_exact(spec, dice, rounds, work, work_limit, cache_entries, budget, false);
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
                        const Verdict verdict = judge();
                        if (verdict == Verdict::GiveUp) return {};
                        if (verdict == Verdict::StartOver) return start_over();
                        const std::vector<Outcome>& rolls_a = rolls_of(0, wa);
                        const std::vector<Outcome>& rolls_b = rolls_of(1, wb);
                        if (memoised) {
                            const ChanceMemo::Span k = kernels.from(index(wa, wb, ua, ub), wa, wb, ua, ub, rolls_a,
                                                                    rolls_b, done.resolutions);
                            for (uint32_t i = k.begin; i < k.begin + k.count; ++i) {
                                const ChanceMemo::End& e = kernels.end(i);
                                next[index(wa - static_cast<int>(e.code & ChanceMemo::kLost),
                                           wb - static_cast<int>(e.code >> 6 & ChanceMemo::kLost),
                                           ua + static_cast<int>(e.code >> 12 & 3u),
                                           ub + static_cast<int>(e.code >> 14 & 3u))] += p * e.prob;
                            }
                            continue;
                        }
                        for (const Outcome& a : rolls_a) {
                            for (const Outcome& b : rolls_b) {
                                const double q = p * a.prob * b.prob;
                                if ((++done.resolutions & 63) == 0) check_interrupt();
                                FightState st = round_state(a.crits, a.norms, wa, b.crits, b.norms, wb, ua, ub);
                                start_round(spec, st, log);
                                if (!chance) {
                                    const std::pair<int, int> end = cache.playout(st);
                                    next[index(end.first, end.second, ua, ub)] += q;
                                    continue;
                                }
                                auto leaf = [&](const FightState& end, double pr) {
                                    next[index(end.side[0].wounds, end.side[1].wounds, end.side[0].relic_uses,
                                               end.side[1].relic_uses)] += pr;
                                };
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
                            }
                        }
                    }
                }
            }
        }
        current.swap(next);
    }

    const Verdict verdict = judge();
    if (verdict == Verdict::StartOver) return start_over();
    if (pooled) DecisionPool::give(std::move(pooled));  // only after a whole fight: never a half-built entry
    if (verdict == Verdict::GiveUp) return {};
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

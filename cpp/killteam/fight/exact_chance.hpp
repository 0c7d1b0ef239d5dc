// The exact engine's rounds with Feel No Pain and Saintly Relics (docs/rules/killteam.md §3.7), for
// heuristic fighters: what a round state leads to, worked out once per canonical state, and what a
// round start leads to over every pair of retained dice, worked out once per start.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "core/interrupt.hpp"
#include "killteam/dice/config.hpp"
#include "killteam/fight/cache.hpp"
#include "killteam/fight/chance.hpp"
#include "killteam/fight/decision.hpp"
#include "killteam/fight/resolve.hpp"

namespace mh::kt {

// Where the rest of a round goes from a state: every end it can reach, as the wounds each fighter
// loses and the relic ignores each spends from that state on, with its probability. One entry
// serves every state of the same chance_canonical form, which plays and loses alike, so one entry
// serves many round starts and every round that reaches the state: a state's ends are its action's
// chance outcomes, each followed by the ends of the state it leads to.
class ChanceMemo {
public:
    // An end: its round_loss from the state.
    static constexpr int kCodes = 1 << 16;
    struct End {
        uint32_t code;
        double prob;
    };
    struct Span {
        uint32_t begin = 0;
        uint32_t count = 0;
    };
    static constexpr uint32_t kLost = 63u;
    static constexpr std::size_t kMaxEnds = std::size_t{1} << 22;  // 40 MB; then it starts over

    // The tables' memory, kept by a caller between fights (ChanceMemo::release empties it).
    struct Storage {
        PackedStateMap states;
        std::vector<uint16_t> codes;
        std::vector<double> probs;
    };

    ChanceMemo(const FightSpec& spec, DecisionCache& cache, Storage&& storage)
        : spec_(spec),
          cache_(cache),
          map_(std::move(storage.states)),
          codes_(std::move(storage.codes)),
          probs_(std::move(storage.probs)) {}

    Storage release() {
        map_.clear();
        codes_.clear();
        probs_.clear();
        return Storage{std::move(map_), std::move(codes_), std::move(probs_)};
    }

    // States worked out (each once, until the memo starts over).
    uint64_t states() const { return states_; }
    // States held, and the slots holding them.
    std::size_t size() const { return map_.size(); }
    std::size_t slots() const { return map_.slots(); }

    // The form a state is looked up in, and a start for its lookup soon after (the round starts of
    // one kernel are looked up together, so their slots are fetched at the same time).
    FightState canonical(const FightState& st) const { return chance_canonical(spec_, cache_, st); }
    void prefetch(const FightState& c) const { map_.prefetch(key_of(c)); }

    // The ends from `c` = canonical(st), st a state after its turn passed, not over: code(i) and
    // prob(i) for i in the span. Call between resolutions only: the memo may start over here,
    // which invalidates every span.
    Span ends_from_canonical(const FightState& c) {
        if (codes_.size() >= kMaxEnds) {
            map_.clear();
            codes_.clear();
            probs_.clear();
        }
        return find_or_work_out(c, 0);
    }
    uint32_t code(uint32_t i) const { return codes_[i]; }
    double prob(uint32_t i) const { return probs_[i]; }

private:
    Span ends_from(const FightState& st, int depth) { return find_or_work_out(canonical(st), depth); }

    // A canonical state's full_key in 39 bits: its relics are only "an ignore left or not".
    static uint64_t key_of(const FightState& c) {
        return (decision_key(c) & ((uint64_t{1} << 37) - 1)) | static_cast<uint64_t>(c.side[0].relic_uses != 0) << 37 |
               static_cast<uint64_t>(c.side[1].relic_uses != 0) << 38;
    }

    // A state's ends are stored after a header holding their count: the map holds where.
    Span find_or_work_out(const FightState& c, int depth) {
        const uint64_t key = key_of(c);
        uint32_t at = 0;
        if (map_.find(key, at)) return Span{at + 1, codes_[at]};
        const Span span = work_out(c, depth);
        // One start's round can add ends past kMaxEnds before the memo starts over; a state whose
        // ends lie past what the map can point to is worked out again when next reached.
        if (span.begin - 1 < (uint32_t{1} << PackedStateMap::kValueBits)) map_.insert(key, span.begin - 1);
        return span;
    }

    // `st` is canonical: what it loses from here on is the same for every state it stands for.
    Span work_out(const FightState& st, int depth) {
        if ((++states_ & 255) == 0) check_interrupt();
        std::vector<End>& ends = scratch_[depth];  // the states it leads to use the deeper buffers
        ends.clear();
        const Action action = cache_.decide(st);
        for_each_outcome(spec_, st, action, [&](const FightState& next, double factor) {
            const uint32_t step = round_loss(st, next);
            if (next.over()) {
                add(ends, step, factor);
            } else {
                const Span after = ends_from(next, depth + 1);
                for (uint32_t i = after.begin; i < after.begin + after.count; ++i) {
                    add(ends, codes_[i] + step, factor * probs_[i]);
                }
            }
        });
        codes_.push_back(static_cast<uint16_t>(ends.size()));  // the header: fewer than 2^16 ends
        probs_.push_back(0.0);
        const Span span{static_cast<uint32_t>(codes_.size()), static_cast<uint32_t>(ends.size())};
        for (const End& e : ends) {
            codes_.push_back(static_cast<uint16_t>(e.code));
            probs_.push_back(e.prob);
        }
        return span;
    }

    static void add(std::vector<End>& ends, uint32_t code, double prob) {
        for (End& e : ends) {
            if (e.code == code) {
                e.prob += prob;
                return;
            }
        }
        ends.push_back(End{code, prob});
    }

    const FightSpec& spec_;
    DecisionCache& cache_;
    PackedStateMap map_;
    std::vector<uint16_t> codes_;  // ends by code and probability, each state's after its header
    std::vector<double> probs_;
    std::vector<End> scratch_[2 * kMaxDice + 1];  // by depth: every action spends a success
    uint64_t states_ = 0;
};

// A round with chance effects from one start (the wounds and relic ignores spent it begins with)
// over every pair of retained dice: the pairs' ends (as ChanceMemo's, from the start) weighted by
// the pairs' probabilities and summed. Heuristic play never depends on the round, so a later round
// from the same start reuses what the first one from it worked out.
class RoundKernels {
public:
    // For `starts` round starts (0: never used). `sums` is ChanceMemo::kCodes zeros, or empty (they
    // are made here when first needed); release() hands them back as zeros.
    RoundKernels(const FightSpec& spec, ChanceMemo& memo, std::size_t starts, std::vector<double>&& sums)
        : spec_(spec), memo_(memo), spans_(starts), known_(starts, 0), sums_(std::move(sums)) {
        if (starts > 0 && sums_.size() != static_cast<std::size_t>(ChanceMemo::kCodes)) {
            sums_.assign(ChanceMemo::kCodes, 0.0);
        }
    }
    std::vector<double> release() { return std::move(sums_); }

    // The round from start number `start`; `rolls_a` / `rolls_b` list each fighter's retained dice
    // (crits, norms, prob), and each pair resolved is counted in `resolutions`.
    template <class Rolls>
    ChanceMemo::Span from(std::size_t start, int wounds_a, int wounds_b, int uses_a, int uses_b, const Rolls& rolls_a,
                          const Rolls& rolls_b, uint64_t& resolutions) {
        if (known_[start]) return spans_[start];
        NoLog log;
        touched_.clear();
        // Every pair's canonical start first, its memo slot fetched meanwhile; then the lookups.
        starts_.clear();
        for (const auto& a : rolls_a) {
            for (const auto& b : rolls_b) {
                const double q = a.prob * b.prob;
                FightState st = round_state(a.crits, a.norms, wounds_a, b.crits, b.norms, wounds_b, uses_a, uses_b);
                start_round(spec_, st, log);
                if (st.over()) {  // nothing left to resolve after the Duelist parries
                    add(0, q);
                    continue;
                }
                starts_.push_back(Start{memo_.canonical(st), q});
                memo_.prefetch(starts_.back().state);
            }
        }
        resolutions += rolls_a.size() * rolls_b.size();
        check_interrupt();
        for (const Start& s : starts_) {
            const ChanceMemo::Span span = memo_.ends_from_canonical(s.state);
            for (uint32_t i = span.begin; i < span.begin + span.count; ++i) add(memo_.code(i), s.prob * memo_.prob(i));
        }
        const ChanceMemo::Span span{static_cast<uint32_t>(ends_.size()), static_cast<uint32_t>(touched_.size())};
        for (const uint32_t code : touched_) {
            ends_.push_back(ChanceMemo::End{code, sums_[code]});
            sums_[code] = 0.0;
        }
        spans_[start] = span;
        known_[start] = 1;
        return span;
    }
    const ChanceMemo::End& end(uint32_t i) const { return ends_[i]; }

private:
    void add(uint32_t code, double prob) {
        if (sums_[code] == 0.0) touched_.push_back(code);
        sums_[code] += prob;
    }

    const FightSpec& spec_;
    ChanceMemo& memo_;
    std::vector<ChanceMemo::Span> spans_;
    std::vector<uint8_t> known_;
    std::vector<ChanceMemo::End> ends_;
    std::vector<double> sums_;  // by end code, while a start is worked out
    std::vector<uint32_t> touched_;
    struct Start {
        FightState state;  // canonical
        double prob;
    };
    std::vector<Start> starts_;
};

}  // namespace mh::kt

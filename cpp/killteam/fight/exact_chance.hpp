// The exact engine's rounds with Feel No Pain and Saintly Relics (docs/rules/killteam.md §3.7), for
// heuristic fighters: what a round state leads to, worked out once per canonical state, and what a
// round start leads to over every pair of retained dice, worked out once per start.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
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
//
// With the rolled lookahead (docs/rules/killteam.md §3.6) a Max Dmg / Min Dmg mover's rule 5 plays
// its two lines with their Feel No Pain and relic dice: each line's ends are its first action's
// outcomes followed by the ends of the states they lead to (the enemy's copy on Strike), so the same
// memo holds them, and the decision is a chance node: each line with the probability that it wins.
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
    static constexpr std::size_t kMaxEnds = std::size_t{1} << 22;  // 40 MB; then it starts over (by default)
    // The same with the rolled lookahead, whose lines add their own states, about four times the
    // round's: 160 MB, so that a big fight's states fit instead of being worked out again after each
    // start-over. Below what the map can point to (PackedStateMap::kValueBits), by a round's ends.
    static constexpr std::size_t kMaxRolledEnds = std::size_t{15} << 20;

    // The tables' memory, kept by a caller between fights (ChanceMemo::release empties it).
    struct Storage {
        PackedStateMap states;
        std::vector<uint16_t> codes;
        std::vector<double> probs;
        std::vector<uint32_t> where;  // empty, or kCodes zeros
    };

    // `spec` is the fight's (an optimal fighter's solver passes its decision cache's, where optimal
    // fighters play Strike); max_ends bounds the ends held before the memo starts over.
    ChanceMemo(const FightSpec& spec, DecisionCache& cache, Storage&& storage, std::size_t max_ends = kMaxEnds)
        : spec_(spec),
          cache_(cache),
          map_(std::move(storage.states)),
          codes_(std::move(storage.codes)),
          probs_(std::move(storage.probs)),
          where_(std::move(storage.where)),
          max_ends_(max_ends),
          rolled_(spec.rolls_lookahead()) {}
    // The same with tables of its own.
    ChanceMemo(const FightSpec& spec, DecisionCache& cache, std::size_t max_ends = kMaxEnds)
        : ChanceMemo(spec, cache, Storage(), max_ends) {}

    Storage release() {
        map_.clear();
        codes_.clear();
        probs_.clear();
        return Storage{std::move(map_), std::move(codes_), std::move(probs_), std::move(where_)};
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
        start_over_if_full();
        return find_or_work_out(c, 0);
    }
    uint32_t code(uint32_t i) const { return codes_[i]; }
    double prob(uint32_t i) const { return probs_[i]; }

    // What the fighter to move plays in `st` (not over; its mover holds a success): the decision
    // cache's action, or with the rolled lookahead the chance of each of rule 5's lines. Call between
    // resolutions only, as ends_from_canonical.
    Choice choose(const FightState& st) {
        if (!rolled_) return Choice::certain(cache_.decide(st));
        start_over_if_full();
        const FightState c = canonical(st);
        if (!choices_) choices_ = std::make_unique<SlotMap<Choice>>();
        const uint64_t key = uint64_t{1} << 63 | key_of(c);  // never 0: SlotMap's empty slot
        Choice choice;
        if (!choices_->find(key, choice)) {
            choice = choose_canonical(c, 0);
            choices_->insert(key, choice);
        }
        return choice;
    }

private:
    void start_over_if_full() {
        if (codes_.size() < max_ends_) return;
        map_.clear();
        codes_.clear();
        probs_.clear();
        if (choices_) choices_->clear();
    }

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
        if (!rolled_) {
            add_ends(ends, st, cache_.decide(st), 1.0, depth, ~0u);
        } else {
            const Choice choice = choose_canonical(st, depth);
            const uint32_t kept = kept_code(st);
            add_ends(ends, st, choice.action, choice.p, depth, kept);
            if (!choice.is_certain()) add_ends(ends, st, choice.other, choice.q, depth, kept);
        }
        codes_.push_back(static_cast<uint16_t>(ends.size()));  // the header: fewer than 2^16 ends
        probs_.push_back(0.0);
        const Span span{static_cast<uint32_t>(codes_.size()), static_cast<uint32_t>(ends.size())};
        for (const End& e : ends) {
            codes_.push_back(static_cast<uint16_t>(e.code));
            probs_.push_back(e.prob);
        }
        return span;
    }

    // Adds to `ends` the ends of playing `action` from `st` (any state, its mover holding a success),
    // weighted by `weight`: each chance outcome, then the ends of the state it leads to; of each end's
    // code only the bits in `kept` (kept_code: codes add field by field, so masking the sum is the
    // sum of the masked). The states the outcomes lead to are worked out first, then merged in the
    // same order as one at a time would (no state is worked out in between, so every span stays
    // valid), each code found through `where_` instead of a search of `ends`.
    void add_ends(std::vector<End>& ends, const FightState& st, Action action, double weight, int depth,
                  uint32_t kept) {
        std::vector<Part>& parts = parts_[depth];
        parts.clear();
        for_each_outcome(spec_, st, action, [&](const FightState& next, double factor) {
            const bool over = next.over();
            parts.push_back(Part{over ? Span{} : ends_from(next, depth + 1), round_loss(st, next), weight * factor, over});
        });
        if (where_.empty()) where_.assign(kCodes, 0);
        for (std::size_t i = 0; i < ends.size(); ++i) where_[ends[i].code] = static_cast<uint32_t>(i + 1);
        for (const Part& part : parts) {
            if (part.over) {
                add(ends, part.step & kept, part.prob);
                continue;
            }
            for (uint32_t i = part.after.begin; i < part.after.begin + part.after.count; ++i) {
                add(ends, (codes_[i] + part.step) & kept, part.prob * probs_[i]);
            }
        }
        for (const End& e : ends) where_[e.code] = 0;
    }

    // What a state's ends keep of their codes: everything in a state of the round itself; in a state
    // of rule 5's lines (one fighter's copy forced to Strike by the other, a Max Dmg / Min Dmg fighter
    // whose lines they are) only what the lines are compared on, the forced fighter's wounds (Max Dmg)
    // or the other's (Min Dmg): such a state is reached only inside those lines.
    uint32_t kept_code(const FightState& st) const {
        for (int f = 0; f < 2; ++f) {
            if (!st.side[f].forced_strike) continue;
            const bool max_damage = spec_.fighter[1 - f].strategy == Strategy::MaxDamage;
            return kLost << 6 * (max_damage ? f : 1 - f);
        }
        return ~0u;
    }

    // Rule 5 with the rolled lookahead (docs/rules/killteam.md §3.6) in canonical state `c`: line (a)
    // strikes, line (b) does what wiseParry would, each followed by the rest of the round with the
    // enemy's copy on Strike and every chance die rolled. The two lines are rolled independently and
    // (a) is played when it leaves the enemy no more wounds (Max Dmg) / the mover no fewer (Min Dmg)
    // than (b): the choice is (a) with that probability, (b) with the rest.
    Choice choose_canonical(const FightState& c, int depth) {
        const int m = c.mover;
        const Strategy strategy = strategy_of(spec_, c, m);
        Action strike = Action::CritStrike, careful = Action::CritStrike;
        if ((strategy != Strategy::MaxDamage && strategy != Strategy::MinDamage) || !cache_.lines(c, strike, careful)) {
            return Choice::certain(cache_.decide(c));
        }
        FightState lines = c;
        lines.side[1 - m].forced_strike = true;
        std::vector<End>& a = line_a_[depth];
        std::vector<End>& b = line_b_[depth];
        a.clear();
        b.clear();
        const uint32_t kept = kept_code(lines);
        add_ends(a, lines, strike, 1.0, depth, kept);
        add_ends(b, lines, careful, 1.0, depth, kept);
        // The wounds compared: the enemy's (Max Dmg) or the mover's own (Min Dmg), as lost from `c`.
        const bool max_damage = strategy == Strategy::MaxDamage;
        const int shift = 6 * (max_damage ? 1 - m : m);
        double lost_a[kLost + 1], lost_b[kLost + 1];
        uint32_t top = 0;  // the losses seen are below it
        for (const End& e : a) top = std::max(top, (e.code >> shift & kLost) + 1);
        for (const End& e : b) top = std::max(top, (e.code >> shift & kLost) + 1);
        std::fill(lost_a, lost_a + top, 0.0);
        std::fill(lost_b, lost_b + top, 0.0);
        for (const End& e : a) lost_a[e.code >> shift & kLost] += e.prob;
        for (const End& e : b) lost_b[e.code >> shift & kLost] += e.prob;
        // (a) wins when it takes at least as much from the enemy (Max Dmg) / at most as much from
        // the mover (Min Dmg) as (b). Each probability is a sum of products of the pairs that make
        // it, so it is exactly 0 when no pair does.
        double below[kLost + 2];  // below[x]: P((b) loses less than x), summed over the losses that do
        below[0] = 0.0;
        for (uint32_t x = 0; x < top; ++x) below[x + 1] = lost_b[x] == 0.0 ? below[x] : below[x] + lost_b[x];
        double above[kLost + 2];  // above[x]: P((b) loses more than x)
        above[top] = above[top - 1] = 0.0;
        for (uint32_t x = top - 1; x-- > 0;) above[x] = lost_b[x + 1] == 0.0 ? above[x + 1] : above[x + 1] + lost_b[x + 1];
        double p = 0.0, q = 0.0;
        for (uint32_t x = 0; x < top; ++x) {
            if (lost_a[x] == 0.0) continue;
            if (max_damage) {  // (b) loses at most x / more than x
                p += lost_a[x] * below[x + 1];
                q += lost_a[x] * above[x];
            } else {  // (b) loses at least x / less than x
                p += lost_a[x] * (lost_b[x] == 0.0 ? above[x] : above[x] + lost_b[x]);
                q += lost_a[x] * below[x];
            }
        }
        if (q == 0.0) return Choice::certain(strike);
        if (p == 0.0) return Choice::certain(careful);
        return Choice{strike, careful, p, q};
    }

    // Sums `prob` into the end of `code`, or adds that end (where_ holds each end's place in `ends`).
    void add(std::vector<End>& ends, uint32_t code, double prob) {
        uint32_t& at = where_[code];
        if (at != 0) {
            ends[at - 1].prob += prob;
        } else {
            ends.push_back(End{code, prob});
            at = static_cast<uint32_t>(ends.size());
        }
    }

    // One chance outcome of an action: the ends of the state it leads to (none when the round ended
    // there), what it lost on the way, and its probability.
    struct Part {
        Span after;
        uint32_t step;
        double prob;
        bool over;
    };

    const FightSpec& spec_;
    DecisionCache& cache_;
    PackedStateMap map_;
    std::vector<uint16_t> codes_;  // ends by code and probability, each state's after its header
    std::vector<double> probs_;
    std::vector<uint32_t> where_;  // by code: its place in the ends being merged, plus one (0: none); kCodes zeros between merges
    std::vector<Part> parts_[2 * kMaxDice + 1];   // by depth: the outcomes of the action being merged
    std::vector<End> scratch_[2 * kMaxDice + 1];  // by depth: every action spends a success
    std::vector<End> line_a_[2 * kMaxDice + 1];   // rule 5's lines from a state at that depth
    std::vector<End> line_b_[2 * kMaxDice + 1];
    std::size_t max_ends_;
    bool rolled_;  // the fight's rule 5 rolls its lines (FightSpec::rolls_lookahead)
    std::unique_ptr<SlotMap<Choice>> choices_;  // rolled choices by key_of, made when first needed
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

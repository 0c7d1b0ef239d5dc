// Decisions (docs/rules/killteam.md §3, calcDieChoice): rules 1-5, the four strategies, the strike order.
//
// Every lookahead plays the rest of the round out deterministically (Feel No Pain and relics as if
// they never trigger), so both the decision in a state and the damage its play-out deals are
// functions of the state's decision_key. (The rolled lookahead plays rule 5's lines with those dice:
// ChanceMemo::choose, on top of lines() here.) DecisionCache memoises both; a play-out is the decision
// followed by the play-out of the next state, so each state is worked out once per cache.
//
// States are cached in a canonical form, so that states that must behave alike share one entry:
// - wounds matter only through "does somebody reach 0". A fighter with more wounds than the
//   enemy's remaining dice can possibly take away this round can never reach 0, and then every rule
//   (lethal strike, awesome parry, comparing two lines' results) sees only damage dealt. Such
//   wounds are keyed as that bound, and the cache stores damage, not wounds;
// - a per-round flag no ability of either fighter reads is cleared (e.g. "has crit-struck" without
//   Shock, Murderous Entrance or an enemy's Durable), and so is "plays Strike in this lookahead"
//   for a fighter whose strategy is Strike anyway.
// The cache holds a bounded number of states; past that it starts over (what it holds never
// changes a result, only how much is worked out again), which bounds its memory.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "killteam/fight/cache.hpp"
#include "killteam/fight/state.hpp"

namespace mh::kt {

// What the fighter to move plays: `action`, or, when its rule 5 rolls its lines (the rolled lookahead,
// docs/rules/killteam.md §3.6), `action` with probability p and `other` with q. q is exactly 0 when
// the choice is certain (then `other` is `action` and p is 1); otherwise p + q is 1 up to rounding.
struct Choice {
    Action action = Action::CritStrike;
    Action other = Action::CritStrike;
    double p = 1.0;
    double q = 0.0;

    static Choice certain(Action a) { return Choice{a, a, 1.0, 0.0}; }
    bool is_certain() const { return q == 0.0; }
};

// An uncertain choice's chance of `action` in units of 2^-32, within 1..2^32 - 1.
inline uint32_t choice_threshold(const Choice& c) {
    const double units = std::round(c.p / (c.p + c.q) * 4294967296.0);
    return static_cast<uint32_t>(std::clamp(units, 1.0, 4294967295.0));
}

// Plays a choice: a certain one draws nothing; an uncertain one takes one 64-bit draw from `rng`,
// its top 32 bits against choice_threshold, so that every engine draws a choice alike.
template <class Random>
Action drawn_action(const Choice& c, Random& rng) {
    if (c.is_certain()) return c.action;
    return static_cast<uint32_t>(rng.next() >> 32) < choice_threshold(c) ? c.action : c.other;
}

class DecisionCache {
public:
    // Holds at most max_entries states (8 bytes a slot, the table at most three quarters full).
    explicit DecisionCache(const FightSpec& spec, std::size_t max_entries = kDefaultMaxEntries);
    // The same, built in `storage`'s slots (emptied): memory a caller keeps between fights.
    DecisionCache(const FightSpec& spec, std::size_t max_entries, PackedStateMap&& storage);
    // Hands the slots back (emptied); the cache holds nothing afterwards.
    PackedStateMap release();

    static constexpr std::size_t kDefaultMaxEntries = std::size_t{1} << 20;

    // The action of the fighter to move. `st` must not be over, and its mover must hold a success.
    Action decide(const FightState& st) { return entry(st).action; }

    // Whether rule 5 decides in `st` by comparing two lines that start differently (a Max Dmg / Min
    // Dmg mover past rules 1-4): then `strike` and `careful` are the lines' first actions. The rolled
    // lookahead plays those lines itself (ChanceMemo::choose); decide() plays them without chance.
    bool lines(const FightState& st, Action& strike, Action& careful);

    // Wounds (A, B) at the end of the deterministic play-out from `st` (a state after pass_turn).
    std::pair<int, int> playout(const FightState& st);

    const FightSpec& spec() const { return spec_; }
    std::size_t size() const { return map_.size(); }
    std::size_t slots() const { return map_.slots(); }
    // States worked out so far (the cache may have forgotten some of them since).
    uint64_t computed() const { return computed_; }

    // The most distinct states this cache can ever hold for fights of these rules in which fighter
    // s holds at most dice[s] dice and wounds[s] wounds: every key canonical() can give (dice splits
    // x wounds 1..W x the flags it keeps, per fighter, x the mover).
    double state_bound(const int dice[2], const int wounds[2]) const;

    // The most damage fighter `who` can still deal this round, whatever either fighter plays; under
    // the nominal lethal test, also the most that test can count at any later point of the round
    // (the damage dealt from here on plus the nominal next strike).
    int most_damage(const FightState& st, int who) const;

    // `st` with the per-round flags no rule of this fight reads cleared: states that differ only in
    // those play alike (the resolution, its chance effects and the decisions all read the same flags).
    FightState without_unread_flags(const FightState& st) const;

private:
    struct Entry {
        Action action;
        int damage[2];  // wounds each fighter loses in the play-out
    };
    Entry entry(const FightState& st);
    FightState canonical(const FightState& st) const;
    Action compute(const FightState& st);
    bool decided(const FightState& st, Action& action, Action& strike, Action& careful);

    // The wounds after `action` from `st` and the play-out that follows (the enemy acting next).
    std::pair<int, int> after(const FightState& st, Action action);
    Action crit_first(const FightState& st) const;
    Action preferred_strike(const FightState& st);
    bool lethal(const FightState& st, Action strike) const;
    bool awesome_parry(const FightState& st, Action& parry) const;

    FightSpec spec_;
    std::size_t max_entries_;
    bool reads_struck_[2];        // Hammerhand, or the enemy's Just a Scratch / Half Damage
    bool reads_crit_struck_[2];   // Shock, Murderous Entrance, or the enemy's Durable
    int first_strike_bonus_[2];   // the most a first strike can gain (Hammerhand, Half Damage's minimum 2)
    PackedStateMap map_;
    uint64_t computed_ = 0;
};

// The form in which heuristic fighters' chance rounds are worked out once (the exact engine's memo,
// the Monte Carlo chance graph): states of the same form play alike, roll the same Feel No Pain /
// relic dice in the same order, and lose the same wounds and relic ignores from there on.
// - Wounds the enemy cannot take away this round are lowered to that reach plus one (only where
//   the decisions read wounds as the real damage to come): the decisions see them so, no strike can
//   bring the fighter to 0, and chance effects never read wounds.
// - The per-round flags no rule of the fight reads are cleared.
// - Relics are "an ignore is still available this round" (at most one is spent a round, none once
//   a fighter has spent kRelicIgnoresPerFight), not the ignores spent so far.
inline FightState chance_canonical(const FightSpec& spec, const DecisionCache& cache, const FightState& st) {
    FightState c = cache.without_unread_flags(st);
    for (int s = 0; s < 2; ++s) {
        Side& side = c.side[s];
        const bool available = !side.relic_used_round && side.relic_uses < kRelicIgnoresPerFight;
        side.relic_used_round = false;
        side.relic_uses = static_cast<int8_t>(available ? 0 : kRelicIgnoresPerFight);
        if (spec.lethal_test != LethalTest::RealDamage) continue;
        const int reach = cache.most_damage(st, 1 - s) + 1;
        if (side.wounds > reach) side.wounds = static_cast<int8_t>(reach);
    }
    return c;
}

// What a round loses from `from` to `to` (chance_canonical forms or real states alike): wounds lost
// by A | by B << 6 | relic ignores spent by A << 12 | by B << 14. Codes of successive steps add up
// field by field: wounds lost never pass a fighter's wounds (< 64), and a fighter spends at most one
// ignore a round.
inline uint32_t round_loss(const FightState& from, const FightState& to) {
    return static_cast<uint32_t>(from.side[0].wounds - to.side[0].wounds) |
           static_cast<uint32_t>(from.side[1].wounds - to.side[1].wounds) << 6 |
           static_cast<uint32_t>(to.side[0].relic_uses - from.side[0].relic_uses) << 12 |
           static_cast<uint32_t>(to.side[1].relic_uses - from.side[1].relic_uses) << 14;
}

}  // namespace mh::kt

// The fight resolution (docs/rules/killteam.md §3): strikes, parries, Duelist, passes, one round.
//
// This is the single source of truth for what an action does. It is templated on
//   Chance: where Feel No Pain and Saintly Relics rolls come from. NoChance never rolls (the
//           lookaheads: "as if they never trigger"); the Monte Carlo engine rolls real dice; the
//           exact engine enumerates every outcome with its probability.
//   Log:    NoLog, or a recorder of readable steps (resolve_fight's action log).
// and it never decides anything: decisions come from DecisionCache (decision.hpp).
#pragma once
#include <algorithm>
#include <cstdint>

#include "killteam/dice/damage.hpp"
#include "killteam/fight/parry.hpp"
#include "killteam/fight/state.hpp"

namespace mh::kt {

enum class LogKind : uint8_t {
    CritStrike,         // value: damage inflicted
    NormStrike,         // value: damage inflicted
    CritParry,          // value: enemy successes cancelled
    NormParry,          // value: enemy successes cancelled
    Pass,               // a fighter with no successes passes its turn
    DuelistCritParry,   // Duelist's parry before the alternation
    DuelistNormParry,
    ShockNorm,          // Shock discarded an enemy norm
    ShockCrit,          // Shock discarded an enemy crit (it had no norms)
    MurderousEntrance,  // the bonus strike of the same action; value: damage inflicted
    FeelNoPain,         // logged by the defender; value: damage saved (1)
    SaintlyRelics,      // logged by the defender; value: damage ignored
};

struct NoLog {
    void add(int, LogKind, int) {}
};

// Feel No Pain / relics never trigger (lookaheads, and fights without those abilities).
struct NoChance {
    static constexpr bool kEnabled = false;
    bool relic(int) { return false; }
    bool feel_no_pain(int) { return false; }
};

// Probability that a Saintly Relics try ignores the strike: any 6 on 1D6 or 2D6.
inline double relic_probability(int dice) { return dice >= 2 ? 11.0 / 36.0 : 1.0 / 6.0; }
inline double feel_no_pain_probability(int x) { return (7 - x) / 6.0; }

// The Dmg stat a strike of `attacker` starts from against `defender` (docs/rules/killteam.md §3.3:
// the defender's Crits as Normal Dmg and damage reductions, §2.3), before the per-strike modifiers.
inline int strike_stat(const FighterSpec& attacker, const FighterSpec& defender, bool crit) {
    return damage_against(attacker.normal_damage, attacker.critical_damage, crit, defender);
}

namespace detail {

// The largest strike still pending from the attacker (base damage), other than the current one.
// A norm that an unspent Just a Scratch (normals) will cancel is not real damage.
inline int largest_pending_strike(const FighterSpec& attacker, const FighterSpec& defender, const Side& x,
                                  const Side& y) {
    int norms = x.norms;
    if (norms > 0 && defender.just_a_scratch_normals && !y.scratch_used) --norms;
    int largest = 0;
    if (x.crits > 0) largest = std::max(largest, strike_stat(attacker, defender, true));
    if (norms > 0) largest = std::max(largest, strike_stat(attacker, defender, false));
    return largest;
}

// One die strikes: the damage modifiers in the spec's order, then relics and Feel No Pain.
template <class Chance, class Log>
void strike_die(const FightSpec& spec, FightState& st, int m, bool crit, LogKind kind, Chance& chance, Log& log) {
    const FighterSpec& cx = spec.fighter[m];
    const FighterSpec& cy = spec.fighter[1 - m];
    Side& x = st.side[m];
    Side& y = st.side[1 - m];
    int damage = strike_stat(cx, cy, crit);
    const bool durable = crit && !x.crit_struck && cy.durable;
    const bool durable_first = spec.durable == DurableRule::BeforeDamageModifiers;
    // The reference takes Durable's 1 off the base damage, before Hammerhand and Half Damage.
    if (durable && durable_first && damage > 3) damage -= 1;
    if (!x.struck) {
        if (cx.hammerhand) damage += 1;
        if (cy.just_a_scratch) damage = 0;
        // Half of the Hammerhand'ed damage, rounded up, and "minimum 2" taken literally.
        else if (cy.half_damage_first_strike) damage = std::max(2, (damage + 1) / 2);
    }
    if (durable && !durable_first && damage > 3) damage -= 1;
    // Just a Scratch (normals) is spent by the first normal strike that would deal damage.
    if (!crit && cy.just_a_scratch_normals && !y.scratch_used && damage > 0) {
        damage = 0;
        y.scratch_used = true;
    }
    x.struck = true;
    if (crit) --x.crits;
    else --x.norms;

    int ignored = 0;
    bool saved = false;
    if constexpr (Chance::kEnabled) {
        if (damage > 0 && cy.saintly_relics != 0 && !y.relic_used_round && y.relic_uses < kRelicIgnoresPerFight &&
            damage >= largest_pending_strike(cx, cy, x, y) && chance.relic(cy.saintly_relics)) {
            ignored = damage;
            damage = 0;
            y.relic_used_round = true;
            ++y.relic_uses;
        }
        if (damage > 0 && cy.feel_no_pain != 0 && chance.feel_no_pain(cy.feel_no_pain)) {
            damage -= 1;
            saved = true;
        }
    }
    y.wounds = static_cast<int8_t>(std::max(0, y.wounds - damage));
    log.add(m, kind, damage);
    if (ignored) log.add(1 - m, LogKind::SaintlyRelics, ignored);
    if (saved) log.add(1 - m, LogKind::FeelNoPain, 1);
}

}  // namespace detail

// Apply one action of the fighter to move (st.mover); the turn does not pass here.
template <class Chance, class Log>
void apply_action(const FightSpec& spec, FightState& st, Action action, Chance& chance, Log& log) {
    const int m = st.mover;
    const FighterSpec& cx = spec.fighter[m];
    Side& x = st.side[m];
    Side& y = st.side[1 - m];
    switch (action) {
        case Action::CritStrike: {
            detail::strike_die(spec, st, m, true, LogKind::CritStrike, chance, log);
            const bool first_crit = !x.crit_struck;
            x.crit_struck = true;  // before the bonus strike: Durable only softens the first crit
            if (first_crit && cx.shock) {
                // Shock discards an unresolved norm, or a crit when the enemy has no norms (the
                // reference only ever discards a norm).
                if (y.norms > 0) {
                    --y.norms;
                    log.add(m, LogKind::ShockNorm, 1);
                } else if (y.crits > 0 && spec.shock == ShockRule::DiscardCrit) {
                    --y.crits;
                    log.add(m, LogKind::ShockCrit, 1);
                }
            }
            // Murderous Entrance: strike again at once with another success, a crit if it has one.
            if (first_crit && cx.murderous_entrance && x.successes() > 0 && y.wounds > 0) {
                detail::strike_die(spec, st, m, x.crits > 0, LogKind::MurderousEntrance, chance, log);
            }
            break;
        }
        case Action::NormStrike:
            detail::strike_die(spec, st, m, false, LogKind::NormStrike, chance, log);
            break;
        case Action::CritParry:
            log.add(m, LogKind::CritParry, crit_parry(cx, x, y));
            break;
        case Action::NormParry:
            log.add(m, LogKind::NormParry, norm_parry(cx, x, y));
            break;
    }
}

// After an action: the turn passes; a fighter with no successes passes it straight back.
template <class Log>
void pass_turn(FightState& st, Log& log) {
    st.mover ^= 1;
    if (!st.over() && st.side[st.mover].successes() == 0) {
        log.add(st.mover, LogKind::Pass, 0);
        st.mover ^= 1;
    }
}

// Duelist: before the alternation, if both fighters hold successes, parry once as wiseParry
// would, but only when that parry can cancel something (never a norm against only crits/Brutal),
// unless the fight follows the reference (DuelistRule::Always).
template <class Log>
void duelist_parry(const FightSpec& spec, FightState& st, int who, Log& log) {
    const FighterSpec& me = spec.fighter[who];
    Side& x = st.side[who];
    Side& y = st.side[1 - who];
    if (!me.duelist || x.successes() == 0 || y.successes() == 0) return;
    Action choice = wise_parry(spec.fighter[1 - who], x, y);
    // The reference parries whenever both hold successes: with only norms against only crits (not
    // Brutal) it spends a norm on a parry that cancels nothing.
    if (choice == Action::NormStrike && spec.duelist == DuelistRule::Always && can_norm_parry(spec.fighter[1 - who]))
        choice = Action::NormParry;
    if (choice == Action::CritParry) log.add(who, LogKind::DuelistCritParry, crit_parry(me, x, y));
    else if (choice == Action::NormParry) log.add(who, LogKind::DuelistNormParry, norm_parry(me, x, y));
}

// A round's dice are on the table: Duelist parries (first fighter first), then the first
// fighter to move (or the other one, if the first has nothing left).
template <class Log>
void start_round(const FightSpec& spec, FightState& st, Log& log) {
    duelist_parry(spec, st, spec.first, log);
    duelist_parry(spec, st, 1 - spec.first, log);
    st.mover = spec.first;
    if (!st.over() && st.side[st.mover].successes() == 0) {
        log.add(st.mover, LogKind::Pass, 0);
        st.mover ^= 1;
    }
}

// A round state with fresh dice; wounds and relic uses carried over, per-round flags reset.
inline FightState round_state(int crits_a, int norms_a, int wounds_a, int crits_b, int norms_b, int wounds_b,
                              int relic_uses_a = 0, int relic_uses_b = 0) {
    FightState st;
    st.side[0].crits = static_cast<int8_t>(crits_a);
    st.side[0].norms = static_cast<int8_t>(norms_a);
    st.side[0].wounds = static_cast<int8_t>(wounds_a);
    st.side[0].relic_uses = static_cast<int8_t>(relic_uses_a);
    st.side[1].crits = static_cast<int8_t>(crits_b);
    st.side[1].norms = static_cast<int8_t>(norms_b);
    st.side[1].wounds = static_cast<int8_t>(wounds_b);
    st.side[1].relic_uses = static_cast<int8_t>(relic_uses_b);
    return st;
}

// One whole round from fresh dice. `decider.decide(state)` picks every action.
template <class Decider, class Chance, class Log>
void resolve_round(const FightSpec& spec, FightState& st, Decider& decider, Chance& chance, Log& log) {
    start_round(spec, st, log);
    while (!st.over()) {
        apply_action(spec, st, decider.decide(st), chance, log);
        pass_turn(st, log);
    }
}

}  // namespace mh::kt

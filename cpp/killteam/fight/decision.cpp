#include "killteam/fight/decision.hpp"

#include <algorithm>
#include <utility>

#include "killteam/fight/parry.hpp"
#include "killteam/fight/resolve.hpp"

namespace mh::kt {

namespace {

uint32_t pack(Action action, int damage_a, int damage_b) {
    return static_cast<uint32_t>(action) | static_cast<uint32_t>(damage_a) << 2 | static_cast<uint32_t>(damage_b) << 8;
}

}  // namespace

DecisionCache::DecisionCache(const FightSpec& spec, std::size_t max_entries)
    : spec_(spec), max_entries_(max_entries) {
    // The heuristics' lookaheads treat an optimal enemy as playing Strike (docs/rules/killteam.md §7).
    for (FighterSpec& f : spec_.fighter) {
        if (f.strategy == Strategy::Optimal) f.strategy = Strategy::Strike;
    }
    for (int s = 0; s < 2; ++s) {
        const FighterSpec& me = spec.fighter[s];
        const FighterSpec& enemy = spec.fighter[1 - s];
        reads_struck_[s] = me.hammerhand || enemy.just_a_scratch || enemy.half_damage_first_strike;
        reads_crit_struck_[s] = me.shock || me.murderous_entrance || enemy.durable;
        // Half Damage makes a first strike max(2, ceil(d / 2)) <= max(2, d): at most 2 more.
        first_strike_bonus_[s] = (me.hammerhand ? 1 : 0) + (enemy.half_damage_first_strike ? 2 : 0);
    }
}

DecisionCache::DecisionCache(const FightSpec& spec, std::size_t max_entries, PackedStateMap&& storage)
    : DecisionCache(spec, max_entries) {
    map_ = std::move(storage);
    map_.clear();
}

PackedStateMap DecisionCache::release() {
    map_.clear();
    return std::move(map_);
}

// The most damage fighter `who` can still deal this round, whatever happens.
int DecisionCache::most_damage(const FightState& st, int who) const {
    const FighterSpec& f = spec_.fighter[who];
    const Side& s = st.side[who];
    const FighterSpec& enemy = spec_.fighter[1 - who];
    int most = s.crits * strike_stat(f, enemy, true) + s.norms * strike_stat(f, enemy, false) +
               (s.struck ? 0 : first_strike_bonus_[who]);
    // The nominal lethal test (docs/rules/killteam.md §8.6) adds a full dc for Murderous Entrance to
    // the next strike while the first crit strike is still to come, whatever the bonus will use. So
    // at any later state of the round the damage dealt so far plus that nominal strike can pass what
    // the dice deal, by at most that dc: wounds above the sum stay apart, or a later nominal test
    // would see a kill in a lowered copy that the real wounds rule out. (The sum is never below the
    // nominal strike itself.)
    if (spec_.lethal_test == LethalTest::Nominal && f.murderous_entrance && !s.crit_struck && s.crits > 0) {
        most += strike_stat(f, enemy, true);
    }
    return most;
}

// The form a state is cached in (see decision.hpp): wounds the enemy can no longer take away
// this round are lowered to that reach, flags no ability reads are cleared, chance fields dropped.
FightState DecisionCache::canonical(const FightState& st) const {
    FightState c = without_unread_flags(st);
    for (int s = 0; s < 2; ++s) {
        Side& side = c.side[s];
        const int reach = most_damage(st, 1 - s) + 1;
        if (side.wounds > reach) side.wounds = static_cast<int8_t>(reach);
        side.relic_used_round = false;
        side.relic_uses = 0;
    }
    return c;
}

// The flags no rule of this fight reads (the resolution's, chance effects' and decisions') cleared.
FightState DecisionCache::without_unread_flags(const FightState& st) const {
    FightState c = st;
    for (int s = 0; s < 2; ++s) {
        Side& side = c.side[s];
        if (!reads_struck_[s]) side.struck = false;
        if (!reads_crit_struck_[s]) side.crit_struck = false;
        if (!spec_.fighter[s].just_a_scratch_normals) side.scratch_used = false;
        if (spec_.fighter[s].strategy == Strategy::Strike) side.forced_strike = false;
        if (spec_.fighter[s].saintly_relics == 0) side.relic_used_round = false;
    }
    return c;
}

double DecisionCache::state_bound(const int dice[2], const int wounds[2]) const {
    double bound = 2.0;  // the mover
    for (int s = 0; s < 2; ++s) {
        const FighterSpec& f = spec_.fighter[s];
        double flags = 1.0;  // the flags canonical() keeps, each doubling the keys
        if (reads_struck_[s]) flags *= 2.0;
        if (reads_crit_struck_[s]) flags *= 2.0;
        if (f.just_a_scratch_normals) flags *= 2.0;
        if (f.strategy != Strategy::Strike) flags *= 2.0;  // forced_strike
        const double splits = (dice[s] + 1.0) * (dice[s] + 2.0) / 2.0;  // crits + norms <= dice
        bound *= splits * std::max(wounds[s], 1) * flags;
    }
    return bound;
}

DecisionCache::Entry DecisionCache::entry(const FightState& st) {
    const FightState c = canonical(st);
    const uint64_t key = decision_key(c) & ~(uint64_t{1} << 63);  // 37 bits: the marker is the map's own
    uint32_t packed = 0;
    if (!map_.find(key, packed)) {
        const Action action = compute(c);
        const std::pair<int, int> end = after(c, action);
        packed = pack(action, c.side[0].wounds - end.first, c.side[1].wounds - end.second);
        if (map_.size() >= max_entries_) map_.clear();
        ++computed_;
        map_.insert(key, packed);
    }
    return Entry{static_cast<Action>(packed & 3u), {static_cast<int>(packed >> 2 & 63u), static_cast<int>(packed >> 8 & 63u)}};
}

std::pair<int, int> DecisionCache::playout(const FightState& st) {
    if (st.over()) return {st.side[0].wounds, st.side[1].wounds};
    const Entry e = entry(st);
    return {st.side[0].wounds - e.damage[0], st.side[1].wounds - e.damage[1]};
}

std::pair<int, int> DecisionCache::after(const FightState& st, Action action) {
    FightState next = st;
    NoChance chance;
    NoLog log;
    apply_action(spec_, next, action, chance, log);
    pass_turn(next, log);
    return playout(next);
}

Action DecisionCache::crit_first(const FightState& st) const {
    return st.side[st.mover].crits > 0 ? Action::CritStrike : Action::NormStrike;
}

// Strike order (preferredStrikeChoice): crit-first, unless the striker holds crits and norms, the
// enemy holds no crit, and playing both orders out shows norm-first strictly better for the
// striker's goal. Each fighter keeps the strategy it holds in this state.
Action DecisionCache::preferred_strike(const FightState& st) {
    const int m = st.mover;
    const Side& x = st.side[m];
    const Side& y = st.side[1 - m];
    if (!(x.crits > 0 && x.norms > 0 && y.crits == 0)) return crit_first(st);
    const std::pair<int, int> crit = after(st, Action::CritStrike);
    const std::pair<int, int> norm = after(st, Action::NormStrike);
    const int own_crit = m == 0 ? crit.first : crit.second;
    const int own_norm = m == 0 ? norm.first : norm.second;
    const int enemy_crit = m == 0 ? crit.second : crit.first;
    const int enemy_norm = m == 0 ? norm.second : norm.first;
    const bool norm_first =
        strategy_of(spec_, st, m) == Strategy::MinDamage ? own_norm > own_crit : enemy_norm < enemy_crit;
    return norm_first ? Action::NormStrike : Action::CritStrike;
}

namespace {

// The reference's nominal next strike (its nextDmg): dc (less Durable's 1 on a first crit when
// dc > 3) plus a full dc for Murderous Entrance, or dn; plus 1 for Hammerhand on a first strike.
// dn and dc are the Dmg stats against this enemy (§3.3: its Crits as Normal Dmg and reductions).
int nominal_damage(const FightSpec& spec, const FightState& st, int who) {
    const FighterSpec& me = spec.fighter[who];
    const FighterSpec& enemy = spec.fighter[1 - who];
    const Side& x = st.side[who];
    int damage = strike_stat(me, enemy, false);
    if (x.crits > 0) {
        damage = strike_stat(me, enemy, true);
        if (enemy.durable && !x.crit_struck && damage > 3) damage -= 1;
        if (me.murderous_entrance && !x.crit_struck) damage += strike_stat(me, enemy, true);
    }
    if (me.hammerhand && !x.struck) damage += 1;
    return damage;
}

}  // namespace

// Rule 2: this strike (crit-first) brings the enemy to 0 with every deterministic modifier (or, in
// the reference's reading, its nominal damage reaches the enemy's wounds).
bool DecisionCache::lethal(const FightState& st, Action strike) const {
    if (spec_.lethal_test == LethalTest::Nominal) return nominal_damage(spec_, st, st.mover) >= st.side[1 - st.mover].wounds;
    FightState next = st;
    NoChance chance;
    NoLog log;
    apply_action(spec_, next, strike, chance, log);
    return next.side[1 - st.mover].wounds == 0;
}

// Rule 4: one parry that takes away everything the enemy has left, after which striking
// crit-first with everything left kills it.
bool DecisionCache::awesome_parry(const FightState& st, Action& parry) const {
    const int m = st.mover;
    const FighterSpec& cx = spec_.fighter[m];
    const FighterSpec& cy = spec_.fighter[1 - m];
    const Side& x = st.side[m];
    const Side& y = st.side[1 - m];
    if (cy.brutal && x.crits == 0) return false;
    const int enemy_successes = y.successes();
    bool found = false;
    if (cx.dueller && x.crits > 0 && y.crits <= 1 && enemy_successes <= 2) {
        parry = Action::CritParry;
        found = true;
    } else if (enemy_successes <= cx.cancels_per_parry()) {
        if (y.crits > 0) {
            if (x.crits > 0) {
                parry = Action::CritParry;
                found = true;
            }
        } else {
            parry = x.norms > 0 && can_norm_parry(cy) ? Action::NormParry : Action::CritParry;
            found = true;
        }
    }
    if (!found) return false;
    FightState next = st;
    NoChance chance;
    NoLog log;
    apply_action(spec_, next, parry, chance, log);
    while (next.side[m].successes() > 0 && next.side[1 - m].wounds > 0) {
        apply_action(spec_, next, crit_first(next), chance, log);
    }
    return next.side[1 - m].wounds == 0;
}

// calcDieChoice up to rule 5's lines: the first rule that applies wins. Returns false, with the two
// lines' first actions, when the mover plays Max Dmg / Min Dmg and rule 5 compares its lines.
bool DecisionCache::decided(const FightState& st, Action& action, Action& strike, Action& careful) {
    const int m = st.mover;
    const FighterSpec& cx = spec_.fighter[m];
    const FighterSpec& cy = spec_.fighter[1 - m];
    const Side& x = st.side[m];
    const Side& y = st.side[1 - m];
    const Strategy strategy = strategy_of(spec_, st, m);
    // The Parry strategy's forced strikes are crit-first; the others choose the order.
    auto ordered_strike = [&]() { return strategy == Strategy::Parry ? crit_first(st) : preferred_strike(st); };

    // 1. The enemy has no successes: strike.
    if (y.successes() == 0) {
        action = ordered_strike();
        return true;
    }
    // 2. A lethal strike, crit-first; or only norms against Brutal.
    action = crit_first(st);
    if (lethal(st, action)) return true;
    if (cy.brutal && x.crits == 0) return true;
    // 3. Shock: the first crit strike also discards an enemy success.
    if (cx.shock && !x.crit_struck && x.crits > 0 && y.crits == 0) {
        action = ordered_strike();
        return true;
    }
    // 4. Awesome parry.
    if (awesome_parry(st, action)) return true;
    // 5. By strategy.
    switch (strategy) {
        case Strategy::Strike:
            action = preferred_strike(st);
            return true;
        case Strategy::Parry:
            action = wise_parry(cy, x, y);
            return true;
        case Strategy::MaxDamage:
        case Strategy::MinDamage:
        case Strategy::Optimal:  // never here: the constructor made it Strike
            break;
    }
    // Max Dmg / Min Dmg: only this die differs between the two lines. The strike order is chosen
    // first, in the position as it is (against the enemy's real strategy).
    strike = preferred_strike(st);
    careful = wise_parry(cy, x, y);
    return false;
}

Action DecisionCache::compute(const FightState& st) {
    Action action = Action::CritStrike, strike = Action::CritStrike, careful = Action::CritStrike;
    if (decided(st, action, strike, careful)) return action;
    // Rule 5's lines, played without chance effects: the enemy's copy plays Strike after this die,
    // this fighter its own strategy.
    const int m = st.mover;
    FightState lines = st;
    lines.side[1 - m].forced_strike = true;
    const std::pair<int, int> struck = after(lines, strike);
    const std::pair<int, int> parried = after(lines, careful);
    bool want_strike;
    if (strategy_of(spec_, st, m) == Strategy::MaxDamage) {
        want_strike = (m == 0 ? struck.second <= parried.second : struck.first <= parried.first);
    } else {
        want_strike = (m == 0 ? struck.first >= parried.first : struck.second >= parried.second);
    }
    return want_strike ? strike : careful;
}

bool DecisionCache::lines(const FightState& st, Action& strike, Action& careful) {
    Action action = Action::CritStrike;
    return !decided(canonical(st), action, strike, careful) && strike != careful;
}

}  // namespace mh::kt

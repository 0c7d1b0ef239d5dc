// Chance outcomes enumerated exactly: Feel No Pain and Saintly Relics rolls as chance nodes.
#pragma once

#include "killteam/fight/decision.hpp"
#include "killteam/fight/resolve.hpp"

namespace mh::kt {

// Feeds an action a scripted sequence of chance outcomes, so that running the action once per
// script visits every outcome exactly once. Queries past the script answer "no" and are
// recorded; next() moves to the following script (the last "no" becomes "yes").
struct ScriptedChance {
    static constexpr bool kEnabled = true;
    static constexpr int kMaxQueries = 16;  // an action makes at most two strikes of two rolls each

    bool relic(int dice) { return query(relic_probability(dice)); }
    bool feel_no_pain(int x) { return query(feel_no_pain_probability(x)); }

    void rewind() { depth = 0; }
    double probability() const {
        double p = 1.0;
        for (int i = 0; i < length; ++i) p *= outcome[i] ? p_yes[i] : 1.0 - p_yes[i];
        return p;
    }
    bool next() {
        while (length > 0 && outcome[length - 1]) --length;
        if (length == 0) return false;
        outcome[length - 1] = true;
        return true;
    }

private:
    bool query(double p) {
        if (depth < length) return outcome[depth++];
        p_yes[length] = p;
        outcome[length] = false;
        ++length;
        ++depth;
        return false;
    }
    bool outcome[kMaxQueries] = {};
    double p_yes[kMaxQueries] = {};
    int length = 0;
    int depth = 0;
};

// Calls visit(next, probability) for each chance outcome of `action` from `st`: the state it leads
// to (the turn passed) and how likely it is. Without chance rolls, one outcome of probability 1.
template <class Visit>
void for_each_outcome(const FightSpec& spec, const FightState& st, Action action, Visit&& visit) {
    ScriptedChance chance;
    NoLog log;
    do {
        chance.rewind();
        FightState next = st;
        apply_action(spec, next, action, chance, log);
        pass_turn(next, log);
        visit(next, chance.probability());
    } while (chance.next());
}

// The same for a choice: each of its actions' outcomes, weighted by the action's probability.
template <class Visit>
void for_each_outcome(const FightSpec& spec, const FightState& st, const Choice& choice, Visit&& visit) {
    for_each_outcome(spec, st, choice.action, [&](const FightState& next, double p) { visit(next, choice.p * p); });
    if (choice.is_certain()) return;
    for_each_outcome(spec, st, choice.other, [&](const FightState& next, double p) { visit(next, choice.q * p); });
}

}  // namespace mh::kt

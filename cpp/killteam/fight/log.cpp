#include "killteam/fight/log.hpp"

#include "core/dice.hpp"
#include "core/rng.hpp"
#include "killteam/fight/decision.hpp"
#include "killteam/fight/exact_chance.hpp"
#include "killteam/fight/optimal.hpp"

namespace mh::kt {

namespace {

struct Recorder {
    std::vector<LogEntry>& entries;
    void add(int side, LogKind kind, int value) { entries.push_back(LogEntry{side, kind, value}); }
};

struct SeededChance {
    static constexpr bool kEnabled = true;
    DiceSource& dice;
    bool relic(int count) {
        bool six = false;
        for (int i = 0; i < count; ++i) six |= dice.d6() == 6;
        return six;
    }
    bool feel_no_pain(int x) { return dice.d6() >= x; }
};

// Plays what `chooser.choose(state)` says, an uncertain choice (the rolled lookahead) drawn from
// the round's stream.
template <class Chooser>
struct Drawn {
    Chooser& chooser;
    DiceSource& dice;
    Action decide(const FightState& st) { return drawn_action(chooser.choose(st), dice.rng()); }
};

}  // namespace

LoggedRound resolve_logged(const FightSpec& spec, int crits_a, int norms_a, int crits_b, int norms_b, int wounds_a,
                           int wounds_b, uint64_t seed) {
    LoggedRound out{};
    Recorder log{out.actions};
    DecisionCache cache(spec);
    FightState st = round_state(crits_a, norms_a, wounds_a, crits_b, norms_b, wounds_b);
    Rng rng(seed, 0);
    DiceSource dice(rng);
    SeededChance chance{dice};
    if (spec.has_optimal()) {
        // One round from fixed dice: the solver never reads the dice tables (no later round).
        const FightDice none{};
        OptimalSolver solver(spec, none, 1);
        OptimalDecider chooser{solver, 0};
        Drawn<OptimalDecider> decider{chooser, dice};
        resolve_round(spec, st, decider, chance, log);
    } else if (spec.rolls_lookahead()) {
        ChanceMemo memo(spec, cache);
        Drawn<ChanceMemo> decider{memo, dice};
        resolve_round(spec, st, decider, chance, log);
    } else {
        resolve_round(spec, st, cache, chance, log);
    }
    for (int s = 0; s < 2; ++s) {
        out.wounds[s] = st.side[s].wounds;
        out.relic_uses[s] = st.side[s].relic_uses;
    }
    return out;
}

const char* log_kind_name(LogKind kind) {
    switch (kind) {
        case LogKind::CritStrike: return "crit_strike";
        case LogKind::NormStrike: return "norm_strike";
        case LogKind::CritParry: return "crit_parry";
        case LogKind::NormParry: return "norm_parry";
        case LogKind::Pass: return "pass";
        case LogKind::DuelistCritParry: return "duelist_crit_parry";
        case LogKind::DuelistNormParry: return "duelist_norm_parry";
        case LogKind::ShockNorm: return "shock_discard_norm";
        case LogKind::ShockCrit: return "shock_discard_crit";
        case LogKind::MurderousEntrance: return "murderous_entrance_strike";
        case LogKind::FeelNoPain: return "feel_no_pain";
        case LogKind::SaintlyRelics: return "saintly_relics";
    }
    return "unknown";
}

}  // namespace mh::kt

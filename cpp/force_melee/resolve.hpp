// The exchange: hits compared, damage by winner_damage, bonus damage (docs/rules/force_melee.md §2 steps 2-4).
//
// This is the single source of truth for what one pair of rolls deals. The exact engine calls it
// once per (hits, crits) cell of the two sides, the Monte Carlo engine once per rolled exchange.
#pragma once
#include "force_melee/config.hpp"

namespace mh::force_melee {

// What a side's dice produced: natural hits (crits included) and, of those, crits.
struct SideRoll {
    int hits = 0;
    int crits = 0;
};

// The result of one exchange: the hits compared in step 2 and the damage each side takes.
struct ExchangeOutcome {
    int hits_a = 0;
    int hits_b = 0;
    int damage_to_a = 0;
    int damage_to_b = 0;
};

// Hits that take part in the comparison: Sustained in "extra_hits" mode adds X hits per crit.
inline int compared_hits(const SideConfig& side, const SideRoll& roll, const ExchangeRules& rules) {
    if (rules.sustained_mode == SustainedMode::extra_hits) return roll.hits + side.sustained * roll.crits;
    return roll.hits;
}

// Step 3: bonus damage rides on base damage dealt (FM-5); with bonus_always a side that rolled
// dice adds its flat bonus even without base damage (the per-hit and per-crit parts still need it).
inline int bonus_damage(const SideConfig& side, const SideRoll& roll, int base_dealt, const ExchangeRules& rules) {
    if (base_dealt > 0) {
        int bonus = side.bonus_flat + side.critical_damage * roll.crits;
        if (rules.sustained_mode == SustainedMode::bonus) bonus += side.sustained * roll.hits;
        return bonus;
    }
    if (rules.bonus_always && side.dice > 0) return side.bonus_flat;
    return 0;
}

inline ExchangeOutcome resolve_exchange(const SideConfig& a, const SideRoll& roll_a, const SideConfig& b,
                                        const SideRoll& roll_b, const ExchangeRules& rules) {
    ExchangeOutcome out;
    const int ha = compared_hits(a, roll_a, rules);
    const int hb = compared_hits(b, roll_b, rules);
    out.hits_a = ha;
    out.hits_b = hb;

    // Base damage dealt by each side (dealt by A lands on B and vice versa).
    int dealt_by_a = 0;
    int dealt_by_b = 0;
    const int force_gap = a.force > b.force ? a.force - b.force : b.force - a.force;
    if (ha == hb) {
        // Tie: the lower-Force side takes the Force difference per matching hit (FM-2..FM-4).
        if (a.force > b.force) dealt_by_a = force_gap * ha;
        else if (b.force > a.force) dealt_by_b = force_gap * hb;
    } else {
        const bool a_wins = ha > hb;
        const int hw = a_wins ? ha : hb;
        const int hl = a_wins ? hb : ha;
        const int fw = a_wins ? a.force : b.force;
        const int fl = a_wins ? b.force : a.force;
        int by_winner = 0;
        int by_loser = 0;
        switch (rules.winner_damage) {
            case WinnerDamage::once:  // the seed read literally: the winner deals its Force once
                by_winner = fw;
                break;
            case WinnerDamage::excess:
                by_winner = fw * (hw - hl);
                break;
            case WinnerDamage::per_hit:
                by_winner = fw * hw;
                break;
            case WinnerDamage::pairing:
                // Each loser hit meets a winner hit: the pair hurts the lower-Force side by the
                // gap. Unpaired winner hits deal the winner's Force.
                by_winner = fw * (hw - hl);
                if (fw > fl) by_winner += force_gap * hl;
                else if (fl > fw) by_loser = force_gap * hl;
                break;
        }
        dealt_by_a = a_wins ? by_winner : by_loser;
        dealt_by_b = a_wins ? by_loser : by_winner;
    }

    // Step 4: both sides' damage comes from the state before the exchange.
    out.damage_to_b = dealt_by_a + bonus_damage(a, roll_a, dealt_by_a, rules);
    out.damage_to_a = dealt_by_b + bonus_damage(b, roll_b, dealt_by_b, rules);
    return out;
}

// An upper bound on the damage a side can deal in one exchange (sizes the histograms).
inline int max_damage_dealt(const SideConfig& side, const ExchangeRules& rules) {
    const int max_hits = rules.sustained_mode == SustainedMode::extra_hits ? side.dice * (1 + side.sustained) : side.dice;
    int bonus = side.bonus_flat + side.critical_damage * side.dice;
    if (rules.sustained_mode == SustainedMode::bonus) bonus += side.sustained * side.dice;
    // Every winner_damage reading deals at most Force per compared hit (a tie or a pair deals the
    // Force gap, which is below the higher Force).
    return side.force * max_hits + bonus;
}

inline int max_compared_hits(const SideConfig& side, const ExchangeRules& rules) {
    return rules.sustained_mode == SustainedMode::extra_hits ? side.dice * (1 + side.sustained) : side.dice;
}

}  // namespace mh::force_melee

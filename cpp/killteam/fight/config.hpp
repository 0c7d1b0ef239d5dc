// Kill Team 2024 fight (docs/rules/killteam.md §3): the fighters' profiles and the rule variants of
// one fight, and the bounds the engines rely on.
#pragma once
#include <cstdint>

#include "core/fields.hpp"
#include "killteam/dice/config.hpp"

namespace mh::kt {

constexpr int kMaxFightWounds = 40;

// Optimal: reads the dice and plays the best move for its objective (docs/rules/killteam.md §7, optimal.hpp).
enum class Strategy : uint8_t { Strike = 0, Parry = 1, MaxDamage = 2, MinDamage = 3, Optimal = 4 };

// A strategy's name, as kt's profiles spell it.
inline const char* strategy_name(Strategy s) {
    switch (s) {
        case Strategy::Strike: return "strike";
        case Strategy::Parry: return "parry";
        case Strategy::MaxDamage: return "max_damage";
        case Strategy::MinDamage: return "min_damage";
        case Strategy::Optimal: return "optimal";
    }
    return "unknown";
}

// What an optimal fighter plays for (docs/rules/killteam.md §7): a tuple compared lexicographically.
enum class Objective : uint8_t { Trade = 0, Net = 1, Kill = 2, Survive = 3 };

// What a fighter brings to the fight besides its attack dice: X(type, name, default, tags). The
// decisions read every field but the starting wounds (they see the wounds of the state in hand).
#define MH_KT_FIGHTER_SPEC_FIELDS(X)                                                                              \
    X(int, wounds, 12, 0u)                                                                                         \
    X(int, normal_damage, 3, tags::kDecisions)                                                                     \
    X(int, critical_damage, 4, tags::kDecisions)                                                                   \
    X(Strategy, strategy, Strategy::MaxDamage, tags::kDecisions)                                                   \
    X(Objective, objective, Objective::Trade, tags::kDecisions)  /* read only when strategy is Optimal */          \
    /* weapon rules acting in the fight (the others only shape the attack dice) */                                 \
    X(bool, brutal, false, tags::kDecisions)                                                                       \
    X(bool, shock, false, tags::kDecisions)                                                                        \
    /* abilities */                                                                                                \
    X(bool, storm_shield, false, tags::kDecisions)                                                                 \
    X(bool, dueller, false, tags::kDecisions)                                                                      \
    X(bool, duelist, false, tags::kDecisions)                                                                      \
    X(bool, hammerhand, false, tags::kDecisions)                                                                   \
    X(bool, just_a_scratch, false, tags::kDecisions)                                                               \
    X(bool, just_a_scratch_normals, false, tags::kDecisions)                                                       \
    X(bool, half_damage_first_strike, false, tags::kDecisions)                                                     \
    X(bool, durable, false, tags::kDecisions)                                                                      \
    X(bool, murderous_entrance, false, tags::kDecisions)                                                           \
    X(int, feel_no_pain, 0, tags::kDecisions)    /* 0: none, else x (a roll of x+ saves 1 damage) */              \
    X(int, saintly_relics, 0, tags::kDecisions)  /* dice rolled per try: 0 (none), 1, or 2 (INSPIRING) */         \
    /* the enemy's Dmg stats against this fighter (docs/rules/killteam.md §2.3) */                                 \
    X(int, reduce_normal_damage, 0, tags::kDecisions)  /* x: a norm's Dmg of x or more deals 1 less */            \
    X(int, reduce_damage, 0, tags::kDecisions)         /* x: a norm's or crit's Dmg of x or more, 1 less */       \
    X(bool, crits_as_normal, false, tags::kDecisions)  /* a crit deals the Normal Dmg stat */

struct FighterSpec {
    MH_DECLARE_FIELDS(FighterSpec, MH_KT_FIGHTER_SPEC_FIELDS)

    int cancels_per_parry() const { return storm_shield ? 2 : 1; }
    bool has_chance() const { return feel_no_pain != 0 || saintly_relics != 0; }
};

// The reference calculator's readings of the fight (docs/rules/killteam.md §8.5); the first value is the default.
enum class ShockRule : uint8_t { DiscardCrit = 0, NormsOnly = 1 };
enum class LethalTest : uint8_t { RealDamage = 0, Nominal = 1 };
enum class DuelistRule : uint8_t { NeverParryNothing = 0, Always = 1 };
enum class DurableRule : uint8_t { AfterDamageModifiers = 0, BeforeDamageModifiers = 1 };
// Rule 5's lines (docs/rules/killteam.md §3.6): played without Feel No Pain and relics, or rolling them.
enum class Lookahead : uint8_t { Fixed = 0, Rolled = 1 };

// The fight's own fields besides the two fighters: X(type, name, default, tags). The decisions
// read the rule readings, never who resolves first (they see the mover of the state in hand) nor
// the injury switch (it picks the dice a round starts with, before any decision).
#define MH_KT_FIGHT_SPEC_FIELDS(X)                                                                                 \
    X(int, first, 0, 0u)  /* who resolves first each round: 0 = fighter A, 1 = fighter B */                       \
    X(ShockRule, shock, ShockRule::DiscardCrit, tags::kDecisions)                                                  \
    X(LethalTest, lethal_test, LethalTest::RealDamage, tags::kDecisions)                                           \
    X(Lookahead, lookahead, Lookahead::Fixed, tags::kDecisions)                                                    \
    X(DuelistRule, duelist, DuelistRule::NeverParryNothing, tags::kDecisions)                                      \
    X(DurableRule, durable, DurableRule::AfterDamageModifiers, tags::kDecisions)                                   \
    X(bool, injured, true, 0u)  /* a fighter below half its wounds rolls later rounds injured (§3.9) */

struct FightSpec {
    FighterSpec fighter[2];  // A and B: visited as the field `fighter` (the bindings' fighter_a, fighter_b)
    MH_KT_FIGHT_SPEC_FIELDS(MH_FIELD_MEMBER)

    using Self = FightSpec;
    static constexpr unsigned kFieldTags[] = {MH_KT_FIGHT_SPEC_FIELDS(MH_FIELD_TAGS)};  // the scalar fields'
    template <class Visit>
    static void for_each_field(Visit&& visit) {
        visit("fighter", &Self::fighter, tags::kDecisions);
        MH_KT_FIGHT_SPEC_FIELDS(MH_FIELD_VISIT)
    }

    // True when the resolution rolls dice of its own (Feel No Pain, Saintly Relics).
    bool has_chance() const { return fighter[0].has_chance() || fighter[1].has_chance(); }
    // True when a Max Dmg / Min Dmg fighter's rule 5 rolls its lines' Feel No Pain and relic dice, so
    // that its decision is itself a chance (docs/rules/killteam.md §3.6).
    bool rolls_lookahead() const {
        if (lookahead != Lookahead::Rolled || !has_chance()) return false;
        for (const FighterSpec& f : fighter) {
            if (f.strategy == Strategy::MaxDamage || f.strategy == Strategy::MinDamage) return true;
        }
        return false;
    }
    bool has_optimal() const {
        return fighter[0].strategy == Strategy::Optimal || fighter[1].strategy == Strategy::Optimal;
    }
    // The joint wounds table both engines fill: (A's wounds + 1) x (B's wounds + 1), C order.
    int wounds_rows() const { return fighter[0].wounds + 1; }
    int wounds_columns() const { return fighter[1].wounds + 1; }
};

// Whether two fight specs have the same decision rules (every field tagged kDecisions, both
// fighters'): the fight decisions of one are those of the other.
inline bool same_decision_rules(const FightSpec& x, const FightSpec& y) {
    return fields::same_fields<tags::kDecisions>(x, y);
}

}  // namespace mh::kt

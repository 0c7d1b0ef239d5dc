// Kill Team 2024 fight (docs/rules/killteam.md §3): the fighters' profiles and the rule variants of
// one fight, and the bounds the engines rely on.
#pragma once
#include <cstdint>

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

// What a fighter brings to the fight besides its attack dice.
struct FighterSpec {
    int wounds = 12;
    int normal_damage = 3;
    int critical_damage = 4;
    Strategy strategy = Strategy::MaxDamage;
    Objective objective = Objective::Trade;  // read only when strategy is Optimal
    // weapon rules acting in the fight (the others only shape the attack dice)
    bool brutal = false;
    bool shock = false;
    // abilities
    bool storm_shield = false;
    bool dueller = false;
    bool duelist = false;
    bool hammerhand = false;
    bool just_a_scratch = false;
    bool just_a_scratch_normals = false;
    bool half_damage_first_strike = false;
    bool durable = false;
    bool murderous_entrance = false;
    int feel_no_pain = 0;    // 0: none, else x (a roll of x+ saves 1 damage)
    int saintly_relics = 0;  // dice rolled per try: 0 (none), 1, or 2 (INSPIRING)

    int cancels_per_parry() const { return storm_shield ? 2 : 1; }
    bool has_chance() const { return feel_no_pain != 0 || saintly_relics != 0; }
};

// The reference calculator's readings of the fight (docs/rules/killteam.md §8.5); the first value is the default.
enum class ShockRule : uint8_t { DiscardCrit = 0, NormsOnly = 1 };
enum class LethalTest : uint8_t { RealDamage = 0, Nominal = 1 };
enum class DuelistRule : uint8_t { NeverParryNothing = 0, Always = 1 };
enum class DurableRule : uint8_t { AfterDamageModifiers = 0, BeforeDamageModifiers = 1 };

struct FightSpec {
    FighterSpec fighter[2];
    int first = 0;  // who resolves first each round: 0 = fighter A, 1 = fighter B
    ShockRule shock = ShockRule::DiscardCrit;
    LethalTest lethal_test = LethalTest::RealDamage;
    DuelistRule duelist = DuelistRule::NeverParryNothing;
    DurableRule durable = DurableRule::AfterDamageModifiers;

    // True when the resolution rolls dice of its own (Feel No Pain, Saintly Relics).
    bool has_chance() const { return fighter[0].has_chance() || fighter[1].has_chance(); }
    bool has_optimal() const {
        return fighter[0].strategy == Strategy::Optimal || fighter[1].strategy == Strategy::Optimal;
    }
    // The joint wounds table both engines fill: (A's wounds + 1) x (B's wounds + 1), C order.
    int wounds_rows() const { return fighter[0].wounds + 1; }
    int wounds_columns() const { return fighter[1].wounds + 1; }
};

}  // namespace mh::kt

// Kill Team 2024 shooting (docs/rules/killteam.md §2): everything one shot needs, and the bounds the
// engines rely on.
#pragma once
#include <cstdint>

#include "killteam/dice/config.hpp"

namespace mh::kt {

constexpr int kDefenceDice = 3;
constexpr int kMaxRounds = 9;
constexpr int kSaveSide = kDefenceDice + 1;  // saves tables are [crit saves * 4 + normal saves]

// The reference calculator's readings of shooting (docs/rules/killteam.md §8.5); the first value is the default.
enum class BlockRule : uint8_t { Optimal = 0, Greedy = 1 };
enum class ScratchTiming : uint8_t { AfterBlocks = 0, BeforeBlocks = 1 };
enum class FnpRule : uint8_t { PerDamageInstance = 0, PerHit = 1 };

// Everything one shot needs, already validated (ranges of docs/rules/killteam.md §5).
struct ShootConfig {
    AttackProfile attack;       // the weapon's attack dice, obscured target included
    int normal_damage = 3;      // dn
    int critical_damage = 4;    // dc
    int devastating = 0;        // per retained crit, blocked or not
    int piercing = 0;           // defence dice removed
    int piercing_crits = 0;     // defence dice removed when at least one crit was retained
    bool saturate = false;      // no cover saves
    int save = 3;               // defence dice succeed on save+, crit on 6
    int cover = 0;              // cover saves retained as normal saves (0 = not in cover)
    int cover_crits = 0;        // cover saves retained as crit saves, taken before `cover`
    int hardy = 0;              // 0: crit saves on 6; x: on max(x, save)
    Reroll save_reroll = Reroll::None;
    bool defender_punishing = false;
    bool indomitus = false;     // Purity Seal on the save dice
    int save_fails_to_norms = 0;
    int save_norms_to_crits = 0;
    Ones ones = Ones::UnmodifiedOnes;  // Indomitus' reading (Purity Seal's is in `attack`)
    BlockRule blocks = BlockRule::Optimal;
    ScratchTiming scratch = ScratchTiming::AfterBlocks;
    FnpRule fnp = FnpRule::PerDamageInstance;
    bool just_a_scratch = false;          // cancel one unblocked die, a crit if any
    bool just_a_scratch_normals = false;  // cancel one unblocked normal hit
    bool durable = false;                 // the first damaging crit deals 1 less (if more than 3)
    int feel_no_pain = 0;                 // 0: none; x: each roll of x+ removes 1 from an instance
    int saintly_relics = 0;               // 0: none; 1: 1D6; 2: 2D6 (INSPIRING)
    int rounds = 1;                       // independent attacks; the relic cap spans them
};

// A shot's configuration from two partial ones: the attack dice, damage, weapon rules and rule
// variants of `weapon`; the save and the abilities of `target`; and the situation (cover, rounds).
inline ShootConfig shoot_config_join(const ShootConfig& weapon, const ShootConfig& target, int cover, int cover_crits,
                                     int rounds) {
    ShootConfig c = weapon;
    c.save = target.save;
    c.hardy = target.hardy;
    c.save_reroll = target.save_reroll;
    c.defender_punishing = target.defender_punishing;
    c.indomitus = target.indomitus;
    c.save_fails_to_norms = target.save_fails_to_norms;
    c.save_norms_to_crits = target.save_norms_to_crits;
    c.just_a_scratch = target.just_a_scratch;
    c.just_a_scratch_normals = target.just_a_scratch_normals;
    c.durable = target.durable;
    c.feel_no_pain = target.feel_no_pain;
    c.saintly_relics = target.saintly_relics;
    c.cover = cover;
    c.cover_crits = cover_crits;
    c.rounds = rounds;
    return c;
}

}  // namespace mh::kt

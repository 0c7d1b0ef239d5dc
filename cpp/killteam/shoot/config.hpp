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

// Everything one shot needs, already validated (ranges of docs/rules/killteam.md §5): X(type, name,
// default, tags), one line per field. Each field comes from one half of shoot_config_join (weapon,
// target or situation); kBlocks marks what allocate_blocks reads besides the dice and the saves.
#define MH_KT_SHOOT_CONFIG_FIELDS(X)                                                                               \
    X(AttackProfile, attack, {}, tags::kWeapon)  /* the weapon's attack dice, obscured target included */         \
    X(int, normal_damage, 3, tags::kWeapon | tags::kBlocks)    /* dn */                                            \
    X(int, critical_damage, 4, tags::kWeapon | tags::kBlocks)  /* dc */                                            \
    X(int, devastating, 0, tags::kWeapon)      /* per retained crit, blocked or not */                             \
    X(int, piercing, 0, tags::kWeapon)         /* defence dice removed */                                          \
    X(int, piercing_crits, 0, tags::kWeapon)   /* defence dice removed when at least one crit was retained */      \
    X(bool, saturate, false, tags::kWeapon)    /* no cover saves */                                                \
    X(bool, hot, false, tags::kWeapon)         /* the shooter rolls a D6 after each round: below hit, 2 x it to itself */ \
    X(int, save, 3, tags::kTarget)             /* defence dice succeed on save+, crit on 6 */                      \
    X(int, cover, 0, tags::kSituation)         /* cover saves retained as normal saves (0 = not in cover) */       \
    X(int, cover_crits, 0, tags::kSituation)   /* cover saves retained as crit saves, taken before `cover` */      \
    X(int, hardy, 0, tags::kTarget)            /* 0: crit saves on 6; x: on max(x, save) */                        \
    X(Reroll, save_reroll, Reroll::None, tags::kTarget)                                                            \
    X(bool, defender_punishing, false, tags::kTarget)                                                              \
    X(bool, indomitus, false, tags::kTarget)   /* Purity Seal on the save dice */                                  \
    X(int, save_fails_to_norms, 0, tags::kTarget)                                                                  \
    X(int, save_norms_to_crits, 0, tags::kTarget)                                                                  \
    X(Ones, ones, Ones::UnmodifiedOnes, tags::kWeapon)  /* Indomitus' reading (Purity Seal's is in `attack`) */    \
    X(BlockRule, blocks, BlockRule::Optimal, tags::kWeapon | tags::kBlocks)                                        \
    X(ScratchTiming, scratch, ScratchTiming::AfterBlocks, tags::kWeapon | tags::kBlocks)                           \
    X(FnpRule, fnp, FnpRule::PerDamageInstance, tags::kWeapon)                                                     \
    X(bool, just_a_scratch, false, tags::kTarget | tags::kBlocks)  /* cancel one unblocked die, a crit if any */   \
    X(bool, just_a_scratch_normals, false, tags::kTarget | tags::kBlocks)  /* cancel one unblocked normal hit */   \
    X(bool, durable, false, tags::kTarget | tags::kBlocks)  /* the first damaging crit deals 1 less (if more than 3) */ \
    X(int, feel_no_pain, 0, tags::kTarget)     /* 0: none; x: each roll of x+ removes 1 from an instance */        \
    X(int, saintly_relics, 0, tags::kTarget)   /* 0: none; 1: 1D6; 2: 2D6 (INSPIRING) */                           \
    /* the target's defences against the weapon's rules and Dmg stats (docs/rules/killteam.md §2.3) */             \
    X(bool, ignore_piercing, false, tags::kTarget)   /* Piercing and Piercing Crits count 0 */                    \
    X(bool, worsen_piercing, false, tags::kTarget)   /* Piercing and Piercing Crits count 1 less */               \
    X(bool, ignore_lethal, false, tags::kTarget)     /* crits on 6 only */                                        \
    X(bool, ignore_rending, false, tags::kTarget)                                                                  \
    X(bool, ignore_severe, false, tags::kTarget)                                                                   \
    X(bool, ignore_saturate, false, tags::kTarget)   /* cover saves stand */                                      \
    X(int, reduce_normal_damage, 0, tags::kTarget | tags::kBlocks)  /* x: a norm's Dmg of x or more deals 1 less */ \
    X(int, reduce_damage, 0, tags::kTarget | tags::kBlocks)   /* x: a norm's or crit's Dmg of x or more, 1 less */ \
    X(bool, crits_as_normal, false, tags::kTarget | tags::kBlocks)  /* a crit deals the Normal Dmg stat */       \
    X(int, rounds, 1, tags::kSituation)        /* independent attacks; the relic cap spans them */

struct ShootConfig {
    MH_DECLARE_FIELDS(ShootConfig, MH_KT_SHOOT_CONFIG_FIELDS)
};
static_assert(fields::each_has_one_of(ShootConfig::kFieldTags, tags::kWeapon | tags::kTarget | tags::kSituation),
              "every field of a shot comes from exactly one half of shoot_config_join");

// The key of the blocks tables (shoot/exact.cpp): every field tagged kBlocks.
inline auto blocks_key(const ShootConfig& c) { return fields::key_of<tags::kBlocks>(c); }

// A shot's configuration from two partial ones: the fields tagged kWeapon from `weapon` (its
// attack dice, damage, weapon rules and rule variants), those tagged kTarget from `target` (its save
// and abilities), and the situation (cover, rounds).
inline ShootConfig shoot_config_join(const ShootConfig& weapon, const ShootConfig& target, int cover, int cover_crits,
                                     int rounds) {
    ShootConfig c = weapon;
    fields::copy_fields<tags::kTarget>(c, target);
    // the fields tagged kSituation
    c.cover = cover;
    c.cover_crits = cover_crits;
    c.rounds = rounds;
    return c;
}
static_assert(fields::count_tagged(ShootConfig::kFieldTags, tags::kSituation) == 3,
              "shoot_config_join sets every field tagged kSituation from its arguments");

}  // namespace mh::kt

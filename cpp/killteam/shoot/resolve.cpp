#include "killteam/shoot/resolve.hpp"

#include <algorithm>

#include "killteam/dice/damage.hpp"

namespace mh::kt {

int max_attack_damage(const ShootConfig& cfg) {
    const int per_crit = critical_damage_against(cfg) + cfg.devastating;
    return cfg.attack.dice * std::max(per_crit, normal_damage_against(cfg));
}

// docs/rules/killteam.md §2.3: the target's defences against the weapon's rules.
AttackProfile attack_against(const ShootConfig& cfg) {
    AttackProfile p = cfg.attack;
    if (cfg.ignore_lethal) p.crit = 6;
    if (cfg.ignore_rending) p.rending = false;
    if (cfg.ignore_severe) p.severe = false;
    return p;
}

// docs/rules/killteam.md §2.3: and against its Dmg stats.
int normal_damage_against(const ShootConfig& cfg) {
    return damage_against(cfg.normal_damage, cfg.critical_damage, false, cfg);
}

int critical_damage_against(const ShootConfig& cfg) {
    return damage_against(cfg.normal_damage, cfg.critical_damage, true, cfg);
}

int defence_dice(const ShootConfig& cfg, const Retained& hits) {
    // Ignore Piercing drops both rules, Worsen Piercing takes 1 off each (§2.3).
    const int worse = cfg.worsen_piercing ? 1 : 0;
    const int piercing = cfg.ignore_piercing ? 0 : std::max(0, cfg.piercing - worse);
    const int piercing_crits = cfg.ignore_piercing ? 0 : std::max(0, cfg.piercing_crits - worse);
    // Piercing and Piercing Crits never add: the larger one applies when a crit was retained.
    const int pierce = hits.crits > 0 ? std::max(piercing, piercing_crits) : piercing;
    return std::max(0, kDefenceDice - pierce);
}

AttackProfile defence_profile(const ShootConfig& cfg, int dice) {
    AttackProfile p;
    p.dice = dice;
    p.hit = cfg.save;
    p.crit = cfg.hardy > 0 ? std::max(cfg.hardy, cfg.save) : 6;
    // Cover saves come out of the dice left after Piercing, crit ones first; Saturate denies them
    // (unless the target ignores it, §2.3).
    const bool saturate = cfg.saturate && !cfg.ignore_saturate;
    p.auto_crits = saturate ? 0 : std::min(cfg.cover_crits, dice);
    p.accurate = saturate ? 0 : std::min(cfg.cover, dice - p.auto_crits);
    p.reroll = cfg.save_reroll;
    p.punishing = cfg.defender_punishing;
    p.purity_seal = cfg.indomitus;
    p.fails_to_norms = cfg.save_fails_to_norms;
    p.norms_to_crits = cfg.save_norms_to_crits;
    p.ones = cfg.ones;
    return p;
}

Retained just_a_scratch(const ShootConfig& cfg, Retained hits) {
    if (cfg.just_a_scratch) {
        if (hits.crits > 0) --hits.crits;
        else if (hits.norms > 0) --hits.norms;
    }
    if (cfg.just_a_scratch_normals && hits.norms > 0) --hits.norms;
    return hits;
}

int hit_damage(const ShootConfig& cfg, const Retained& hits) {
    const int dc = critical_damage_against(cfg);
    int damage = hits.crits * dc + hits.norms * normal_damage_against(cfg);
    if (cfg.durable && hits.crits > 0 && dc > 3) --damage;
    return damage;
}

namespace {

// The optimal allocation; `scratch` says whether Just a Scratch acts on the dice left after it.
Blocks optimal_blocks(const ShootConfig& cfg, const Retained& hits, const Retained& saves, bool scratch) {
    // The defender picks how many crits (bc) and norms (bn) to block. For a given bc, spending crit
    // saves on crits first leaves the most saves for norms, so each (bc, bn) is checked in O(1).
    // Objective: least damage after Just a Scratch and Durable; then the most dice blocked; then
    // the more damaging kind of die blocked (crits when dc >= dn), as the reference's greedy does.
    const bool crits_first = critical_damage_against(cfg) >= normal_damage_against(cfg);
    Blocks best;
    int best_preferred = -1;
    bool found = false;
    const int sc = saves.crits, sn = saves.norms;
    const int max_bc = std::min(hits.crits, sc + sn / 2);
    for (int bc = 0; bc <= max_bc; ++bc) {
        const int by_crit_saves = std::min(sc, bc);
        const int by_pairs = bc - by_crit_saves;
        if (2 * by_pairs > sn) continue;
        const int left_for_norms = (sc - by_crit_saves) + (sn - 2 * by_pairs);
        const int max_bn = std::min(hits.norms, left_for_norms);
        for (int bn = 0; bn <= max_bn; ++bn) {
            const Retained left{hits.crits - bc, hits.norms - bn};
            const Retained unblocked = scratch ? just_a_scratch(cfg, left) : left;
            const int damage = hit_damage(cfg, unblocked);
            const int blocked = bc + bn;
            const int preferred = crits_first ? bc : bn;
            const int best_blocked = best.blocked.crits + best.blocked.norms;
            if (!found || damage < best.hit_damage ||
                (damage == best.hit_damage &&
                 (blocked > best_blocked || (blocked == best_blocked && preferred > best_preferred)))) {
                found = true;
                best.blocked = {bc, bn};
                best.unblocked = unblocked;
                best.hit_damage = damage;
                best_preferred = preferred;
            }
        }
    }
    return best;
}

// The reference's greedy (docs/rules/killteam.md §8.6 `blocks`): compares dc and dn only.
Blocks greedy_blocks(const ShootConfig& cfg, const Retained& hits, const Retained& saves) {
    int c = hits.crits, n = hits.norms, sc = saves.crits, sn = saves.norms;
    auto block = [](int& dice, int& saves_left, int per_die) {
        const int k = std::min(dice, saves_left / per_die);
        dice -= k;
        saves_left -= k * per_die;
    };
    const int dc = critical_damage_against(cfg), dn = normal_damage_against(cfg);
    if (dc >= dn) {
        block(c, sc, 1);
        block(n, sc, 1);
        if (dc > 2 * dn) {
            block(c, sn, 2);
            block(n, sn, 1);
        } else {
            if (sn > n && sn >= 2 && c > 0) {
                --c;
                sn -= 2;
            }
            block(n, sn, 1);
            block(c, sn, 2);
        }
    } else {
        block(n, sn, 1);
        block(n, sc, 1);
        block(c, sc, 1);
        block(c, sn, 2);
    }
    Blocks b;
    b.blocked = {hits.crits - c, hits.norms - n};
    b.unblocked = {c, n};
    return b;
}

}  // namespace

Blocks allocate_blocks(const ShootConfig& cfg, const Retained& hits, const Retained& saves) {
    const bool before = cfg.scratch == ScratchTiming::BeforeBlocks;
    // Just a Scratch before the blocks cancels among the retained hits (the reference's timing).
    const Retained target = before ? just_a_scratch(cfg, hits) : hits;
    Blocks b;
    if (cfg.blocks == BlockRule::Optimal) {
        b = optimal_blocks(cfg, target, saves, !before);
    } else {
        b = greedy_blocks(cfg, target, saves);
        if (!before) b.unblocked = just_a_scratch(cfg, b.unblocked);
    }
    if (before) b.blocked = {b.blocked.crits + hits.crits - target.crits, b.blocked.norms + hits.norms - target.norms};
    b.hit_damage = hit_damage(cfg, b.unblocked);
    return b;
}

RelicOrder relic_order(const ShootConfig& cfg, const Retained& unblocked) {
    RelicOrder order;
    const int dc = critical_damage_against(cfg), dn = normal_damage_against(cfg);
    const bool crits = unblocked.crits > 0 && dc > 0;
    const bool norms = unblocked.norms > 0 && dn > 0;
    auto add = [&order](RelicPick kind, int count) {
        order.kind[order.groups] = kind;
        order.count[order.groups] = count;
        ++order.groups;
    };
    // What ignoring one die of each kind saves: a lone crit deals dc - 1 under Durable; with two
    // crits or more Durable stays on another one, so ignoring a crit saves dc.
    const int durable = cfg.durable && unblocked.crits == 1 && dc > 3 ? 1 : 0;
    if (dc - durable >= dn) {
        if (crits) add(RelicPick::Crit, unblocked.crits);
        if (norms) add(RelicPick::Norm, unblocked.norms);
    } else {
        if (norms) add(RelicPick::Norm, unblocked.norms);
        if (crits) add(RelicPick::Crit, unblocked.crits);
    }
    return order;
}

double relic_chance(int mode) {
    if (mode == 1) return 1.0 / 6.0;
    if (mode == 2) return 11.0 / 36.0;  // 1 - (5/6)^2
    return 0.0;
}

AttackDamage attack_damage(const ShootConfig& cfg, int retained_crits, Retained unblocked, RelicPick ignored) {
    if (ignored == RelicPick::Crit) --unblocked.crits;
    if (ignored == RelicPick::Norm) --unblocked.norms;
    AttackDamage out;
    out.damage = cfg.devastating * retained_crits + hit_damage(cfg, unblocked);
    if (cfg.fnp == FnpRule::PerHit) {
        // One roll per surviving hit (0-damage ones too); with Devastating every retained crit keeps
        // one roll, an ignored or blocked crit for its Devastating damage.
        out.instances = (cfg.devastating > 0 ? retained_crits : unblocked.crits) + unblocked.norms;
        return out;
    }
    // Devastating: every retained crit, blocked or not, is its own damage instance.
    out.instances = (cfg.devastating > 0 ? retained_crits : 0) + (critical_damage_against(cfg) > 0 ? unblocked.crits : 0) +
                    (normal_damage_against(cfg) > 0 ? unblocked.norms : 0);
    return out;
}

// docs/rules/killteam.md §2.2
int hot_damage(const ShootConfig& cfg, int roll) { return cfg.hot && roll < cfg.attack.hit ? 2 * roll : 0; }

int self_damage_bins(const ShootConfig& cfg) { return cfg.hot ? cfg.rounds * kMaxHotDamage + 1 : 0; }

}  // namespace mh::kt

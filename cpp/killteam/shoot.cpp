#include "killteam/shoot.hpp"

#include <algorithm>

namespace mh::kt {

int max_attack_damage(const ShootConfig& cfg) {
    const int per_crit = cfg.critical_damage + cfg.devastating;
    return cfg.attack.dice * std::max(per_crit, cfg.normal_damage);
}

int defence_dice(const ShootConfig& cfg, const Retained& hits) {
    // Piercing and Piercing Crits never add: the larger one applies when a crit was retained.
    const int pierce = hits.crits > 0 ? std::max(cfg.piercing, cfg.piercing_crits) : cfg.piercing;
    return std::max(0, kDefenceDice - pierce);
}

AttackProfile defence_profile(const ShootConfig& cfg, int dice) {
    AttackProfile p;
    p.dice = dice;
    p.hit = cfg.save;
    p.crit = 6;
    // Cover saves come out of the dice left after Piercing; Saturate denies them.
    p.accurate = cfg.saturate ? 0 : std::min(cfg.cover, dice);
    p.punishing = cfg.defender_punishing;
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
    int damage = hits.crits * cfg.critical_damage + hits.norms * cfg.normal_damage;
    if (cfg.durable && hits.crits > 0 && cfg.critical_damage > 3) --damage;
    return damage;
}

Blocks allocate_blocks(const ShootConfig& cfg, const Retained& hits, const Retained& saves) {
    // The defender picks how many crits (bc) and norms (bn) to block. For a given bc, spending crit
    // saves on crits first leaves the most saves for norms, so each (bc, bn) is checked in O(1).
    // Objective: least damage after Just a Scratch and Durable; then the most dice blocked; then
    // the more damaging kind of die blocked (crits when dc >= dn), as the reference's greedy does.
    const bool crits_first = cfg.critical_damage >= cfg.normal_damage;
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
            const Retained unblocked = just_a_scratch(cfg, {hits.crits - bc, hits.norms - bn});
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

RelicOrder relic_order(const ShootConfig& cfg, const Retained& unblocked) {
    RelicOrder order;
    const bool crits = unblocked.crits > 0 && cfg.critical_damage > 0;
    const bool norms = unblocked.norms > 0 && cfg.normal_damage > 0;
    auto add = [&order](RelicPick kind, int count) {
        order.kind[order.groups] = kind;
        order.count[order.groups] = count;
        ++order.groups;
    };
    // Relics see crits at full damage (Durable comes later).
    if (cfg.critical_damage >= cfg.normal_damage) {
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
    // Devastating: every retained crit, blocked or not, is its own damage instance.
    out.damage = cfg.devastating * retained_crits + hit_damage(cfg, unblocked);
    out.instances = (cfg.devastating > 0 ? retained_crits : 0) + (cfg.critical_damage > 0 ? unblocked.crits : 0) +
                    (cfg.normal_damage > 0 ? unblocked.norms : 0);
    return out;
}

}  // namespace mh::kt

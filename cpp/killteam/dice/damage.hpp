// The Dmg stat a success inflicts on a defender whose abilities lower it (docs/rules/killteam.md
// §2.3): Crits as Normal Dmg, Reduce Normal Dmg x+ and Reduce Dmg x+. Shots (ShootConfig) and
// fights (the defending FighterSpec) hold the three under the same names.
#pragma once
#include <algorithm>

namespace mh::kt {

// What a normal (crit = false) or critical success of a weapon with these Dmg stats inflicts on
// `defender` before any other damage rule: a crit counts as a norm under Crits as Normal Dmg; then
// each reduction whose x the stat reaches takes 1 off (never below 0).
template <class Defender>
int damage_against(int normal_damage, int critical_damage, bool crit, const Defender& defender) {
    const bool as_normal = !crit || defender.crits_as_normal;
    const int stat = as_normal ? normal_damage : critical_damage;
    int damage = stat;
    if (as_normal && defender.reduce_normal_damage > 0 && stat >= defender.reduce_normal_damage) --damage;
    if (defender.reduce_damage > 0 && stat >= defender.reduce_damage) --damage;
    return std::max(0, damage);
}

}  // namespace mh::kt

"""Random valid StarCraft TMG scenarios as raw fields: (weapon dict or None, unit dict, attack options,
rules dict). Every keyword, mode and rule variant appears; sizes scale with max_dice."""

from __future__ import annotations

import random
from typing import Any

from mathhammer import starcraft as sc

TAG_SETS = [("Light",), ("Armoured",), ("Biological", "Light", "Ground"), ("Armoured", "Mechanical")]


def random_rules(rng: random.Random) -> dict[str, str]:
    return {"critical_hit": rng.choice(["count", "natural"]), "leftover": rng.choice(["marker", "lost"]),
            "stacking": rng.choice(["sum", "max"])}


def random_unit(rng: random.Random, big: bool = False) -> dict[str, Any]:
    unit: dict[str, Any] = {
        "models": rng.randint(1, 12 if big else 5), "hp": rng.randint(1, 4 if big else 3), "armour": rng.randint(2, 6),
        "evade": rng.choice([None, 2, 3, 4, 5, 6]), "tags": list(rng.choice(TAG_SETS)), "tough": rng.choice([0, 0, 1, 2]),
    }
    if rng.random() < 0.4:
        unit["shield"] = rng.randint(1, 3)
    unit["marker"] = rng.choice([0, 0, rng.randint(0, unit["hp"] + unit.get("shield", 0) - 1)])
    return unit


def random_batch(rng: random.Random, unit: dict[str, Any], rules: dict[str, str], max_dice: int) -> tuple[dict | None, dict]:
    """A weapon (or None in HITS mode) and attack options with at most max_dice attack dice."""
    mode = rng.choice(["weapon"] * 6 + ["template", "spillover", "hits"])
    kw: dict[str, Any] = {}
    scale = max(1, max_dice // 3)
    weapon: dict[str, Any] | None = {
        "roa": rng.randint(0, 3), "hit": rng.randint(2, 6), "damage": rng.randint(0, 3),
        "precision": rng.choice([0, 0, 1, 2]), "anti_evade": rng.choice([0, 0, 1, 2]),
    }
    weapon["critical_hit"] = rng.choice([0, 1, 2, 4, 6]) if rules["critical_hit"] == "natural" else rng.choice([0, 0, 1, 2])
    if rng.random() < 0.5:
        weapon["surge_tags"] = list(rng.choice(TAG_SETS[:2]))
        weapon["surge_dice"] = rng.choice(["D3", "D3+1", "D6"])
    if rng.random() < 0.3:
        weapon["pierce"] = [rng.choice(["Light", "Armoured"]), rng.randint(0, 4)]
    if rng.random() < 0.3:
        weapon["concentrated_fire"] = rng.randint(1, 2)
    if rng.random() < 0.2:
        weapon["instant"] = True
    if mode == "weapon":
        weapon["long_range"] = rng.random() < 0.4
        weapon["burst_fire"] = rng.choice([0, 0, 1])
        weapon["locked_in"] = rng.choice([0, 0, 1])
        while True:
            firing = rng.randint(0, scale)
            lr = rng.randint(0, firing) if weapon["long_range"] else 0
            burst = rng.randint(0, firing - lr)
            stationary = rng.random() < 0.5
            roa_mod = rng.choice([0, 0, -1, 1])
            dice_mod = rng.choice([0, 0, -1, -2, 1])
            per = weapon["roa"] + roa_mod + (weapon["locked_in"] if stationary else 0)
            normal = burst * max(0, per + weapon["burst_fire"]) + (firing - lr - burst) * max(0, per)
            if normal + lr * max(0, per) + max(dice_mod, 0) <= max_dice:
                break
            weapon["roa"] = rng.randint(0, 2)
        kw.update(firing_models=firing, long_range_models=lr, burst_models=burst, target_stationary=stationary,
                  roa_mod=roa_mod, dice_mod=dice_mod)
    elif mode in ("template", "spillover"):
        weapon["template"] = True
        weapon.pop("surge_dice", None)
        weapon["roa"] = rng.randint(0, 1)
        kw["affected_models"] = rng.randint(0, max_dice - (weapon["roa"] if mode == "template" else 0))
        if mode == "spillover":
            kw["mode"] = "spillover"
    else:
        kw.update(mode="hits", hits=(rng.randint(0, max_dice), rng.randint(0, 3)))
        if rng.random() < 0.5:
            weapon = None
    if mode != "hits":
        kw["hit_mod"] = rng.choice([0, 0, 1, -1, 2])
    kw["armour_mod"] = rng.choice([0, 0, 1, -1])
    kw["evade_mod"] = rng.choice([0, 0, 1, -1])
    kw["dodge"] = rng.choice([0, 0, 1, [1, 1]])
    kw["tough"] = rng.choice([0, 0, 1])
    kw["precision"] = rng.choice([0, 0, 1])
    if rules["critical_hit"] == "count":
        kw["critical_hit"] = rng.choice([0, 0, 1, [1, 1]])
    kw["anti_evade"] = rng.choice([0, 0, 1])
    kw["evade_eligible"] = rng.choice([None, None, True, False])
    if rng.random() < 0.2:
        kw["damage_set"] = rng.choice([2, [1, 3]])
    if rng.random() < 0.2:
        kw["damage_cap"] = 1
    if rng.random() < 0.3:
        kw["td_reduction"] = rng.randint(1, 2)
    if rng.random() < 0.2:
        kw["td_floor"] = 1
    if rng.random() < 0.3:
        kw["visible_models"] = rng.randint(0, unit["models"])
        kw["engaged"] = rng.random() < 0.3
    if rng.random() < 0.3:
        kw["reaction"] = {"dodge": 1, "tough": 1, "td_reduction": 1}
    return weapon, kw


def random_scenario(rng: random.Random, max_dice: int, big: bool = False) -> tuple[dict | None, dict, dict, dict]:
    rules = random_rules(rng)
    unit = random_unit(rng, big)
    weapon, kw = random_batch(rng, unit, rules, max_dice)
    return weapon, unit, kw, rules


def scenarios(count: int, seed: int, max_dice: int, big: bool = False) -> list[tuple]:
    rng = random.Random(seed)
    return [random_scenario(rng, max_dice, big) for _ in range(count)]


def profiles(weapon: dict | None, unit: dict) -> tuple[sc.Weapon | None, sc.Unit]:
    return (None if weapon is None else sc.Weapon(**weapon)), sc.Unit(**unit)


def features(weapon: dict | None, unit: dict, kw: dict, rules: dict) -> set[str]:
    """Names of the keywords, modes and variants a scenario exercises."""
    seen = {kw.get("mode", "template" if weapon and weapon.get("template") else "weapon")}
    seen |= {f"rules.{k}={v}" for k, v in rules.items()}
    if kw.get("long_range_models", 0) > 0:
        seen.add("long_range_models")
    if unit.get("shield", 0) > 0:
        seen.add("shield")
    if unit.get("marker", 0) > 0:
        seen.add("marker")
    if unit.get("evade") is not None:
        seen.add("evade")
    for key in ("pierce", "concentrated_fire", "instant", "precision", "critical_hit", "surge_dice", "burst_fire",
                "locked_in", "anti_evade"):
        if weapon and weapon.get(key):
            seen.add(f"weapon.{key}")
    for key in ("reaction", "damage_set", "damage_cap", "td_reduction", "td_floor", "visible_models", "engaged",
                "dodge", "tough", "target_stationary", "evade_eligible", "hit_mod", "armour_mod", "evade_mod", "dice_mod"):
        if kw.get(key):
            seen.add(key)
    return seen


ALL_FEATURES = {
    "weapon", "template", "spillover", "hits", "long_range_models", "shield", "marker", "evade",
    *(f"rules.{k}={v}" for k, vs in (("critical_hit", ("count", "natural")), ("leftover", ("marker", "lost")),
                                       ("stacking", ("sum", "max"))) for v in vs),
    *(f"weapon.{k}" for k in ("pierce", "concentrated_fire", "instant", "precision", "critical_hit", "surge_dice",
                               "burst_fire", "locked_in", "anti_evade")),
    "reaction", "damage_set", "damage_cap", "td_reduction", "td_floor", "visible_models", "engaged", "dodge", "tough",
    "target_stationary", "evade_eligible", "hit_mod", "armour_mod", "evade_mod", "dice_mod",
}

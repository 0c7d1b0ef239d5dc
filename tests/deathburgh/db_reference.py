"""A plain reference for Deathburgh combat, written from docs/rules/deathburgh.md for the tests.

Nothing here calls the package under test: every die face (and every reroll face) is enumerated
with exact fractions, the instant dice are placed as §2 says, and the outcome follows the table
of §4 line by line. Also: a generator of random valid combats covering every switch.
"""

from __future__ import annotations

import functools
import random
from collections import defaultdict
from fractions import Fraction
from typing import Any

SIXTH = Fraction(1, 6)
EDITIONS = ("web", "alpha")
ROLES = ("melee", "ranged")
MODES = ("aggressive", "defensive")
REROLLS = ("none", "all_fails", "one_fail")
BONUS_FLAGS = ("charge", "full_visibility", "steady_aim", "take_cover", "get_down", "zig_zag")


def face_successes(face: int, target: int) -> int:
    if face < target:
        return 0
    return 2 if face == 6 else 1


@functools.lru_cache(maxsize=None)
def rolled_dice(rolled: int, target: int, reroll: str) -> dict[int, Fraction]:
    """Every face of every rolled die, and every face of every reroll."""
    out: dict[int, Fraction] = defaultdict(Fraction)

    def roll(die: int, total: int, weight: Fraction, reroll_left: bool) -> None:
        if die == rolled:
            out[total] += weight
            return
        for face in range(1, 7):
            s = face_successes(face, target)
            if s == 0 and reroll_left:
                still_left = reroll == "all_fails"  # "one_fail" spends its only reroll here
                for second in range(1, 7):
                    roll(die + 1, total + face_successes(second, target), weight * SIXTH * SIXTH, still_left)
            else:
                roll(die + 1, total + s, weight * SIXTH, reroll_left)

    roll(0, 0, Fraction(1), reroll != "none")
    return dict(out)


def pool_size(side: dict[str, Any], mode: str, switches: dict[str, Any]) -> tuple[int, int, int]:
    """(all dice n, instant 6! placed, instant 1! placed) of a side, per docs/rules/deathburgh.md §2-§3."""
    if side.get("auto_hits") is not None:
        return side["auto_hits"], 0, 0
    mini = side["mini"]
    dice = mini["A"] if mode == "aggressive" else mini["D"]
    support = side.get("support", 0)
    if switches.get("support_stacking", "per_ally") == "once":
        support = min(support, 1)
    bonus = support + sum(1 for flag in BONUS_FLAGS if side.get(flag)) + side.get("instant6", 0)
    souls = side.get("souls_dice", 0)
    n = dice + side.get("extra_dice", 0)
    if switches.get("bonus_dice", "replace") == "add":
        n += bonus
    if switches.get("souls", "convert") == "add":
        n += souls
    n1 = min(side.get("instant1", 0), n)
    n6 = min(bonus + souls, n - n1)
    return n, n6, n1


def side_successes(side: dict[str, Any], switches: dict[str, Any]) -> tuple[dict[int, Fraction], int]:
    """The law of a side's successes and its dice count (for cap_wounds_at_dice)."""
    if side.get("auto_hits") is not None:
        return {side["auto_hits"]: Fraction(1)}, side["auto_hits"]
    mode = side.get("mode", "aggressive")
    mini = side["mini"]
    target = mini["A_plus"] if mode == "aggressive" else mini["D_plus"]
    n, n6, n1 = pool_size(side, mode, switches)
    rolled = n - n6 - n1
    law = {2 * n6 + s: p for s, p in rolled_dice(rolled, target, side.get("reroll", "none")).items()}
    return law, n


def outcome(sa: int, sd: int, reaction: str, same_role: bool, switches: dict[str, Any]) -> tuple[int, int]:
    """(wounds to defender, wounds to attacker) by the table of docs/rules/deathburgh.md §4, before caps."""
    edition = switches.get("edition", "web")
    draw_counts = sa == sd and (switches.get("draw", "always") == "always" or sa >= 1)
    if reaction == "none":
        return sa, 0
    if reaction == "attack":
        if edition == "web":
            return sa, sd
        if sa == sd:
            return (1, 1) if draw_counts else (0, 0)
        return max(0, sa - sd), max(0, sd - sa)
    # dodge
    if edition == "alpha" and switches.get("draw_in_dodge", False) and draw_counts:
        return 1, 1
    to_defender = max(0, sa - sd)
    to_attacker = max(0, sd - sa) if (edition == "web" and same_role) else 0
    return to_defender, to_attacker


def combat(scenario: dict[str, Any]) -> dict[str, Any]:
    """Exact laws of a combat scenario: successes pairs and wounds pairs, as Fractions."""
    switches = scenario["switches"]
    attacker, defender, reaction = scenario["attacker"], scenario["defender"], scenario["reaction"]
    law_a, dice_a = side_successes(attacker, switches)
    if reaction == "none":
        law_d, dice_d = {0: Fraction(1)}, 0
    else:
        law_d, dice_d = side_successes(defender, switches)
    same_role = attacker["mini"]["role"] == defender["mini"]["role"]
    successes: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    wounds: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for sa, pa in law_a.items():
        for sd, pd in law_d.items():
            successes[sa, sd] += pa * pd
            to_d, to_a = outcome(sa, sd, reaction, same_role, switches)
            if switches.get("cap_wounds_at_dice", False):
                to_d, to_a = min(to_d, dice_a), min(to_a, dice_d)
            wounds[to_d, to_a] += pa * pd
    return {"successes": dict(successes), "wounds": dict(wounds)}


# --- random valid combats ---------------------------------------------------------------------------
def random_scenario(rng: random.Random, max_dice: int, max_pool: int) -> dict[str, Any]:
    """A valid combat with profile dice ≤ max_dice and at most max_pool dice a side after extras."""
    while True:
        scenario = _draw(rng, max_dice)
        switches = scenario["switches"]
        sizes = [pool_size(scenario["attacker"], scenario["attacker"]["mode"], switches)[0]]
        if scenario["reaction"] != "none":
            sizes.append(pool_size(scenario["defender"], scenario["defender"]["mode"], switches)[0])
        if max(sizes) <= max_pool:
            return scenario


def _mini(rng: random.Random, role: str, max_dice: int) -> dict[str, Any]:
    return {
        "A": rng.randint(0, max_dice), "A_plus": rng.randint(2, 6), "D": rng.randint(0, max_dice),
        "D_plus": rng.randint(2, 6), "W": rng.randint(1, 6), "role": role,
    }


def _roll_options(rng: random.Random, side: dict[str, Any], souls_limit: int) -> None:
    if rng.random() < 0.3:
        side["instant6"] = rng.randint(1, 2)
    if rng.random() < 0.2:
        side["instant1"] = rng.randint(1, 2)
    if souls_limit and rng.random() < 0.3:
        side["souls_dice"] = rng.randint(1, souls_limit)
    if rng.random() < 0.25:
        side["extra_dice"] = rng.randint(1, 2)
    side["reroll"] = rng.choice(REROLLS)


def _draw(rng: random.Random, max_dice: int) -> dict[str, Any]:
    edition = rng.choice(EDITIONS)
    role_a, role_d = rng.choice(ROLES), rng.choice(ROLES)
    melee_attack = role_a == "melee"
    stand_and_shoot = role_a == "melee" and role_d == "ranged" and rng.random() < 0.4
    if stand_and_shoot:
        reaction = "attack"
    else:
        reaction = rng.choice(["dodge", "none"] + (["attack", "attack"] if role_a == role_d else []))
    switches: dict[str, Any] = {
        "edition": edition,
        "bonus_dice": rng.choice(["replace", "add"]),
        "souls": rng.choice(["convert", "add"]),
        "souls_limit": rng.randint(0, 2),
        "cap_wounds_at_dice": rng.random() < 0.3,
        "support_stacking": rng.choice(["per_ally", "once"]),
        "stand_and_shoot": stand_and_shoot,
    }
    if edition == "alpha":
        switches["draw"] = rng.choice(["always", "scored"])
        switches["draw_in_dodge"] = rng.random() < 0.5

    attacker: dict[str, Any] = {"mini": _mini(rng, role_a, max_dice), "mode": rng.choice(MODES)}
    if reaction != "attack" and rng.random() < 0.15:
        attacker["auto_hits"] = rng.randint(0, 4)
    else:
        if melee_attack:
            attacker["charge"] = stand_and_shoot or rng.random() < 0.4
            attacker["support"] = rng.choice([0, 0, 1, 2])
        else:
            attacker["full_visibility"] = rng.random() < 0.4
            attacker["steady_aim"] = rng.random() < 0.4
        _roll_options(rng, attacker, switches["souls_limit"])
    attacker["wounds"] = rng.randint(1, attacker["mini"]["W"])

    defender: dict[str, Any] = {"mini": _mini(rng, role_d, max_dice), "mode": rng.choice(MODES)}
    if reaction != "none":
        if melee_attack:
            defender["support"] = rng.choice([0, 0, 1, 3])
        if reaction == "dodge" and not melee_attack:
            defender["take_cover"] = rng.random() < 0.4
            defender["get_down"] = rng.random() < 0.4
            if edition == "alpha" and defender["mode"] == "defensive":
                defender["zig_zag"] = rng.random() < 0.5
        if reaction == "attack" and role_a == role_d == "ranged":
            defender["full_visibility"] = rng.random() < 0.4
            defender["steady_aim"] = rng.random() < 0.4
        _roll_options(rng, defender, switches["souls_limit"])
    defender["wounds"] = rng.randint(0 if reaction == "none" else 1, defender["mini"]["W"])
    return {"attacker": attacker, "defender": defender, "reaction": reaction, "switches": switches}


def features(scenario: dict[str, Any]) -> set[str]:
    """Names of the rules a scenario exercises (to check the random set covers them all)."""
    out = {f"edition={scenario['switches']['edition']}", f"reaction={scenario['reaction']}"}
    for key, value in scenario["switches"].items():
        out.add(f"{key}={value}")
    for label in ("attacker", "defender"):
        side = scenario[label]
        out.add(f"{label}.mode={side['mode']}")
        out.add(f"role={side['mini']['role']}")
        for key in BONUS_FLAGS + ("support", "instant6", "instant1", "souls_dice", "extra_dice", "auto_hits"):
            if side.get(key):
                out.add(f"{label}.{key}")
        out.add(f"reroll={side.get('reroll', 'none')}")
    return out


# --- rounds (docs/rules/deathburgh.md §7) ------------------------------------------------------------------------
def play_round(r: dict[str, Any]) -> tuple[dict[str, dict[int, Fraction]], list[Fraction]]:
    """Exact laws of a round: each miniature's wounds left, and the chance each combat is fought.

    ``r``: ``minis`` (name -> profile dict), ``start`` (name -> wounds), ``combats`` (dicts with
    attacker, defender, reaction, attacker_options, defender_options, stand_and_shoot) and ``switches``.
    The round is played combat by combat over every reachable (wounds of everyone, who has fought)
    state with its exact probability: a combat with a Wasted participant is skipped and changes
    nothing; a side's mode is its options' ``mode``, else Defensive once the miniature has fought.
    """
    names = list(r["minis"])
    states: dict[tuple[tuple[int, ...], frozenset[str]], Fraction] = {
        (tuple(r["start"][n] for n in names), frozenset()): Fraction(1)
    }
    fought_chance: list[Fraction] = []
    for c in r["combats"]:
        a, d = names.index(c["attacker"]), names.index(c["defender"])
        laws: dict[tuple[str, str], dict[tuple[int, int], Fraction]] = {}
        after: dict[tuple[tuple[int, ...], frozenset[str]], Fraction] = defaultdict(Fraction)
        fought = Fraction(0)
        for (wounds, has_fought), weight in states.items():
            if wounds[a] == 0 or wounds[d] == 0:
                after[wounds, has_fought] += weight
                continue
            modes = tuple(
                options.get("mode", "defensive" if names[who] in has_fought else "aggressive")
                for who, options in ((a, c["attacker_options"]), (d, c["defender_options"]))
            )
            if modes not in laws:
                scenario = {
                    "attacker": {"mini": r["minis"][names[a]], **c["attacker_options"], "mode": modes[0]},
                    "defender": {"mini": r["minis"][names[d]], **c["defender_options"], "mode": modes[1]},
                    "reaction": c["reaction"], "switches": r["switches"],
                }
                laws[modes] = combat(scenario)["wounds"]
            fought += weight
            for (to_d, to_a), p in laws[modes].items():
                nxt = list(wounds)
                nxt[d] = max(0, nxt[d] - to_d)
                nxt[a] = max(0, nxt[a] - to_a)
                after[tuple(nxt), has_fought | {names[a], names[d]}] += weight * p
        states = dict(after)
        fought_chance.append(fought)
    left: dict[str, dict[int, Fraction]] = {n: defaultdict(Fraction) for n in names}
    for (wounds, _), weight in states.items():
        for n, w in zip(names, wounds):
            left[n][w] += weight
    return {n: dict(law) for n, law in left.items()}, fought_chance


def random_round(rng: random.Random, n_minis: int, max_dice: int, max_w: int, n_combats: int) -> dict[str, Any]:
    """A valid round of melee and ranged miniatures: every combat legal in whichever modes it is fought.

    Covers every reaction each pair of roles allows, Stand and Shoot, automatic hits, the ranged and
    dodge bonuses, Zig Zag! (alpha, fixed Defensive), support, instant dice, Soul's Dice, extra dice,
    rerolls, fixed and state-driven modes, Wasted miniatures at the start, and the round switches.
    """
    names = [f"m{i}" for i in range(n_minis)]
    minis = {n: {**_mini(rng, rng.choice(ROLES), max_dice), "W": rng.randint(1, max_w)} for n in names}
    edition = rng.choice(EDITIONS)
    switches: dict[str, Any] = {
        "edition": edition,
        "bonus_dice": rng.choice(["replace", "add"]),
        "souls": rng.choice(["convert", "add"]),
        "souls_limit": rng.randint(0, 2),
        "cap_wounds_at_dice": rng.random() < 0.3,
        "support_stacking": rng.choice(["per_ally", "once"]),
    }
    if edition == "alpha":
        switches["draw"] = rng.choice(["always", "scored"])
        switches["draw_in_dodge"] = rng.random() < 0.5
    combats = [_round_combat(rng, names, minis, switches) for _ in range(n_combats)]
    start = {n: rng.randint(0, minis[n]["W"]) if rng.random() < 0.2 else minis[n]["W"] for n in names}
    return {"minis": minis, "start": start, "combats": combats, "switches": switches}


def _round_combat(rng: random.Random, names: list[str], minis: dict[str, Any], switches: dict[str, Any]) -> dict[str, Any]:
    a, d = rng.sample(names, 2)
    role_a, role_d = minis[a]["role"], minis[d]["role"]
    stand_and_shoot = role_a == "melee" and role_d == "ranged" and rng.random() < 0.4
    if stand_and_shoot:
        reaction = "attack"
    else:
        reaction = rng.choice(["dodge", "none"] + (["attack", "attack"] if role_a == role_d else []))
    attacker: dict[str, Any] = {}
    defender: dict[str, Any] = {}
    for side in (attacker, defender):
        if rng.random() < 0.25:
            side["mode"] = rng.choice(MODES)
    if reaction != "attack" and rng.random() < 0.15:
        attacker["auto_hits"] = rng.randint(0, 4)
    else:
        if role_a == "melee":
            if stand_and_shoot or rng.random() < 0.3:
                attacker["charge"] = True
            if rng.random() < 0.3:
                attacker["support"] = rng.randint(1, 2)
        else:
            attacker["full_visibility"] = rng.random() < 0.3
            attacker["steady_aim"] = rng.random() < 0.3
        _round_roll_options(rng, attacker, switches["souls_limit"])
    if reaction != "none":
        if role_a == "melee" and rng.random() < 0.3:
            defender["support"] = rng.randint(1, 2)
        if reaction == "dodge" and role_a == "ranged":
            defender["take_cover"] = rng.random() < 0.4
            defender["get_down"] = rng.random() < 0.3
            if switches["edition"] == "alpha" and rng.random() < 0.4:
                defender["zig_zag"] = True
                defender["mode"] = "defensive"  # Zig Zag! dodges in Defensive mode
        if reaction == "attack" and role_a == role_d == "ranged":
            defender["full_visibility"] = rng.random() < 0.3
            defender["steady_aim"] = rng.random() < 0.3
        _round_roll_options(rng, defender, switches["souls_limit"])
    return {"attacker": a, "defender": d, "reaction": reaction, "attacker_options": attacker,
            "defender_options": defender, "stand_and_shoot": stand_and_shoot}


def _round_roll_options(rng: random.Random, side: dict[str, Any], souls_limit: int) -> None:
    if rng.random() < 0.25:
        side["instant6"] = 1
    if rng.random() < 0.15:
        side["instant1"] = 1
    if souls_limit and rng.random() < 0.2:
        side["souls_dice"] = rng.randint(1, souls_limit)
    if rng.random() < 0.15:
        side["extra_dice"] = 1
    if rng.random() < 0.4:
        side["reroll"] = rng.choice(REROLLS)


def round_features(r: dict[str, Any]) -> set[str]:
    """Names of the rules a random round exercises (to check a set of rounds covers them all)."""
    out = {f"{key}={value}" for key, value in r["switches"].items()}
    out |= {f"role={m['role']}" for m in r["minis"].values()}
    if any(r["start"][n] == 0 for n in r["minis"]):
        out.add("wasted at start")
    if any(r["start"][n] < m["W"] for n, m in r["minis"].items()):
        out.add("wounded at start")
    for c in r["combats"]:
        out.add(f"reaction={c['reaction']}")
        if c["stand_and_shoot"]:
            out.add("stand_and_shoot")
        for label in ("attacker", "defender"):
            options = c[f"{label}_options"]
            out.add(f"{label}.mode={options.get('mode', 'from state')}")
            for key, value in options.items():
                if key != "mode" and value:
                    out.add(f"{label}.{key}" if key != "reroll" else f"reroll={value}")
    return out

"""Fingerprints of the engines' results: a few hundred random valid inputs per engine, each result's
``to_json()`` hashed, one SHA-256 per engine.

The batch forms (``kt.shoot_batch``, ...) and the comparisons (``kt.compare``, ...) are fingerprinted
by how they are seeded: exact, Monte Carlo with one seed for the whole call, and (batch forms) Monte
Carlo with a sequence of seeds, one per item; each call repeats its first item, so that a change in
how one seed reaches the items shows in the one-seed digests only.

A refactoring that must not change a number runs this before and after and compares the digests:

    PYTHONPATH=python python tools/fingerprint.py > before.json
    ... change ...
    PYTHONPATH=python python tools/fingerprint.py --compare before.json

A change that adds a field to a result changes every digest of its engine; ``--ignore weapon,inputs``
hashes the results without those keys (at any depth), to show that the numbers did not change.

The inputs come from a fixed-seed ``random.Random`` and the public API only (profiles, options,
``method="exact"`` and seeded ``method="monte_carlo"``), so the same inputs are drawn whatever the
package's layout.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import killteam as kt
from mathhammer import starcraft as sc

KT_RULES = ["Lethal 5+", "Lethal 4+", "Accurate 1", "Balanced", "Ceaseless", "Relentless", "Punishing", "Severe",
            "Rending", "Brutal", "Shock", "Saturate", "Piercing 1", "Piercing Crits 1", "Devastating 2",
            "Devastating 1"]
KT_FIGHT_ABILITIES = ["Storm Shield", "Dueller", "Duelist", "Hammerhand", "Just a Scratch", "Durable",
                      "Feel No Pain 5+", "Saintly Relics"]
KT_SHOT_ABILITIES = ["Just a Scratch", "Durable", "Feel No Pain 5+", "Feel No Pain 6+", "Saintly Relics",
                     "Hardy 5+", "Indomitus"]
STRATEGIES = ["strike", "parry", "max_damage", "min_damage"]
MC = {"method": "monte_carlo", "samples": 20_000, "threads": 1}


def _pick(rng: random.Random, options: list[str], most: int) -> str:
    chosen = rng.sample(options, rng.randint(0, most))
    # one reroll rule at most, one Lethal, one Devastating
    seen: set[str] = set()
    kept = []
    for rule in chosen:
        head = rule.split()[0] if rule.split()[0] in ("Lethal", "Devastating", "Piercing", "Feel") else rule
        if rule in ("Balanced", "Ceaseless", "Relentless"):
            head = "reroll"
        if head not in seen:
            seen.add(head)
            kept.append(rule)
    return ", ".join(kept)


def _kt_weapon(rng: random.Random) -> kt.Weapon:
    normal = rng.randint(1, 5)
    return kt.Weapon(rng.randint(1, 6), rng.randint(2, 5), (normal, normal + rng.randint(0, 3)),
                     _pick(rng, KT_RULES, 3))


def _kt_fighter(rng: random.Random, abilities: bool = True) -> kt.Fighter:
    normal = rng.randint(1, 4)
    return kt.Fighter(rng.randint(1, 4), rng.randint(2, 5), (normal, normal + rng.randint(0, 2)),
                      wounds=rng.randint(4, 12), rules=_pick(rng, KT_RULES[:12], 2),
                      abilities=_pick(rng, KT_FIGHT_ABILITIES, 1) if abilities else "",
                      strategy=rng.choice(STRATEGIES))


def killteam_shoot(rng: random.Random) -> Iterator[Callable[[], Any]]:
    for i in range(300):
        target = kt.Operative(rng.randint(2, 6), rng.randint(6, 18), _pick(rng, KT_SHOT_ABILITIES, 2))
        options = {"cover": rng.randint(0, 1), "obscured": rng.random() < 0.2, "rounds": rng.choice([1, 1, 2])}
        if rng.random() < 0.2:
            options["variants"] = "ktcalc"
        yield lambda: kt.shoot(_kt_weapon(rng), target, **options,
                       **({**MC, "seed": i} if i % 5 == 0 else {}))


def killteam_fight(rng: random.Random) -> Iterator[Callable[[], Any]]:
    for i in range(200):
        a, b = _kt_fighter(rng), _kt_fighter(rng)
        options = {"first": rng.choice("ab"), "rounds": rng.choice([1, 1, 2])}
        if rng.random() < 0.2:
            options["variants"] = "ktcalc"
        if i % 5 == 0:
            yield lambda: kt.fight(a, b, **options, **MC, seed=i)
        else:
            yield lambda: kt.fight(a, b, **options, method="exact")


def killteam_optimal(rng: random.Random) -> Iterator[Callable[[], Any]]:
    for _ in range(30):
        a = _kt_fighter(rng, abilities=False)
        a = kt.Fighter(a.attacks, a.hit, a.damage, a.wounds, a.rules, a.abilities, "optimal",
                       rng.choice(["trade", "net", "kill", "survive"]))
        yield lambda: kt.fight(a, _kt_fighter(rng, abilities=False), method="exact")


def killteam_dice(rng: random.Random) -> Iterator[Callable[[], Any]]:
    for i in range(200):
        yield lambda: kt.attack_dice(_kt_weapon(rng), rng.random() < 0.2, **({**MC, "seed": i} if i % 5 == 0 else {}))


def _dice(rng: random.Random, attacks: int) -> tuple[int, int]:
    crits = rng.randint(0, attacks)
    return crits, rng.randint(0, attacks - crits)


def killteam_advise(rng: random.Random) -> Iterator[Callable[[], Any]]:
    for _ in range(60):
        a, b = _kt_fighter(rng, abilities=False), _kt_fighter(rng, abilities=False)
        dice_a = _dice(rng, a.attacks)
        dice_b = _dice(rng, b.attacks)
        yield lambda: kt.advise(a, b, dice_a, dice_b, first=rng.choice("ab"))


SC_TAGS = ["Light", "Armoured", "Biological", "Mechanical", "Ground", "Flying"]
SC_KEYWORDS = ["", "PRECISION (1)", "CRITICAL HIT (1)", "PIERCE Armoured (1)", "ANTI-EVADE (1)", "BURST FIRE (1)",
               "INSTANT"]


def _sc_weapon(rng: random.Random) -> sc.Weapon:
    surge = rng.random() < 0.5
    return sc.Weapon(rng.randint(1, 4), rng.randint(2, 5), rng.randint(1, 3),
                     surge_tags=(rng.choice(SC_TAGS),) if surge else (), surge_dice=rng.choice(["D3", "D6", "D3+1"]) if surge else None,
                     keywords=rng.choice(SC_KEYWORDS))


def _sc_unit(rng: random.Random) -> sc.Unit:
    return sc.Unit(models=rng.randint(1, 6), hp=rng.randint(1, 4), armour=rng.randint(2, 6),
                   evade=rng.choice([None, 4, 5, 6]), shield=rng.choice([0, 0, 1, 2]),
                   tags=tuple(rng.sample(SC_TAGS, 2)), tough=rng.choice([0, 0, 1]))


def starcraft_attack(rng: random.Random) -> Iterator[Callable[[], Any]]:
    for i in range(250):
        options = {"firing_models": rng.randint(1, 4)}
        yield lambda: sc.attack(_sc_weapon(rng), _sc_unit(rng), **options,
                        **({**MC, "seed": i} if i % 5 == 0 else {"method": "exact"}))


def starcraft_sequence(rng: random.Random) -> Iterator[Callable[[], Any]]:
    for i in range(60):
        batches = [sc.Batch(_sc_weapon(rng), firing_models=rng.randint(1, 3)) for _ in range(rng.randint(1, 3))]
        yield lambda: sc.sequence(_sc_unit(rng), batches, **({**MC, "seed": i} if i % 4 == 0 else {"method": "exact"}))


DB_CARDS = ["A 3/4+ D 5/3+ W 5", "A 4/4+ D 4/4+ W 3", "A 2/3+ D 3/5+ W 4", "A 5/5+ D 2/4+ W 6", "A 3/3+ D 4/4+ W 2"]


def _db_side(rng: random.Random, attacker: bool) -> db.Side:
    mini = db.Miniature.parse(rng.choice(DB_CARDS))
    return db.Side(mini, rng.choice(["aggressive", "defensive"]), charge=attacker and rng.random() < 0.3,
                   support=rng.randint(0, 2))


def deathburgh_combat(rng: random.Random) -> Iterator[Callable[[], Any]]:
    for i in range(250):
        options = {"reaction": rng.choice(["attack", "dodge"]), "edition": rng.choice(["web", "alpha"])}
        yield lambda: db.combat(_db_side(rng, True), _db_side(rng, False), **options,
                        **({**MC, "seed": i} if i % 5 == 0 else {"method": "exact"}))


def deathburgh_round(rng: random.Random) -> Iterator[Callable[[], Any]]:
    for i in range(40):
        minis = {name: db.Miniature.parse(rng.choice(DB_CARDS), name=name) for name in ("a", "b", "c")}
        combats = [db.Engagement("a", "b", rng.choice(["attack", "dodge"])), db.Engagement("c", "b", "attack")]
        yield lambda: db.round(minis, combats, **({**MC, "seed": i} if i % 4 == 0 else {"method": "exact"}))


def _fm_side(rng: random.Random) -> fm.Side:
    unit = fm.Unit(models=rng.randint(1, 5), hp=rng.randint(1, 3))
    weapon = fm.Weapon(hit=rng.randint(2, 6), force=rng.randint(1, 6), sustained=rng.choice([0, 0, 1]),
                       reroll=rng.choice(["none", "ones", "fails"]))
    return fm.Side(unit, weapon, dice=rng.randint(1, 5))


def force_melee(rng: random.Random) -> Iterator[Callable[[], Any]]:
    for i in range(250):
        options = {"winner_damage": rng.choice(["once", "excess", "per_hit", "pairing"]),
                   "allocation": rng.choice(["spill", "no_spill"])}
        yield lambda: fm.melee(_fm_side(rng), _fm_side(rng), **options,
                       **({**MC, "seed": i} if i % 5 == 0 else {"method": "exact"}))


def force_melee_many(rng: random.Random) -> Iterator[Callable[[], Any]]:
    for i in range(40):
        sides = {"x": _fm_side(rng), "y": _fm_side(rng), "z": _fm_side(rng)}
        split = rng.randint(0, sides["z"].dice)
        assignment = {("z", "x"): split, ("z", "y"): sides["z"].dice - split}
        yield lambda: fm.melee_many(sides, [("x", "z"), ("y", "z")], assignment, **({**MC, "seed": i} if i % 4 == 0 else {"method": "exact"}))


# --- batch forms and comparisons: each item's result (its seed included), by how it was seeded -------

#: How a batch or a comparison is drawn: exact, Monte Carlo with one seed for the whole call, or
#: (batch forms only) Monte Carlo with a sequence of seeds, one per item.
SEEDINGS = ("exact", "one seed", "seeds")


def _seeding(kind: str, size: int, base: int) -> dict[str, Any]:
    if kind == "exact":
        return {"method": "exact"}
    if kind == "one seed":
        return {**MC, "samples": 5_000, "seed": base}
    return {**MC, "samples": 5_000, "seed": [base + 7 * i for i in range(size)]}


def _twice(items: list[Any]) -> list[Any]:
    # the first item repeated: with one seed shared by every item the two come out identical
    return [items[0], *items]


def killteam_shoot_batch(rng: random.Random, kind: str) -> Iterator[Callable[[], Any]]:
    for i in range(6):
        weapons = _twice([_kt_weapon(rng) for _ in range(3)])
        targets = kt.Operative(rng.randint(2, 6), rng.randint(6, 18))
        yield lambda: list(kt.shoot_batch(weapons, targets, cover=rng.randint(0, 1),
                                          **_seeding(kind, len(weapons), i)))


def killteam_fight_batch(rng: random.Random, kind: str) -> Iterator[Callable[[], Any]]:
    for i in range(4):
        fighters = _twice([_kt_fighter(rng, abilities=False) for _ in range(3)])
        opponent = _kt_fighter(rng, abilities=False)
        yield lambda: list(kt.fight_batch(fighters, opponent, **_seeding(kind, len(fighters), i)))


def starcraft_attack_batch(rng: random.Random, kind: str) -> Iterator[Callable[[], Any]]:
    for i in range(6):
        weapons = _twice([_sc_weapon(rng) for _ in range(3)])
        unit = _sc_unit(rng)
        yield lambda: list(sc.attack_batch(weapons, unit, firing_models=rng.randint(1, 3),
                                           **_seeding(kind, len(weapons), i)))


def deathburgh_combat_batch(rng: random.Random, kind: str) -> Iterator[Callable[[], Any]]:
    for i in range(6):
        attackers = _twice([_db_side(rng, True) for _ in range(3)])
        defender = _db_side(rng, False)
        yield lambda: list(db.combat_batch(attackers, defender, rng.choice(["attack", "dodge"]),
                                           **_seeding(kind, len(attackers), i)))


def force_melee_batch(rng: random.Random, kind: str) -> Iterator[Callable[[], Any]]:
    for i in range(6):
        sides = _twice([_fm_side(rng) for _ in range(3)])
        other = _fm_side(rng)
        yield lambda: list(fm.melee_batch(sides, other, **_seeding(kind, len(sides), i)))


def _cells(comparison: Any) -> list[Any]:
    """A comparison's cell results, row by row, and its labels (what it computed, whatever its type)."""
    labels = [getattr(comparison, name) for name in ("labels", "fighters", "opponents", "weapons", "units")
              if hasattr(comparison, name)]
    return [labels, *[cell for row in comparison.results for cell in row]]


def killteam_compare(rng: random.Random, kind: str) -> Iterator[Callable[[], Any]]:
    for i in range(4):
        weapons = _twice([_kt_weapon(rng) for _ in range(2)])
        yield lambda: _cells(kt.compare(weapons, saves=[3, 5], cover=rng.randint(0, 1), **_seeding(kind, 0, i)))


def killteam_compare_fights(rng: random.Random, kind: str) -> Iterator[Callable[[], Any]]:
    for i in range(3):
        fighters = _twice([_kt_fighter(rng, abilities=False) for _ in range(2)])
        opponents = [_kt_fighter(rng, abilities=False) for _ in range(2)]
        yield lambda: _cells(kt.compare_fights(fighters, opponents, **_seeding(kind, 0, i)))


def starcraft_compare(rng: random.Random, kind: str) -> Iterator[Callable[[], Any]]:
    for i in range(4):
        weapons = _twice([_sc_weapon(rng) for _ in range(2)])
        units = [_sc_unit(rng) for _ in range(2)]
        yield lambda: _cells(sc.compare(weapons, units, firing_models=rng.randint(1, 3), **_seeding(kind, 0, i)))


#: Batch forms (every seeding) and comparisons (exact and one seed: a comparison takes one seed).
MANY: dict[str, tuple[Callable[[random.Random, str], Iterator[Callable[[], Any]]], tuple[str, ...]]] = {
    "killteam.shoot_batch": (killteam_shoot_batch, SEEDINGS),
    "killteam.fight_batch": (killteam_fight_batch, SEEDINGS),
    "starcraft.attack_batch": (starcraft_attack_batch, SEEDINGS),
    "deathburgh.combat_batch": (deathburgh_combat_batch, SEEDINGS),
    "force_melee.melee_batch": (force_melee_batch, SEEDINGS),
    "killteam.compare": (killteam_compare, SEEDINGS[:2]),
    "killteam.compare_fights": (killteam_compare_fights, SEEDINGS[:2]),
    "starcraft.compare": (starcraft_compare, SEEDINGS[:2]),
}


def _many_texts(draw: Callable[[random.Random, str], Iterator[Callable[[], Any]]], rng: random.Random,
                kind: str) -> Iterator[str]:
    """Each item's JSON (a comparison's labels first), one text per call; a refusal gives its error line."""
    for call in draw(rng, kind):
        try:
            items = call()
        except ValueError as error:
            yield f"{type(error).__name__}: {error}"
            continue
        yield "\n".join(json.dumps(item, sort_keys=True) if isinstance(item, list) else _json(item) for item in items)


ENGINES: dict[str, Callable[[random.Random], Iterator[Callable[[], Any]]]] = {
    "killteam.shoot": killteam_shoot, "killteam.fight": killteam_fight, "killteam.optimal": killteam_optimal,
    "killteam.attack_dice": killteam_dice, "killteam.advise": killteam_advise,
    "starcraft.attack": starcraft_attack, "starcraft.sequence": starcraft_sequence,
    "deathburgh.combat": deathburgh_combat, "deathburgh.round": deathburgh_round,
    "force_melee.melee": force_melee, "force_melee.melee_many": force_melee_many,
}


#: Keys left out of every result's JSON before it is hashed (--ignore).
IGNORED: set[str] = set()


def _without(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _without(inner) for key, inner in value.items() if key not in IGNORED}
    if isinstance(value, list):
        return [_without(inner) for inner in value]
    return value


def _json(result: Any) -> str:
    """A result's to_json(sort_keys=True), less the --ignore keys."""
    if not IGNORED:
        text: str = result.to_json(sort_keys=True)
        return text
    return json.dumps(_without(result.to_dict()), sort_keys=True)


def _texts(draw: Callable[[random.Random], Iterator[Callable[[], Any]]], rng: random.Random) -> Iterator[str]:
    """Each result's JSON; a random input the engine refuses gives its error line instead (the
    refusals must not change either)."""
    for call in draw(rng):
        try:
            result = call()
        except ValueError as error:  # an InputError
            yield f"{type(error).__name__}: {error}"
            continue
        yield _json(result)


#: Results of each engine whose renderings (Markdown, HTML) are fingerprinted too.
RENDERED = 12

#: Commands whose output is fingerprinted in every format (COLUMNS=100 for the terminal table).
COMMANDS = [
    "run", "run examples/scenario.toml", "run examples/deathburgh/round_scenario.toml",
    "run examples/force_melee/scenario_squads.toml",
    "killteam fight --a-rules 'Brutal, Lethal 5+' --b-abilities 'Storm Shield' --b-strategy parry",
    "killteam fight --method monte_carlo --samples 20000 --seed 3",
    "killteam shoot --rules 'Piercing 1, Lethal 5+' --cover 1 --saves 2-6",
    "killteam shoot --weapon bolt_rifle --target plague_marine --cover 1",
    "killteam advise --dice-a 1c2n --dice-b 0c2n",
    "killteam compare --weapon '4A 3+ 3/4 Lethal 5+' --weapon '4A 3+ 3/4 Piercing 1' --saves 2-6",
    "killteam compare-fights --fighter '4A 3+ 3/4; 12W' --strategies strike,parry --opponent '5A 4+ 4/5; 10W'",
    "killteam profiles", "starcraft profiles", "deathburgh profiles", "force-melee profiles",
    "starcraft attack --weapon quad_k12 --firing-models 2 --unit roach",
    "starcraft attack --attacker marine --unit zergling",
    "starcraft sequence --unit zealot --batch 'c14_rifle firing_models=6' --batch 'quad_k12 firing_models=2'",
    "starcraft compare --weapon c14_rifle --weapon quad_k12 --unit zergling --unit roach --firing-models 4",
    "deathburgh combat --attacker 'Old Fellas Leader' --attacker-charge --reaction dodge",
    "deathburgh round examples/deathburgh/round_scenario.toml",
    "force-melee melee --winner-damage per_hit",
    "force-melee melee-many --side troopers=line_troopers --side walker --engaged troopers:walker",
    "sweep killteam shoot --grid 'hit=3,4 save=2..6 cover=0,1'",
    "sweep starcraft attack --grid 'firing_models=1..3' --unit roach",
    "sweep force-melee melee --grid 'winner_damage=once,excess'",
]
FORMATS = ["table", "json", "csv", "markdown"]


def _digest(texts: Iterator[str]) -> str:
    digest = hashlib.sha256()
    count = refused = 0
    for text in texts:
        digest.update(text.encode())
        count += 1
        refused += not text.startswith(("{", "[", "#", "<", "-"))
    return f"{count} ({refused} refused) {digest.hexdigest()}"


def _renderings(draw: Callable[[random.Random], Iterator[Callable[[], Any]]], rng: random.Random) -> Iterator[str]:
    for number, call in enumerate(draw(rng)):
        if number >= RENDERED:
            return
        try:
            result = call()
        except ValueError as error:
            yield f"{type(error).__name__}: {error}"
            continue
        yield result.to_markdown()
        yield result._repr_html_()


def _command_outputs() -> Iterator[str]:
    import os
    import shlex
    import subprocess

    env = {**os.environ, "COLUMNS": "100"}
    for command in COMMANDS:
        for fmt in FORMATS:
            args = [sys.executable, "-c", "import sys; from mathhammer.cli import main; sys.exit(main())",
                    *shlex.split(command), "--format", fmt]
            done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
            yield f"{command} --format {fmt}\n{done.returncode}\n{done.stdout}\n{done.stderr}"


def fingerprints(commands: bool = False) -> dict[str, str]:
    out = {}
    for name, draw in ENGINES.items():
        out[name] = _digest(_texts(draw, random.Random(name)))
        out[name + " renderings"] = _digest(_renderings(draw, random.Random(name)))
    for name, (draw_many, kinds) in MANY.items():
        for kind in kinds:
            out[f"{name} {kind}"] = _digest(_many_texts(draw_many, random.Random(name), kind))
    if commands:
        out["commands"] = _digest(_command_outputs())
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", help="a JSON file of earlier fingerprints; exit 1 on any difference")
    parser.add_argument("--commands", action="store_true",
                        help="also the output of the CLI commands in COMMANDS, in every format (run from the checkout)")
    parser.add_argument("--dump", help="write each command's output into this folder (to see what differs)")
    parser.add_argument("--ignore", default="", help="keys (comma-separated) left out of every result's JSON")
    args = parser.parse_args()
    IGNORED.update(key for key in args.ignore.split(",") if key)
    if args.dump:
        from pathlib import Path

        folder = Path(args.dump)
        folder.mkdir(parents=True, exist_ok=True)
        for number, text in enumerate(_command_outputs()):
            (folder / f"{number:03d}.txt").write_text(text, encoding="utf-8")
    found = fingerprints(args.commands)
    if args.compare is None:
        print(json.dumps(found, indent=2))
        return 0
    with open(args.compare, encoding="utf-8") as handle:
        before = json.load(handle)
    differ = [name for name in sorted(set(before) | set(found)) if before.get(name) != found.get(name)]
    for name in sorted(found):
        print(f"{'DIFFERS' if name in differ else 'same   '} {name}: {found[name]}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

"""A plain, slow, independent transcription of the fight resolution of docs/rules/killteam.md §3.

Written for the tests only: no caching, no packing, copies of fighter objects everywhere, the
decision rules read straight off the spec. Decisions and lookaheads never roll Feel No Pain or
Saintly Relics (`do`, `play_out`, `choose`); the real line of play does, and `round_outcomes`
expands every such roll as a chance branch with its probability (exact, by enumeration).
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field


@dataclass
class Guy:
    crits: int
    norms: int
    wounds: int
    dn: int = 3
    dc: int = 4
    strategy: str = "max_damage"
    abilities: frozenset = field(default_factory=frozenset)  # ability / rule names, see below
    struck: bool = False
    crit_struck: bool = False
    scratch_used: bool = False
    feel_no_pain: int = 0  # x of Feel No Pain x+, 0 without
    relics: int = 0  # Saintly Relics dice (1 or 2), 0 without
    relic_used_round: bool = False  # an ignore spent this round
    relic_uses: int = 0  # ignores spent this fight (at most RELIC_IGNORES_PER_FIGHT)
    reduce_normal: int = 0  # x of Reduce Normal Dmg x+ (on the defender), 0 without
    reduce_all: int = 0  # x of Reduce Dmg x+, 0 without

    def has(self, name: str) -> bool:
        return name in self.abilities

    def successes(self) -> int:
        return self.crits + self.norms


# names: "brutal", "shock", "storm_shield", "dueller", "duelist", "hammerhand", "jas",
# "jas_normals", "half_damage", "durable", "murderous_entrance", "crits_as_normal"


RELIC_IGNORES_PER_FIGHT = 2


def base_damage(me: Guy, enemy: Guy, crit: bool) -> int:
    """The Dmg stat a strike of `me` inflicts on `enemy` (docs/rules/killteam.md §2.3): a crit as a
    norm under Crits as Normal Dmg, then 1 off for each reduction whose x the stat reaches."""
    as_normal = not crit or enemy.has("crits_as_normal")
    stat = me.dn if as_normal else me.dc
    dmg = stat
    if as_normal and enemy.reduce_normal and stat >= enemy.reduce_normal:
        dmg -= 1
    if enemy.reduce_all and stat >= enemy.reduce_all:
        dmg -= 1
    return max(0, dmg)


def strike_damage(me: Guy, enemy: Guy, crit: bool) -> int:
    """Spend one die on a strike: its damage after every deterministic modifier (not yet dealt)."""
    dmg = base_damage(me, enemy, crit)
    if not me.struck:
        if me.has("hammerhand"):
            dmg += 1
        if enemy.has("jas"):
            dmg = 0
        elif enemy.has("half_damage"):
            dmg = max(2, -(-dmg // 2))
    if crit and not me.crit_struck and enemy.has("durable") and dmg > 3:
        dmg -= 1
    if not crit and enemy.has("jas_normals") and not enemy.scratch_used and dmg > 0:
        dmg = 0
        enemy.scratch_used = True
    me.struck = True
    if crit:
        me.crits -= 1
    else:
        me.norms -= 1
    return dmg


def strike_one(me: Guy, enemy: Guy, crit: bool, log: list | None, side: str, kind: str) -> None:
    """A strike as the lookaheads see it: Feel No Pain and relics never trigger."""
    dmg = strike_damage(me, enemy, crit)
    enemy.wounds = max(0, enemy.wounds - dmg)
    if log is not None:
        log.append((side, kind, dmg))


def do(choice: str, me: Guy, enemy: Guy, log: list | None = None, side: str = "?") -> None:
    if choice == "crit_strike":
        strike_one(me, enemy, True, log, side, "crit_strike")
        first_crit = not me.crit_struck
        me.crit_struck = True
        if first_crit and me.has("shock"):
            if enemy.norms > 0:
                enemy.norms -= 1
            elif enemy.crits > 0:
                enemy.crits -= 1
        if first_crit and me.has("murderous_entrance") and me.successes() > 0 and enemy.wounds > 0:
            strike_one(me, enemy, me.crits > 0, log, side, "murderous_entrance_strike")
    elif choice == "norm_strike":
        strike_one(me, enemy, False, log, side, "norm_strike")
    elif choice == "crit_parry":
        me.crits -= 1
        if me.has("dueller"):
            if enemy.crits > 0:
                enemy.crits -= 1
                enemy.norms = max(0, enemy.norms - 1)
            else:
                enemy.norms = max(0, enemy.norms - 2)
        else:
            for _ in range(2 if me.has("storm_shield") else 1):
                if enemy.crits > 0:
                    enemy.crits -= 1
                elif enemy.norms > 0:
                    enemy.norms -= 1
        if log is not None:
            log.append((side, "crit_parry", None))
    elif choice == "norm_parry":
        assert not enemy.has("brutal")
        me.norms -= 1
        enemy.norms = max(0, enemy.norms - (2 if me.has("storm_shield") else 1))
        if log is not None:
            log.append((side, "norm_parry", None))
    else:
        raise AssertionError(choice)


def play_out(first: Guy, second: Guy) -> None:
    """The alternation from here, `first` to move (no Duelist: that happens only before it)."""
    cur, nxt = first, second
    while cur.successes() + nxt.successes() > 0 and cur.wounds > 0 and nxt.wounds > 0:
        if cur.successes() > 0:
            do(choose(cur, nxt), cur, nxt)
        cur, nxt = nxt, cur


def wise_parry(me: Guy, enemy: Guy) -> str:
    if enemy.crits > 0 and me.crits > 0:
        return "crit_parry"
    if me.norms > 0 and enemy.norms > 0 and not enemy.has("brutal"):
        return "norm_parry"
    if me.crits > 0:
        return "crit_parry"
    return "norm_strike"


def crit_first(me: Guy) -> str:
    return "crit_strike" if me.crits > 0 else "norm_strike"


def preferred_strike(me: Guy, enemy: Guy) -> str:
    if not (me.crits > 0 and me.norms > 0 and enemy.crits == 0):
        return crit_first(me)
    results = {}
    for choice in ("crit_strike", "norm_strike"):
        m, e = copy.deepcopy(me), copy.deepcopy(enemy)
        do(choice, m, e)
        play_out(e, m)
        results[choice] = (m.wounds, e.wounds)
    if me.strategy == "min_damage":
        better = results["norm_strike"][0] > results["crit_strike"][0]
    else:
        better = results["norm_strike"][1] < results["crit_strike"][1]
    return "norm_strike" if better else "crit_strike"


def choose(me: Guy, enemy: Guy) -> str:
    def strike_in_order() -> str:
        return crit_first(me) if me.strategy == "parry" else preferred_strike(me, enemy)

    # 1
    if enemy.successes() == 0:
        return strike_in_order()
    # 2
    m, e = copy.deepcopy(me), copy.deepcopy(enemy)
    do(crit_first(me), m, e)
    if e.wounds == 0:
        return crit_first(me)
    if enemy.has("brutal") and me.crits == 0:
        return crit_first(me)
    # 3
    if me.has("shock") and not me.crit_struck and me.crits > 0 and enemy.crits == 0:
        return strike_in_order()
    # 4
    parry = None
    if not (enemy.has("brutal") and me.crits == 0):
        per_parry = 2 if me.has("storm_shield") else 1
        if me.has("dueller") and me.crits > 0 and enemy.crits <= 1 and enemy.successes() <= 2:
            parry = "crit_parry"
        elif enemy.successes() <= per_parry:
            if enemy.crits > 0:
                parry = "crit_parry" if me.crits > 0 else None
            elif me.norms > 0 and not enemy.has("brutal"):
                parry = "norm_parry"
            else:
                parry = "crit_parry"
    if parry is not None:
        m, e = copy.deepcopy(me), copy.deepcopy(enemy)
        do(parry, m, e)
        while m.successes() > 0 and e.wounds > 0:
            do(crit_first(m), m, e)
        if e.wounds == 0:
            return parry
    # 5
    if me.strategy == "strike":
        return preferred_strike(me, enemy)
    if me.strategy == "parry":
        return wise_parry(me, enemy)
    strike = preferred_strike(me, enemy)
    careful = wise_parry(me, enemy)
    lines = {}
    for name, choice in (("strike", strike), ("parry", careful)):
        m, e = copy.deepcopy(me), copy.deepcopy(enemy)
        e.strategy = "strike"
        do(choice, m, e)
        play_out(e, m)
        lines[name] = (m.wounds, e.wounds)
    if me.strategy == "max_damage":
        want_strike = lines["strike"][1] <= lines["parry"][1]
    else:
        want_strike = lines["strike"][0] >= lines["parry"][0]
    return strike if want_strike else careful


def duelist(me: Guy, enemy: Guy, log: list, side: str) -> None:
    if not me.has("duelist") or me.successes() == 0 or enemy.successes() == 0:
        return
    choice = wise_parry(me, enemy)
    if choice in ("crit_parry", "norm_parry"):
        do(choice, me, enemy, log, side)
        log[-1] = (side, "duelist_" + choice, None)


def resolve_round(a: Guy, b: Guy, first: str = "a") -> tuple[int, int, list]:
    """One round from these dice; returns (wounds A, wounds B, log of (side, kind, damage))."""
    a, b = copy.deepcopy(a), copy.deepcopy(b)
    guys = {"a": a, "b": b}
    other = {"a": "b", "b": "a"}
    log: list = []
    duelist(guys[first], guys[other[first]], log, first)
    duelist(guys[other[first]], guys[first], log, other[first])
    side = first
    while a.successes() + b.successes() > 0 and a.wounds > 0 and b.wounds > 0:
        me, enemy = guys[side], guys[other[side]]
        if me.successes() > 0:
            do(choose(me, enemy), me, enemy, log, side)
        else:
            log.append((side, "pass", None))
        side = other[side]
    return a.wounds, b.wounds, log


# ----------------------------------------------------------------------------------------------
# The real line of play with Feel No Pain and Saintly Relics as chance branches.


def relic_chance(dice: int) -> float:
    """P(at least one 6) on the relic dice, counted over every face."""
    rolls = [r for r in itertools.product(range(1, 7), repeat=dice)]
    return sum(6 in r for r in rolls) / len(rolls)


def fnp_chance(x: int) -> float:
    return sum(face >= x for face in range(1, 7)) / 6


def largest_pending(me: Guy, enemy: Guy) -> int:
    """The largest strike the attacker still holds (its weapon's damage), a norm the defender's
    unspent Just a Scratch (normals) would cancel not counted."""
    norms = me.norms - (1 if me.norms > 0 and enemy.has("jas_normals") and not enemy.scratch_used else 0)
    return max(base_damage(me, enemy, True) if me.crits > 0 else 0, base_damage(me, enemy, False) if norms > 0 else 0)


def strike_branches(me: Guy, enemy: Guy, crit: bool) -> list[tuple[float, Guy, Guy]]:
    """Every outcome of one real strike: the relic try (only on a strike at least as large as any
    the attacker still holds; one ignore a round, two a fight), then Feel No Pain on what is left."""
    me, enemy = copy.deepcopy(me), copy.deepcopy(enemy)
    dmg = strike_damage(me, enemy, crit)
    cases: list[tuple[float, int, bool]] = []  # (probability, damage, relic spent)
    if (dmg > 0 and enemy.relics and not enemy.relic_used_round and enemy.relic_uses < RELIC_IGNORES_PER_FIGHT
            and dmg >= largest_pending(me, enemy)):
        q = relic_chance(enemy.relics)
        cases += [(q, 0, True), (1 - q, dmg, False)]
    else:
        cases.append((1.0, dmg, False))
    out = []
    for p, d, relic in cases:
        rolls = [(p, d)]
        if d > 0 and enemy.feel_no_pain:
            f = fnp_chance(enemy.feel_no_pain)
            rolls = [(p * f, d - 1), (p * (1 - f), d)]
        for pr, final in rolls:
            m, e = copy.deepcopy(me), copy.deepcopy(enemy)
            if relic:
                e.relic_used_round = True
                e.relic_uses += 1
            e.wounds = max(0, e.wounds - final)
            out.append((pr, m, e))
    return out


def do_branches(choice: str, me: Guy, enemy: Guy) -> list[tuple[float, Guy, Guy]]:
    """Every outcome of one real action (a parry has one; a strike rolls what it must)."""
    if choice in ("crit_parry", "norm_parry"):
        m, e = copy.deepcopy(me), copy.deepcopy(enemy)
        do(choice, m, e)
        return [(1.0, m, e)]
    if choice == "norm_strike":
        return strike_branches(me, enemy, False)
    out = []
    for p, m, e in strike_branches(me, enemy, True):
        first_crit = not m.crit_struck
        m.crit_struck = True
        if first_crit and m.has("shock"):
            if e.norms > 0:
                e.norms -= 1
            elif e.crits > 0:
                e.crits -= 1
        if first_crit and m.has("murderous_entrance") and m.successes() > 0 and e.wounds > 0:
            out += [(p * q, m2, e2) for q, m2, e2 in strike_branches(m, e, m.crits > 0)]
        else:
            out.append((p, m, e))
    return out


def round_outcomes(a: Guy, b: Guy, first: str = "a") -> dict[tuple[int, int, int, int], float]:
    """P(wounds A, wounds B, relic uses A, relic uses B) at the end of one round from these dice."""
    a, b = copy.deepcopy(a), copy.deepcopy(b)
    a.relic_used_round = b.relic_used_round = False
    guys = {"a": a, "b": b}
    other = {"a": "b", "b": "a"}
    duelist(guys[first], guys[other[first]], [], first)
    duelist(guys[other[first]], guys[first], [], other[first])
    out: dict[tuple[int, int, int, int], float] = {}

    def walk(side: str, a: Guy, b: Guy, p: float) -> None:
        while a.successes() + b.successes() > 0 and a.wounds > 0 and b.wounds > 0:
            guys = {"a": a, "b": b}
            me, enemy = guys[side], guys[other[side]]
            if me.successes() > 0:
                for q, m, e in do_branches(choose(me, enemy), me, enemy):
                    na, nb = (m, e) if side == "a" else (e, m)
                    walk(other[side], na, nb, p * q)
                return
            side = other[side]
        key = (a.wounds, b.wounds, a.relic_uses, b.relic_uses)
        out[key] = out.get(key, 0.0) + p

    walk(first, a, b, 1.0)
    return out

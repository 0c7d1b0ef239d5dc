"""Kill Team optimal play at the table (docs/rules/killteam.md §7): the value of every move from fixed dice.

>>> from mathhammer import killteam as kt
>>> a = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12, strategy="optimal")
>>> advice = kt.advise(a, kt.Fighter(attacks=4, hit=3, strategy="strike"), (1, 1), (1, 1))
>>> advice.mover, advice.best
('a', 'crit_strike')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from mathhammer import _core
from mathhammer.killteam.fighting import round_inputs
from mathhammer.killteam.plan import check_optimal_pair, fight_spec
from mathhammer.killteam.profiles import Fighter
from mathhammer.killteam.results import SIDES, Advice, MoveValue
from mathhammer.killteam.variants import Variants

__all__ = ["MOVES", "Advice", "MoveValue", "advise", "objective_value"]

_kt = _core.killteam


#: The moves in tie-break order (the first of equal value is played).
MOVES: tuple[str, ...] = ("crit_strike", "norm_strike", "crit_parry", "norm_parry")


def objective_value(objective: str, dead: tuple[float, float], lost: tuple[float, float], side: int) -> tuple[float, ...]:
    """An objective's tuple from fighter ``side``'s point of view (0 = A, 1 = B), docs/rules/killteam.md §7.

    ``dead`` holds both fighters' death chances, ``lost`` their expected wounds lost this fight.
    """
    e = 1 - side
    deaths = dead[e] - dead[side]
    trade = lost[e] - lost[side]
    if objective == "trade":
        return (deaths, trade)
    if objective == "net":
        return (trade, deaths)
    if objective == "kill":
        return (dead[e], -lost[side], lost[e])
    return (-dead[side], trade)  # survive


def advise(
    a: Fighter | str,
    b: Fighter | str,
    dice_a: tuple[int, int],
    dice_b: tuple[int, int],
    first: str = "a",
    wounds_a: int | None = None,
    wounds_b: int | None = None,
    *,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> Advice:
    """For the fighter to move with these retained dice ``(crits, norms)``: every legal move's value.

    One round from fixed dice (``wounds_a`` / ``wounds_b`` override the starting wounds). The
    fighter to move is valued as optimal with its objective ("trade" if it is a heuristic fighter)
    and keeps playing optimally; the enemy plays its own strategy. Expected outcomes cover Feel No
    Pain / Saintly Relics rolls exactly. ``variants``: Kill Team's rule switches (``kt.Variants``).
    """
    a, b, da, db, first, wa, wb, rule_variants = round_inputs(a, b, dice_a, dice_b, first, wounds_a, wounds_b,
                                                              variants)
    spec = fight_spec(a, b, first, wa, wb, rule_variants)
    mover, moves, heuristic = _kt.advise(spec, da[0], da[1], db[0], db[1])
    objective = None
    values: list[MoveValue] = []
    if mover is not None:
        side = SIDES.index(mover)
        fighters = [a, b]
        me = fighters[side]
        objective = me.objective or "trade"
        # The mover plays optimally: with an optimal enemy the two objectives must make a zero-sum game.
        fighters[side] = dataclasses.replace(me, strategy="optimal", objective=objective)
        check_optimal_pair(fighters[0], fighters[1])
        for move, dead_a, dead_b, lost_a, lost_b, best in moves:
            values.append(MoveValue(
                move=str(move),
                value=objective_value(objective, (dead_a, dead_b), (lost_a, lost_b), side),
                wounds_a=wa - lost_a,
                wounds_b=wb - lost_b,
                death_chance_a=dead_a,
                death_chance_b=dead_b,
                best=bool(best),
            ))
    best_move = next((m.move for m in values if m.best), None)
    return Advice(
        mover=None if mover is None else str(mover),
        objective=objective,
        moves=tuple(values),
        best=best_move,
        heuristic={k: str(v) for k, v in heuristic.items()},
        dice_a=da,
        dice_b=db,
        start_wounds=(wa, wb),
        variants=rule_variants,
        first=first,
    )

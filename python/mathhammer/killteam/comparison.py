"""Kill Team comparison matrices: guns against every save, fighters against every opponent.

``kt.compare([gun_a, gun_b])`` shoots each gun at each save (2+..6+ by default) and tabulates the
mean damage and P(damage >= w) for w = 1..25, then the differences first minus second: the table
players read off a damage calculator. ``kt.compare_fights(fighters, opponents)`` fights each
fighter against each opponent and tabulates kill and death chances and the wounds left.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


from mathhammer.core.checks import check_int
from mathhammer.core.options import DEFAULT_SAMPLES, engine_options
from mathhammer.core.results import comparison_run
from mathhammer.core.sampling import cell_seed
from mathhammer.core.guard import excerpt, text_labels
from mathhammer.core.profiles import field_inside, profile_from_table
from mathhammer.errors import InputError, InputTypeError
from mathhammer.killteam.fighting import fight
from mathhammer.killteam.profiles import Fighter, Operative, Weapon
from mathhammer.killteam.results import Comparison, FightComparison
from mathhammer.killteam.shooting import shoot
from mathhammer.report.text import unique_labels

__all__ = ["Comparison", "FightComparison", "compare", "compare_fights"]


#: What a situation mapping may hold: kt.shoot's arguments (read from it, so new ones work too) and a label.
_SITUATION_KEYS = (*inspect.signature(shoot).parameters, "label")


_DEFAULT_WOUNDS = 12


def _situation(value: Any, index: int) -> dict[str, Any]:
    if isinstance(value, Weapon):
        return {"weapon": value}
    if isinstance(value, Mapping):
        named = [key for key in value if not isinstance(key, str)]
        if named:
            raise InputTypeError(f"situations[{index}]", f"argument names are strings, got {excerpt(named[0])}")
        unknown = sorted(set(value) - set(_SITUATION_KEYS))
        if unknown:
            raise InputError(f"situations[{index}].{unknown[0]}", f"not an argument of kt.shoot; allowed: "
                             f"{', '.join(_SITUATION_KEYS)}")
        if "weapon" not in value:
            raise InputError(f"situations[{index}].weapon", "missing; a situation names the weapon it shoots")
        return dict(value)
    raise InputTypeError(f"situations[{index}]", f"expected a kt.Weapon or a mapping of kt.shoot arguments, got "
                         f"{type(value).__name__}")


def _situation_label(situation: Mapping[str, Any]) -> str:
    if "label" in situation:
        return str(situation["label"])
    extras = [f"{key} {situation[key]}" for key in ("cover", "rounds") if key in situation]
    extras += ["obscured"] if situation.get("obscured") else []
    return "; ".join([str(situation["weapon"])] + extras)


#: An axis of a comparison holds at most this many values (an endless iterator is refused, not run).
MAX_AXIS = 10_000


def _int_axis(name: str, values: Iterable[int], lo: int, hi: int) -> tuple[int, ...]:
    expected = f"expected integers such as range({lo}, {hi + 1}), got {excerpt(values)}"
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InputTypeError(name, expected)
    try:
        taken = list(itertools.islice(values, MAX_AXIS + 1))
    except TypeError:  # iterable in name only: a 0-d numpy array
        raise InputTypeError(name, expected) from None
    if len(taken) > MAX_AXIS:
        raise InputError(name, f"holds more than {MAX_AXIS:,} values")
    out = tuple(check_int(name, v, lo, hi) for v in taken)
    if not out:
        raise InputError(name, "is empty; give at least one value")
    return out


def _base_target(what: str, value: Any, save: int) -> Operative:
    """The target a situation names (a kt.Operative, or a table of its fields where ``save`` may be
    left out: each save of the comparison replaces it)."""
    if isinstance(value, Mapping):
        value = {"save": save, "wounds": _DEFAULT_WOUNDS, **value}
    try:
        return profile_from_table(Operative, value, what, "kt.")
    except InputError as error:
        raise field_inside(what, error) from None


def compare(
    situations: Sequence[Weapon | Mapping[str, Any]],
    *,
    saves: Iterable[int] = range(2, 7),
    at_least: Iterable[int] = range(1, 26),
    target: Operative | None = None,
    **shoot_options: Any,
) -> Comparison:
    """Each situation shot at each save: mean damage and P(damage >= w) (docs/sweeps.md).

    A situation is a ``kt.Weapon`` or a mapping of ``kt.shoot`` arguments (``weapon``, ``target``,
    ``cover``, ...; ``label`` names its rows). The target is the situation's own, else ``target``,
    else ``kt.Operative(save, wounds=12)``; each of ``saves`` replaces its save. ``shoot_options``
    (cover, rounds, method, ...) apply to every situation that does not set them itself. Cell k (row
    by row) that runs Monte Carlo is seeded ``cell_seed(seed, k)``, ``seed`` drawn when None (a
    situation's own seed in its row), so the same seed gives the same matrix.
    """
    if isinstance(situations, (Weapon, Mapping, str)) or not isinstance(situations, Sequence):
        raise InputTypeError("situations", "expected a list of weapons or of mappings of kt.shoot arguments")
    if not situations:
        raise InputError("situations", "is empty; give at least one weapon")
    unknown = sorted(set(shoot_options) - set(_SITUATION_KEYS))
    if unknown or "weapon" in shoot_options or "label" in shoot_options:
        name = (unknown or [k for k in ("weapon", "label") if k in shoot_options])[0]
        raise InputError(name, "not a shared kt.shoot option; put weapons in situations")
    save_values = _int_axis("saves", saves, 2, 6)
    thresholds = _int_axis("at_least", at_least, 1, 10_000)
    shared = None if target is None else _base_target("target", target, save_values[0])
    parsed = [_situation(s, i) for i, s in enumerate(situations)]
    labels = tuple(unique_labels([_situation_label(s) for s in parsed]))
    seed = engine_options(seed=shoot_options.pop("seed", None)).draw_seed()
    results = []
    for i, situation in enumerate(parsed):
        arguments = {**shoot_options, **situation}
        arguments.pop("label", None)
        own = arguments.pop("target", None)
        base = (_base_target(f"situations[{i}].target", own, save_values[0]) if own is not None else
                shared or Operative(save_values[0], wounds=_DEFAULT_WOUNDS))
        # the comparison's seed rule (docs/results.md "Comparisons"); a situation's own seed stands in
        # for the comparison's in its cells
        row_seed = seed if "seed" not in situation else _situation_seed(i, situation["seed"])
        arguments.pop("seed", None)
        results.append(tuple(
            shoot(target=dataclasses.replace(base, save=save), **arguments,
                  seed=cell_seed(row_seed, i * len(save_values) + j))
            for j, save in enumerate(save_values)))
    cells = tuple(results)
    return Comparison(labels, save_values, thresholds, cells, **comparison_run(cells, seed))


def _situation_seed(index: int, value: Any) -> int:
    try:
        return engine_options(seed=value).draw_seed()
    except InputError as error:
        raise type(error)(f"situations[{index}].seed", str(error).split(": ", 1)[1]) from None


def _fighters(name: str, value: Any) -> tuple[list[str], list[Fighter]]:
    """A list of fighters, or a mapping label -> fighter (strategy variants of one profile, say); a
    fighter may be given as its notation (kt.Fighter.parse)."""
    if isinstance(value, (Fighter, str)):
        value = [value]
    if isinstance(value, Mapping):
        labels, fighters = text_labels(name, value), list(value.values())
    elif isinstance(value, Sequence):
        fighters = list(value)
    else:
        raise InputTypeError(name, f"expected kt.Fighter objects (a list or a mapping of labels), got {excerpt(value)}")
    for i, fighter in enumerate(fighters):
        if isinstance(fighter, str):
            fighters[i] = Fighter.parse(fighter, f"{name}[{i}]")
        elif not isinstance(fighter, Fighter):
            raise InputTypeError(f"{name}[{i}]", f"expected a kt.Fighter or its notation, got {type(fighter).__name__}")
    if not isinstance(value, Mapping):
        labels = [str(f) for f in fighters]
    if not fighters:
        raise InputError(name, "is empty; give at least one fighter")
    return unique_labels(labels), fighters


def compare_fights(
    fighters: Sequence[Fighter | str] | Mapping[str, Fighter | str],
    opponents: Sequence[Fighter | str] | Mapping[str, Fighter | str],
    *,
    first: str = "a",
    rounds: int = 1,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    variants: Any = None,
) -> FightComparison:
    """Each fighter (side A) against each opponent (side B): kill and death chances, mean wounds left.

    ``first`` ("a": the fighter, "b": the opponent), ``rounds``, ``method``, ``samples``,
    ``threads`` and ``variants`` are passed to every ``kt.fight``. Pairing k (row by row) that runs
    Monte Carlo is seeded ``cell_seed(seed, k)``, ``seed`` drawn when None, so the same seed gives the
    same matrix. Give a mapping ``{label: fighter}`` to compare strategy variants of
    one profile under names of your own; a fighter may be given as its notation (``kt.Fighter.parse``).
    """
    options = engine_options(method, samples, seed, threads)
    seed_used = options.draw_seed()
    rows, a_side = _fighters("fighters", fighters)
    columns, b_side = _fighters("opponents", opponents)
    cells = tuple(tuple(fight(a, b, first=first, rounds=rounds, method=options.method, samples=options.samples,
                              seed=cell_seed(seed_used, i * len(b_side) + j), threads=options.threads,
                              variants=variants)
                        for j, b in enumerate(b_side))
                  for i, a in enumerate(a_side))
    return FightComparison(tuple(rows), tuple(columns), cells, **comparison_run(cells, seed_used))

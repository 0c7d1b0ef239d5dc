"""Kill Team comparison matrices: guns against every save, fighters against every opponent.

``kt.compare([gun_a, gun_b])`` shoots each gun at each save (2+..6+ by default) and tabulates the
mean damage and P(damage >= w) for w = 1..25, then the differences first minus second: the table
players read off a damage calculator. ``kt.compare_fights(fighters, opponents)`` fights each
fighter against each opponent and tabulates kill and death chances and the wounds left.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from mathhammer._compare import markdown_table, number, percent, signed_percent, text_table, unique_labels
from mathhammer._guard import excerpt
from mathhammer._validate import InputError, InputTypeError, check_int
from mathhammer.killteam.fight import fight
from mathhammer.killteam.profiles import Fighter, Operative, Weapon
from mathhammer.killteam.shoot import shoot

__all__ = ["Comparison", "FightComparison", "compare", "compare_fights"]

#: What a situation mapping may hold: kt.shoot's arguments (read from it, so new ones work too) and a label.
_SITUATION_KEYS = (*inspect.signature(shoot).parameters, "label")
_DEFAULT_WOUNDS = 12


@dataclasses.dataclass(frozen=True, eq=False)
class Comparison:
    """Mean damage and P(damage >= w) of each situation at each save.

    ``mean[i, j]`` is situation ``i`` against ``saves[j]``; ``at_least[i, j, k]`` is
    P(damage >= ``thresholds[k]``). ``delta_*`` hold situation 0 minus situation 1 (None with one
    situation). ``results[i][j]`` are the ``kt.ShootResult`` behind each cell.
    """

    labels: tuple[str, ...]
    saves: tuple[int, ...]
    thresholds: tuple[int, ...]
    mean: np.ndarray
    at_least: np.ndarray
    results: tuple[tuple[Any, ...], ...]

    @property
    def delta_mean(self) -> np.ndarray | None:
        return self.mean[0] - self.mean[1] if len(self.labels) >= 2 else None

    @property
    def delta_at_least(self) -> np.ndarray | None:
        return self.at_least[0] - self.at_least[1] if len(self.labels) >= 2 else None

    def _blocks(self) -> list[tuple[str, list[str], list[list[str]]]]:
        header = ["save", "mean"] + [f">={w}" for w in self.thresholds]
        blocks = []
        for i, label in enumerate(self.labels):
            rows = [[f"{save}+", number(float(self.mean[i, j]))] + [percent(float(p)) for p in self.at_least[i, j]]
                    for j, save in enumerate(self.saves)]
            blocks.append((label, header, rows))
        if self.delta_mean is not None and self.delta_at_least is not None:
            rows = [[f"{save}+", f"{float(self.delta_mean[j]):+.2f}"]
                    + [signed_percent(float(p)) for p in self.delta_at_least[j]] for j, save in enumerate(self.saves)]
            blocks.append((f"{self.labels[0]} minus {self.labels[1]}", header, rows))
        return blocks

    def to_frame(self) -> Any:
        """One row per situation and save (then the deltas, situation "A - B"): mean_damage and
        p_at_least_<w> columns."""
        import pandas as pd

        records = []
        names = list(self.labels)
        means, probs = [self.mean[i] for i in range(len(names))], [self.at_least[i] for i in range(len(names))]
        if self.delta_mean is not None and self.delta_at_least is not None:
            names.append(f"{self.labels[0]} - {self.labels[1]}")
            means.append(self.delta_mean)
            probs.append(self.delta_at_least)
        for name, mean, prob in zip(names, means, probs):
            for j, save in enumerate(self.saves):
                record: dict[str, Any] = {"situation": name, "save": save, "mean_damage": float(mean[j])}
                record.update({f"p_at_least_{w}": float(p) for w, p in zip(self.thresholds, prob[j])})
                records.append(record)
        return pd.DataFrame.from_records(records)

    def to_markdown(self) -> str:
        return "\n\n".join(markdown_table(title, header, rows) for title, header, rows in self._blocks())

    def __str__(self) -> str:
        return "\n\n".join(text_table(title, header, rows) for title, header, rows in self._blocks())


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


def _int_axis(name: str, values: Iterable[int], lo: int, hi: int) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InputTypeError(name, f"expected integers such as range({lo}, {hi + 1}), got {values!r}")
    out = tuple(check_int(name, v, lo, hi) for v in values)
    if not out:
        raise InputError(name, "is empty; give at least one value")
    return out


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
    (cover, rounds, method, ...) apply to every situation that does not set them itself.
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
    if target is not None and not isinstance(target, Operative):
        raise InputTypeError("target", f"expected a kt.Operative, got {type(target).__name__}")
    parsed = [_situation(s, i) for i, s in enumerate(situations)]
    labels = tuple(unique_labels([_situation_label(s) for s in parsed]))
    mean = np.zeros((len(parsed), len(save_values)))
    probs = np.zeros((len(parsed), len(save_values), len(thresholds)))
    results = []
    for i, situation in enumerate(parsed):
        arguments = {**shoot_options, **situation}
        arguments.pop("label", None)
        base = arguments.pop("target", None) or target or Operative(save_values[0], wounds=_DEFAULT_WOUNDS)
        row = []
        for j, save in enumerate(save_values):
            result = shoot(target=dataclasses.replace(base, save=save), **arguments)
            mean[i, j] = result.damage.mean
            probs[i, j] = [result.damage.at_least(w) for w in thresholds]
            row.append(result)
        results.append(tuple(row))
    return Comparison(labels, save_values, thresholds, mean, probs, tuple(results))


@dataclasses.dataclass(frozen=True, eq=False)
class FightComparison:
    """Each fighter against each opponent: ``kill[i, j]`` (the opponent dies), ``death[i, j]``
    (the fighter dies), ``wounds[i, j]`` / ``opponent_wounds[i, j]`` (mean wounds left).
    ``results[i][j]`` are the ``kt.FightResult`` behind each cell (the fighter is side A)."""

    fighters: tuple[str, ...]
    opponents: tuple[str, ...]
    kill: np.ndarray
    death: np.ndarray
    wounds: np.ndarray
    opponent_wounds: np.ndarray
    results: tuple[tuple[Any, ...], ...]

    _FIGURES = (("kill", "kill chance", percent), ("death", "death chance", percent),
                ("wounds", "mean wounds left", number), ("opponent_wounds", "opponent's mean wounds left", number))

    def _blocks(self) -> list[tuple[str, list[str], list[list[str]]]]:
        header = ["fighter \\ opponent", *self.opponents]
        blocks = []
        for attribute, title, fmt in self._FIGURES:
            values = getattr(self, attribute)
            rows = [[name] + [fmt(float(v)) for v in values[i]] for i, name in enumerate(self.fighters)]
            blocks.append((title.capitalize(), header, rows))
        return blocks

    def to_frame(self) -> Any:
        """One row per fighter and opponent: kill_chance, death_chance, mean_wounds, mean_opponent_wounds."""
        import pandas as pd

        return pd.DataFrame.from_records([
            {"fighter": f, "opponent": o, "kill_chance": float(self.kill[i, j]),
             "death_chance": float(self.death[i, j]), "mean_wounds": float(self.wounds[i, j]),
             "mean_opponent_wounds": float(self.opponent_wounds[i, j])}
            for i, f in enumerate(self.fighters) for j, o in enumerate(self.opponents)])

    def to_markdown(self) -> str:
        return "\n\n".join(markdown_table(title, header, rows) for title, header, rows in self._blocks())

    def __str__(self) -> str:
        return "\n\n".join(text_table(title, header, rows) for title, header, rows in self._blocks())


def _fighters(name: str, value: Any) -> tuple[list[str], list[Fighter]]:
    """A list of fighters, or a mapping label -> fighter (strategy variants of one profile, say)."""
    if isinstance(value, Fighter):
        value = [value]
    if isinstance(value, Mapping):
        labels, fighters = [str(k) for k in value], list(value.values())
    elif isinstance(value, Sequence) and not isinstance(value, str):
        fighters = list(value)
        labels = [str(f) for f in fighters]
    else:
        raise InputTypeError(name, f"expected kt.Fighter objects (a list or a mapping of labels), got {value!r}")
    for i, fighter in enumerate(fighters):
        if not isinstance(fighter, Fighter):
            raise InputTypeError(f"{name}[{i}]", f"expected a kt.Fighter, got {type(fighter).__name__}")
    if not fighters:
        raise InputError(name, "is empty; give at least one fighter")
    return unique_labels(labels), fighters


def compare_fights(
    fighters: Sequence[Fighter] | Mapping[str, Fighter],
    opponents: Sequence[Fighter] | Mapping[str, Fighter],
    *,
    first: str = "a",
    rounds: int = 1,
    method: str = "auto",
    variants: Any = None,
) -> FightComparison:
    """Each fighter (side A) against each opponent (side B): kill and death chances, mean wounds left.

    ``first`` ("a": the fighter, "b": the opponent), ``rounds``, ``method`` and ``variants`` are
    passed to every ``kt.fight``. Give a mapping ``{label: fighter}`` to compare strategy variants of
    one profile under names of your own.
    """
    rows, a_side = _fighters("fighters", fighters)
    columns, b_side = _fighters("opponents", opponents)
    shape = (len(a_side), len(b_side))
    kill, death, wounds, opponent_wounds = (np.zeros(shape) for _ in range(4))
    results = []
    for i, a in enumerate(a_side):
        row = []
        for j, b in enumerate(b_side):
            result = fight(a, b, first=first, rounds=rounds, method=method, variants=variants)
            kill[i, j] = result.death_chance("b")
            death[i, j] = result.death_chance("a")
            wounds[i, j] = result.wounds_a.mean
            opponent_wounds[i, j] = result.wounds_b.mean
            row.append(result)
        results.append(tuple(row))
    return FightComparison(tuple(rows), tuple(columns), kill, death, wounds, opponent_wounds, tuple(results))

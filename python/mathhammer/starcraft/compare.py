"""StarCraft comparison matrix: each weapon against each unit, one batch each.

``sc.compare([rifle, gauss], [zealots, marines], firing_models=5)`` tabulates the mean damage, the
mean casualties and the chance the unit is destroyed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mathhammer._compare import label_of, markdown_table, number, percent, text_table, unique_labels
from mathhammer._validate import InputError, InputTypeError
from mathhammer.starcraft.engine import attack
from mathhammer.starcraft.profiles import Unit, Weapon

__all__ = ["Comparison", "compare"]


@dataclasses.dataclass(frozen=True, eq=False)
class Comparison:
    """``damage[i, j]``, ``casualties[i, j]``, ``destroyed[i, j]``: weapon ``i`` fired at unit ``j``;
    ``results[i][j]`` are the ``sc.AttackResult`` behind each cell."""

    weapons: tuple[str, ...]
    units: tuple[str, ...]
    damage: np.ndarray
    casualties: np.ndarray
    destroyed: np.ndarray
    results: tuple[tuple[Any, ...], ...]

    _FIGURES = (("damage", "mean damage", number), ("casualties", "mean casualties", number),
                ("destroyed", "destroyed chance", percent))

    def _blocks(self) -> list[tuple[str, list[str], list[list[str]]]]:
        header = ["weapon \\ unit", *self.units]
        return [(title.capitalize(), header,
                 [[name] + [fmt(float(v)) for v in getattr(self, attribute)[i]] for i, name in enumerate(self.weapons)])
                for attribute, title, fmt in self._FIGURES]

    def to_frame(self) -> Any:
        """One row per weapon and unit: mean_damage, mean_casualties, destroyed_chance."""
        import pandas as pd

        return pd.DataFrame.from_records([
            {"weapon": w, "unit": u, "mean_damage": float(self.damage[i, j]),
             "mean_casualties": float(self.casualties[i, j]), "destroyed_chance": float(self.destroyed[i, j])}
            for i, w in enumerate(self.weapons) for j, u in enumerate(self.units)])

    def to_markdown(self) -> str:
        return "\n\n".join(markdown_table(title, header, rows) for title, header, rows in self._blocks())

    def __str__(self) -> str:
        return "\n\n".join(text_table(title, header, rows) for title, header, rows in self._blocks())


def _profiles(name: str, value: Any, kind: type) -> tuple[list[str], list[Any]]:
    if isinstance(value, kind):
        value = [value]
    if isinstance(value, Mapping):
        labels, items = [str(k) for k in value], list(value.values())
    elif isinstance(value, Sequence) and not isinstance(value, str):
        items = list(value)
        labels = [label_of(item) for item in items]
    else:
        raise InputTypeError(name, f"expected sc.{kind.__name__} objects (a list or a mapping of labels), got {value!r}")
    for i, item in enumerate(items):
        if not isinstance(item, kind):
            raise InputTypeError(f"{name}[{i}]", f"expected an sc.{kind.__name__}, got {type(item).__name__}")
    if not items:
        raise InputError(name, f"is empty; give at least one {kind.__name__.lower()}")
    return unique_labels(labels), items


def compare(
    weapons: Sequence[Weapon] | Mapping[str, Weapon],
    units: Sequence[Unit] | Mapping[str, Unit],
    *,
    firing_models: int = 1,
    **attack_options: Any,
) -> Comparison:
    """Each weapon fired by ``firing_models`` models at each unit (``sc.attack``, one batch).

    ``attack_options`` (method, variants, hit_mod, ...) go to every ``sc.attack``. Lists are
    labelled by profile name (else the profile); a mapping ``{label: profile}`` names them yourself.
    """
    rows, weapon_list = _profiles("weapons", weapons, Weapon)
    columns, unit_list = _profiles("units", units, Unit)
    shape = (len(weapon_list), len(unit_list))
    damage, casualties, destroyed = (np.zeros(shape) for _ in range(3))
    results = []
    for i, weapon in enumerate(weapon_list):
        row = []
        for j, unit in enumerate(unit_list):
            result = attack(weapon, unit, firing_models=firing_models, **attack_options)
            figures = result.summary()
            damage[i, j] = figures["mean_damage"]
            casualties[i, j] = figures["mean_casualties"]
            destroyed[i, j] = figures["destroyed_chance"]
            row.append(result)
        results.append(tuple(row))
    return Comparison(tuple(rows), tuple(columns), damage, casualties, destroyed, tuple(results))

"""StarCraft comparison matrix: each weapon against each unit, one batch each.

``sc.compare([rifle, gauss], [zealots, marines], firing_models=5)`` tabulates the mean damage, the
mean casualties and the chance the unit is destroyed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mathhammer.core.options import engine_options
from mathhammer.core.results import comparison_run
from mathhammer.core.sampling import cell_seed
from mathhammer.report.text import label_of, unique_labels
from mathhammer.errors import InputError, InputTypeError
from mathhammer.starcraft.engine import attack
from mathhammer.starcraft.profiles import Unit, Weapon
from mathhammer.starcraft.results import Comparison
from mathhammer.core.guard import excerpt, text_labels

__all__ = ["Comparison", "compare"]


def _profiles(name: str, value: Any, kind: type) -> tuple[list[str], list[Any]]:
    if isinstance(value, kind):
        value = [value]
    if isinstance(value, Mapping):
        labels, items = text_labels(name, value), list(value.values())
    elif isinstance(value, Sequence) and not isinstance(value, str):
        items = list(value)
        labels = [label_of(item) if isinstance(item, kind) else "" for item in items]
    else:
        raise InputTypeError(name, f"expected sc.{kind.__name__} objects (a list or a mapping of labels), got {excerpt(value)}")
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
    Cell k (row by row) that runs Monte Carlo is seeded ``cell_seed(seed, k)``, ``seed`` drawn when
    None, so the same seed gives the same matrix.
    """
    rows, weapon_list = _profiles("weapons", weapons, Weapon)
    columns, unit_list = _profiles("units", units, Unit)
    seed = engine_options(seed=attack_options.pop("seed", None)).draw_seed()
    cells = tuple(tuple(attack(weapon, unit, firing_models=firing_models, **attack_options,
                               seed=cell_seed(seed, i * len(unit_list) + j))
                        for j, unit in enumerate(unit_list))
                  for i, weapon in enumerate(weapon_list))
    return Comparison(tuple(rows), tuple(columns), cells, firing_models, **comparison_run(cells, seed))

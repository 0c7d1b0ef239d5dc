"""Results of StarCraft TMG attacks: one batch (AttackResult), a sequence (SequenceResult), the unit
state after them (StateDistribution), one scripted resolution (Resolution) and one allocation."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np

from mathhammer.core.distributions import Distribution
from mathhammer.core.results import (
    Deferred,
    EngineResult,
    Figure,
    MatrixResult,
    ResultMixin,
    cell_matrix,
    deferred,
    mean_stderr,
    probability_stderr,
)
from mathhammer.errors import InputError
from mathhammer.starcraft.variants import Variants

__all__ = [
    "Allocation", "AttackResult", "BatchSummary", "Comparison", "Resolution", "SequenceResult", "Stages", "StateDistribution",
]


_stderr = probability_stderr


def _frame_rows(named: dict[str, Distribution]) -> Any:
    import pandas as pd

    frames = []
    for name, dist in named.items():
        frame = dist.to_frame("value")
        frame.insert(0, "quantity", name)
        frames.append(frame[frame["p"] > 0])
    return pd.concat(frames, ignore_index=True)


@dataclass(frozen=True)
class StateDistribution(ResultMixin):
    """The unit's state after an attack: each distinct (models left, marker, Shielded, first model alive)
    with its probability ``p`` (rows sorted by models, then marker)."""

    models: np.ndarray
    marker: np.ndarray
    shielded: np.ndarray
    first_model_alive: np.ndarray
    p: np.ndarray
    samples: int | None = None

    @classmethod
    def from_rows(cls, rows: np.ndarray, weights: np.ndarray, samples: int | None = None) -> StateDistribution:
        """rows: (n, 4) integer array (models, marker, shielded, first_model_alive); weights: probabilities."""
        rows = np.asarray(rows, dtype=np.int64).reshape(-1, 4)
        weights = np.asarray(weights, dtype=np.float64)
        keep = weights > 0
        unique, inverse = np.unique(rows[keep], axis=0, return_inverse=True)
        p = np.bincount(inverse.ravel(), weights=weights[keep], minlength=len(unique))
        return cls(unique[:, 0].copy(), unique[:, 1].copy(), unique[:, 2].astype(bool), unique[:, 3].astype(bool), p, samples)

    def __post_init__(self) -> None:
        for name, dtype in (("models", np.int64), ("marker", np.int64), ("shielded", bool), ("first_model_alive", bool), ("p", np.float64)):
            array = np.array(getattr(self, name), dtype=dtype, copy=True)
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    @classmethod
    def _from_payload(cls, data: Any, field: str) -> Any:
        # models and marker are counts, shielded and first_model_alive flags: refuse other numbers
        # before __post_init__ casts them
        if isinstance(data, dict):
            for name, kinds in (("models", (int,)), ("marker", (int,)), ("shielded", (bool, int)),
                                ("first_model_alive", (bool, int))):
                column = data.get(name)
                if isinstance(column, list) and not all(isinstance(v, kinds) and -2**31 < v < 2**31 for v in column):
                    raise InputError(f"{field or 'state'}.{name}", "expected a list of integers")
        return super()._from_payload(data, field)

    def _check_payload(self, field: str) -> None:
        """A loaded payload: one row per state in every column, probabilities >= 0 summing to 1."""
        columns = (self.models, self.marker, self.shielded, self.first_model_alive, self.p)
        if any(c.ndim != 1 or c.size != self.p.size for c in columns) or self.p.size == 0:
            raise InputError(field, "models, marker, shielded, first_model_alive and p need one entry per state")
        if not np.all(np.isfinite(self.p)) or np.any(self.p < 0) or abs(float(self.p.sum()) - 1.0) > 1e-9:
            raise InputError(f"{field}.p", "expected probabilities >= 0 summing to 1")

    def prob(self, models: int | None = None, marker: int | None = None, shielded: bool | None = None) -> float:
        """P(the state matches every given value)."""
        mask = np.ones(self.p.size, dtype=bool)
        if models is not None:
            mask &= self.models == models
        if marker is not None:
            mask &= self.marker == marker
        if shielded is not None:
            mask &= self.shielded == shielded
        return float(self.p[mask].sum())

    def to_frame(self) -> Any:
        import pandas as pd

        return pd.DataFrame({"models": self.models, "marker": self.marker, "shielded": self.shielded,
                             "first_model_alive": self.first_model_alive, "p": self.p})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StateDistribution):
            return NotImplemented
        return self.samples == other.samples and all(
            np.array_equal(getattr(self, n), getattr(other, n)) for n in ("models", "marker", "shielded", "first_model_alive", "p")
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "exact" if self.samples is None else f"samples={self.samples}"
        return f"StateDistribution({self.p.size} states, P(destroyed)={self.prob(models=0):.4g}, {kind})"


@dataclass(frozen=True)
class Stages(ResultMixin):
    """What the dice did, stage by stage (docs/rules/starcraft.md §6).

    dice: Attack Pool size (X in HITS mode); hits: Armour Pool after Precision (H'); surge: the Surge
    result (0 when Surge does not apply); bypass: dice moved by Surge and Critical Hit after Dodge;
    armour_fails: failed Armour dice after Tough; damage_pool: bypass + armour_fails;
    inflicting: damage-pool dice left after Evade.
    """

    dice: int
    hits: Distribution
    surge: Distribution
    bypass: Distribution
    armour_fails: Distribution
    damage_pool: Distribution
    inflicting: Distribution

    def distributions(self) -> dict[str, Distribution]:
        return {name: getattr(self, name) for name in ("hits", "surge", "bypass", "armour_fails", "damage_pool", "inflicting")}

    def to_frame(self) -> Any:
        return _frame_rows(self.distributions())


class _EndStderr(EngineResult):
    """The summary figures of an attack or a sequence, and the standard errors of P(destroyed) and
    P(Shielded lost) (None for exact results); the results that use it declare the fields."""

    destroyed: float
    shield_lost: float
    casualties: Distribution

    def _damage(self) -> Distribution:
        raise NotImplementedError

    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        how = "exact" if self.samples is None else f"Monte Carlo, {self.samples:,} samples"
        return [("casualties", self.casualties)], "casualties", f"{self._scenario()} ({how})"

    def _scenario(self) -> str:
        raise NotImplementedError

    def _figures(self) -> dict[str, Figure]:
        n = self.samples
        damage = self._damage()
        return {
            "mean_damage": (damage.mean, mean_stderr(damage, n)),
            "mean_casualties": (self.casualties.mean, mean_stderr(self.casualties, n)),
            "destroyed_chance": (self.destroyed, probability_stderr(self.destroyed, n)),
            "shielded_lost_chance": (self.shield_lost, probability_stderr(self.shield_lost, n)),
        }

    @property
    def destroyed_stderr(self) -> float | None:
        return _stderr(self.destroyed, self.samples)

    @property
    def shield_lost_stderr(self) -> float | None:
        return _stderr(self.shield_lost, self.samples)


class AttackTables(NamedTuple):
    """One attack's tables as the engine shapes them in C++: ``values`` holds the distributions back to
    back (damage, casualties, marker, then the stages hits, surge, bypass, armour_fails, damage_pool,
    inflicting, then the probability of each state) in segments of ``sizes``; ``states`` the 4 x n
    (models, marker, shielded, first_model_alive) of the distinct states. Read-only once adopted."""

    values: np.ndarray
    sizes: tuple[int, ...]
    states: np.ndarray
    dice: int
    samples: int | None


# AttackResult fields built from AttackTables on first use, and the segment of `values` of each distribution.
_LAZY_DISTRIBUTIONS = {"damage": 0, "casualties": 1, "marker": 2}
_STAGE_SEGMENTS = {"hits": 3, "surge": 4, "bypass": 5, "armour_fails": 6, "damage_pool": 7, "inflicting": 8}
_STATE_SEGMENT = 9


@deferred("damage", "casualties", "marker", "state", "stages", "fired", "options", "inputs")
@dataclass(frozen=True)
class AttackResult(Deferred, _EndStderr):
    """One batch against one unit.

    damage: attack damage (surviving dice x damage per die); casualties: models removed; marker: the
    residual Damage Marker; destroyed / shield_lost: probabilities; state: the unit afterwards;
    stages: the per-stage distributions. method is "exact" or "monte_carlo"; Monte Carlo results carry
    samples (and standard errors in every Distribution). weapon and unit are the profiles' names (else
    their cards); fired says who fired what ("2 models firing C-14 Rifle"), options the batch options
    given that change anything ("dodge 1"), inputs the profiles as lines (and a Surge that does not
    apply), as the printer shows them.
    """

    damage: Distribution
    casualties: Distribution
    marker: Distribution
    destroyed: float
    shield_lost: float
    state: StateDistribution
    stages: Stages
    damage_per_die: int
    surge_applied: bool
    evade_rolled: bool
    reaction_ignored: bool
    method: str
    samples: int | None = None
    seed: int | None = None
    variants: Variants = Variants()
    weapon: str = ""
    unit: str = ""
    fired: str = ""
    options: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()

    @classmethod
    def _lazy(cls, tables: AttackTables, labels: Mapping[str, Callable[[], Any]], **fields: Any) -> AttackResult:
        """A result whose damage, casualties, marker, state and stages are built from ``tables`` when
        first read, each on its own, and ``fired``, ``options`` and ``inputs`` by ``labels[name]()``
        (the engine's per-call path; ``fields`` are every other field). It is equal to, and prints,
        saves and loads as, the result built with every field given."""
        tables.values.setflags(write=False)

        def state() -> StateDistribution:
            s = tables.states
            return StateDistribution(s[0], s[1], s[2].astype(bool), s[3].astype(bool),
                                     _segment(tables, _STATE_SEGMENT).pmf, tables.samples)

        compute: dict[str, Any] = {name: functools.partial(_segment, tables, index)
                                   for name, index in _LAZY_DISTRIBUTIONS.items()}
        compute["stages"] = lambda: Stages(tables.dice, **{stage: _segment(tables, i)
                                                           for stage, i in _STAGE_SEGMENTS.items()})
        compute["state"] = state
        compute.update(labels)
        return cls._pending_result(fields, compute)

    def _damage(self) -> Distribution:
        return self.damage

    def _scenario(self) -> str:
        return f"StarCraft attack: {self.weapon or 'hits'} at {self.unit or 'the unit'}"

    def to_frame(self) -> Any:
        """Long format: quantity (damage, casualties, marker, then each stage), value, p, P(>=)."""
        named = {"damage": self.damage, "casualties": self.casualties, "marker": self.marker}
        named.update(self.stages.distributions())
        return _frame_rows(named)


def _segment(tables: AttackTables, index: int) -> Distribution:
    start = sum(tables.sizes[:index])
    return Distribution._adopt(tables.values[start: start + tables.sizes[index]], samples=tables.samples)


@dataclass(frozen=True)
class BatchSummary(ResultMixin):
    """One batch of a sequence: its damage (0 once the unit is destroyed), casualties, the marker after
    it, P(unit destroyed after it) and P(Shielded lost in it); ``label`` names it ("1: C-14 Rifle x6")."""

    damage: Distribution
    casualties: Distribution
    marker: Distribution
    destroyed: float
    shield_lost: float
    reaction_ignored: bool
    label: str = ""

    def to_frame(self) -> Any:
        return _frame_rows({"damage": self.damage, "casualties": self.casualties, "marker": self.marker})


@dataclass(frozen=True)
class SequenceResult(_EndStderr):
    """Several batches against one unit, the state carried between them.

    total_damage: attack damage of every batch; casualties: models removed in all; marker: the final
    Damage Marker; destroyed / shield_lost: probabilities at the end; state: the final unit state;
    batches: per-batch marginals. unit is the unit's name (else its card), inputs its card as a line.
    """

    total_damage: Distribution
    casualties: Distribution
    marker: Distribution
    destroyed: float
    shield_lost: float
    state: StateDistribution
    batches: tuple[BatchSummary, ...]
    method: str
    samples: int | None = None
    seed: int | None = None
    variants: Variants = Variants()
    unit: str = ""
    inputs: tuple[str, ...] = ()

    def _damage(self) -> Distribution:
        return self.total_damage

    def _scenario(self) -> str:
        return f"StarCraft sequence: {len(self.batches)} batches at {self.unit or 'the unit'}"

    def to_frame(self) -> Any:
        """Long format: quantity (total_damage, casualties, marker), value, p, P(>=)."""
        return _frame_rows({"total_damage": self.total_damage, "casualties": self.casualties, "marker": self.marker})


@dataclass(frozen=True)
class Allocation(ResultMixin):
    """sc.rules.allocate: the unit after Total Damage is allocated."""

    casualties: int
    models: int
    marker: int
    shielded: bool
    first_model_alive: bool
    destroyed: bool
    shield_lost: bool

    def to_frame(self) -> Any:
        import pandas as pd

        return pd.DataFrame([self.to_dict()])


@dataclass(frozen=True)
class Resolution(ResultMixin):
    """sc.resolve: one batch on scripted dice, every stage as a plain integer."""

    dice: int
    hits: int
    surge: int
    bypass: int
    armour_fails: int
    damage_pool: int
    evaded: int
    inflicting: int
    damage: int
    casualties: int
    models: int
    marker: int
    shielded: bool
    first_model_alive: bool
    destroyed: bool
    shield_lost: bool
    faces_used: int

    def to_frame(self) -> Any:
        import pandas as pd

        return pd.DataFrame([self.to_dict()])


@dataclass(frozen=True)
class Comparison(MatrixResult):
    """Each weapon fired by ``firing_models`` models at each unit (``sc.compare``): ``results[i][j]``
    is the ``sc.AttackResult`` of weapon ``weapons[i]`` at unit ``units[j]``, and from them
    ``damage[i, j]``, ``casualties[i, j]`` (means) and ``destroyed[i, j]`` (P(unit destroyed)).
    ``method``, ``samples``, ``seed`` and ``variants`` say how the cells were computed
    (docs/results.md "Comparisons")."""

    weapons: tuple[str, ...]
    units: tuple[str, ...]
    results: tuple[tuple[AttackResult, ...], ...]
    firing_models: int = 1
    method: str = "exact"
    samples: int | None = None
    seed: int | None = None
    variants: Variants = Variants()

    EXTREMES = {"mean_damage": "mean_damage", "destroyed_chance": "destroyed_chance"}

    def _shape(self) -> tuple[int, int]:
        return len(self.weapons), len(self.units)

    @functools.cached_property
    def damage(self) -> np.ndarray:
        """Mean damage, a row per weapon and a column per unit."""
        return cell_matrix(self.results, lambda cell: cell.summary()["mean_damage"])

    @functools.cached_property
    def casualties(self) -> np.ndarray:
        """Mean casualties."""
        return cell_matrix(self.results, lambda cell: cell.summary()["mean_casualties"])

    @functools.cached_property
    def destroyed(self) -> np.ndarray:
        """P(the unit is destroyed)."""
        return cell_matrix(self.results, lambda cell: cell.summary()["destroyed_chance"])

    def to_frame(self) -> Any:
        """One row per weapon and unit: mean_damage, mean_casualties, destroyed_chance."""
        import pandas as pd

        return pd.DataFrame.from_records([
            {"weapon": w, "unit": u, "mean_damage": float(self.damage[i, j]),
             "mean_casualties": float(self.casualties[i, j]), "destroyed_chance": float(self.destroyed[i, j])}
            for i, w in enumerate(self.weapons) for j, u in enumerate(self.units)])

"""Force melee results: one exchange (MeleeResult), several units (MeleeManyResult) and allocation.

Every result is a frozen dataclass of numpy-backed Distribution / JointDistribution fields. Exact
results have ``samples is None``; Monte Carlo ones carry ``samples``, ``seed`` and standard errors
(``Distribution.stderr``, and ``stderr_of(p)`` for the single probabilities).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mathhammer.core.results import Deferred, deferred
from mathhammer.core.checks import check_choice
from mathhammer.errors import InputError
from mathhammer.force_melee.variants import Variants
from mathhammer.core.distributions import Distribution, JointDistribution
from mathhammer.core.results import EngineResult, Figure, ResultMixin, mean_stderr, probability_stderr
from mathhammer.core.guard import excerpt

__all__ = ["AllocationResult", "MeleeManyResult", "MeleeResult", "PairResult", "UnitResult"]


_stderr = probability_stderr


def _frame_rows(rows: list[dict[str, Any]], label: dict[str, Any], quantity: str, dist: Distribution) -> None:
    stderr = dist.stderr
    for i, value in enumerate(dist.values):
        p = float(dist.pmf[i])
        if p == 0.0:
            continue
        row = {**label, "quantity": quantity, "value": int(value), "p": p}
        if stderr is not None:
            row["stderr"] = float(stderr[i])
        rows.append(row)


@dataclass(frozen=True)
class AllocationResult(ResultMixin):
    """What a lump of damage did to a unit: models removed, HP of the survivors (wounded first,
    then the owner's order) and the damage that found no model to take it."""

    casualties: int
    current: tuple[int, ...]
    lost: int

    def to_frame(self) -> Any:
        """One row per model left, in allocation order: its HP now (casualties and lost damage repeated)."""
        import pandas as pd

        rows: list[dict[str, int | None]] = [{"model": k, "hp": hp} for k, hp in enumerate(self.current)]
        rows = rows or [{"model": None, "hp": 0}]
        frame = pd.DataFrame(rows)
        frame["casualties"] = self.casualties
        frame["lost"] = self.lost
        return frame


@deferred(
    "joint", "damage_a", "damage_b", "hits_joint", "hits_a", "hits_b", "p_a_more", "p_tie", "p_b_more",
    "casualties_joint", "casualties_a", "casualties_b", "remaining_a", "remaining_b", "sides",
)
@dataclass(frozen=True)
class MeleeResult(Deferred, EngineResult):
    """The outcome of one exchange between side A and side B.

    joint: (damage to A, damage to B); damage_a / damage_b its marginals (P(a side is damaged) is
    ``damage_a.at_least(1)``). hits_joint / hits_a / hits_b: the hits compared in step 2 (Sustained
    extra hits included). p_a_more / p_tie / p_b_more: who had more hits. casualties_a / casualties_b
    and casualties_joint: models removed. remaining_a[k]: HP left on the k-th model in allocation
    order (wounded models first, then the owner's order; 0 = removed). ``wiped("a")``: P(destroyed).
    ``names`` names the sides; ``sides`` describes them as the heading does ("Line Trooper squad (5x1
    HP, 3 dice at 4+, Force 4)").
    """

    method: str
    samples: int | None
    seed: int | None
    names: tuple[str, str]
    models_a: int
    models_b: int
    joint: JointDistribution
    damage_a: Distribution
    damage_b: Distribution
    hits_joint: JointDistribution
    hits_a: Distribution
    hits_b: Distribution
    p_a_more: float
    p_tie: float
    p_b_more: float
    casualties_joint: JointDistribution
    casualties_a: Distribution
    casualties_b: Distribution
    remaining_a: tuple[Distribution, ...]
    remaining_b: tuple[Distribution, ...]
    variants: Variants = Variants()
    sides: tuple[str, str] = ("", "")

    def wiped(self, side: str) -> float:
        """P(every model of side "a" or "b" is removed)."""
        side = check_choice("side", side, ("a", "b"))
        return self.casualties_a.prob(self.models_a) if side == "a" else self.casualties_b.prob(self.models_b)

    def stderr_of(self, p: float) -> float | None:
        """Standard error of a Monte Carlo probability p of this result (None when exact)."""
        return _stderr(p, self.samples)

    def _figures(self) -> dict[str, Figure]:
        n = self.samples
        out: dict[str, Figure] = {}
        for side, more, damage, casualties in (
            ("a", self.p_a_more, self.damage_a, self.casualties_a),
            ("b", self.p_b_more, self.damage_b, self.casualties_b),
        ):
            wiped = self.wiped(side)
            out[f"{side}_p_more_hits"] = (more, probability_stderr(more, n))
            out[f"{side}_mean_damage"] = (damage.mean, mean_stderr(damage, n))
            out[f"{side}_p_damaged"] = (damage.at_least(1), probability_stderr(damage.at_least(1), n))
            out[f"{side}_mean_casualties"] = (casualties.mean, mean_stderr(casualties, n))
            out[f"{side}_p_destroyed"] = (wiped, probability_stderr(wiped, n))
        out["p_tie"] = (self.p_tie, probability_stderr(self.p_tie, n))
        return out

    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        return ([(f"A: {self.names[0]}", self.damage_a), (f"B: {self.names[1]}", self.damage_b)], "damage taken",
                self._title())

    def plot_joint(self) -> tuple[JointDistribution, tuple[str, str], str] | None:
        return self.joint, (f"damage to A ({self.names[0]})", f"damage to B ({self.names[1]})"), self._title()

    def _title(self) -> str:
        how = "exact" if self.samples is None else f"Monte Carlo, {self.samples:,} samples"
        return f"Force melee: {self.names[0]} vs {self.names[1]} ({how})"

    def to_frame(self) -> Any:
        """Long format: side, quantity (damage, hits, casualties, remaining[k]), value, p (+ stderr)."""
        import pandas as pd

        rows: list[dict[str, Any]] = []
        for side, damage, hits, casualties, remaining in (
            ("a", self.damage_a, self.hits_a, self.casualties_a, self.remaining_a),
            ("b", self.damage_b, self.hits_b, self.casualties_b, self.remaining_b),
        ):
            label = {"side": side}
            _frame_rows(rows, label, "damage", damage)
            _frame_rows(rows, label, "hits", hits)
            _frame_rows(rows, label, "casualties", casualties)
            for k, dist in enumerate(remaining):
                _frame_rows(rows, label, f"remaining[{k}]", dist)
        return pd.DataFrame(rows)


@dataclass(frozen=True)
class UnitResult(ResultMixin):
    """What a melee of several units did to one unit: total damage taken (all its exchanges),
    casualties, and HP left per model in allocation order (0 = removed)."""

    name: str
    models: int
    damage: Distribution
    casualties: Distribution
    remaining: tuple[Distribution, ...]

    @property
    def wiped(self) -> float:
        """P(every model is removed)."""
        return self.casualties.prob(self.models)

    def to_frame(self) -> Any:
        """Long format: quantity (damage, casualties, remaining[k]), value, p (+ stderr)."""
        import pandas as pd

        rows: list[dict[str, Any]] = []
        label = {"unit": self.name}
        _frame_rows(rows, label, "damage", self.damage)
        _frame_rows(rows, label, "casualties", self.casualties)
        for k, dist in enumerate(self.remaining):
            _frame_rows(rows, label, f"remaining[{k}]", dist)
        return pd.DataFrame(rows)


@dataclass(frozen=True)
class PairResult(ResultMixin):
    """One engaged pair (first, second) of a melee of several units.

    dice: (dice first assigned to second, dice second assigned to first). joint / damage_first /
    damage_second / hits_* / p_*: this exchange alone. casualties_joint: the two units' casualties at
    the end of the whole melee (their other exchanges included).
    """

    first: str
    second: str
    dice: tuple[int, int]
    joint: JointDistribution
    damage_first: Distribution
    damage_second: Distribution
    hits_first: Distribution
    hits_second: Distribution
    p_first_more: float
    p_tie: float
    p_second_more: float
    casualties_joint: JointDistribution

    def to_frame(self) -> Any:
        """Long format: side (first, second), quantity (damage, hits), value, p (+ stderr)."""
        import pandas as pd

        rows: list[dict[str, Any]] = []
        for side, name, damage, hits in (("first", self.first, self.damage_first, self.hits_first),
                                         ("second", self.second, self.damage_second, self.hits_second)):
            label = {"side": side, "unit": name}
            _frame_rows(rows, label, "damage", damage)
            _frame_rows(rows, label, "hits", hits)
        return pd.DataFrame(rows)

    @property
    def skipped(self) -> bool:
        """Neither unit assigned dice to the other: no exchange took place."""
        return self.dice == (0, 0)

    def flipped(self) -> PairResult:
        """The same pair seen from the other unit (first and second swapped)."""
        def swap(joint: JointDistribution) -> JointDistribution:
            return JointDistribution(joint.pmf.T, names=(joint.names[1], joint.names[0]), samples=joint.samples)

        return PairResult(
            first=self.second,
            second=self.first,
            dice=(self.dice[1], self.dice[0]),
            joint=swap(self.joint),
            damage_first=self.damage_second,
            damage_second=self.damage_first,
            hits_first=self.hits_second,
            hits_second=self.hits_first,
            p_first_more=self.p_second_more,
            p_tie=self.p_tie,
            p_second_more=self.p_first_more,
            casualties_joint=swap(self.casualties_joint),
        )


@dataclass(frozen=True)
class MeleeManyResult(EngineResult):
    """A melee of several units: ``units[name]`` (damage, casualties, remaining HP, ``wiped``) and
    ``pairs`` (one PairResult per engaged pair, in the order given)."""

    method: str
    samples: int | None
    seed: int | None
    units: dict[str, UnitResult]
    pairs: tuple[PairResult, ...]
    variants: Variants = Variants()

    def _figures(self) -> dict[str, Figure]:
        # Fixed keys whatever the units are called: totals over every unit (per-unit figures are in
        # ``units``). Sums of correlated estimates: their standard errors are bounded by the sum.
        n = self.samples
        units = list(self.units.values())

        def total(values: list[float], errors: list[float | None]) -> Figure:
            return float(sum(values)), None if n is None else float(sum(e or 0.0 for e in errors))

        return {
            "mean_damage_total": total([u.damage.mean for u in units], [mean_stderr(u.damage, n) for u in units]),
            "mean_casualties_total": total([u.casualties.mean for u in units],
                                           [mean_stderr(u.casualties, n) for u in units]),
            "expected_units_destroyed": total([u.wiped for u in units],
                                              [probability_stderr(u.wiped, n) for u in units]),
        }

    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        how = "exact" if self.samples is None else f"Monte Carlo, {self.samples:,} samples"
        title = f"Force melee of {len(self.units)} units ({how})"
        return [(name, unit.damage) for name, unit in self.units.items()], "damage taken", title

    def wiped(self, name: str) -> float:
        """P(unit ``name`` is destroyed)."""
        return self.unit(name).wiped

    def unit(self, name: str) -> UnitResult:
        """The outcome of unit ``name``."""
        if name not in self.units:
            raise InputError("name", f"unknown unit {excerpt(name)}; units: {', '.join(self.units)}")
        return self.units[name]

    def pair(self, first: str, second: str) -> PairResult:
        """The engaged pair of these two units, seen from ``first`` (whichever order it was listed in)."""
        for pair in self.pairs:
            if (pair.first, pair.second) == (first, second):
                return pair
            if (pair.first, pair.second) == (second, first):
                return pair.flipped()
        known = ", ".join(f"({p.first}, {p.second})" for p in self.pairs)
        raise InputError("pair", f"({first}, {second}) is not an engaged pair; pairs: {known}")

    def stderr_of(self, p: float) -> float | None:
        """Standard error of a Monte Carlo probability p of this result (None when exact)."""
        return _stderr(p, self.samples)

    def to_frame(self) -> Any:
        """Long format: unit, quantity (damage, casualties, remaining[k]), value, p (+ stderr)."""
        import pandas as pd

        return pd.concat([unit.to_frame() for unit in self.units.values()], ignore_index=True)

"""Result types of Deathburgh combats and rounds (docs/rules/deathburgh.md §6, §7)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from mathhammer.core.distributions import index_grids
from mathhammer.core.results import Deferred, deferred
from mathhammer.core.checks import check_choice
from mathhammer.deathburgh.variants import Variants
from mathhammer.core.distributions import Distribution, JointDistribution
from mathhammer.core.results import EngineResult, Figure, mean_stderr, probability_stderr

__all__ = ["CombatResult", "RoundResult"]

WHO = ("defender", "attacker", "both")


@deferred(
    "joint", "wounds_defender", "wounds_attacker", "successes_attacker", "successes_defender", "p_wasted_defender",
    "p_wasted_attacker", "p_wasted_both", "p_counter_wound", "p_tie", "p_attacker_more", "mean_wounds_defender",
    "mean_wounds_attacker", "sides", "profiles",
)
@dataclass(frozen=True)
class CombatResult(Deferred, EngineResult):
    """The outcome of one combat.

    ``joint.pmf[i, j]`` = P(i wounds inflicted on the defender, j on the attacker), not capped by the
    wounds they have; ``wounds_defender`` / ``wounds_attacker`` are its marginals and
    ``successes_attacker`` / ``successes_defender`` the two rolls (a defender that does not react
    scores 0). ``wasted(who)`` = P(wounds ≥ current wounds) for ``"defender"``, ``"attacker"`` or
    ``"both"``. ``p_counter_wound`` = P(the attacker takes ≥ 1 wound), ``p_tie`` = P(equal
    successes) (alpha: the chance of a draw when ``draw="always"``), ``p_attacker_more`` =
    P(attacker scores more). A Monte Carlo result carries ``samples`` and, in ``stderr``, the
    standard error of each figure of ``summary()``. ``sides`` names both sides as the heading does
    ("Old Fellas Leader (aggressive, charge)"), ``profiles`` gives their profiles as the summary lines
    do, and ``stand_and_shoot`` says whether a charged ranged defender shot back.
    """

    joint: JointDistribution
    wounds_defender: Distribution
    wounds_attacker: Distribution
    successes_attacker: Distribution
    successes_defender: Distribution
    defender_wounds: int
    attacker_wounds: int
    p_wasted_defender: float
    p_wasted_attacker: float
    p_wasted_both: float
    p_counter_wound: float
    p_tie: float
    p_attacker_more: float
    mean_wounds_defender: float
    mean_wounds_attacker: float
    reaction: str
    edition: str
    method: str
    samples: int | None = None
    seed: int | None = None
    variants: Variants = Variants()
    sides: tuple[str, str] = ("", "")
    profiles: tuple[str, str] = ("", "")
    stand_and_shoot: bool = False

    def wasted(self, who: str = "defender") -> float:
        """P(Wasted) of ``"defender"``, ``"attacker"`` or ``"both"``: wounds taken ≥ wounds they had."""
        who = check_choice("who", who, WHO)
        return {"defender": self.p_wasted_defender, "attacker": self.p_wasted_attacker, "both": self.p_wasted_both}[who]

    def _figures(self) -> dict[str, Figure]:
        n = self.samples
        figures: dict[str, Figure] = {
            name: (getattr(self, name), probability_stderr(getattr(self, name), n))
            for name in ("p_wasted_defender", "p_wasted_attacker", "p_wasted_both", "p_counter_wound", "p_tie",
                         "p_attacker_more")
        }
        figures["mean_wounds_defender"] = (self.mean_wounds_defender, mean_stderr(self.wounds_defender, n))
        figures["mean_wounds_attacker"] = (self.mean_wounds_attacker, mean_stderr(self.wounds_attacker, n))
        return figures

    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        return ([("defender", self.wounds_defender), ("attacker", self.wounds_attacker)], "wounds taken",
                self._title())

    def plot_joint(self) -> tuple[JointDistribution, tuple[str, str], str] | None:
        return self.joint, ("wounds to the defender", "wounds to the attacker"), self._title()

    def _title(self) -> str:
        how = "exact" if self.samples is None else f"Monte Carlo, {self.samples:,} samples"
        return f"Deathburgh combat, {self.reaction} ({self.edition} edition, {how})"

    def to_frame(self) -> Any:
        """The joint law in long format: wounds to each side, P, and whether each side is Wasted."""
        frame = self.joint.to_frame()
        frame["defender_wasted"] = frame["wounds_defender"] >= self.defender_wounds
        frame["attacker_wasted"] = frame["wounds_attacker"] >= self.attacker_wounds
        return frame

    @classmethod
    def build(
        cls,
        successes: np.ndarray,
        wounds: np.ndarray,
        *,
        samples: int | None,
        defender_wounds: int,
        attacker_wounds: int,
        reaction: str,
        edition: str,
        method: str,
        seed: int | None = None,
        marginals: tuple[np.ndarray, np.ndarray] | None = None,
        variants: Variants | None = None,
        **labels: Any,
    ) -> CombatResult:
        """From the successes grid P[sA, sD] and the wounds grid P[to defender, to attacker]
        (probabilities, or counts when ``samples`` is given). ``marginals``: the two successes laws
        when known directly (exact: each pool's own law, free of the grid's rounding). ``labels``:
        ``sides``, ``profiles`` and ``stand_and_shoot``, as the printer names the combat."""
        return cls(
            defender_wounds=int(defender_wounds),
            attacker_wounds=int(attacker_wounds),
            reaction=reaction,
            edition=edition,
            method=method,
            samples=samples,
            seed=seed,
            variants=Variants() if variants is None else variants,
            **labels,
            **_combat_fields(successes, wounds, samples, defender_wounds, attacker_wounds, marginals),
        )

    @classmethod
    def _exact(
        cls,
        arrays: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        *,
        defender_wounds: int,
        attacker_wounds: int,
        reaction: str,
        variants: Variants,
        stand_and_shoot: bool = False,
        labels: Callable[[], Mapping[str, Any]] = dict,
    ) -> CombatResult:
        """An exact result from the engine's fresh arrays (successes grid, wounds grid, the two pools'
        laws): the distributions and figures are computed on first read, as :meth:`build` computes them,
        and so are ``labels()`` (``sides`` and ``profiles``: text a caller that reads a figure never needs)."""
        successes, wounds, pmf_attacker, pmf_defender = arrays
        ready = {
            "defender_wounds": defender_wounds, "attacker_wounds": attacker_wounds, "reaction": reaction,
            "edition": variants.edition, "method": "exact", "samples": None, "seed": None, "variants": variants,
            "stand_and_shoot": stand_and_shoot,
        }

        def compute() -> dict[str, Any]:
            fields = _combat_fields(successes, wounds, None, defender_wounds, attacker_wounds, (pmf_attacker, pmf_defender))
            return {"sides": ("", ""), "profiles": ("", ""), **labels(), **fields}

        return cls._pending_result(ready, compute)


def _combat_fields(successes: np.ndarray, wounds: np.ndarray, samples: int | None, defender_wounds: int,
                   attacker_wounds: int, marginals: tuple[np.ndarray, np.ndarray] | None) -> dict[str, Any]:
    """The distributions and figures of a combat (CombatResult's deferred fields)."""
    successes = np.asarray(successes, dtype=np.float64)
    wounds = np.asarray(wounds, dtype=np.float64)
    if samples is not None:
        successes = successes / samples
        wounds = wounds / samples
    joint = JointDistribution(wounds, names=("wounds_defender", "wounds_attacker"), samples=samples)
    to_defender, to_attacker = joint.marginal(0), joint.marginal(1)
    s_a, s_d = index_grids(successes.shape)
    w_d, w_a = index_grids(joint.pmf.shape)
    return {
        "joint": joint,
        "wounds_defender": to_defender,
        "wounds_attacker": to_attacker,
        "successes_attacker": Distribution(marginals[0] if marginals else successes.sum(axis=1), samples=samples),
        "successes_defender": Distribution(marginals[1] if marginals else successes.sum(axis=0), samples=samples),
        "p_wasted_defender": to_defender.at_least(defender_wounds),
        "p_wasted_attacker": to_attacker.at_least(attacker_wounds),
        "p_wasted_both": float(joint.pmf[(w_d >= defender_wounds) & (w_a >= attacker_wounds)].sum()),
        "p_counter_wound": to_attacker.at_least(1),
        "p_tie": float(successes[s_a == s_d].sum()),
        "p_attacker_more": float(successes[s_a > s_d].sum()),
        "mean_wounds_defender": to_defender.mean,
        "mean_wounds_attacker": to_attacker.mean,
    }


@dataclass(frozen=True)
class RoundResult(EngineResult):
    """The outcome of a round: each miniature's wounds left and P(Wasted), each combat's P(fought).

    ``wounds_left[name]`` is the distribution of the wounds the miniature has after the round
    (0 = Wasted); ``p_wasted[name]`` = P(0 wounds left); ``p_fought[k]`` = P(combat k was fought,
    i.e. not skipped because a participant was already Wasted). ``names`` lists the miniatures in
    order; ``start_wounds`` their wounds before the round; ``combats`` (attacker, defender) of each
    combat in order. ``summary()`` holds figures over all miniatures (fixed keys whatever their
    names): the expected number Wasted, the largest P(Wasted), the expected wounds lost in all and
    the expected number of combats fought.
    """

    names: tuple[str, ...]
    start_wounds: tuple[int, ...]
    wounds_left: dict[str, Distribution]
    p_wasted: dict[str, float]
    p_fought: tuple[float, ...]
    method: str
    samples: int | None = None
    seed: int | None = None
    combats: tuple[tuple[str, str], ...] = ()
    variants: Variants = Variants()

    def _figures(self) -> dict[str, Figure]:
        n = self.samples
        # Sums of per-miniature figures: their standard errors are bounded by the sum of theirs
        # (the miniatures' outcomes are correlated, so they do not add in quadrature).
        wasted = [self.p_wasted[name] for name in self.names]
        lost = [self.mean_wounds_lost(name) for name in self.names]
        lost_err = [mean_stderr(self.wounds_left[name], n) for name in self.names]
        fought_err = [probability_stderr(p, n) for p in self.p_fought]
        worst = max(wasted, default=0.0)

        def total(errors: list[float | None]) -> float | None:
            return None if n is None else float(sum(e or 0.0 for e in errors))

        return {
            "expected_wasted": (float(sum(wasted)), total([probability_stderr(p, n) for p in wasted])),
            "max_wasted_chance": (worst, probability_stderr(worst, n)),
            "mean_wounds_lost_total": (float(sum(lost)), total(lost_err)),
            "expected_combats_fought": (float(sum(self.p_fought)), total(fought_err)),
        }

    def wasted(self, name: str) -> float:
        """P(the miniature is Wasted at the end of the round)."""
        name = check_choice("name", name, self.names) if name not in self.p_wasted else name
        return self.p_wasted[name]

    def mean_wounds_lost(self, name: str) -> float:
        """Expected wounds the miniature loses in the round."""
        name = check_choice("name", name, self.names) if name not in self.wounds_left else name
        return self.start_wounds[self.names.index(name)] - self.wounds_left[name].mean

    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        how = "exact" if self.samples is None else f"Monte Carlo, {self.samples:,} samples"
        title = f"Deathburgh round, {len(self.combats)} combats ({how})"
        return [(name, self.wounds_left[name]) for name in self.names], "wounds left", title

    def to_frame(self) -> Any:
        """One row per miniature and wounds-left value: name, wounds_left, p (and stderr for Monte Carlo)."""
        import pandas as pd

        frames = []
        for name in self.names:
            frame = self.wounds_left[name].to_frame("wounds_left")
            frame.insert(0, "miniature", name)
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

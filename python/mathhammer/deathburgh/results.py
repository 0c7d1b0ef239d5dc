"""Result types of Deathburgh combats and rounds (docs/rules/deathburgh.md §6, §7)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mathhammer._validate import check_choice
from mathhammer.results import Distribution, JointDistribution, ResultMixin

__all__ = ["CombatResult", "RoundResult"]

WHO = ("defender", "attacker", "both")


@dataclass(frozen=True)
class CombatResult(ResultMixin):
    """The outcome of one combat.

    ``joint.pmf[i, j]`` = P(i wounds inflicted on the defender, j on the attacker), not capped by the
    wounds they have; ``wounds_defender`` / ``wounds_attacker`` are its marginals and
    ``successes_attacker`` / ``successes_defender`` the two rolls (a defender that does not react
    scores 0). ``wasted(who)`` = P(wounds ≥ current wounds) for ``"defender"``, ``"attacker"`` or
    ``"both"``. ``p_counter_wound`` = P(the attacker takes ≥ 1 wound), ``p_tie`` = P(equal
    successes) (alpha: the chance of a draw when ``draw="always"``), ``p_attacker_more`` =
    P(attacker scores more). A Monte Carlo result carries ``samples`` and, in ``stderr``, the
    standard error of each of those probabilities.
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
    stderr: dict[str, float] | None = None

    def wasted(self, who: str = "defender") -> float:
        """P(Wasted) of ``"defender"``, ``"attacker"`` or ``"both"``: wounds taken ≥ wounds they had."""
        who = check_choice("who", who, WHO)
        return {"defender": self.p_wasted_defender, "attacker": self.p_wasted_attacker, "both": self.p_wasted_both}[who]

    def summary(self) -> dict[str, float]:
        """The headline numbers by name."""
        return {
            "p_wasted_defender": self.p_wasted_defender,
            "p_wasted_attacker": self.p_wasted_attacker,
            "p_wasted_both": self.p_wasted_both,
            "p_counter_wound": self.p_counter_wound,
            "p_tie": self.p_tie,
            "p_attacker_more": self.p_attacker_more,
            "mean_wounds_defender": self.mean_wounds_defender,
            "mean_wounds_attacker": self.mean_wounds_attacker,
        }

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
    ) -> CombatResult:
        """From the successes grid P[sA, sD] and the wounds grid P[to defender, to attacker]
        (probabilities, or counts when ``samples`` is given). ``marginals``: the two successes laws
        when known directly (exact: each pool's own law, free of the grid's rounding)."""
        successes = np.asarray(successes, dtype=np.float64)
        wounds = np.asarray(wounds, dtype=np.float64)
        if samples is not None:
            successes = successes / samples
            wounds = wounds / samples
        joint = JointDistribution(wounds, names=("wounds_defender", "wounds_attacker"), samples=samples)
        to_defender, to_attacker = joint.marginal(0), joint.marginal(1)
        s_a, s_d = np.indices(successes.shape)
        p_wasted_both = joint.prob(lambda i, j: (i >= defender_wounds) & (j >= attacker_wounds))
        probabilities = {
            "p_wasted_defender": to_defender.at_least(defender_wounds),
            "p_wasted_attacker": to_attacker.at_least(attacker_wounds),
            "p_wasted_both": p_wasted_both,
            "p_counter_wound": to_attacker.at_least(1),
            "p_tie": float(successes[s_a == s_d].sum()),
            "p_attacker_more": float(successes[s_a > s_d].sum()),
        }
        stderr = None
        if samples is not None:
            stderr = {k: math.sqrt(max(p * (1.0 - p), 0.0) / samples) for k, p in probabilities.items()}
            stderr["mean_wounds_defender"] = float(to_defender.mean_stderr)  # type: ignore[arg-type]
            stderr["mean_wounds_attacker"] = float(to_attacker.mean_stderr)  # type: ignore[arg-type]
        return cls(
            joint=joint,
            wounds_defender=to_defender,
            wounds_attacker=to_attacker,
            successes_attacker=Distribution(marginals[0] if marginals else successes.sum(axis=1), samples=samples),
            successes_defender=Distribution(marginals[1] if marginals else successes.sum(axis=0), samples=samples),
            defender_wounds=int(defender_wounds),
            attacker_wounds=int(attacker_wounds),
            mean_wounds_defender=to_defender.mean,
            mean_wounds_attacker=to_attacker.mean,
            reaction=reaction,
            edition=edition,
            method=method,
            samples=samples,
            seed=seed,
            stderr=stderr,
            **probabilities,
        )


@dataclass(frozen=True)
class RoundResult(ResultMixin):
    """The outcome of a round: each miniature's wounds left and P(Wasted), each combat's P(fought).

    ``wounds_left[name]`` is the distribution of the wounds the miniature has after the round
    (0 = Wasted); ``p_wasted[name]`` = P(0 wounds left); ``p_fought[k]`` = P(combat k was fought,
    i.e. not skipped because a participant was already Wasted). ``names`` lists the miniatures in
    order; ``start_wounds`` their wounds before the round; ``combats`` (attacker, defender) of each
    combat in order.
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

    def wasted(self, name: str) -> float:
        """P(the miniature is Wasted at the end of the round)."""
        name = check_choice("name", name, self.names) if name not in self.p_wasted else name
        return self.p_wasted[name]

    def mean_wounds_lost(self, name: str) -> float:
        """Expected wounds the miniature loses in the round."""
        name = check_choice("name", name, self.names) if name not in self.wounds_left else name
        return self.start_wounds[self.names.index(name)] - self.wounds_left[name].mean

    def to_frame(self) -> Any:
        """One row per miniature and wounds-left value: name, wounds_left, p (and stderr for Monte Carlo)."""
        import pandas as pd

        frames = []
        for name in self.names:
            frame = self.wounds_left[name].to_frame("wounds_left")
            frame.insert(0, "miniature", name)
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

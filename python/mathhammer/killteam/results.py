"""Kill Team result types: a shot, retained attack dice, a fight and its log, fight advice, and
the comparison matrices.

Each is an immutable dataclass with numpy inside (docs/results.md lists every figure); how each
prints is :mod:`mathhammer.killteam.report`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mathhammer.core.checks import check_choice, check_int
from mathhammer.errors import InputError
from mathhammer.core.distributions import Distribution, JointDistribution
from mathhammer.core.results import (
    OMITTED_WHEN_NONE,
    Deferred,
    EngineResult,
    Figure,
    MatrixResult,
    Presented,
    ResultMixin,
    cell_matrix,
    deferred,
    mean_stderr,
    probability_stderr,
    std_stderr,
)
from mathhammer.killteam.profiles import FIGHT_ROUNDS_MAX, MAX_COVER, MAX_ROUNDS, MAX_WOUNDS
from mathhammer.killteam.variants import Variants
from mathhammer.report import plot as plot_pictures

__all__ = [
    "SIDES", "Advice", "AttackDiceResult", "BestFight", "BestShot", "Comparison", "FightComparison", "FightLog",
    "FightResult", "Matchup", "MatchupSummary", "MetaRanking", "MoveValue", "ShootResult", "TeamStanding",
]

#: The two fighters of a fight.
SIDES: tuple[str, str] = ("a", "b")


@deferred("damage", "wounds_left", "kill_chance", "injury_chance", "retained_attack", "retained_saves",
          "self_damage", "weapon", "target")
@dataclass(frozen=True)
class ShootResult(Deferred, EngineResult):
    """The outcome of ``rounds`` shots of one weapon at one operative.

    ``damage`` is the total damage (not capped at the target's wounds); ``kill_chance`` is
    P(damage >= wounds), ``injury_chance`` P(wounds / 2 < damage < wounds) (fewer than half its
    wounds left but alive) and ``wounds_left`` the distribution of max(0, wounds - damage).
    ``retained_attack`` (crits, norms) and ``retained_saves`` (crit saves, normal saves, cover saves
    included) are per attack; with Monte Carlo they are counted over every round of every sample.
    ``self_damage``: with a Hot weapon, the damage the shooter takes over all rounds
    (docs/rules/killteam.md §2.2), else None; ``shooter_wounds``: the shooter's wounds when given,
    which ``shooter_death_chance`` reads. Both are left out of the payload while None.
    """

    damage: Distribution
    wounds_left: Distribution
    kill_chance: float
    injury_chance: float
    retained_attack: JointDistribution
    retained_saves: JointDistribution
    method: str
    samples: int | None
    weapon: str
    target: str
    wounds: int
    cover: int
    obscured: bool
    rounds: int
    seed: int | None = None
    variants: Variants = Variants()
    cover_crits: int = 0
    self_damage: Distribution | None = dataclasses.field(default=None, metadata={OMITTED_WHEN_NONE: True})
    shooter_wounds: int | None = dataclasses.field(default=None, metadata={OMITTED_WHEN_NONE: True})

    def _check_payload(self, field: str) -> None:
        """A loaded shot: its situation in the engine's ranges, and the figures following from
        ``damage`` as a computed shot's do."""
        super()._check_payload(field)
        for key, low, high in (("wounds", 1, MAX_WOUNDS), ("cover", 0, MAX_COVER), ("cover_crits", 0, MAX_COVER),
                               ("rounds", 1, MAX_ROUNDS)):
            check_int(key, getattr(self, key), low, high)
        if self.shooter_wounds is not None:
            check_int("shooter_wounds", self.shooter_wounds, 1, MAX_WOUNDS)
        if self.self_damage is not None and self.self_damage.start != 0:
            raise InputError("self_damage.start", "the shooter's damage counts from 0")
        if self.damage.start != 0:
            raise InputError("damage.start", "damage counts from 0")
        w = self.wounds
        kill = self.damage.at_least(w)
        for key, value, expected in (("kill_chance", self.kill_chance, kill),
                                     ("injury_chance", self.injury_chance, self.damage.at_least(w // 2 + 1) - kill)):
            if abs(value - expected) > 1e-9:
                raise InputError(key, f"{value!r} does not follow from the damage distribution ({expected!r})")
        left = self.wounds_left
        if left.start != 0 or left.max > w or abs(left.prob(0) - kill) > 1e-9 or any(
                abs(left.prob(w - d) - self.damage.prob(d)) > 1e-9 for d in range(w)):
            raise InputError("wounds_left", "does not follow from the damage distribution and the wounds")

    def _figures(self) -> dict[str, Figure]:
        n = self.samples
        return {
            "mean_damage": (self.damage.mean, mean_stderr(self.damage, n)),
            "std_damage": (self.damage.std, std_stderr(self.damage, n)),
            "kill_chance": (self.kill_chance, probability_stderr(self.kill_chance, n)),
            "injury_chance": (self.injury_chance, probability_stderr(self.injury_chance, n)),
            "mean_self_damage": (self.mean_self_damage,
                                 None if n is None else 0.0 if self.self_damage is None else mean_stderr(self.self_damage, n)),
        }

    @property
    def mean_self_damage(self) -> float:
        """The mean damage the shooter takes from Hot over all rounds (0 without Hot)."""
        return 0.0 if self.self_damage is None else self.self_damage.mean

    @property
    def shooter_death_chance(self) -> float | None:
        """P(Hot incapacitates the shooter): its damage reaches ``shooter_wounds`` (0 without Hot;
        None when the shooter's wounds were not given)."""
        if self.shooter_wounds is None:
            return None
        return 0.0 if self.self_damage is None else self.self_damage.at_least(self.shooter_wounds)

    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        situation = [f"cover {self.cover}"] + (["obscured"] if self.obscured else [])
        situation += [f"{self.rounds} rounds"] if self.rounds > 1 else []
        return [("damage", self.damage)], "damage", f"{self.weapon} vs {self.target} ({', '.join(situation)})"

    @property
    def mean(self) -> float:
        """Mean total damage."""
        return self.damage.mean

    @property
    def kill_stderr(self) -> float | None:
        """Standard error of ``kill_chance`` (Monte Carlo only)."""
        return probability_stderr(self.kill_chance, self.samples)

    @property
    def injury_stderr(self) -> float | None:
        """Standard error of ``injury_chance`` (Monte Carlo only)."""
        return probability_stderr(self.injury_chance, self.samples)

    def to_frame(self) -> Any:
        """One row per damage value: damage, p, p_at_least, (stderr), wounds_left, kills."""
        frame = self.damage.to_frame("damage")
        frame["wounds_left"] = np.maximum(0, self.wounds - frame["damage"])
        frame["kills"] = frame["damage"] >= self.wounds
        return frame

@deferred("weapon")
@dataclass(frozen=True)
class AttackDiceResult(Deferred, EngineResult):
    """Retained attack dice: ``joint.pmf[crits, norms]``; ``pmf`` is the same array. ``weapon`` is
    the weapon that rolled them (its notation, written when first read), ``obscured`` whether its
    target was obscured."""

    joint: JointDistribution
    method: str
    samples: int | None = None
    seed: int | None = None
    variants: Variants = Variants()
    weapon: str = ""
    obscured: bool = False

    def _figures(self) -> dict[str, Figure]:
        n = self.samples
        crits, norms, successes = self.crits, self.norms, self.successes
        return {
            "mean_crits": (crits.mean, mean_stderr(crits, n)),
            "mean_norms": (norms.mean, mean_stderr(norms, n)),
            "mean_successes": (successes.mean, mean_stderr(successes, n)),
        }

    @property
    def pmf(self) -> np.ndarray:
        return self.joint.pmf

    @property
    def crits(self) -> Distribution:
        return self.joint.marginal(0)

    @property
    def norms(self) -> Distribution:
        return self.joint.marginal(1)

    @property
    def successes(self) -> Distribution:
        pmf = self.joint.pmf
        total = np.zeros(pmf.shape[0] + pmf.shape[1] - 1)
        for c in range(pmf.shape[0]):
            total[c : c + pmf.shape[1]] += pmf[c]
        return Distribution(total, samples=self.joint.samples)

    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        return ([("crits", self.crits), ("norms", self.norms), ("successes", self.successes)], "retained dice",
                "Retained attack dice")

    def plot_joint(self) -> tuple[JointDistribution, tuple[str, str], str] | None:
        return self.joint, ("crits", "norms"), "Retained attack dice (crits, norms)"

    def to_frame(self) -> Any:
        return self.joint.to_frame()

@deferred("wounds_a", "wounds_b")
@dataclass(frozen=True)
class FightResult(Deferred, EngineResult):
    """The wounds both fighters have left after the fight.

    ``wounds_a.pmf[w]`` is P(fighter A ends on w wounds); ``joint.pmf[wa, wb]`` the joint
    probability. Exact results have ``samples is None``; Monte Carlo ones carry the sample count,
    and ``stderr`` gives the standard errors of the headline numbers.
    """

    wounds_a: Distribution
    wounds_b: Distribution
    joint: JointDistribution
    method: str
    samples: int | None
    start_wounds: tuple[int, int]
    rounds: int
    first: str
    seed: int | None = None
    variants: Variants = Variants()
    fighters: tuple[str, str] = ("", "")

    def _check_payload(self, field: str) -> None:
        """A loaded fight: wounds, rounds and side in the engine's ranges, one joint cell per pair
        of wounds left, and the marginals summed from the joint table."""
        super()._check_payload(field)
        for i, wounds in enumerate(self.start_wounds):
            check_int(f"start_wounds[{i}]", wounds, 1, MAX_WOUNDS)
        check_int("rounds", self.rounds, 1, FIGHT_ROUNDS_MAX)
        check_choice("first", self.first, SIDES)
        shape = (self.start_wounds[0] + 1, self.start_wounds[1] + 1)
        if self.joint.pmf.shape != shape:
            raise InputError("joint.pmf", f"expected {shape[0]} x {shape[1]} cells (wounds 0..start on each side)")
        for axis, key in enumerate(("wounds_a", "wounds_b")):
            marginal, expected = getattr(self, key), self.joint.marginal(axis)
            if marginal.start != 0 or marginal.pmf.size != expected.pmf.size or not np.allclose(
                    marginal.pmf, expected.pmf, rtol=0.0, atol=1e-9):
                raise InputError(key, "does not follow from the joint table")

    @classmethod
    def _exact(cls, joint: JointDistribution, start_wounds: tuple[int, int], rounds: int, first: str,
               variants: Variants, fighters: tuple[str, str]) -> FightResult:
        """An exact result whose marginals ``wounds_a`` / ``wounds_b`` are summed from ``joint`` only
        when first read, each on its own (a caller that wants one figure does not pay for both)."""
        ready = {"joint": joint, "method": "exact", "samples": None, "start_wounds": start_wounds, "rounds": rounds,
                 "first": first, "seed": None, "variants": variants, "fighters": fighters}
        return cls._pending_result(ready, {"wounds_a": lambda: joint.marginal(0), "wounds_b": lambda: joint.marginal(1)})

    def _side(self, side: str) -> int:
        return SIDES.index(check_choice("side", side, SIDES))

    def wounds(self, side: str) -> Distribution:
        """The distribution of the wounds ``side`` ("a" or "b") has left."""
        return (self.wounds_a, self.wounds_b)[self._side(side)]

    def death_chance(self, side: str) -> float:
        """P(``side`` ends the fight incapacitated, on 0 wounds)."""
        return self.wounds(side).prob(0)

    def injured_chance(self, side: str) -> float:
        """P(``side`` ends the fight injured: alive with fewer than half its starting wounds,
        docs/rules/killteam.md §3.9)."""
        start = self.start_wounds[self._side(side)]
        pmf = self.wounds(side).pmf
        return float(np.add.reduce(pmf[1 : (start + 1) // 2]))

    def mean_damage_taken(self, side: str) -> float:
        """The mean number of wounds ``side`` loses."""
        return self.start_wounds[self._side(side)] - self.wounds(side).mean

    @property
    def death_chance_a(self) -> float:
        return self.death_chance("a")

    @property
    def death_chance_b(self) -> float:
        return self.death_chance("b")

    @property
    def injured_chance_a(self) -> float:
        return self.injured_chance("a")

    @property
    def injured_chance_b(self) -> float:
        return self.injured_chance("b")

    @property
    def mean_damage_taken_a(self) -> float:
        return self.mean_damage_taken("a")

    @property
    def mean_damage_taken_b(self) -> float:
        return self.mean_damage_taken("b")

    def _figures(self) -> dict[str, Figure]:
        n = self.samples
        out: dict[str, Figure] = {}
        for side, dist in zip(SIDES, (self.wounds_a, self.wounds_b)):
            out[f"death_chance_{side}"] = (dist.prob(0), probability_stderr(dist.prob(0), n))
        for side, dist in zip(SIDES, (self.wounds_a, self.wounds_b)):
            out[f"mean_wounds_{side}"] = (dist.mean, mean_stderr(dist, n))
        for side, dist in zip(SIDES, (self.wounds_a, self.wounds_b)):
            out[f"mean_damage_taken_{side}"] = (self.mean_damage_taken(side), mean_stderr(dist, n))
        for side in SIDES:
            injured = self.injured_chance(side)
            out[f"injured_chance_{side}"] = (injured, probability_stderr(injured, n))
        return out

    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        names = [f"{side.upper()}: {name}" if name else side.upper() for side, name in zip(SIDES, self.fighters)]
        return [(names[0], self.wounds_a), (names[1], self.wounds_b)], "wounds left", self._title()

    def plot_joint(self) -> tuple[JointDistribution, tuple[str, str], str] | None:
        labels = tuple(f"wounds left, {side.upper()}" + (f" ({name})" if name else "")
                       for side, name in zip(SIDES, self.fighters))
        return self.joint, (labels[0], labels[1]), self._title()

    def _title(self) -> str:
        rounds = f"{self.rounds} round{'s' if self.rounds > 1 else ''}"
        how = "exact" if self.samples is None else f"Monte Carlo, {self.samples:,} samples"
        return f"Kill Team fight, {rounds}, {self.first.upper()} first ({how})"

    def to_frame(self) -> Any:
        """One row per wounds value: P(A ends on it), P(B ends on it)."""
        import pandas as pd

        size = max(self.wounds_a.pmf.size, self.wounds_b.pmf.size)
        pa = np.zeros(size)
        pb = np.zeros(size)
        pa[: self.wounds_a.pmf.size] = self.wounds_a.pmf
        pb[: self.wounds_b.pmf.size] = self.wounds_b.pmf
        return pd.DataFrame({"wounds": np.arange(size), "p_a": pa, "p_b": pb})

@dataclass(frozen=True)
class FightLog(ResultMixin):
    """One round from fixed retained dice, step by step.

    ``actions`` holds ``(side, kind, value)`` steps in order. Kinds: ``crit_strike`` /
    ``norm_strike`` (value: damage inflicted), ``crit_parry`` / ``norm_parry`` and
    ``duelist_crit_parry`` / ``duelist_norm_parry`` (value: enemy successes cancelled), ``pass``,
    ``shock_discard_norm`` / ``shock_discard_crit``, ``murderous_entrance_strike`` (the bonus
    strike of the same crit strike action; value: damage), and the defender's ``feel_no_pain``
    (damage saved) and ``saintly_relics`` (damage ignored), logged right after the strike they act on
    (the strike's value is the damage that got through).
    """

    wounds_a: int
    wounds_b: int
    actions: tuple[tuple[str, str, int], ...]
    dice_a: tuple[int, int]
    dice_b: tuple[int, int]
    first: str
    relic_uses: tuple[int, int]
    seed: int | None = None
    variants: Variants = Variants()

    def to_frame(self) -> Any:
        import pandas as pd

        return pd.DataFrame(list(self.actions), columns=["side", "kind", "value"])

@dataclass(frozen=True)
class MoveValue(ResultMixin):
    """One legal move: its value under the mover's objective, and the expected outcome it leads to."""

    move: str
    value: tuple[float, ...]
    wounds_a: float  # expected wounds A ends the round on
    wounds_b: float
    death_chance_a: float
    death_chance_b: float
    best: bool

    def to_frame(self) -> Any:
        """One row: this move."""
        import pandas as pd

        row = dataclasses.asdict(self)
        row["value"] = self.value
        return pd.DataFrame([row])

@dataclass(frozen=True)
class Advice(Presented, ResultMixin):
    """The position after both fighters' dice are retained (and any Duelist parries made).

    ``mover`` ("a", "b", or None when the round is over before anyone moves) is valued as an
    optimal fighter with its objective ("trade" for a heuristic fighter); ``moves`` lists its legal
    moves in tie-break order with ``best`` marking the one optimal play picks; ``heuristic`` says
    what each heuristic strategy would play here.
    """

    mover: str | None
    objective: str | None
    moves: tuple[MoveValue, ...]
    best: str | None
    heuristic: dict[str, str]
    dice_a: tuple[int, int]
    dice_b: tuple[int, int]
    start_wounds: tuple[int, int]
    first: str
    variants: Variants = Variants()

    def __str__(self) -> str:
        """``print(advice)``: the tables the command prints, as plain text."""
        return self.to_text()

    def to_frame(self) -> Any:
        """One row per legal move."""
        import pandas as pd

        return pd.concat([m.to_frame() for m in self.moves], ignore_index=True) if self.moves else pd.DataFrame(
            columns=[f.name for f in dataclasses.fields(MoveValue)])

@dataclass(frozen=True)
class Comparison(MatrixResult):
    """Each situation shot at each save (``kt.compare``): ``results[i][j]`` is the ``kt.ShootResult``
    of situation ``labels[i]`` against ``saves[j]``, and from them ``mean[i, j]`` (its mean damage)
    and ``at_least[i, j, k]`` (P(damage >= ``thresholds[k]``)). ``delta_*`` hold situation 0 minus
    situation 1 (None with one situation). ``method``, ``samples``, ``seed`` and ``variants`` say how
    the cells were computed (docs/results.md "Comparisons"); it prints with its game's printer.
    """

    labels: tuple[str, ...]
    saves: tuple[int, ...]
    thresholds: tuple[int, ...]
    results: tuple[tuple[ShootResult, ...], ...]
    method: str = "exact"
    samples: int | None = None
    seed: int | None = None
    variants: Variants = Variants()

    EXTREMES = {"mean_damage": "mean_damage", "kill_chance": "kill_chance"}

    def _shape(self) -> tuple[int, int]:
        return len(self.labels), len(self.saves)

    def _check_payload(self, field: str) -> None:
        """A loaded comparison: one shot per situation and save, and its saves and thresholds in range."""
        super()._check_payload(field)
        for j, save in enumerate(self.saves):
            check_int(f"saves[{j}]", save, 2, 6)
        if not self.thresholds:
            raise InputError("thresholds", "is empty; a comparison has at least one threshold")
        for k, threshold in enumerate(self.thresholds):
            check_int(f"thresholds[{k}]", threshold, 1, 10_000)

    @functools.cached_property
    def mean(self) -> np.ndarray:
        """Mean damage, a row per situation and a column per save."""
        return cell_matrix(self.results, lambda cell: cell.damage.mean)

    @functools.cached_property
    def at_least(self) -> np.ndarray:
        """P(damage >= thresholds[k]) of situation i at save j, as ``at_least[i, j, k]``."""
        return cell_matrix(self.results, lambda cell: [cell.damage.at_least(w) for w in self.thresholds])

    @property
    def delta_mean(self) -> np.ndarray | None:
        return self.mean[0] - self.mean[1] if len(self.labels) >= 2 else None

    @property
    def self_damage(self) -> tuple[float | None, ...]:
        """Per situation, with a Hot weapon the mean damage its shooter takes (the same at every
        save, docs/rules/killteam.md §2.2); None without Hot."""
        return tuple(None if row[0].self_damage is None else row[0].mean_self_damage for row in self.results)

    @property
    def shooter_death_chance(self) -> tuple[float | None, ...]:
        """Per situation, with a Hot weapon and the shooter's wounds given, the chance it is
        incapacitated; else None."""
        return tuple(None if row[0].self_damage is None else row[0].shooter_death_chance for row in self.results)

    @property
    def delta_at_least(self) -> np.ndarray | None:
        return self.at_least[0] - self.at_least[1] if len(self.labels) >= 2 else None

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
        hot = [*self.self_damage, None]  # the deltas' row has none
        for i, (name, mean, prob) in enumerate(zip(names, means, probs)):
            for j, save in enumerate(self.saves):
                record: dict[str, Any] = {"situation": name, "save": save, "mean_damage": float(mean[j])}
                if any(h is not None for h in self.self_damage):
                    record["mean_self_damage"] = hot[min(i, len(hot) - 1)]
                record.update({f"p_at_least_{w}": float(p) for w, p in zip(self.thresholds, prob[j])})
                records.append(record)
        return pd.DataFrame.from_records(records)


@dataclass(frozen=True)
class FightComparison(MatrixResult):
    """Each fighter against each opponent (``kt.compare_fights``): ``results[i][j]`` is the
    ``kt.FightResult`` of fighter ``fighters[i]`` (side A) against opponent ``opponents[j]``, and from
    them ``kill[i, j]`` (the opponent dies), ``death[i, j]`` (the fighter dies), ``wounds[i, j]`` /
    ``opponent_wounds[i, j]`` (mean wounds left). ``method``, ``samples``, ``seed`` and ``variants`` say
    how the cells were computed (docs/results.md "Comparisons")."""

    fighters: tuple[str, ...]
    opponents: tuple[str, ...]
    results: tuple[tuple[FightResult, ...], ...]
    method: str = "exact"
    samples: int | None = None
    seed: int | None = None
    variants: Variants = Variants()

    EXTREMES = {"kill_chance": "death_chance_b", "death_chance": "death_chance_a"}

    def _shape(self) -> tuple[int, int]:
        return len(self.fighters), len(self.opponents)

    @functools.cached_property
    def kill(self) -> np.ndarray:
        """P(the opponent dies), a row per fighter and a column per opponent."""
        return cell_matrix(self.results, lambda cell: cell.death_chance("b"))

    @functools.cached_property
    def death(self) -> np.ndarray:
        """P(the fighter dies)."""
        return cell_matrix(self.results, lambda cell: cell.death_chance("a"))

    @functools.cached_property
    def wounds(self) -> np.ndarray:
        """The fighter's mean wounds left."""
        return cell_matrix(self.results, lambda cell: cell.wounds_a.mean)

    @functools.cached_property
    def opponent_wounds(self) -> np.ndarray:
        """The opponent's mean wounds left."""
        return cell_matrix(self.results, lambda cell: cell.wounds_b.mean)

    def to_frame(self) -> Any:
        """One row per fighter and opponent: kill_chance, death_chance, mean_wounds, mean_opponent_wounds."""
        import pandas as pd

        return pd.DataFrame.from_records([
            {"fighter": f, "opponent": o, "kill_chance": float(self.kill[i, j]),
             "death_chance": float(self.death[i, j]), "mean_wounds": float(self.wounds[i, j]),
             "mean_opponent_wounds": float(self.opponent_wounds[i, j])}
            for i, f in enumerate(self.fighters) for j, o in enumerate(self.opponents)])


@dataclass(frozen=True)
class VolleyResult(EngineResult):
    """One weapon shooting several targets (Blast, Torrent; docs/rules/killteam.md §2.1), each shot on
    its own: ``shots[i]`` is the ``kt.shoot`` result against target i. The shots are independent,
    so ``incapacitated`` (the number of targets incapacitated) and ``total_damage`` (the wounds the
    targets lose in all: each target's damage capped at its wounds) are their exact convolutions.
    Built from Monte Carlo shots they are estimates (``Distribution.estimated``). ``self_damage``:
    a Hot weapon's one roll for the volley (§2.2), else None; ``shooter_wounds`` as ``kt.shoot``'s."""

    shots: tuple[ShootResult, ...]
    incapacitated: Distribution
    total_damage: Distribution
    method: str
    samples: int | None
    weapon: str
    seed: int | None = None
    variants: Variants = Variants()
    self_damage: Distribution | None = dataclasses.field(default=None, metadata={OMITTED_WHEN_NONE: True})
    shooter_wounds: int | None = dataclasses.field(default=None, metadata={OMITTED_WHEN_NONE: True})

    @property
    def mean_self_damage(self) -> float:
        """The mean damage the shooter takes from a Hot weapon's one roll for the volley (0 without Hot)."""
        return 0.0 if self.self_damage is None else self.self_damage.mean

    @property
    def shooter_death_chance(self) -> float | None:
        """P(the volley's Hot roll incapacitates a shooter of ``shooter_wounds``); None without them."""
        if self.shooter_wounds is None:
            return None
        return 0.0 if self.self_damage is None else self.self_damage.at_least(self.shooter_wounds)

    def _figures(self) -> dict[str, Figure]:
        n = self.samples
        chances = [s.kill_chance for s in self.shots]
        survive = [1.0 - p for p in chances]
        none = float(np.prod(survive))
        if n is None:
            errors: list[float | None] = [None, None, None]
        else:
            # independent shots: the variances of their estimates add (for P(any): the delta method)
            others = [none / q if q > 0.0 else float(np.prod(survive[:i] + survive[i + 1:]))
                      for i, q in enumerate(survive)]
            lost = [s.wounds_left for s in self.shots]
            errors = [
                float(np.sqrt(sum(p * (1.0 - p) for p in chances) / n)),
                float(np.sqrt(sum(o * o * p * (1.0 - p) for o, p in zip(others, chances)) / n)),
                float(np.sqrt(sum(d.std ** 2 for d in lost) / n)),
            ]
        return {
            "mean_incapacitated": (self.incapacitated.mean, errors[0]),
            "any_incapacitated": (1.0 - none, errors[1]),
            "mean_total_damage": (self.total_damage.mean, errors[2]),
            "mean_self_damage": (self.mean_self_damage,
                                 None if n is None else 0.0 if self.self_damage is None else mean_stderr(self.self_damage, n)),
        }

    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        return [(self.weapon, self.incapacitated)], "targets incapacitated", f"Volley: {self.weapon}"

    def to_frame(self) -> Any:
        """One row per target shot: the target, its cover and obscuring, and the shot's summary()."""
        import pandas as pd

        return pd.DataFrame([{"target": s.target, "cover": s.cover, "obscured": s.obscured, **s.summary()}
                             for s in self.shots])


@dataclass(frozen=True)
class MatchupShot(ResultMixin):
    """One shooting pairing of a matchup: ``weapon`` of ``attacker`` at ``defender`` in ``cover``.
    ``half_chance`` is P(damage >= half the defender's wounds); ``shots_to_kill`` the expected
    number of such shots until it is incapacitated (inf when a shot cannot damage it). ``blast`` /
    ``torrent``: the weapon's distances in inches (None without the rule). ``self_damage`` and
    ``shooter_death_chance``: with Hot, the mean damage the shot does to the attacker and the chance
    it incapacitates it (docs/rules/killteam.md §2.2); None without Hot."""

    attacker: str
    weapon: str
    defender: str
    cover: int
    mean_damage: float
    kill_chance: float
    half_chance: float
    shots_to_kill: float
    blast: int | None = None
    torrent: int | None = None
    self_damage: float | None = None
    shooter_death_chance: float | None = None


@dataclass(frozen=True)
class MatchupFight(ResultMixin):
    """One fighting pairing of a matchup: ``attacker`` with ``weapon`` (fighter A) against
    ``defender`` ("operative/weapon", fighter B), ``first`` to strike, with the strategies given."""

    attacker: str
    weapon: str
    defender: str
    first: str
    strategy_a: str
    strategy_b: str
    kill_chance: float
    death_chance: float
    both_survive: float
    mean_wounds_a: float
    mean_wounds_b: float


#: Matchup.to_frame()'s columns, in order: the pairing, its option axes, then the figures.
MATCHUP_COLUMNS: tuple[str, ...] = (
    "kind", "attacker", "weapon", "defender", "cover", "first", "strategy_a", "strategy_b", "mean_damage",
    "kill_chance", "half_chance", "shots_to_kill", "death_chance", "both_survive", "mean_wounds_a", "mean_wounds_b",
    "blast", "torrent", "self_damage", "shooter_death_chance",
)

# the figures best() may rank by, and whether more is better
_BEST_BY = {"mean_damage": True, "kill_chance": True, "half_chance": True, "shots_to_kill": False,
            "death_chance": False, "both_survive": False, "mean_wounds_a": True, "mean_wounds_b": False}


@dataclass(frozen=True)
class BestShot(ResultMixin):
    """A row of the matchup summary's shooting: against the enemy operative ``defender``, my best
    weapon (``attacker``'s ``weapon``: the fewest mean shots to incapacitate it, ties by the higher
    mean damage) with its ``shots_to_kill``, one shot's ``kill_chance`` and ``mean_damage``.
    ``attacker`` and ``weapon`` are None when no weapon of mine can damage it (or I have none)."""

    defender: str
    attacker: str | None
    weapon: str | None
    shots_to_kill: float
    kill_chance: float
    mean_damage: float

    @property
    def best(self) -> str | None:
        """My weapon as "Operative/Weapon"."""
        return None if self.attacker is None else f"{self.attacker}/{self.weapon}"


@dataclass(frozen=True)
class BestFight(ResultMixin):
    """A row of the matchup summary's fights: against the enemy operative ``defender``, my best
    melee pairing (``attacker``'s ``weapon``, striking first): the one with the highest chance to
    incapacitate it (ties by the lower chance to lose), each of my weapons met by the melee weapon
    of the defender's that leaves me the lowest (``defender_weapon``). ``kill_chance`` (I win),
    ``both_survive`` (neither falls), ``death_chance`` (I lose). None where the defender has no
    melee weapon or I have none."""

    defender: str
    defender_weapon: str | None
    attacker: str | None
    weapon: str | None
    kill_chance: float
    both_survive: float
    death_chance: float

    @property
    def best(self) -> str | None:
        """My fighter as "Operative/Weapon"."""
        return None if self.attacker is None else f"{self.attacker}/{self.weapon}"


@dataclass(frozen=True)
class MatchupSummary(Presented, ResultMixin):
    """The answer to "against their team, which of mine shoots what, and which fights do I take?"
    (``Matchup.summary()``): for each operative of ``team_b``, in its team's order, my best weapon at
    ``cover`` (``shots``) and my best melee pairing with ``first`` striking first and the strategy
    pair ``strategies`` (``fights``); ``notes`` say what is missing (no ranged or melee weapons)."""

    team_a: str
    team_b: str
    cover: int | None
    first: str | None
    strategies: tuple[str, str] | None
    shots: tuple[BestShot, ...]
    fights: tuple[BestFight, ...]
    notes: tuple[str, ...] = ()
    method: str = "exact"

    def to_frame(self) -> Any:
        """One row per enemy operative and kind ("shoot" / "fight"), the summary's figures."""
        import pandas as pd

        rows = [{"kind": "shoot", **{f.name: getattr(s, f.name) for f in dataclasses.fields(BestShot)}}
                for s in self.shots]
        rows += [{"kind": "fight", **{f.name: getattr(f_, f.name) for f in dataclasses.fields(BestFight)}}
                 for f_ in self.fights]
        columns = ["kind", "defender", "attacker", "weapon", "shots_to_kill", "kill_chance", "mean_damage",
                   "defender_weapon", "both_survive", "death_chance"]
        return pd.DataFrame(rows, columns=columns)


def _fewest_shots(rows: list[MatchupShot]) -> MatchupShot | None:
    """The best weapon of rows against one defender: fewest mean shots to kill, then most mean
    damage, then the first in the matchup's order; None when none can damage it."""
    best = None
    for row in rows:
        if best is None or (row.shots_to_kill, -row.mean_damage) < (best.shots_to_kill, -best.mean_damage):
            best = row
    return None if best is None or math.isinf(best.shots_to_kill) else best


def _best_pairing(rows: list[MatchupFight]) -> MatchupFight | None:
    """The best fight of mine against one enemy operative: each of my weapons meets the defender's
    melee weapon that leaves me the lowest chance to incapacitate it (then the highest to lose),
    and of those my weapon with the highest chance (then the lowest to lose; the first in order)."""
    answers: dict[tuple[str, str], MatchupFight] = {}
    for row in rows:
        mine = (row.attacker, row.weapon)
        held = answers.get(mine)
        if held is None or (row.kill_chance, -row.death_chance) < (held.kill_chance, -held.death_chance):
            answers[mine] = row
    best = None
    for row in answers.values():
        if best is None or (row.kill_chance, -row.death_chance) > (best.kill_chance, -best.death_chance):
            best = row
    return best


@dataclass(frozen=True)
class Matchup(Presented, ResultMixin):
    """Every weapon of ``team_a`` against every operative of ``team_b`` (kt.matchup): ``shots``
    (ranged weapons, per cover value) and ``fights`` (melee weapons against every operative's
    melee weapons, per first striker and strategy pair). ``defenders`` and ``defender_wounds``:
    team B's operatives in its order and their wounds; ``shoot`` / ``fight``: whether each kind
    was asked for; ``notes``: what a team lacks ("Synthetic 1 has no ranged weapons"). It prints
    as its :meth:`summary`."""

    team_a: str
    team_b: str
    shots: tuple[MatchupShot, ...]
    fights: tuple[MatchupFight, ...]
    method: str
    seed: int | None = None
    defenders: tuple[str, ...] = ()
    defender_wounds: tuple[int, ...] = ()
    shoot: bool = True
    fight: bool = True
    notes: tuple[str, ...] = ()

    def _check_payload(self, field: str) -> None:
        super()._check_payload(field)
        if len(self.defender_wounds) != len(self.defenders):
            raise InputError("defender_wounds", f"{len(self.defender_wounds)} values for {len(self.defenders)} "
                             "defenders; give one per defender")

    def _defenders(self) -> tuple[str, ...]:
        # team B's operatives (a matchup loaded from an older payload: those its shots name)
        return self.defenders or tuple(dict.fromkeys(s.defender for s in self.shots))

    def _operative_of(self, defender: str) -> str:
        """The operative a fight's defender ("operative/weapon") names."""
        owners = [d for d in self._defenders() if defender.startswith(d + "/")]
        return max(owners, key=len) if owners else defender.rsplit("/", 1)[0]

    def summary(self, cover: int | None = None, first: str | None = None) -> MatchupSummary:
        """The matchup as a player asks it (docs/matchup.md, "The summary"): for each operative of
        team B, in its order, my best weapon at ``cover`` (default 1, else the first computed),
        and my best melee pairing with ``first`` striking first (default "a", me, else the first
        computed) and the first strategy pair (see :class:`BestShot`, :class:`BestFight`)."""
        covers = list(dict.fromkeys(s.cover for s in self.shots))
        if cover is None:
            cover = 1 if 1 in covers else covers[0] if covers else None
        else:
            cover = check_int("cover", cover, 0, MAX_COVER)
            if self.shots and cover not in covers:
                raise InputError("cover", f"{cover} was not computed; this matchup's cover values: "
                                 f"{', '.join(map(str, covers))}")
        firsts = list(dict.fromkeys(f.first for f in self.fights))
        if first is None:
            first = "a" if "a" in firsts else firsts[0] if firsts else None
        else:
            first = check_choice("first", first, SIDES)
            if self.fights and first not in firsts:
                raise InputError("first", f"{first!r} was not computed; this matchup's first strikers: "
                                 f"{', '.join(firsts)}")
        pairs = list(dict.fromkeys((f.strategy_a, f.strategy_b) for f in self.fights))
        pair = pairs[0] if pairs else None
        defenders = self._defenders()
        aimed: dict[str, list[MatchupShot]] = {}
        for s in self.shots:
            if s.cover == cover:
                aimed.setdefault(s.defender, []).append(s)
        shots = []
        risks = []  # a best weapon that is Hot: its risk to its own operative (docs/rules/killteam.md §2.2)
        for defender in defenders:
            best = _fewest_shots(aimed.get(defender, []))
            if best is not None and best.shooter_death_chance is not None:
                risks.append(f"{best.attacker}'s {best.weapon} at {defender} is Hot: "
                             f"{best.shooter_death_chance:.1%} to incapacitate itself, "
                             f"{best.self_damage or 0.0:.2f} damage to itself on average")
            shots.append(BestShot(defender, None, None, math.inf, 0.0, 0.0) if best is None else
                         BestShot(defender, best.attacker, best.weapon, best.shots_to_kill, best.kill_chance,
                                  best.mean_damage))
        met: dict[str, list[MatchupFight]] = {}
        for f in self.fights:
            if f.first == first and (f.strategy_a, f.strategy_b) == pair:
                met.setdefault(self._operative_of(f.defender), []).append(f)
        fights = []
        for defender in defenders if self.fights else ():
            won = _best_pairing(met.get(defender, []))
            fights.append(BestFight(defender, None, None, None, 0.0, 0.0, 0.0) if won is None else
                          BestFight(defender, won.defender[len(defender) + 1:], won.attacker, won.weapon,
                                    won.kill_chance, won.both_survive, won.death_chance))
        return MatchupSummary(self.team_a, self.team_b, cover if self.shots else None, first if self.fights else None,
                              pair, tuple(shots) if self.shots else (), tuple(fights), (*self._notes(pairs), *risks),
                              self.method)

    def _notes(self, pairs: list[tuple[str, str]]) -> tuple[str, ...]:
        notes = list(self.notes)
        if not self.shoot:
            notes.append("shooting was not asked for")
        if not self.fight:
            notes.append("fights were not asked for")
        if len(pairs) > 1:
            notes.append(f"fights with the strategies {pairs[0][0]} / {pairs[0][1]}, the first of {len(pairs)} "
                         "pairs (--all shows every one)")
        return tuple(notes)

    def to_frame(self) -> Any:
        """One row per pairing, long format (columns ``MATCHUP_COLUMNS``): shooting rows leave the
        fight columns empty and the other way round."""
        import pandas as pd

        shot_names = [f.name for f in dataclasses.fields(MatchupShot)]
        fight_names = [f.name for f in dataclasses.fields(MatchupFight)]
        # the rows' plain fields, read directly (dataclasses.asdict deep-copies every value)
        rows: list[dict[str, Any]] = [{"kind": "shoot", **{n: getattr(s, n) for n in shot_names}} for s in self.shots]
        rows += [{"kind": "fight", **{n: getattr(f, n) for n in fight_names}} for f in self.fights]
        frame = pd.DataFrame(rows, columns=list(MATCHUP_COLUMNS))
        # whole numbers stay whole where a kind leaves them empty
        return frame.astype({"cover": "Int64", "blast": "Int64", "torrent": "Int64"})

    def best(self, by: str = "kill_chance", kind: str = "shoot") -> Any:
        """For each defender (and each value of the option axes: cover; first and strategies), the
        row of the best weapon by the figure ``by`` (the highest, or the lowest for
        ``shots_to_kill``, ``death_chance``, ``both_survive``, ``mean_wounds_b``)."""
        kind = check_choice("kind", kind, ("shoot", "fight"))
        by = check_choice("by", by, tuple(_BEST_BY))
        frame = self.to_frame()
        frame = frame[frame["kind"] == kind].dropna(axis=1, how="all")
        if by not in frame.columns:
            raise InputError("by", f"{by!r} is not a figure of {kind} rows")
        axes = ["defender", "cover"] if kind == "shoot" else ["defender", "first", "strategy_a", "strategy_b"]
        ordered = frame.sort_values(by, ascending=not _BEST_BY[by], kind="stable")
        return ordered.groupby(axes, sort=True, dropna=False).head(1).sort_values(axes, kind="stable").reset_index(
            drop=True)

    def matrix(self, figure: str = "kill_chance", kind: str = "shoot", cover: int | None = None,
               first: str | None = None) -> tuple[list[str], list[str], np.ndarray]:
        """The heat map's table: rows "attacker: weapon", columns defenders, values ``figure`` at one
        cover value (shooting; default the first) or one first striker and the first strategy pair
        (fighting; default the first). ``figure`` "damage_share" (shooting): the mean damage as a
        share of the defender's wounds."""
        kind = check_choice("kind", kind, ("shoot", "fight"))
        rows_of: list[Any] = list(self.shots if kind == "shoot" else self.fights)
        if not rows_of:
            raise InputError("kind", f"the matchup has no {kind} rows")
        if kind == "shoot":
            value = rows_of[0].cover if cover is None else cover
            rows_of = [r for r in rows_of if r.cover == value]
        else:
            value = rows_of[0].first if first is None else first
            pair = (rows_of[0].strategy_a, rows_of[0].strategy_b)
            rows_of = [r for r in rows_of if r.first == value and (r.strategy_a, r.strategy_b) == pair]
        if not rows_of:
            raise InputError("cover" if kind == "shoot" else "first", f"no {kind} rows at {value!r}")
        share = figure == "damage_share"
        if share and kind != "shoot":
            raise InputError("figure", "'damage_share' is a figure of shoot rows")
        if not share and not hasattr(rows_of[0], figure):
            raise InputError("figure", f"{figure!r} is not a figure of {kind} rows")
        wounds = dict(zip(self.defenders, self.defender_wounds))
        if share and any(r.defender not in wounds for r in rows_of):
            raise InputError("figure", "'damage_share' needs the defenders' wounds (defender_wounds)")
        weapons = list(dict.fromkeys(f"{r.attacker}: {r.weapon}" for r in rows_of))
        defenders = list(dict.fromkeys(r.defender for r in rows_of))
        table = np.full((len(weapons), len(defenders)), np.nan)
        for r in rows_of:
            value = r.mean_damage / wounds[r.defender] if share else getattr(r, figure)
            table[weapons.index(f"{r.attacker}: {r.weapon}"), defenders.index(r.defender)] = value
        return weapons, defenders, table

    def plot(self, figure: str | None = None, kind: str = "shoot", cover: int | None = None,
             first: str | None = None, ax: Any = None) -> Any:
        """A labelled heat map: weapons x defenders, ``figure`` in each cell (see :meth:`matrix`;
        default: the mean damage as a share of the defender's wounds when shooting, the chance to
        incapacitate the defender when fighting), coloured from the table's lowest value to its
        highest. ``mathhammer killteam matchup --plot`` draws both kinds (killteam.report.matchup_picture)."""
        figure = figure or ("damage_share" if kind == "shoot" else "kill_chance")
        weapons, defenders, table = self.matrix(figure, kind, cover, first)
        which = f"cover {cover if cover is not None else self.shots[0].cover}" if kind == "shoot" else \
            f"{(first or self.fights[0].first).upper()} first"
        words = _FIGURE_WORDS.get(figure, figure.replace("_", " "))
        title = f"{self.team_a} vs {self.team_b}: {words} ({kind}, {which})"
        percent = figure in ("kill_chance", "half_chance", "death_chance", "both_survive", "damage_share")
        return plot_pictures.labelled_heat_map(table, weapons, defenders, title=title, label=words, percent=percent,
                                               ax=ax, scale="data")


#: What a heat map says its figure is.
_FIGURE_WORDS = {"damage_share": "mean damage / wounds", "kill_chance": "kill chance"}


@dataclass(frozen=True)
class TeamStanding(ResultMixin):
    """One team of a meta ranking (docs/meta.md, "The ranking"), its chances meant over the enemy
    operatives of every other team of the meta: ``offence``, my best weapon's kill chance;
    ``defence``, their best weapon's against mine (lower is better); ``fights``, my best melee
    pairing's chance to win, striking first. ``edge`` is the mean over the other teams of the edge
    of each matchup: ((my offence - theirs) + (my fights won - theirs)) / 2 against that team;
    ``best`` / ``worst``: the team of my highest / lowest edge, and that edge."""

    team: str
    offence: float
    defence: float
    fights: float
    edge: float
    best: str
    best_edge: float
    worst: str
    worst_edge: float


@dataclass(frozen=True)
class MetaRanking(Presented, ResultMixin):
    """Every team of a meta ranked by its ``edge`` (``mathhammer killteam meta DIR``;
    ``killteam.meta.meta_ranking``): ``teams``, best first, with the summaries' ``cover`` and
    first striker ``first``."""

    teams: tuple[TeamStanding, ...]
    cover: int | None
    first: str | None
    method: str = "exact"

    def to_frame(self) -> Any:
        """One row per team, ranked."""
        import pandas as pd

        names = [f.name for f in dataclasses.fields(TeamStanding)]
        return pd.DataFrame([[getattr(t, n) for n in names] for t in self.teams], columns=names)

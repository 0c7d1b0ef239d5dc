"""The figures of an exact Kill Team shot's result, made from the engine's tables when first read
(docs/results.md): the deferred fields of one result (ExactShotFields), one item's summary from its
damage pmf alone (exact_summary) and a whole batch's summaries as columns (exact_columns). Every
figure is computed by the same numpy operations wherever it is made, so each equals the others bit
for bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from mathhammer import _core
from mathhammer.core.distributions import Distribution, JointDistribution
from mathhammer.killteam.plan import Shot, shot_label

__all__ = [
    "ATTACK_NAMES", "SAVE_NAMES", "SUMMARY_KEYS", "ExactShotFields", "exact_columns", "exact_summary",
    "injury_chance", "kill_chance", "wounds_left",
]

_kt = _core.killteam

_sum = np.add.reduce  # ndarray.sum without its Python-level wrapper (the same summation)

ATTACK_NAMES = ("crits", "norms")

SAVE_NAMES = ("crit_saves", "norm_saves")


class ExactShotFields(Mapping[str, Callable[[], Any]]):
    """The deferred fields of an exact shot's result (``core.results.Deferred``'s compute by field): a
    field is made when first read, from the engine's arrays, by the same numpy code as an eagerly
    built result's (killteam.shooting._result), so every number, repr and payload is the same."""

    __slots__ = ("_planned", "_pmf", "_tables", "_wounds")

    _NAMES = ("damage", "wounds_left", "kill_chance", "injury_chance", "retained_attack", "retained_saves",
              "self_damage", "weapon", "target")

    def __init__(self, tables: _kt.ShotTables, planned: Shot) -> None:
        self._tables = tables
        self._planned = planned
        self._wounds = planned.target.wounds
        self._pmf: np.ndarray | None = None

    def _damage_pmf(self) -> np.ndarray:
        # the damage pmf every figure reads, made once (read-only once the damage distribution holds it)
        pmf = self._pmf
        if pmf is None:
            pmf = self._pmf = self._tables.damage()
        return pmf

    def __iter__(self) -> Iterator[str]:
        return iter(self._NAMES)

    def __len__(self) -> int:
        return len(self._NAMES)

    # compute[field] is the method of that name: looked up in C, as a read of a pending field is the
    # hot path of a small exact shot
    __getitem__ = object.__getattribute__

    def damage(self) -> Distribution:
        return Distribution._adopt(self._damage_pmf())

    def wounds_left(self) -> Distribution:
        return wounds_left(self._damage_pmf(), self._wounds, None)

    def kill_chance(self) -> float:
        return kill_chance(self._damage_pmf(), self._wounds)

    def injury_chance(self) -> float:
        return injury_chance(self._damage_pmf(), self._wounds)

    def retained_attack(self) -> JointDistribution:
        return JointDistribution._adopt(self._tables.attack(), ATTACK_NAMES)

    def retained_saves(self) -> JointDistribution:
        return JointDistribution._adopt(self._tables.saves(), SAVE_NAMES)

    def self_damage(self) -> Distribution | None:
        pmf = self._tables.self_damage()
        return Distribution._adopt(pmf) if pmf.size else None  # None without Hot

    def weapon(self) -> str:
        return shot_label(self._planned.weapon)

    def target(self) -> str:
        return shot_label(self._planned.target)


def kill_chance(pmf: np.ndarray, wounds: int) -> float:
    # P(damage >= wounds). (A float before min(): comparing a float with a numpy scalar costs more
    # than the sum.)
    return min(1.0, float(_sum(pmf[wounds:])))


def injury_chance(pmf: np.ndarray, wounds: int) -> float:
    # Injured: more than half the starting wounds lost, but alive.
    return min(1.0, float(_sum(pmf[wounds // 2 + 1 : wounds])))


def wounds_left(pmf: np.ndarray, wounds: int, samples: int | None) -> Distribution:
    # max(0, wounds - damage): the pmf reversed below the wounds, and the kill chance at 0
    left = np.zeros(wounds + 1)
    alive = pmf[:wounds]  # never empty: damage 0 is in the pmf and wounds >= 1
    left[wounds - alive.size + 1 :] = alive[::-1]
    left[0] = kill_chance(pmf, wounds)
    return Distribution._adopt(left, samples=samples)


def exact_summary(pmf: np.ndarray, wounds: int, self_pmf: np.ndarray) -> dict[str, float]:
    # ShootResult.summary() of an exact shot from its damage pmfs alone: the same figures computed
    # with the same operations in the same order (Distribution.mean / .var / .std, _kill, _injury),
    # without the tables, the result object and the distributions' properties
    values = _values(pmf.size)
    mean = float(np.dot(values, pmf))
    std = math.sqrt(float(max(0.0, np.dot((values - mean) ** 2, pmf))))
    self_mean = float(np.dot(_values(self_pmf.size), self_pmf)) if self_pmf.size else 0.0
    return {"mean_damage": mean, "std_damage": std, "kill_chance": kill_chance(pmf, wounds),
            "injury_chance": injury_chance(pmf, wounds), "mean_self_damage": self_mean}


SUMMARY_KEYS = ("mean_damage", "std_damage", "kill_chance", "injury_chance", "mean_self_damage")


def exact_columns(resolved: Any, wounds: np.ndarray) -> dict[str, np.ndarray]:
    """exact_summary of every item of an exact batch (``wounds[k]``: item k's target's wounds), as
    columns. The items' pmfs are taken a group of equal length at a time and put through the very
    operations exact_summary applies to one: ``np.vecdot`` is ``np.dot`` of each row (the same
    kernel, on the same number of values), and ``np.add.reduce`` along a row is that of the row; so
    every figure equals the item's own bit for bit (tests/killteam/test_shoot_batch.py holds them)."""
    slots, values, offsets, self_values, self_offsets = resolved.pmf_columns()
    slots = slots.astype(np.intp)
    size = slots.size
    mean, std, kill, injury = np.empty(size), np.empty(size), np.empty(size), np.empty(size)
    for rows, pmf in _equal_lengths(values, offsets, slots):
        v = _values(pmf.shape[1])
        m = np.vecdot(v, pmf)
        var = np.vecdot((v - m[:, None]) ** 2, pmf)
        mean[rows] = m
        std[rows] = np.sqrt(np.where(var > 0.0, var, 0.0))  # max(0.0, var), NaN included
        row_wounds = wounds[rows]
        for w in np.unique(row_wounds).tolist():
            same = row_wounds == w
            kill_sum = np.add.reduce(pmf[same, w:], axis=1)
            injury_sum = np.add.reduce(pmf[same, w // 2 + 1 : w], axis=1)
            kill[rows[same]] = np.where(kill_sum < 1.0, kill_sum, 1.0)  # min(1.0, sum)
            injury[rows[same]] = np.where(injury_sum < 1.0, injury_sum, 1.0)
    self_mean = np.zeros(size)  # 0.0 without Hot (an empty pmf)
    for rows, pmf in _equal_lengths(self_values, self_offsets, slots):
        if pmf.shape[1]:
            self_mean[rows] = np.vecdot(_values(pmf.shape[1]), pmf)
    return {"mean_damage": mean, "std_damage": std, "kill_chance": kill, "injury_chance": injury,
            "mean_self_damage": self_mean}


def _equal_lengths(values: np.ndarray, offsets: np.ndarray, slots: np.ndarray
                   ) -> list[tuple[np.ndarray, np.ndarray]]:
    """The items' pmfs (item k's is the one of result ``slots[k]``, laid out as mh::ragged's) grouped
    by length: (the items' positions, their pmfs as the rows of one array)."""
    lengths = np.diff(offsets)[slots]
    starts = offsets[:-1][slots]
    groups = []
    for length in np.unique(lengths).tolist():
        rows = np.flatnonzero(lengths == length)
        groups.append((rows, values[starts[rows, None] + np.arange(length)]))
    return groups


# 0, 1, 2, ...: a damage pmf's values (Distribution.values of a pmf starting at 0), made once
_VALUES = np.arange(256)


def _values(size: int) -> np.ndarray:
    return _VALUES[:size] if size <= _VALUES.size else np.arange(size)

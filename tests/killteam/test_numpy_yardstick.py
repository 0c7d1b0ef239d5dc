"""The numpy yardstick of the Monte Carlo shot benchmark (benchmarks/numpy_shot.py) is a correct
program: its tables, enumerated over every face of its dice, give the exact engine's distribution,
and its sampled histogram is a plausible draw from it."""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from mathhammer import killteam as kt
from stats import assert_pmf_close

YARDSTICK = Path(__file__).resolve().parents[2] / "benchmarks" / "numpy_shot.py"


@pytest.fixture(scope="module")
def yardstick() -> ModuleType:
    spec = importlib.util.spec_from_file_location("numpy_shot", YARDSTICK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def exact_pmf(yardstick: ModuleType) -> np.ndarray:
    weapon = kt.Weapon(yardstick.ATTACK_DICE, yardstick.HIT, (yardstick.NORMAL_DAMAGE, yardstick.CRITICAL_DAMAGE))
    result = kt.shoot(weapon, kt.Operative(yardstick.SAVE, 12), cover=yardstick.COVER)
    return np.asarray(result.damage.pmf, dtype=float)


def test_least_damage_by_hand(yardstick: ModuleType) -> None:
    least = yardstick.least_damage
    assert least(1, 0, 0, 2) == 0  # two normal saves block a crit
    assert least(1, 0, 0, 1) == 4  # one cannot
    assert least(1, 1, 1, 0) == 3  # the crit save takes the crit (4), leaving the norm (3)
    assert least(2, 2, 0, 3) == 7  # a crit by two saves, a norm by one: a crit and a norm left (4 + 3)
    assert least(0, 3, 0, 0) == 9


def test_every_face_gives_the_exact_distribution(yardstick: ModuleType, exact_pmf: np.ndarray) -> None:
    rolled = yardstick.ATTACK_DICE + yardstick.ROLLED_SAVES
    counts = np.zeros(yardstick.MAX_DAMAGE + 1)
    for faces in itertools.product(range(1, 7), repeat=rolled):
        attack = sum(int(yardstick.ATTACK_CODES[f]) for f in faces[:yardstick.ATTACK_DICE])
        saves = sum(int(yardstick.SAVE_CODES[f]) for f in faces[yardstick.ATTACK_DICE:])
        counts[yardstick.DAMAGE[attack, saves]] += 1
    pmf = counts / 6**rolled
    assert len(exact_pmf) <= len(pmf)
    np.testing.assert_allclose(pmf[:len(exact_pmf)], exact_pmf, rtol=0, atol=1e-12)
    assert pmf[len(exact_pmf):].sum() == 0


def test_sampled_histogram_is_a_draw_of_the_exact_distribution(yardstick: ModuleType,
                                                               exact_pmf: np.ndarray) -> None:
    samples = 1_000_000
    counts = yardstick.damage_histogram(samples, seed=7)
    assert counts.sum() == samples
    # 5.5 standard errors per cell over 17 cells and the chi-square at z = 5: a false alarm about
    # once in a million runs.
    assert_pmf_close(exact_pmf, counts / samples, samples, "numpy yardstick", k=5.5, z=5.0)

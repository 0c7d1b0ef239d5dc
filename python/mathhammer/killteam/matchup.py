"""Team against team (docs/matchup.md): one weapon at several targets (``kt.volley``, Blast and
Torrent), and every weapon of one team against every operative of another (``kt.matchup``).

>>> from mathhammer import killteam as kt
>>> blast = kt.Weapon(4, 3, (3, 4), "Lethal 5+")
>>> v = kt.volley(blast, [kt.Operative(3, 8), kt.Operative(4, 8)], cover=[1, 0])
>>> round(v.incapacitated.mean, 4) == round(v.shots[0].kill_chance + v.shots[1].kill_chance, 4)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np

from mathhammer.core.batches import is_sequence
from mathhammer.core.distributions import Distribution
from mathhammer.core.options import DEFAULT_SAMPLES, EXACT_FIRST, Progress, engine_options
from mathhammer.core.sampling import cell_seed
from mathhammer.errors import InputError, InputTypeError
from mathhammer.killteam.profiles import Operative, Weapon
from mathhammer.killteam.results import ShootResult, VolleyResult
from mathhammer.killteam.shooting import shoot_batch
from mathhammer.killteam.variants import Variants

__all__ = ["VolleyResult", "volley"]


def _weapon_of(value: Any) -> Any:
    # a team's weapon (killteam.data.TeamWeapon) shoots as its profile
    inner = getattr(value, "weapon", None)
    return inner if isinstance(inner, Weapon) and not isinstance(value, Weapon) else value


def _target_of(value: Any) -> Any:
    # a team's operative (killteam.data.TeamOperative) is shot as its profile
    inner = getattr(value, "operative", None)
    return inner if isinstance(inner, Operative) else value


def volley(
    weapon: Weapon | Mapping[str, Any] | Any,
    targets: Sequence[Operative | Mapping[str, Any] | Any],
    cover: int | Sequence[int] = 0,
    obscured: bool | Sequence[bool] = False,
    *,
    cover_crits: int | Sequence[int] = 0,
    method: str = "exact",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> VolleyResult:
    """``weapon`` shooting every one of ``targets`` (a Blast or Torrent attack), each shot on its own
    with its own attack and defence dice: ``cover``, ``obscured`` and ``cover_crits`` are one value
    or one per target. ``shots[i]`` is ``kt.shoot(weapon, targets[i], ...)``; ``incapacitated`` the
    exact distribution of how many targets are incapacitated, ``total_damage`` of the wounds they
    lose in all (docs/rules/killteam.md §2.1). The options are ``kt.shoot``'s; with Monte Carlo,
    target i's shot is seeded ``cell_seed(seed, i)`` (``seed`` drawn when None).

    ``weapon`` may be a ``kt.Weapon``, a table of its fields or a team's weapon
    (``kt.data.TeamWeapon``); a target a ``kt.Operative``, a table or a team's operative.
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=EXACT_FIRST)
    if not is_sequence(targets) or isinstance(targets, np.ndarray):
        raise InputTypeError("targets", f"expected a list of targets, got {type(targets).__name__}")
    if len(targets) == 0:
        raise InputError("targets", "no targets; give at least one")
    shot_list = [_target_of(t) for t in targets]
    seeds: int | None | list[int] = None
    if options.method == "monte_carlo":
        base = options.draw_seed()
        seeds = [cell_seed(base, i) for i in range(len(shot_list))]
    else:
        base = None
    batch = shoot_batch(_weapon_of(weapon), shot_list, cover, obscured, 1, cover_crits=cover_crits,
                        method=options.method, samples=options.samples, seed=seeds, threads=options.threads,
                        progress=progress, executor=executor, variants=variants)
    shots = tuple(batch)
    sampled = options.method == "monte_carlo"
    return VolleyResult(
        shots=shots,
        incapacitated=Distribution(incapacitated_pmf(shots), estimated=sampled),
        total_damage=Distribution(total_damage_pmf(shots), estimated=sampled),
        method=shots[0].method,
        samples=shots[0].samples,
        weapon=shots[0].weapon,
        seed=base,
        variants=shots[0].variants,
    )


def incapacitated_pmf(shots: Sequence[ShootResult]) -> np.ndarray:
    """P(k of the shots' targets are incapacitated), k = 0..len(shots): independent shots, so the
    convolution of one two-point distribution (alive, incapacitated) per shot."""
    pmf = np.ones(1)
    for s in shots:
        p = min(1.0, max(0.0, s.kill_chance))
        pmf = np.convolve(pmf, np.array([1.0 - p, p]))
    return pmf


def total_damage_pmf(shots: Sequence[ShootResult]) -> np.ndarray:
    """P(the targets lose d wounds in all): each shot's damage capped at its target's wounds (the
    wounds it loses), convolved over the independent shots."""
    pmf = np.ones(1)
    for s in shots:
        lost = s.wounds_left.pmf[::-1]  # wounds_left over 0..wounds: reversed, the wounds lost
        pmf = np.convolve(pmf, lost)
    return np.trim_zeros(pmf, "b") if pmf[-1] == 0.0 and pmf.any() else pmf

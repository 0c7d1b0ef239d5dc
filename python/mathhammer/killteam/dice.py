"""Kill Team attack dice (docs/rules/killteam.md §1): the exact table of retained (crits, norms), or
Monte Carlo rolls of real dice in C++.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from concurrent.futures import Executor
from typing import Any

from mathhammer import _core
from mathhammer.core import sampling
from mathhammer.core.distributions import JointDistribution
from mathhammer.core.options import DEFAULT_SAMPLES, EXACT_FIRST, Progress, engine_options, work_starts
from mathhammer.killteam.plan import TABLE_SIDE, attack_profile, profile_distribution, weapon_of
from mathhammer.killteam.profiles import Fighter, Weapon, labelled
from mathhammer.killteam.results import AttackDiceResult
from mathhammer.killteam.variants import Variants

__all__ = ["attack_dice"]

_kt = _core.killteam


def attack_dice(
    source: Weapon | Fighter,
    obscured: bool = False,
    *,
    method: str = "exact",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> AttackDiceResult:
    """The distribution of retained (crits, norms) for a weapon's attack dice.

    ``method="exact"`` enumerates every face (and reroll face); ``"monte_carlo"`` rolls real dice in
    C++ (``samples``, ``seed``, ``threads``, ``progress``, ``executor``); ``"auto"`` is exact.
    ``result.pmf[c, n]`` is P(c crits and n norms retained), trimmed to the reachable size.
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=EXACT_FIRST)
    rule_variants = Variants.resolve(variants)
    weapon = weapon_of(source)
    # A fighter's dice score Mystic Scry without Devastating, as a fight does.
    profile = attack_profile(weapon, obscured, rule_variants, devastating=0 if isinstance(source, Fighter) else None)
    side = weapon.attacks + 1
    work_starts()
    if options.method in ("exact", "auto"):
        table = profile_distribution(profile)[:side, :side]
        ready = {"joint": JointDistribution(table, names=("crits", "norms")), "method": "exact", "samples": None,
                 "seed": None, "variants": rule_variants, "obscured": obscured}
        # the weapon's name and notation are written when the result is printed, not for each figure read
        return AttackDiceResult._pending_result(ready, {"weapon": functools.partial(labelled, weapon)})
    seed_used = options.draw_seed()
    kernel = functools.partial(_kt.attack_dice_counts, profile)  # picklable: process pools and Dask run it
    counts = sampling.run_monte_carlo(kernel, options.samples, seed_used, sampling.resolve_threads(options.threads),
                                      options.progress, options.executor)
    table = counts.reshape(TABLE_SIDE, TABLE_SIDE)[:side, :side]
    return AttackDiceResult(JointDistribution.from_counts(table, names=("crits", "norms")), "monte_carlo",
                            samples=options.samples, seed=seed_used, variants=rule_variants, weapon=labelled(weapon),
                            obscured=obscured)

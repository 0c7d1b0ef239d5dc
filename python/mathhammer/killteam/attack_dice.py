"""Kill Team attack and defence dice (docs/rules/killteam.md §1): exact retained (crits, norms) and Monte Carlo rolls."""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from mathhammer import _core, sampling
from mathhammer._validate import InputTypeError, check_bool, check_int
from mathhammer.killteam.profiles import Fighter, Operative, Weapon
from mathhammer.killteam.variants import Variants
from mathhammer.options import Progress, engine_options
from mathhammer.results import Distribution, EngineResult, Figure, JointDistribution, mean_stderr

_kt = _core.killteam
TABLE_SIDE: int = int(_kt.MAX_DICE) + 1


def _weapon_of(source: Any) -> Weapon:
    if isinstance(source, Weapon):
        return source
    if isinstance(source, Fighter):
        return source.weapon
    raise InputTypeError("weapon", f"expected a kt.Weapon or kt.Fighter, got {type(source).__name__}")


def attack_profile(source: Weapon | Fighter, obscured: bool = False) -> Any:
    """The C++ AttackProfile of a weapon's attack dice."""
    weapon = _weapon_of(source)
    rules = weapon.rules
    p = _kt.AttackProfile()
    p.dice = weapon.attacks
    p.hit = weapon.hit
    p.crit = weapon.crit_threshold
    p.accurate = min(rules.accurate, weapon.attacks)
    p.reroll = getattr(_kt.Reroll, rules.reroll)
    p.punishing = rules.punishing
    p.severe = rules.severe
    p.rending = rules.rending
    p.fails_to_norms = rules.fails_to_norms
    p.norms_to_crits = rules.norms_to_crits
    p.obscured = check_bool("obscured", obscured)
    return p


def defence_profile(target: Operative, dice: int, cover: int) -> Any:
    """The C++ profile of a defender's dice: `dice` after Piercing, `cover` saves retained as norms."""
    p = _kt.AttackProfile()
    p.dice = check_int("defence dice", dice, 0, 3)
    p.hit = target.save
    p.crit = 6
    p.accurate = min(check_int("cover", cover, 0, 3), p.dice)
    p.punishing = target.abilities.punishing
    return p


def _profile_key(p: Any) -> tuple[Any, ...]:
    return (p.dice, p.hit, p.crit, p.accurate, int(p.reroll), p.punishing, p.severe, p.rending,
            p.fails_to_norms, p.norms_to_crits, p.obscured)


@lru_cache(maxsize=4096)
def _cached_distribution(key: tuple[Any, ...]) -> np.ndarray:
    p = _kt.AttackProfile()
    (p.dice, p.hit, p.crit, p.accurate, reroll, p.punishing, p.severe, p.rending,
     p.fails_to_norms, p.norms_to_crits, p.obscured) = key
    p.reroll = _kt.Reroll(reroll)
    table = np.asarray(_kt.attack_distribution(p))
    table.setflags(write=False)
    return table


def profile_distribution(profile: Any) -> np.ndarray:
    """Exact P(crits, norms) of a C++ AttackProfile as a read-only 13x13 array [crits, norms]."""
    return _cached_distribution(_profile_key(profile))


def attack_distribution(source: Weapon | Fighter, obscured: bool = False) -> np.ndarray:
    """Exact P(crits, norms) of a weapon's retained attack dice, a read-only 13x13 array."""
    return profile_distribution(attack_profile(source, obscured))


@dataclass(frozen=True)
class AttackDiceResult(EngineResult):
    """Retained attack dice: ``joint.pmf[crits, norms]``; ``pmf`` is the same array."""

    joint: JointDistribution
    method: str
    samples: int | None = None
    seed: int | None = None
    variants: Variants = Variants()

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


def attack_dice(
    source: Weapon | Fighter,
    obscured: bool = False,
    *,
    method: str = "exact",
    samples: int = 1_000_000,
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
    options = engine_options(method, samples, seed, threads, progress, executor, methods=("exact", "monte_carlo", "auto"))
    rule_variants = Variants.resolve(variants)
    weapon = _weapon_of(source)
    profile = attack_profile(weapon, obscured)
    side = weapon.attacks + 1
    if options.method in ("exact", "auto"):
        table = profile_distribution(profile)[:side, :side]
        return AttackDiceResult(JointDistribution(table, names=("crits", "norms")), "exact", variants=rule_variants)
    seed_used = options.draw_seed()
    kernel = lambda s, t, b, e, th: _kt.attack_dice_counts(profile, s, t, b, e, th)  # noqa: E731
    counts = sampling.run_monte_carlo(kernel, options.samples, seed_used, sampling.resolve_threads(options.threads),
                                      options.progress, options.executor)
    table = counts.reshape(TABLE_SIDE, TABLE_SIDE)[:side, :side]
    return AttackDiceResult(JointDistribution.from_counts(table, names=("crits", "norms")), "monte_carlo",
                            samples=options.samples, seed=seed_used, variants=rule_variants)

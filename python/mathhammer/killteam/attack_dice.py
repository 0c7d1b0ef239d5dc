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


def attack_profile(source: Weapon | Fighter, obscured: bool = False, variants: Variants | None = None,
                   devastating: int | None = None) -> Any:
    """The C++ AttackProfile of a weapon's attack dice.

    Mystic Scry scores a crit at dc + Devastating (``devastating``: the weapon's own when None; a
    fight passes 0) and a norm at dn; ``variants`` gives the upgrade and Purity Seal readings.
    """
    weapon = _weapon_of(source)
    rules = weapon.rules
    rule_variants = Variants.resolve(variants)  # a public helper: any form of variants=, checked
    p = _kt.AttackProfile()
    p.dice = weapon.attacks
    p.hit = weapon.hit
    p.crit = weapon.crit_threshold
    p.auto_crits = min(rules.auto_crits, weapon.attacks)
    p.accurate = min(rules.accurate, weapon.attacks - p.auto_crits)
    p.reroll = getattr(_kt.Reroll, rules.reroll)
    p.punishing = rules.punishing
    p.purity_seal = rules.purity_seal
    p.close_assault = rules.close_assault
    p.waaagh = rules.waaagh
    p.severe = rules.severe
    p.rending = rules.rending
    p.mystic_scry = rules.mystic_scry
    if rules.mystic_scry:
        p.scry_crit_value = weapon.critical_damage + (rules.devastating if devastating is None else devastating)
        p.scry_norm_value = weapon.normal_damage
    p.fails_to_norms = rules.fails_to_norms
    p.norms_to_crits = rules.norms_to_crits
    p.obscured = check_bool("obscured", obscured)
    p.upgrades = getattr(_kt.Upgrades, rule_variants.upgrades)
    p.ones = getattr(_kt.Ones, rule_variants.ones)
    return p


def defence_profile(target: Operative, dice: int, cover: int, cover_crits: int = 0,
                    variants: Variants | None = None) -> Any:
    """The C++ profile of a defender's dice (docs/rules/killteam.md §8.2): `dice` after Piercing,
    `cover_crits` crit saves then `cover` normal saves retained without rolling."""
    abilities = target.abilities
    rule_variants = Variants.resolve(variants)  # a public helper: any form of variants=, checked
    p = _kt.AttackProfile()
    p.dice = check_int("defence dice", dice, 0, 3)
    p.hit = target.save
    p.crit = 6 if abilities.hardy is None else max(abilities.hardy, target.save)
    p.auto_crits = min(check_int("cover_crits", cover_crits, 0, 3), p.dice)
    p.accurate = min(check_int("cover", cover, 0, 3), p.dice - p.auto_crits)
    p.reroll = getattr(_kt.Reroll, abilities.save_reroll)
    p.punishing = abilities.punishing
    p.purity_seal = abilities.indomitus
    p.fails_to_norms = abilities.save_fails_to_norms
    p.norms_to_crits = abilities.save_norms_to_crits
    p.ones = getattr(_kt.Ones, rule_variants.ones)
    return p


_PROFILE_FIELDS = ("dice", "hit", "crit", "auto_crits", "accurate", "punishing", "purity_seal", "close_assault",
                   "waaagh", "severe", "rending", "mystic_scry", "scry_crit_value", "scry_norm_value",
                   "fails_to_norms", "norms_to_crits", "obscured")


def _profile_key(p: Any) -> tuple[Any, ...]:
    return (*(getattr(p, name) for name in _PROFILE_FIELDS), int(p.reroll), int(p.upgrades), int(p.ones))


@lru_cache(maxsize=4096)
def _cached_distribution(key: tuple[Any, ...]) -> np.ndarray:
    p = _kt.AttackProfile()
    for name, value in zip(_PROFILE_FIELDS, key):
        setattr(p, name, value)
    reroll, upgrades, ones = key[len(_PROFILE_FIELDS):]
    p.reroll = _kt.Reroll(reroll)
    p.upgrades = _kt.Upgrades(upgrades)
    p.ones = _kt.Ones(ones)
    table = np.asarray(_kt.attack_distribution(p))
    table.setflags(write=False)
    return table


def profile_distribution(profile: Any) -> np.ndarray:
    """Exact P(crits, norms) of a C++ AttackProfile as a read-only 13x13 array [crits, norms]."""
    return _cached_distribution(_profile_key(profile))


def attack_distribution(source: Weapon | Fighter, obscured: bool = False, variants: Variants | None = None,
                        devastating: int | None = None) -> np.ndarray:
    """Exact P(crits, norms) of a weapon's retained attack dice, a read-only 13x13 array."""
    return profile_distribution(attack_profile(source, obscured, variants, devastating))


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
    # A fighter's dice score Mystic Scry without Devastating, as a fight does.
    profile = attack_profile(weapon, obscured, rule_variants, devastating=0 if isinstance(source, Fighter) else None)
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

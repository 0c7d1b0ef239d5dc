"""Synthetic Kill Team teams for the matchup and meta tests and benchmarks: made-up operatives and
weapons (never a published datacard), varied enough to exercise every kind of pairing."""

from __future__ import annotations

import random

from mathhammer import killteam as kt
from mathhammer.killteam.data import Team, TeamOperative, TeamWeapon

RANGED_RULES = ("", "Lethal 5+", "Piercing 1", "Balanced", "Rending", "Devastating 2, Piercing 1")
MELEE_RULES = ("", "Lethal 5+", "Brutal", "Shock", "Rending")


def synthetic_team(seed: int, operatives: int = 14, weapons: int = 3, name: str | None = None) -> Team:
    """A team of ``operatives`` operatives with ``weapons`` weapons each (at least one ranged and one
    melee when there are two or more), drawn from ``seed``."""
    rng = random.Random(seed)
    ops = []
    for i in range(operatives):
        save, wounds = rng.choice((3, 4, 5)), rng.randint(7, 14)
        own = []
        for k in range(weapons):
            ranged = k < weapons - 1 if weapons > 1 else True
            attacks = rng.randint(3, 5)
            damage = rng.choice(((2, 3), (3, 4), (3, 5), (4, 5)))
            rules = rng.choice(RANGED_RULES if ranged else MELEE_RULES)
            weapon = kt.Weapon(attacks, rng.choice((2, 3, 4)), damage, rules)
            blast = rng.choice((None, None, 2)) if ranged else None
            torrent = rng.choice((None, None, None, 1)) if ranged and blast is None else None
            area = [f'Blast {blast}"'] if blast else [f'Torrent {torrent}"'] if torrent else []
            wr = ", ".join(([rules] if rules else []) + area)  # the WR text, as an imported weapon keeps it
            own.append(TeamWeapon.read(f"{'gun' if ranged else 'blade'} {k + 1}", "ranged" if ranged else "melee",
                                       weapon, wr))
        ops.append(TeamOperative(f"op {i + 1}", kt.Operative(save, wounds), 2, 6, tuple(own)))
    return Team(name or f"Synthetic {seed}", f"synthetic-{seed}.cat", 1, "0" * 64, tuple(ops))

"""The yardstick of the Monte Carlo shot: the vectorised numpy program an analyst would write.

The shot of the issue's comparison: 4 attack dice hitting on 3+ (crits on 6), 3/4 damage, against a
3+ save with one cover save (so 2 defence dice rolled, crits on 6, and one normal save kept).

Every die is drawn from numpy's generator as a uint8; a lookup classifies each face as fail, norm or
crit (packed so that a row's sum is its (crits, norms) code); one table, built here by brute force
over every block allocation, gives the least damage of each (crits, norms, crit saves, normal saves).
It shares nothing with mathhammer: tests/killteam/test_numpy_yardstick.py checks its distribution
against the exact engine's, so that a benchmark against it compares two correct programs.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

ATTACK_DICE = 4
HIT, CRIT = 3, 6  # attack dice: norm on 3+, crit on 6
NORMAL_DAMAGE, CRITICAL_DAMAGE = 3, 4
SAVE = 3  # defence dice: norm save on 3+, crit save on 6
DEFENCE_DICE = 3
COVER = 1  # cover saves: kept as normal saves, out of the defence dice
ROLLED_SAVES = DEFENCE_DICE - COVER
MAX_DAMAGE = ATTACK_DICE * CRITICAL_DAMAGE

# A die's code: fail 0, norm 1, crit BASE; the sum over a row is crits * BASE + norms.
BASE = max(ATTACK_DICE, DEFENCE_DICE) + 1


def _classify(hit: int, crit: int) -> npt.NDArray[np.uint8]:
    codes = np.zeros(7, dtype=np.uint8)
    for face in range(1, 7):
        codes[face] = BASE if face >= crit else (1 if face >= hit else 0)
    return codes


def least_damage(crits: int, norms: int, crit_saves: int, normal_saves: int) -> int:
    """The least damage the defender can take: every way to block some crits and norms, tried.

    A crit save blocks a crit or a norm, a normal save a norm, two normal saves a crit.
    """
    best = crits * CRITICAL_DAMAGE + norms * NORMAL_DAMAGE
    for blocked_crits in range(crits + 1):
        for blocked_norms in range(norms + 1):
            for crits_by_crit_saves in range(min(crit_saves, blocked_crits) + 1):
                pairs = blocked_crits - crits_by_crit_saves
                crit_saves_left = crit_saves - crits_by_crit_saves
                norms_by_normal_saves = max(0, blocked_norms - crit_saves_left)
                if 2 * pairs + norms_by_normal_saves <= normal_saves:
                    damage = (crits - blocked_crits) * CRITICAL_DAMAGE + (norms - blocked_norms) * NORMAL_DAMAGE
                    best = min(best, damage)
    return best


ATTACK_CODES = _classify(HIT, CRIT)
SAVE_CODES = _classify(SAVE, 6)
# DAMAGE[attack code, save code], save codes counting the cover save among the normal saves.
DAMAGE = np.zeros((BASE * BASE, BASE * BASE), dtype=np.uint8)
for _c in range(ATTACK_DICE + 1):
    for _n in range(ATTACK_DICE + 1 - _c):
        for _sc in range(ROLLED_SAVES + 1):
            for _sn in range(ROLLED_SAVES + 1 - _sc):
                DAMAGE[_c * BASE + _n, _sc * BASE + _sn] = least_damage(_c, _n, _sc, _sn + COVER)


def damage_histogram(samples: int, seed: int, chunk: int = 1 << 18) -> npt.NDArray[np.int64]:
    """Counts of each damage 0..MAX_DAMAGE over `samples` shots."""
    rng = np.random.default_rng(seed)
    damage = DAMAGE.ravel()
    counts = np.zeros(MAX_DAMAGE + 1, dtype=np.int64)
    for start in range(0, samples, chunk):
        n = min(chunk, samples - start)
        # one row per die (summing over rows is a vectorised add; over short columns it is not)
        dice = rng.integers(1, 7, size=(ATTACK_DICE + ROLLED_SAVES, n), dtype=np.uint8)
        attack = np.take(ATTACK_CODES, dice[:ATTACK_DICE]).sum(axis=0, dtype=np.uint8)
        saves = np.take(SAVE_CODES, dice[ATTACK_DICE:]).sum(axis=0, dtype=np.uint8)
        index = attack.astype(np.intp) * (BASE * BASE) + saves
        counts += np.bincount(np.take(damage, index), minlength=MAX_DAMAGE + 1)
    return counts

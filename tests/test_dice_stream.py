"""The dice stream rebuilt in plain Python: the C++ kernels must read exactly these dice, in this order.

Chunk k of a run draws from xoshiro256++ seeded through splitmix64 with (seed, k); each 64-bit draw
below 6^24 (Lemire's rejection) is 24 d6 in base 6, least significant digit first. The Kill Team
attack dice are looked up several dice at a time (one base-6 number per roll); rolls of 5 dice
straddle the 24-dice draws, and Balanced rolls a die more after some rolls, so these cases check
that the lookups take the very dice a die-by-die roll would.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from mathhammer import _core
from mathhammer import killteam as kt
from mathhammer.killteam.plan import TABLE_SIDE, attack_profile

MASK = (1 << 64) - 1
SIX_24 = 6**24


def splitmix64(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return x, z ^ (z >> 31)


def rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


def draws(seed: int, stream: int) -> Iterator[int]:
    """xoshiro256++ words of stream (seed, stream)."""
    _, mixed = splitmix64(stream)
    x = seed ^ mixed
    s = []
    for _ in range(4):
        x, word = splitmix64(x)
        s.append(word)
    while True:
        result = (rotl((s[0] + s[3]) & MASK, 23) + s[0]) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        yield result


def below(words: Iterator[int], n: int) -> int:
    m = next(words) * n
    if (m & MASK) < n:
        threshold = ((1 << 64) - n) % n
        while (m & MASK) < threshold:
            m = next(words) * n
    return m >> 64


def d6_faces(seed: int, stream: int) -> Iterator[int]:
    words = draws(seed, stream)
    while True:
        pool = below(words, SIX_24)
        for _ in range(24):
            yield pool % 6 + 1
            pool //= 6


def test_d6_histogram_reads_the_python_stream() -> None:
    faces = d6_faces(5, 0)
    expected = np.zeros(6, dtype=np.uint64)
    for _ in range(1000):
        expected[next(faces) - 1] += 1
    assert np.array_equal(_core.core.d6_histogram(5, 1000, 0, 1, 1), expected)


def plain_roll(faces: Iterator[int], dice: int, hit: int, balanced: bool) -> int:
    """One roll with no rule but Balanced, die by die: crits * TABLE_SIDE + norms."""
    rolled = [next(faces) for _ in range(dice)]
    if balanced and any(f < hit for f in rolled):
        rolled.remove(next(f for f in rolled if f < hit))
        rolled.append(next(faces))
    crits = sum(f == 6 for f in rolled)
    norms = sum(hit <= f < 6 for f in rolled)
    return crits * TABLE_SIDE + norms


@pytest.mark.parametrize("dice, hit, rules", [(4, 3, ""), (5, 4, ""), (5, 3, "Balanced"), (7, 4, ""),
                                              (9, 3, "Balanced")])
def test_attack_dice_read_the_python_stream(dice: int, hit: int, rules: str) -> None:
    rolls = 600
    profile = attack_profile(kt.Weapon(dice, hit, rules=rules))
    for chunk in (0, 3):
        faces = d6_faces(11, chunk)
        expected = np.zeros(TABLE_SIDE * TABLE_SIDE, dtype=np.uint64)
        for _ in range(rolls):
            expected[plain_roll(faces, dice, hit, rules == "Balanced")] += 1
        # chunk `chunk` of a run long enough to have it, its full 65536 rolls cut to the first `rolls`
        counts = _core.killteam.attack_dice_counts(profile, 11, chunk * _core.core.CHUNK_SAMPLES + rolls, chunk,
                                                   chunk + 1, 1)
        assert np.array_equal(counts, expected)

"""kt.matchup: every row is the separate kt.shoot / kt.fight call; shots to kill against repeated
convolution; best(), the frame's columns, printing, the heat map, JSON and team library paths."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mathhammer import InputError
from mathhammer import killteam as kt
from mathhammer.files.teams import save_team
from mathhammer.killteam.versus import shots_to_kill

from synthetic_teams import synthetic_team

A = synthetic_team(101, operatives=4, weapons=3)
B = synthetic_team(202, operatives=3, weapons=3)

COLUMNS = ["kind", "attacker", "weapon", "defender", "cover", "first", "strategy_a", "strategy_b", "mean_damage",
           "kill_chance", "half_chance", "shots_to_kill", "death_chance", "both_survive", "mean_wounds_a",
           "mean_wounds_b", "blast", "torrent", "self_damage", "shooter_death_chance"]


def _expected_shots(pmf: np.ndarray, wounds: int) -> float:
    # E[N] = sum over n >= 0 of P(n shots leave the target standing), by repeated convolution
    alive = np.zeros(wounds)
    alive[0] = 1.0
    total = 0.0
    for _ in range(10_000):
        mass = alive.sum()
        total += mass
        if mass < 1e-15:
            break
        alive = np.convolve(alive, pmf)[:wounds]
    return total


def test_shooting_rows_are_separate_shots() -> None:
    m = kt.matchup(A, B, fight=False, cover=(0, 1))
    ranged = [(op, w) for op in A for w in op.weapons if w.kind == "ranged"]
    assert len(m.shots) == len(ranged) * len(B) * 2 and m.fights == ()
    rows = iter(m.shots)
    for op, w in ranged:
        for target in B:
            for cover in (0, 1):
                row = next(rows)
                r = kt.shoot(w.weapon, target.operative, cover)
                assert (row.attacker, row.weapon, row.defender, row.cover) == (op.name, w.name, target.name, cover)
                assert row.mean_damage == r.damage.mean and row.kill_chance == r.kill_chance
                half = -(-target.operative.wounds // 2)
                assert row.half_chance == pytest.approx(sum(r.damage.prob(d) for d in range(half, r.damage.max + 1)))
                assert row.shots_to_kill == pytest.approx(_expected_shots(r.damage.pmf, target.operative.wounds),
                                                          rel=1e-9)
                assert (row.blast, row.torrent) == (w.blast, w.torrent)


def test_fighting_rows_are_separate_fights() -> None:
    pairs = (("max_damage", "min_damage"), ("parry", "strike"))
    m = kt.matchup(A, B, shoot=False, first=("a", "b"), strategies=pairs)
    melee_a = [(op, w) for op in A for w in op.weapons if w.kind == "melee"]
    melee_b = [(op, w) for op in B for w in op.weapons if w.kind == "melee"]
    assert len(m.fights) == len(melee_a) * len(melee_b) * 2 * 2 and m.shots == ()
    rows = iter(m.fights)
    for op, w in melee_a:
        for other, ow in melee_b:
            for first in ("a", "b"):
                for sa, sb in pairs:
                    row = next(rows)
                    fa = kt.Fighter(w.weapon.attacks, w.weapon.hit, w.weapon.damage, op.operative.wounds,
                                    rules=w.weapon.rules, strategy=sa)
                    fb = kt.Fighter(ow.weapon.attacks, ow.weapon.hit, ow.weapon.damage, other.operative.wounds,
                                    rules=ow.weapon.rules, strategy=sb)
                    r = kt.fight(fa, fb, first)
                    assert (row.attacker, row.weapon, row.defender, row.first) == (op.name, w.name,
                                                                                  f"{other.name}/{ow.name}", first)
                    assert row.kill_chance == r.death_chance("b") and row.death_chance == r.death_chance("a")
                    assert row.both_survive == pytest.approx(1 - r.death_chance("a") - r.death_chance("b")
                                                             + r.joint.pmf[0, 0], abs=1e-12)
                    assert row.mean_wounds_a == r.wounds_a.mean and row.mean_wounds_b == r.wounds_b.mean


def test_shots_to_kill_by_hand() -> None:
    # a shot dealing 3 with chance 1/2, else nothing, against 6 wounds: two hits needed, each
    # taking 2 shots on average, so 4 shots; a shot that never damages never incapacitates
    assert shots_to_kill(np.array([0.5, 0, 0, 0.5]), 6) == pytest.approx(4.0)
    assert shots_to_kill(np.array([0.5, 0, 0, 0.5]), 3) == pytest.approx(2.0)
    assert math.isinf(shots_to_kill(np.array([1.0]), 5))


def test_frame_best_and_printing() -> None:
    m = kt.matchup(A, B)
    frame = m.to_frame()
    assert list(frame.columns) == COLUMNS
    assert set(frame["kind"]) == {"shoot", "fight"} and len(frame) == len(m.shots) + len(m.fights)
    best = m.best("kill_chance")
    assert len(best) == len(B) * 2  # each defender, each cover
    shooting = frame[frame["kind"] == "shoot"]
    for row in best.itertuples(index=False):
        same = shooting[(shooting["defender"] == row.defender) & (shooting["cover"] == row.cover)]
        assert row.kill_chance == same["kill_chance"].max()
    fewest = m.best("shots_to_kill")
    for row in fewest.itertuples(index=False):
        same = shooting[(shooting["defender"] == row.defender) & (shooting["cover"] == row.cover)]
        assert row.shots_to_kill == same["shots_to_kill"].min()
    assert len(m.best("death_chance", kind="fight")) == len([1 for op in B for w in op.weapons
                                                              if w.kind == "melee"]) * 2
    text = m.to_markdown()
    assert "Shooting: " in text and "Fighting: " in text
    assert kt.Matchup.from_json(m.to_json()) == m
    with pytest.raises(InputError, match=r"^by: "):
        m.best("nonsense")


def test_heat_map_is_labelled(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    big_a, big_b = synthetic_team(7, operatives=14, weapons=4), synthetic_team(8, operatives=14)
    m = kt.matchup(big_a, big_b, fight=False, cover=0)
    weapons, defenders, table = m.matrix()
    assert table.shape == (14 * 3, 14) and not np.isnan(table).any()
    ax = m.plot()
    assert [t.get_text() for t in ax.get_yticklabels()] == weapons
    assert [t.get_text() for t in ax.get_xticklabels()] == defenders
    ax.figure.savefig(tmp_path / "heat.png")
    assert (tmp_path / "heat.png").stat().st_size > 0


def test_teams_from_library_paths_and_bad_options(tmp_path) -> None:
    path_a, _ = save_team(A, tmp_path)
    path_b, _ = save_team(B, tmp_path)
    from_files = kt.matchup(str(path_a), path_b, cover=1, first="b")
    from_objects = kt.matchup(A, B, cover=1, first="b")
    assert from_files.to_frame().equals(from_objects.to_frame())
    with pytest.raises(InputError, match=r"^cover\[1\]: "):
        kt.matchup(A, B, cover=(0, 9))
    with pytest.raises(InputError, match=r"^first\[0\]: "):
        kt.matchup(A, B, first="c")
    with pytest.raises(InputError, match=r"^strategies\[0\]\[1\]: "):
        kt.matchup(A, B, strategies=(("max_damage", "sometimes"),))

"""kt.matchup: every row is the separate kt.shoot / kt.fight call; shots to kill against repeated
convolution; best(), the frame's columns, printing, the heat map, JSON and team library paths."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mathhammer import InputError
from mathhammer import killteam as kt
from mathhammer.files.teams import save_team
from mathhammer.killteam.data import Team, TeamOperative, TeamWeapon
from mathhammer.killteam.report import matchup_all_tables, matchup_picture
from mathhammer.killteam.results import BestFight, BestShot, MatchupFight, MatchupShot, MatchupSummary
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
    text = m.to_markdown()  # a matchup prints as its summary; every pairing with matchup_all_tables
    assert text == m.summary().to_markdown() and "### Synthetic 101 shooting at Synthetic 202, cover 1" in text
    tables, _ = matchup_all_tables(m)
    assert [t.title for t in tables] == ["Shooting: Synthetic 101 at Synthetic 202",
                                         "Fighting: Synthetic 101 against Synthetic 202"]
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



# --- the summary ---------------------------------------------------------------------------------------

def _by_hand(frame, defenders, cover, first="a"):
    """The summary picked from the long table with pandas: per defender at ``cover`` the fewest mean
    shots to kill (ties: more mean damage, then the matchup's order); per defending operative, each of
    my melee weapons met by its weapon least likely to fall (ties: more likely to incapacitate mine),
    then the weapon of mine most likely to win (ties: least likely to lose, then the order)."""
    shots = frame[(frame["kind"] == "shoot") & (frame["cover"] == cover)].assign(order=lambda f: range(len(f)))
    shot_rows = []
    for d in defenders:
        rows = shots[shots["defender"] == d].sort_values(["shots_to_kill", "mean_damage", "order"],
                                                          ascending=[True, False, True])
        top = rows.iloc[0]
        shot_rows.append((d, f"{top.attacker}/{top.weapon}", top.shots_to_kill, top.kill_chance, top.mean_damage))
    fights = frame[(frame["kind"] == "fight") & (frame["first"] == first)].copy()
    pair = (fights["strategy_a"].iloc[0], fights["strategy_b"].iloc[0])
    fights = fights[(fights["strategy_a"] == pair[0]) & (fights["strategy_b"] == pair[1])]
    fights["operative"] = fights["defender"].str.split("/").str[0]
    fights["order"] = range(len(fights))
    fight_rows = []
    for d in defenders:
        rows = fights[fights["operative"] == d]
        answered = rows.sort_values(["kill_chance", "death_chance", "order"], ascending=[True, False, True]) \
            .groupby(["attacker", "weapon"], sort=False).head(1)
        top = answered.sort_values(["kill_chance", "death_chance", "order"], ascending=[False, True, True]).iloc[0]
        fight_rows.append((d, f"{top.attacker}/{top.weapon}", top.defender.split("/")[1], top.kill_chance,
                           top.both_survive, top.death_chance))
    return shot_rows, fight_rows


def test_the_summary_is_the_long_table_picked_by_hand() -> None:
    m = kt.matchup(A, B, cover=(0, 1), first=("a", "b"), strategies=(("max_damage", "max_damage"), ("parry", "strike")))
    frame = m.to_frame()
    names = [op.name for op in B]
    for cover, first in ((None, None), (0, "a"), (1, "b")):
        summary = m.summary(cover, first)
        shots, fights = _by_hand(frame, names, 1 if cover is None else cover, first or "a")
        assert [(s.defender, s.best, s.shots_to_kill, s.kill_chance, s.mean_damage) for s in summary.shots] == shots
        assert [(f.defender, f.best, f.defender_weapon, f.kill_chance, f.both_survive, f.death_chance)
                for f in summary.fights] == fights
        assert summary.strategies == ("max_damage", "max_damage") and summary.first == (first or "a")
    assert "the first of 2 pairs" in " ".join(m.summary().notes)
    assert MatchupSummary.from_json(m.summary().to_json()) == m.summary()
    with pytest.raises(InputError, match=r"^cover: 2 was not computed"):
        m.summary(cover=2)
    with pytest.raises(InputError, match=r"^cover: "):
        m.summary(cover=7)
    only_b = kt.matchup(A, B, cover=0, first="b")
    assert only_b.summary().cover == 0 and only_b.summary().first == "b"


def test_summary_ties_and_missing_weapons_by_hand() -> None:
    # two guns as quick as each other: the one of more mean damage; a target no gun damages: none;
    # their operative with two melee weapons answers with the one I beat least often
    shots = (MatchupShot("Me", "pistol", "X", 1, 2.0, 0.2, 0.3, 3.0), MatchupShot("Me", "rifle", "X", 1, 2.5, 0.1, 0.3, 3.0),
             MatchupShot("Me", "pistol", "Y", 1, 0.0, 0.0, 0.0, math.inf),
             MatchupShot("Me", "rifle", "Y", 1, 0.0, 0.0, 0.0, math.inf))
    fights = (MatchupFight("Me", "axe", "X/claw", "a", "max_damage", "max_damage", 0.6, 0.1, 0.3, 5.0, 2.0),
              MatchupFight("Me", "axe", "X/maul", "a", "max_damage", "max_damage", 0.4, 0.2, 0.4, 4.0, 3.0),
              MatchupFight("Me", "sword", "X/claw", "a", "max_damage", "max_damage", 0.5, 0.1, 0.4, 5.0, 2.0),
              MatchupFight("Me", "sword", "X/maul", "a", "max_damage", "max_damage", 0.45, 0.3, 0.25, 3.0, 2.0))
    m = kt.Matchup("Mine", "Theirs", shots, fights, "exact", defenders=("X", "Y"), defender_wounds=(8, 9))
    summary = m.summary()
    assert summary.shots == (BestShot("X", "Me", "rifle", 3.0, 0.1, 2.5), BestShot("Y", None, None, math.inf, 0.0, 0.0))
    # axe: answered by the maul (0.4), sword: by the maul (0.45): the sword
    assert summary.fights == (BestFight("X", "maul", "Me", "sword", 0.45, 0.25, 0.3),
                              BestFight("Y", None, None, None, 0.0, 0.0, 0.0))
    text = summary.to_markdown()
    assert "| Y | nothing damages it | - | - | - |" in text and "| Y | no melee weapon | - | - | - |" in text
    assert "| X | Me/sword | 45.00% | 25.00% | 30.00% |" in text


def test_the_summary_says_what_a_team_lacks() -> None:
    melee_only = Team("Brawlers", "b.cat", 1, "0" * 64, (TeamOperative("Brute", kt.Operative(5, 10), 2, 6, (
        TeamWeapon.read("Fists", "melee", kt.Weapon(4, 3, (3, 4)), "-"),)),))
    ranged_only = synthetic_team(5, operatives=2, weapons=1)  # one ranged weapon each, no melee
    summary = kt.matchup(melee_only, ranged_only).summary()
    assert summary.shots == () and summary.fights == ()
    assert summary.notes == ("Brawlers has no ranged weapons", "Synthetic 5 has no melee weapons: no fights")
    text = summary.to_markdown()
    assert "Brawlers has no ranged weapons" in text and "no fights" in text
    summary = kt.matchup(ranged_only, melee_only, fight=False).summary()
    assert [s.defender for s in summary.shots] == ["Brute"] and "fights were not asked for" in summary.notes


def test_the_heat_maps_read(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    long_a = synthetic_team(9, operatives=3, weapons=3)
    long_a = Team("Long", "l.cat", 1, "0" * 64, tuple(
        TeamOperative(f"Veteran sergeant of the very long company name {i}", op.operative, 2, 6, op.weapons)
        for i, op in enumerate(long_a)))
    m = kt.matchup(long_a, B, cover=1)
    weapons, defenders, table = m.matrix("damage_share", cover=1)
    wounds = {op.name: op.operative.wounds for op in B}
    for row in m.shots:
        assert table[weapons.index(f"{row.attacker}: {row.weapon}"), defenders.index(row.defender)] == \
            pytest.approx(row.mean_damage / wounds[row.defender])
    ax = m.plot()  # the default: damage as a share of the wounds, coloured from the lowest to the highest
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert [" ".join(label.split()) for label in labels] == weapons  # whole, wrapped between words
    assert len(set(labels)) == len(labels) and all(len(line) <= 28 for label in labels for line in label.split("\n"))
    low, high = ax.images[0].get_clim()
    assert (low, high) == (pytest.approx(np.nanmin(table)), pytest.approx(np.nanmax(table)))
    both = matchup_picture(m)
    panels = [a for a in both.figure.axes if a.images]
    assert len(panels) == 2 and "chance to win" in panels[1].get_title()
    small = matchup_picture(kt.matchup(synthetic_team(9, operatives=2), B, cover=1))
    assert both.figure.get_size_inches()[1] > small.figure.get_size_inches()[1]  # taller with more rows
    both.figure.savefig(tmp_path / "heat.png")
    assert (tmp_path / "heat.png").stat().st_size > 0

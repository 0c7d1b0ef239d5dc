"""kt.compare and kt.compare_fights: every cell equals the separate kt.shoot / kt.fight call; the
deltas are the differences; the CLI prints the same numbers."""

from __future__ import annotations

import itertools
import json
from typing import Any

import numpy as np
import pytest

from mathhammer import killteam as kt
from mathhammer.errors import InputError, InputTypeError
from mathhammer.cli import main
from mathhammer.cli.killteam import parse_range

LETHAL = kt.Weapon(4, 3, (3, 4), "Lethal 5+")
PIERCING = kt.Weapon(4, 3, (3, 4), "Piercing 1")


def _at_least(result: kt.ShootResult, w: int) -> float:
    """P(damage >= w) summed from the pmf here, not through Distribution.at_least."""
    pmf = result.damage.pmf
    return float(sum(pmf[w:])) if w < pmf.size else 0.0


def test_each_cell_is_the_separate_shot() -> None:
    c = kt.compare([LETHAL, PIERCING])
    assert c.saves == (2, 3, 4, 5, 6) and c.thresholds == tuple(range(1, 26))
    assert c.labels == ("4A 3+ 3/4 Lethal 5+", "4A 3+ 3/4 Piercing 1")
    for i, gun in enumerate([LETHAL, PIERCING]):
        for j, save in enumerate(c.saves):
            direct = kt.shoot(gun, kt.Operative(save, wounds=12))
            assert c.mean[i, j] == pytest.approx(direct.damage.mean, abs=1e-12)
            assert c.at_least[i, j] == pytest.approx([_at_least(direct, w) for w in range(1, 26)], abs=1e-12)
    assert c.delta_mean is not None and c.delta_at_least is not None
    assert np.array_equal(c.delta_mean, c.mean[0] - c.mean[1])
    assert np.array_equal(c.delta_at_least, c.at_least[0] - c.at_least[1])


def test_a_hand_checked_cell() -> None:
    # 1 attack hitting on 4+ (crits on 6), 2/3 damage, against a 6+ save, no cover:
    # P(crit) = 1/6, P(norm) = 2/6; the hit gets through unless one of the 3 defence dice shows a 6.
    c = kt.compare([kt.Weapon(1, 4, (2, 3))], saves=[6], at_least=[1, 3])
    through = (5 / 6) ** 3
    assert c.mean[0, 0] == pytest.approx((1 / 6) * through * 3 + (2 / 6) * through * 2, abs=1e-12)
    assert c.at_least[0, 0, 0] == pytest.approx((3 / 6) * through, abs=1e-12)
    assert c.at_least[0, 0, 1] == pytest.approx((1 / 6) * through, abs=1e-12)
    assert c.delta_mean is None


def test_situations_carry_their_own_target_and_options() -> None:
    tough = kt.Operative(3, wounds=8, abilities="Feel No Pain 5+")
    situations: list[Any] = [{"weapon": LETHAL, "target": tough, "cover": 1, "label": "in cover"}, PIERCING]
    c = kt.compare(situations, saves=[3, 5], at_least=[4, 8], rounds=2)
    assert c.labels == ("in cover", "4A 3+ 3/4 Piercing 1")
    first = kt.shoot(LETHAL, kt.Operative(5, wounds=8, abilities="Feel No Pain 5+"), cover=1, rounds=2)
    second = kt.shoot(PIERCING, kt.Operative(5, wounds=12), rounds=2)
    assert c.mean[0, 1] == pytest.approx(first.damage.mean, abs=1e-12)
    assert c.mean[1, 1] == pytest.approx(second.damage.mean, abs=1e-12)
    assert c.at_least[0, 1, 1] == pytest.approx(_at_least(first, 8), abs=1e-12)


def test_the_shared_target_replaces_the_default() -> None:
    c = kt.compare([LETHAL], saves=[4], at_least=[1], target=kt.Operative(2, wounds=5))
    assert c.mean[0, 0] == pytest.approx(kt.shoot(LETHAL, kt.Operative(4, wounds=5)).damage.mean, abs=1e-12)


def test_frame_markdown_and_text() -> None:
    c = kt.compare([LETHAL, PIERCING], saves=[3, 4], at_least=range(1, 4))
    frame = c.to_frame()
    assert list(frame.columns) == ["situation", "save", "mean_damage", "p_at_least_1", "p_at_least_2", "p_at_least_3"]
    assert len(frame) == 3 * 2  # two situations and their difference, two saves each
    assert frame["mean_damage"].iloc[4] == pytest.approx(c.mean[0, 0] - c.mean[1, 0])
    text = str(c)
    assert "4A 3+ 3/4 Lethal 5+ minus 4A 3+ 3/4 Piercing 1" in text and "3+" in text and ">=3" in text
    assert c.to_markdown().count("### ") == 4  # the mean damage, P(damage >= w) of each weapon, their difference


@pytest.mark.parametrize("call, field", [
    (lambda: kt.compare([]), "situations"),
    (lambda: kt.compare([{"target": kt.Operative(3)}]), "situations[0].weapon"),
    (lambda: kt.compare([{"weapon": LETHAL, "armour": 2}]), "situations[0].armour"),
    (lambda: kt.compare([{"weapon": LETHAL, 0: None}]), "situations[0]"),  # mixed key types broke sorting
    (lambda: kt.compare([LETHAL], saves=[1]), "saves"),
    (lambda: kt.compare([LETHAL], weapon=LETHAL), "weapon"),
])
def test_bad_comparisons_name_the_field(call: Any, field: str) -> None:
    with pytest.raises((InputError, TypeError)) as caught:
        call()
    assert getattr(caught.value, "field", None) == field


FIGHTER = kt.Fighter(4, 3, (3, 4), wounds=12)
PARRY = kt.Fighter(4, 3, (3, 4), wounds=12, strategy="parry")
OPPONENTS = [kt.Fighter(5, 4, (4, 5), wounds=10), kt.Fighter(3, 3, (4, 5), wounds=10, abilities="Storm Shield")]


def test_each_fight_is_the_separate_fight() -> None:
    c = kt.compare_fights({"max damage": FIGHTER, "parry": PARRY}, OPPONENTS, rounds=2)
    assert c.fighters == ("max damage", "parry")
    for i, a in enumerate([FIGHTER, PARRY]):
        for j, b in enumerate(OPPONENTS):
            direct = kt.fight(a, b, rounds=2)
            assert c.kill[i, j] == direct.death_chance("b") and c.death[i, j] == direct.death_chance("a")
            assert c.wounds[i, j] == direct.wounds_a.mean and c.opponent_wounds[i, j] == direct.wounds_b.mean
    frame = c.to_frame()
    assert len(frame) == 4 and frame["kill_chance"].tolist() == c.kill.ravel().tolist()
    assert "Kill chance" in str(c) and "| parry |" in c.to_markdown()


def test_the_opponent_may_go_first() -> None:
    c = kt.compare_fights([FIGHTER], OPPONENTS[:1], first="b")
    assert c.death[0, 0] == kt.fight(FIGHTER, OPPONENTS[0], first="b").death_chance("a")


def test_parse_range() -> None:
    assert parse_range("at-least", "1-3,7", 1, 25) == [1, 2, 3, 7]
    with pytest.raises(InputError, match="at-least"):
        parse_range("at-least", "5-2", 1, 25)


def test_fighters_and_opponents_may_be_notation() -> None:
    c = kt.compare_fights([str(PARRY), FIGHTER], "5A 4+ 4/5; 10W")
    assert c.fighters == (str(PARRY), str(FIGHTER)) and c.opponents == (str(OPPONENTS[0]),)
    assert c.kill[0, 0] == kt.fight(PARRY, OPPONENTS[0]).death_chance("b")
    with pytest.raises(InputError) as caught:
        kt.compare_fights([FIGHTER, "4A 3+ 3/4; 99W"], OPPONENTS)
    assert caught.value.field == "fighters[1].wounds"


def test_cli_compare_prints_the_api_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["killteam", "compare", "--weapon", str(LETHAL), "--weapon", str(PIERCING), "--saves", "3-4",
            "--at-least", "1-5", "--cover", "1", "--format", "json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    c = kt.compare([LETHAL, PIERCING], saves=[3, 4], at_least=range(1, 6), cover=1)
    assert out["rows"] == c.to_frame().to_dict(orient="records")
    for fmt in ("table", "csv", "markdown"):
        assert main([*args[:-1], fmt]) == 0
        assert "Lethal 5+" in capsys.readouterr().out


def test_cli_compare_fights_with_strategies(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["killteam", "compare-fights", "--fighter", "4A 3+ 3/4; 12W", "--strategies", "max_damage,parry",
            "--opponent", str(OPPONENTS[0]), "--format", "json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert [row["kill_chance"] for row in out["rows"]] == [kt.fight(FIGHTER, OPPONENTS[0]).death_chance("b"),
                                                         kt.fight(PARRY, OPPONENTS[0]).death_chance("b")]


def test_cli_compare_refuses_a_bad_weapon_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["killteam", "compare", "--weapon", "4A 9+ 3/4"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: weapon[0]") and err.count("\n") == 1


def test_a_target_given_as_a_partial_table_fills_the_save_in() -> None:
    gun = kt.Weapon(4, 3, (3, 4), "Lethal 5+")
    shared = kt.compare([gun], saves=[3, 5], target={"wounds": 9})
    own = kt.compare([{"weapon": gun, "target": {"wounds": 9}}], saves=[3, 5])
    for table in (shared, own):
        for j, save in enumerate((3, 5)):
            assert table.mean[0, j] == kt.shoot(gun, kt.Operative(save, wounds=9)).damage.mean


@pytest.mark.parametrize("arguments, field, error", [
    ({"target": "plague_marine"}, "target", InputTypeError),
    ({"situations": [{"weapon": kt.Weapon(4, 3), "target": "x"}]}, "situations[0].target", InputTypeError),
    ({"target": {"wounds": 99}}, "target.wounds", InputError),
    ({"saves": np.array(3)}, "saves", InputTypeError),
    ({"at_least": itertools.repeat(1)}, "at_least", InputError),
])
def test_what_used_to_escape_or_hang_is_an_input_error(arguments: dict[str, Any], field: str, error: type) -> None:
    call = {"situations": [kt.Weapon(4, 3)], **arguments}
    with pytest.raises(error) as caught:
        kt.compare(**call)
    assert caught.value.field == field


def test_three_weapons_print_the_first_minus_each_other_and_stop_at_the_last_reachable_w(capsys) -> None:
    from mathhammer.cli import main

    weapons = ["4A 3+ 3/4", "5A 4+ 3/4", "2A 3+ 1/2"]
    assert main(["killteam", "compare", *[a for w in weapons for a in ("--weapon", w)], "--saves", "3,4"]) == 0
    out = capsys.readouterr().out
    titles = [line for line in out.splitlines() if line.startswith("P(damage >= w)")]
    assert titles[3:] == ["P(damage >= w): 4A 3+ 3/4 minus 5A 4+ 3/4", "P(damage >= w): 4A 3+ 3/4 minus 2A 3+ 1/2"]
    # the most damage any of them deals: 5 crits of 4 = 20, so no row past >=20
    assert ">=20" in out and ">=21" not in out
    mean = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12)).damage.mean
    third = kt.shoot(kt.Weapon(2, 3, (1, 2)), kt.Operative(3, 12)).damage.mean
    row = next(line for line in out.splitlines() if "4A 3+ 3/4 minus 2A 3+ 1/2" in line and "│" in line)
    assert f"{mean - third:.3f}" in row
    assert "-0.0%" not in out and "-0.00%" not in out  # a difference that rounds to nothing has no sign


def test_a_comparison_is_a_result_printed_by_its_printer() -> None:
    from mathhammer.core.results import EngineResult, Presented

    c = kt.compare([LETHAL, PIERCING], saves=[3, 5], at_least=[4])
    assert isinstance(c, EngineResult) and (c.method, c.samples, c.seed) == ("exact", None, None)
    assert type(c).to_markdown is Presented.to_markdown  # no renderer of its own
    shots = [kt.shoot(gun, kt.Operative(save, wounds=12)) for gun in (LETHAL, PIERCING) for save in (3, 5)]
    figures = c.summary()
    assert figures["max_mean_damage"] == max(s.damage.mean for s in shots)
    assert figures["min_kill_chance"] == min(s.kill_chance for s in shots)
    fights = kt.compare_fights([FIGHTER, PARRY], OPPONENTS, method="monte_carlo", samples=4_000, seed=1, threads=1)
    assert fights.method == "monte_carlo" and fights.samples == 4_000 and fights.seed == 1
    cells = [cell for row in fights.results for cell in row]
    deadliest = max(cells, key=lambda cell: cell.death_chance("b"))
    assert fights.summary()["max_kill_chance"] == deadliest.death_chance("b")
    assert fights.stderr is not None and fights.stderr["max_kill_chance"] == deadliest.stderr["death_chance_b"]  # type: ignore[index]
    assert kt.FightComparison.from_json(fights.to_json()).to_markdown() == fights.to_markdown()

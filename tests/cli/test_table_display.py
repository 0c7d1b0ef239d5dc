"""How the terminal table shows results: 80 columns at the default settings, probabilities as
percentages (``--digits``, ``--probabilities``), and a non-zero chance never printed as 0."""

from __future__ import annotations

import re

import pytest
from cli_cases import ROUND, run

from mathhammer.report.tables import Display, Probabilities, Table, probability_cells, probability_text

DEFAULT_COMMANDS = [
    ["run"],
    ["killteam", "shoot"],
    ["killteam", "shoot", "--saves", "2-6"],
    ["killteam", "fight"],
    ["starcraft", "attack"],
    ["starcraft", "attack", "--attacker", "marine"],
    ["starcraft", "sequence"],
    ["starcraft", "compare", "--weapon", "c14_rifle", "--weapon", "quad_k12", "--unit", "zergling", "--unit", "roach"],
    ["killteam", "compare", "--weapon", "meltagun", "--weapon", "bolt_rifle"],
    ["killteam", "compare-fights", "--fighter", "ork_boy", "--fighter", "wyche", "--opponent", "wyche",
     "--opponent", "ork_boy", "--opponent", "breacher_with_shield"],
    ["deathburgh", "combat"],
    ["deathburgh", "round", str(ROUND)],
    ["force-melee"],
    ["force-melee", "melee-many"],
    ["sweep", "killteam", "fight", "--grid", "a-strategy=strike,parry b-wounds=8..9"],
    ["sweep", "starcraft", "attack", "--grid", "attacker=marine,marauder,stalker", "--unit", "roach"],
]


@pytest.mark.parametrize("args", DEFAULT_COMMANDS, ids=" ".join)
def test_tables_fit_80_columns_without_cutting_a_cell(capsys, args):
    code, out, err = run(capsys, args)
    assert code == 0, err
    lines = out.splitlines()
    assert lines and max(len(line) for line in lines) <= 80
    assert "…" not in out  # Rich cuts a cell that does not fit with an ellipsis


@pytest.mark.parametrize("p, text", [
    (0.0, "0%"), (1.0, "100%"), (0.5, "50.00%"), (0.123456, "12.35%"),
    (1e-9, "<0.01%"), (0.00004, "<0.01%"), (0.00006, "0.01%"), (1 - 1e-9, ">99.99%"),
])
def test_probability_text_percent(p, text):
    assert probability_text(p, Display()) == text


def test_probability_text_digits_and_fraction():
    assert probability_text(1 / 3, Display(digits=4)) == "33.3333%"
    assert probability_text(1 / 3, Display(digits=0)) == "33%"
    assert probability_text(1 / 3, Display(2, Probabilities.fraction)) == "0.33"  # --digits is the decimals
    assert probability_text(1 / 3, Display(None, Probabilities.fraction)) == "0.3333"  # the default: 4
    assert probability_text(1e-7, Display(None, Probabilities.fraction)) == "<0.0001"
    assert probability_text(1 / 3, Display(4, Probabilities.fraction)) == "0.3333"
    # within 1e-12 of certainty or impossibility is that: a sum of exact terms a few ulps short of 1
    assert probability_text(0.9999999999999998) == "100%" and probability_text(1e-13) == "0%"
    assert probability_text(1 - 1e-9) == ">99.99%" and probability_text(1e-9) == "<0.01%"


def test_nonzero_probability_never_prints_as_zero(capsys):
    # 12 damage needs all 12 attacks to hit on 6s (P <= 6**-12, far below 0.01%) and none saved
    code, out, _ = run(capsys, ["killteam", "shoot", "--attacks", "12", "--hit", "6", "--save", "6",
                                "--wounds", "40", "--damage", "1/1"])
    assert code == 0
    row = next(line for line in out.splitlines() if re.match(r"^│\s+12 │", line))
    assert "<0.01%" in row and " 0% " not in row and "0.00%" not in out


def test_digits_and_fraction_options(capsys):
    code, out, _ = run(capsys, ["killteam", "shoot", "--digits", "4"])
    assert code == 0 and "100%" in out and re.search(r"\d+\.\d{4}%", out)
    code, out, _ = run(capsys, ["killteam", "shoot", "--probabilities", "fraction"])
    assert code == 0 and "%" not in out.split("mean damage")[0]
    assert re.search(r"0\.\d{4} ", out)


def test_kill_chance_printed_like_the_table(capsys):
    import mathhammer.killteam as kt

    r = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12))
    code, out, _ = run(capsys, ["killteam", "shoot"])
    assert code == 0 and f"kill chance {100 * r.kill_chance:.2f}%" in out


def test_json_keeps_raw_floats(capsys):
    import json

    code, out, _ = run(capsys, ["killteam", "shoot", "--format", "json"])
    assert code == 0 and isinstance(json.loads(out)["kill_chance"], float)


def test_probability_cells_read_the_labels():
    table = Table("Outcome", ["quantity", "value"], [["P(win)", 0.5], ["mean damage", 2.5]])
    assert probability_cells(table) == [[False, True], [False, False]]
    table = Table("Fight", ["fighter", "death chance", "mean wounds left"], [["A", 0.1, 3.2]])
    assert probability_cells(table) == [[False, True, False]]
    table = Table("Damage", ["damage", "P(=)", "stderr"], [[0, 0.3, 0.001]])
    assert probability_cells(table) == [[False, True, True]]


def _heading(out: str) -> str:
    """The first table title (Rich wraps it at 80 columns: joined back into one line)."""
    return " ".join(out.split("┏", 1)[0].split())


def test_shot_heading_names_profiles_cover_and_obscured(capsys):
    code, out, _ = run(capsys, ["killteam", "shoot", "--weapon", "meltagun", "--target", "plague_marine",
                                "--cover", "1", "--cover-crits", "1", "--obscured", "--rounds", "2"])
    assert code == 0
    heading = _heading(out)
    # the profiles by their library names, then their notation
    for part in ("Damage: meltagun (4A 4+ 6/3", "against plague_marine (3+ save; 14W", "cover crits 1", "cover 1",
                 "obscured", "2 rounds", "exact"):
        assert part in heading, (part, heading)


def test_library_profiles_are_named_in_headings_unless_changed(capsys):
    code, out, _ = run(capsys, ["killteam", "shoot", "--weapon", "bolt_rifle", "--attacks", "5"])
    assert code == 0
    assert _heading(out).startswith("Damage: bolt_rifle with --attacks (5A 3+ 3/4 Piercing Crits 1) against 3+ save;")
    code, out, _ = run(capsys, ["killteam", "fight", "--a-profile", "ork_boy", "--b-profile",
                                "assault_intercessor_sergeant", "--b-strategy", "parry"])
    assert code == 0
    heading = _heading(out)
    assert "A ork_boy (4A 3+ 4/5 Brutal; 10W; strike)" in heading, heading
    assert "B assault_intercessor_sergeant with --b-strategy (5A 3+ 4/6 Lethal 5+; 15W; parry)" in heading, heading
    code, out, _ = run(capsys, ["killteam", "attack-dice", "--weapon", "meltagun"])
    assert code == 0 and _heading(out).startswith("Retained attack dice: meltagun (4A 4+ 6/3"), _heading(out)


def test_shot_heading_names_method_samples_and_variants(capsys):
    code, out, _ = run(capsys, ["killteam", "shoot", "--method", "monte_carlo", "--samples", "20000", "--seed", "1",
                                "--threads", "1", "--variants", "ktcalc"])
    assert code == 0
    heading = _heading(out)
    assert "monte_carlo, 20,000 samples" in heading and "variants ktcalc" in heading
    assert "cover" not in heading and "obscured" not in heading  # only what was set


def test_fight_heading_names_profiles_strategies_and_rounds(capsys):
    code, out, _ = run(capsys, ["killteam", "fight", "--a-strategy", "parry", "--rounds", "2"])
    assert code == 0
    heading = _heading(out)
    assert "A 4A 3+ 3/4; 12W; parry" in heading and "B 4A 3+ 3/4; 12W; max_damage" in heading
    assert "exact" in heading and "2 rounds" in heading and "A first" in heading


def test_csv_on_stdout_is_one_table_at_full_precision_and_table_picks_another(capsys):
    import csv
    import io

    import mathhammer.killteam as kt

    shot = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12))
    code, out, _ = run(capsys, ["killteam", "shoot", "--format", "csv"])
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0] == ["damage", "P(=)", "P(>=)"]
    assert [float(p) for _, p, _ in rows[1:]] == [p for p in shot.damage.pmf.tolist() if p > 0]  # exactly
    code, out, _ = run(capsys, ["killteam", "shoot", "--format", "csv", "--table", "summary"])
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0] == ["figure", "value"]
    assert {name: float(value) for name, value in rows[1:]} == shot.summary()  # every digit
    code, out, err = run(capsys, ["killteam", "shoot", "--format", "csv", "--table", "sumary"])
    assert code == 2 and "did you mean 'summary'" in err and "the tables: damage, summary" in err
    code, out, _ = run(capsys, ["killteam", "fight", "--table", "fighter-b"])  # one table of several
    assert code == 0 and "Fighter B: wounds left" in out and "Fighter A" not in out


def test_starcraft_heading_names_who_fired_what_at_what(capsys):
    code, out, _ = run(capsys, ["starcraft", "attack"])
    assert code == 0
    assert _heading(out) == "Damage: 1 model firing C-14 Rifle at Zergling, exact"
    code, out, _ = run(capsys, ["starcraft", "attack", "--attacker", "marine", "--firing-models", "4", "--unit",
                                "roach", "--dodge", "1", "--leftover", "lost", "--method", "monte_carlo",
                                "--samples", "20000", "--seed", "1", "--threads", "1"])
    assert code == 0
    heading = _heading(out)
    for part in ("4 models firing C-14 Rifle at Roach", "dodge 1", "variants leftover=lost",
                 "monte_carlo, 20,000 samples"):
        assert part in heading, (part, heading)
    code, out, _ = run(capsys, ["starcraft", "attack", "--mode", "hits", "--hits", "4,1", "--unit", "zealot"])
    assert code == 0 and _heading(out) == "Damage: HITS 4 (1) at Zealot, exact"
    # a profile changed by an option is no longer the one named: shown by its card, which says what changed
    code, out, _ = run(capsys, ["starcraft", "attack", "--roa", "3", "--models", "6"])
    assert code == 0
    assert _heading(out).startswith("Damage: 1 model firing RoA 3, Hit 3+, Surge Light D3, Dmg 1 at "
                                    "6 models, HP 1,")


def test_starcraft_sequence_and_compare_headings(capsys):
    code, out, _ = run(capsys, ["starcraft", "sequence", "--unit", "roach", "--variants", "stacking=max"])
    assert code == 0
    assert _heading(out) == "Total damage: 2 batches at Roach, variants stacking=max, exact"
    code, out, _ = run(capsys, ["starcraft", "compare", "--weapon", "c14_rifle", "--unit", "zergling",
                                "--firing-models", "3"])
    assert code == 0
    assert _heading(out) == "Mean damage: 3 firing models per weapon, exact"


def test_deathburgh_headings_name_the_sides_reaction_edition_and_method(capsys):
    code, out, _ = run(capsys, ["deathburgh", "combat", "--attacker", "Old Fellas Leader", "--attacker-charge",
                                "--defender-mode", "defensive", "--defender-support", "2", "--reaction", "dodge",
                                "--edition", "alpha", "--draw", "scored"])
    assert code == 0
    heading = _heading(out)
    for part in ("Old Fellas Leader (aggressive, charge) vs Bandit Melee Follower (defensive, support 2)",
                 "reaction dodge", "alpha edition", "variants draw=scored", "exact"):
        assert part in heading, (part, heading)
    assert heading.count("alpha") == 1  # the edition is said once
    code, out, _ = run(capsys, ["deathburgh", "combat", "--defender", "Bandit Ranged Follower", "--attacker-charge",
                                "--stand-and-shoot"])
    assert code == 0 and "reaction attack, stand and shoot, web edition" in _heading(out)
    code, out, _ = run(capsys, ["deathburgh", "round", str(ROUND)])
    assert code == 0
    assert _heading(out) == "Miniatures after the round (5 miniatures, 4 combats, exact)"


def test_force_melee_headings_name_the_sides_and_method(capsys):
    code, out, _ = run(capsys, ["force-melee", "--a-dice", "4", "--a-hit-mod", "1", "--winner-damage", "excess"])
    assert code == 0
    heading = _heading(out)
    for part in ("A Line Trooper squad (5x1 HP, 4 dice at 4+ +1, Force 4)",
                 "B Militia squad (5x1 HP, 2 dice at 5+, Force 2)", "variants winner_damage=excess", "exact"):
        assert part in heading, (part, heading)
    code, out, _ = run(capsys, ["force-melee", "melee-many"])
    assert code == 0
    assert _heading(out) == "units (3 units, 2 engaged pairs, exact)"


def _rows(out: str, title: str) -> dict[str, list[str]]:
    """The body rows of the Rich table under ``title``, by their first cell."""
    block = out.split(title, 1)[1].split("└", 1)[0]
    rows = {}
    for line in block.splitlines():
        if line.startswith("│"):
            cells = [c.strip() for c in line.strip("│").split("│")]
            rows[cells[0]] = cells[1:]
    return rows


def test_force_melee_summary_prints_percentages(capsys):
    from mathhammer import force_melee as fm

    # Line Troopers (3 dice at 4+) against Militia (2 dice at 5+): by hand, P(A has more hits) =
    # sum over a > b of C(3,a)/8 * P(b hits of 2 at 1/3) = 5/8 (computed from the binomials below).
    from fractions import Fraction
    from math import comb

    pa = [Fraction(comb(3, k), 8) for k in range(4)]
    pb = [Fraction(comb(2, k)) * Fraction(1, 3) ** k * Fraction(2, 3) ** (2 - k) for k in range(3)]
    more = sum(pa[a] * pb[b] for a in range(4) for b in range(3) if a > b)
    assert more == Fraction(5, 8)
    code, out, _ = run(capsys, ["force-melee"])
    assert code == 0
    rows = _rows(out, "Force 2), exact")
    assert rows["P(more hits)"][0] == "62.50%"
    assert rows["P(destroyed)"] == ["0%", "0%"]
    assert not rows["mean damage taken"][0].endswith("%")  # a mean, not a chance
    code, out, _ = run(capsys, ["force-melee", "--digits", "1"])
    assert _rows(out, "Force 2), exact")["P(more hits)"][0] == "62.5%"
    code, out, _ = run(capsys, ["force-melee", "--probabilities", "fraction"])
    assert _rows(out, "Force 2), exact")["P(more hits)"][0] == "0.6250"
    # a tiny, non-zero chance is never printed as 0
    code, out, _ = run(capsys, ["force-melee", "--a-dice", "1", "--b-dice", "8", "--b-hit", "2", "--digits", "0"])
    result = fm.melee(fm.example("line_troopers").replace(dice=1),
                      fm.example("militia").replace(dice=8, weapon={"hit": 2}))
    assert 0 < result.p_a_more < 0.005
    cell = [v for k, v in _rows(out, "exact").items() if k == "P(more hits)"][0][0]
    assert cell == "<1%"


def test_force_melee_monte_carlo_errors_are_a_table_of_their_own(capsys):
    code, out, _ = run(capsys, ["force-melee", "--method", "monte_carlo", "--samples", "20000", "--seed", "2",
                                "--threads", "1"])
    assert code == 0
    tables, line = out.split("P(tie on hits) = ")
    assert "±" not in tables  # the tables hold numbers, not "value ± error" text
    assert re.match(r"\d+\.\d\d% ± \d\.\d\d%; method: monte_carlo, 20,000 samples, seed 2", line), line
    errors = _rows(out, "20,000 samples: standard errors")
    assert errors["P(more hits)"][0].endswith("%") and not errors["mean casualties"][0].endswith("%")


def test_killteam_compare_tables_read_one_row_per_threshold(capsys):
    from mathhammer import killteam as kt

    code, out, _ = run(capsys, ["killteam", "compare", "--weapon", "4A 3+ 3/4", "--weapon", "4A 3+ 3/4 Lethal 5+",
                                "--saves", "3-4", "--cover", "1", "--digits", "1"])
    assert code == 0
    assert _heading(out) == "Mean damage: 2 weapons at saves 3+/4+, 12W, cover 1, exact"
    plain = _rows(out, "P(damage >= w): 4A 3+ 3/4\n")
    lethal = kt.shoot(kt.Weapon(4, 3, (3, 4), "Lethal 5+"), kt.Operative(4, 12), cover=1)
    assert plain[">=3"][0] == f"{100 * kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12), cover=1).damage.at_least(3):.1f}%"
    # 4 dice of at most 4 damage: nothing reaches 17, so the rows stop at the last reachable threshold
    assert max(int(w[2:]) for w in plain) == 16 and plain[">=16"][0] != "0%"
    delta = _rows(out, "P(damage >= w): 4A 3+ 3/4 minus 4A 3+ 3/4 Lethal 5+")
    expected = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(4, 12), cover=1).damage.at_least(8) - lethal.damage.at_least(8)
    assert delta[">=8"][1] == f"{100 * expected:+.1f}%"


def test_comparison_chances_honour_the_display_options(capsys):
    code, out, _ = run(capsys, ["starcraft", "compare", "--weapon", "quad_k12", "--unit", "zergling", "--unit", "roach",
                                "--firing-models", "4", "--probabilities", "fraction"])
    assert code == 0
    destroyed = _rows(out, "Destroyed chance P(unit destroyed)")
    assert destroyed["Quad K12"][0] == "<0.0001"  # a chance short of zero is never printed as 0
    assert destroyed["Quad K12"][1].startswith("0.02")


def test_a_wide_sweep_splits_into_tables_that_repeat_its_axes(capsys):
    code, out, _ = run(capsys, ["sweep", "killteam", "fight", "--grid", "a-strategy=strike,parry b-wounds=8..9"])
    assert code == 0
    titles = [line for line in out.splitlines() if line.startswith("Sweep: killteam fight")]
    assert len(titles) > 1 and titles[0].endswith(f"(1/{len(titles)})")
    # every part repeats both axes, and together they hold every figure once
    from mathhammer import killteam as kt

    figures = list(kt.fight(kt.Fighter(4, 3, (3, 4), 12), kt.Fighter(4, 3, (3, 4), 12)).summary())
    headers = []
    for part in out.split("Sweep: killteam fight (")[1:]:
        head = part.split("┡", 1)[0]
        header = " ".join(" ".join(c.strip() for c in line.strip("┃").split("┃")) for line in head.splitlines()
                          if line.startswith("┃"))
        assert "a-strategy" in header and "b-wounds" in header
        headers.append(header)
    for figure in figures:
        assert sum(figure in h.split() for h in headers) == 1, figure
    code, out, _ = run(capsys, ["sweep", "killteam", "fight", "--grid", "b-wounds=8,9", "--format", "csv"])
    assert out.splitlines()[0] == "b-wounds," + ",".join(figures)  # the CSV keeps one table

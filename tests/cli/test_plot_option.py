"""``--plot FILE.png|.svg`` on every command draws the printed result, headless."""

from __future__ import annotations

import importlib.util

import pytest
from cli_cases import ROUND, assert_one_line_error, run


@pytest.mark.parametrize("args", [
    ["killteam", "shoot"],
    ["killteam", "shoot", "--saves", "3-5"],
    ["killteam", "fight"],
    ["starcraft", "attack"],
    ["starcraft", "attack", "--attacker", "marine"],
    ["starcraft", "sequence"],
    ["starcraft", "compare", "--weapon", "c14_rifle", "--unit", "zergling"],
    ["killteam", "compare", "--weapon", "4A 3+ 3/4", "--saves", "3,4"],
    ["killteam", "compare-fights", "--fighter", "4A 3+ 3/4; 12W", "--opponent", "4A 3+ 3/4; 12W"],
    ["sweep", "killteam", "shoot", "--grid", "hit=3,4"],
    ["killteam", "advise", "--dice-a", "1c2n", "--dice-b", "0c2n"],
    ["deathburgh", "combat"],
    ["deathburgh", "round", str(ROUND)],
    ["force-melee"],
    ["force-melee", "melee-many"],
    ["run"],
], ids=" ".join)
def test_plot_writes_a_png(capsys, tmp_path, args):
    target = tmp_path / "out.png"
    code, out, err = run(capsys, [*args, "--plot", str(target)])
    assert code == 0, err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out  # the tables are still printed


def test_plot_writes_an_svg(capsys, tmp_path):
    target = tmp_path / "shot.svg"
    code, _, err = run(capsys, ["killteam", "shoot", "--format", "json", "--plot", str(target)])
    assert code == 0, err
    assert "<svg" in target.read_text(encoding="utf-8")


def test_plot_refuses_other_file_types(capsys, tmp_path):
    code, out, err = run(capsys, ["killteam", "shoot", "--plot", str(tmp_path / "shot.jpg")])
    assert out == ""
    assert_one_line_error(code, err, "--plot", ".png or .svg")
    assert not (tmp_path / "shot.jpg").exists()


def test_plot_without_matplotlib_is_a_clear_error(capsys, tmp_path, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    code, out, err = run(capsys, ["killteam", "shoot", "--plot", str(tmp_path / "shot.png")])
    assert out == ""
    assert_one_line_error(code, err, "--plot", "needs matplotlib", "mathhammer[plot]")


def _drawn(monkeypatch, capsys, args):
    """Run a command with --plot and return the Axes it saved (matplotlib's own view of the figure)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    saved = []
    real = Figure.savefig

    def keep(figure, *a, **k):
        saved.append(figure.axes[0])
        return real(figure, *a, **k)

    monkeypatch.setattr(Figure, "savefig", keep)
    code, out, err = run(capsys, args)
    assert code == 0, err
    assert len(saved) == 1
    return saved[0]


def _bar_heights(ax):
    import matplotlib

    return [p.get_height() for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle)]


def test_killteam_compare_plots_mean_damage_by_save(capsys, tmp_path, monkeypatch):
    from mathhammer import killteam as kt

    target = tmp_path / "compare.png"
    ax = _drawn(monkeypatch, capsys, ["killteam", "compare", "--weapon", "4A 3+ 3/4 Lethal 5+", "--weapon",
                                      "4A 3+ 3/4 Piercing 1", "--saves", "3-5", "--plot", str(target)])
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert ax.get_xlabel() == "save" and ax.get_ylabel() == "mean damage"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["3+", "4+", "5+"]
    assert "Mean damage by save" in ax.get_title() and "2 weapons at saves 3+/4+/5+" in ax.get_title()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["4A 3+ 3/4 Lethal 5+", "4A 3+ 3/4 Piercing 1"]
    # one bar per weapon and save, as tall as kt.shoot's mean damage
    expected = [kt.shoot(kt.Weapon.parse(w), kt.Operative(s, 12)).damage.mean
                for w in ("4A 3+ 3/4 Lethal 5+", "4A 3+ 3/4 Piercing 1") for s in (3, 4, 5)]
    assert _bar_heights(ax) == pytest.approx(expected, rel=1e-12)


def test_compare_fights_plots_kill_chance_per_opponent(capsys, tmp_path, monkeypatch):
    from mathhammer import killteam as kt

    ax = _drawn(monkeypatch, capsys, ["killteam", "compare-fights", "--fighter", "4A 3+ 3/4; 12W", "--opponent",
                                      "5A 4+ 4/5; 10W", "--opponent", "3A 3+ 4/5; 8W", "--plot",
                                      str(tmp_path / "fights.svg")])
    assert "<svg" in (tmp_path / "fights.svg").read_text(encoding="utf-8")
    assert ax.get_xlabel() == "opponent" and ax.get_ylabel() == "kill chance (%)"
    assert "Kill chance" in ax.get_title() and "1 fighter vs 2 opponents" in ax.get_title()
    me = kt.Fighter(4, 3, (3, 4), 12)
    expected = [100 * kt.fight(me, kt.Fighter(*o)).death_chance("b") for o in ((5, 4, (4, 5), 10), (3, 3, (4, 5), 8))]
    assert _bar_heights(ax) == pytest.approx(expected, rel=1e-12)
    assert ax.yaxis.get_major_formatter()(50.0, 0) == "50%"


def test_starcraft_compare_plots_mean_damage_per_unit(capsys, tmp_path, monkeypatch):
    from mathhammer import starcraft as sc

    ax = _drawn(monkeypatch, capsys, ["starcraft", "compare", "--weapon", "c14_rifle", "--weapon", "quad_k12",
                                      "--unit", "zergling", "--unit", "roach", "--firing-models", "2", "--plot",
                                      str(tmp_path / "sc.png")])
    assert ax.get_xlabel() == "target unit" and ax.get_ylabel() == "mean damage"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Zergling", "Roach"]
    assert "2 firing models per weapon" in ax.get_title()
    expected = [sc.attack(sc.catalog.weapon(w), sc.catalog.unit(u), firing_models=2).damage.mean
                for w in ("c14_rifle", "quad_k12") for u in ("zergling", "roach")]
    assert _bar_heights(ax) == pytest.approx(expected, rel=1e-12)


def test_advise_plots_the_wounds_left_after_each_move(capsys, tmp_path, monkeypatch):
    ax = _drawn(monkeypatch, capsys, ["killteam", "advise", "--dice-a", "1c2n", "--dice-b", "0c2n", "--plot",
                                      str(tmp_path / "advise.png")])
    assert ax.get_xlabel() == "A's move" and ax.get_ylabel() == "wounds left"
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "crit_strike (best)", "norm_strike", "crit_parry", "norm_parry"]
    assert "Wounds left by move" in ax.get_title() and "A 1c2n (12W), B 0c2n (12W)" in ax.get_title()
    # By hand (both 4 attacks 3+ 3/4 at 12 wounds; A holds 1 crit + 2 norms, B 2 norms): if A only
    # strikes, A deals 4 + 3 + 3 and B's two norms deal 3 + 3 -> A 6, B 2, whichever die goes first;
    # a crit parry cancels one of B's norms, then A deals 3 + 3 and B 3 -> A 9, B 6; a norm parry
    # cancels one, then A deals 4 + 3 and B 3 -> A 9, B 5.
    assert _bar_heights(ax) == [6, 6, 9, 9, 2, 2, 6, 5]


def test_sweep_plots_the_first_figure_along_the_first_numeric_axis(capsys, tmp_path, monkeypatch):
    from mathhammer import killteam as kt

    ax = _drawn(monkeypatch, capsys, ["sweep", "killteam", "shoot", "--grid", "rules=Balanced|Rending save=2..4 "
                                      "cover=0,1", "--plot", str(tmp_path / "sweep.png")])
    assert ax.get_xlabel() == "save" and ax.get_ylabel() == "mean damage"
    assert ax.get_title() == "Sweep: killteam shoot: mean damage by save, one line per rules, cover"
    lines = ax.get_lines()
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "rules=Balanced, cover=0", "rules=Balanced, cover=1", "rules=Rending, cover=0", "rules=Rending, cover=1"]
    assert list(lines[1].get_xdata()) == [2, 3, 4]
    expected = [kt.shoot(kt.Weapon(4, 3, (3, 4), "Balanced"), kt.Operative(s, 12), cover=1).damage.mean
                for s in (2, 3, 4)]
    assert list(lines[1].get_ydata()) == pytest.approx(expected, rel=1e-5)  # the table's 6 digits


def test_sweep_plot_caps_its_lines_and_says_so(capsys, tmp_path, monkeypatch):
    from mathhammer.report.plot import MAX_SWEEP_LINES

    ax = _drawn(monkeypatch, capsys, ["sweep", "killteam", "shoot", "--grid", "save=2,3 wounds=1..10",
                                      "--plot", str(tmp_path / "sweep.png")])
    assert len(ax.get_lines()) == MAX_SWEEP_LINES
    assert ax.get_title() == f"Sweep: killteam shoot: mean damage by save, one line per wounds (first {MAX_SWEEP_LINES} of 10 lines)"
    assert ax.get_xlabel() == "save" and ax.get_ylabel() == "mean damage"


def test_sweep_csv_carries_no_figures_of_its_cells(capsys):
    code, out, _ = run(capsys, ["sweep", "killteam", "shoot", "--grid", "hit=3,4", "--format", "csv"])
    assert code == 0
    assert "Summary figures" not in out and len(out.strip().splitlines()) == 3  # header, 2 cells


def test_plot_says_where_it_wrote_and_is_wide_enough_to_read(capsys, tmp_path):
    import matplotlib.image

    path = tmp_path / "saves.png"
    code, out, err = run(capsys, ["killteam", "shoot", "--saves", "2-6", "--plot", str(path)])
    assert code == 0 and err.strip() == f"plot written to {path}" and str(path) not in out
    assert matplotlib.image.imread(path).shape[1] >= 1000  # pixels across


def test_the_saves_plot_is_titled_with_its_weapon(capsys, monkeypatch, tmp_path):
    ax = _drawn(monkeypatch, capsys, ["killteam", "shoot", "--weapon", "5A 3+ 3/4 Lethal 5+", "--saves", "3,4",
                                      "--plot", str(tmp_path / "p.png")])
    assert ax.get_title().startswith("Damage by save: 5A 3+ 3/4 Lethal 5+ against saves 3+, 4+")

"""Plots render without a display and say what they show: axis labels, titles, integer ticks,
percent probabilities, side-by-side bars, error bars only on sampled non-empty cells."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

import mathhammer as mh  # noqa: E402
from mathhammer import deathburgh as db  # noqa: E402
from mathhammer import force_melee as fm  # noqa: E402
from mathhammer import killteam as kt  # noqa: E402
from mathhammer import starcraft as sc  # noqa: E402
from mathhammer.core.distributions import Distribution  # noqa: E402

GUN = kt.Weapon(4, 3, (3, 4), "Lethal 5+, Piercing 1")
TARGET = kt.Operative(3, 12)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _bars(ax):
    return [p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle)]


def _ticks_are_integers(ax) -> bool:
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    return bool(ticks) and all(float(t).is_integer() for t in ticks)


def test_a_shot_plots_its_damage_in_percent(tmp_path: Path) -> None:
    r = kt.shoot(GUN, TARGET, cover=1)
    ax = r.plot()
    assert ax.get_xlabel() == "damage" and ax.get_ylabel() == "probability"
    assert ax.get_title().startswith("4A 3+ 3/4 Lethal 5+, Piercing 1 vs 3+ save; 12W (cover 1")
    heights = {round(p.get_x() + p.get_width() / 2): p.get_height() for p in _bars(ax)}
    for value in range(r.damage.pmf.size):
        assert heights[value] == pytest.approx(100 * r.damage.pmf[value])
    assert _ticks_are_integers(ax)
    assert ax.yaxis.get_major_formatter()(50, 0) == "50%"
    path = tmp_path / "shot.png"
    ax.figure.savefig(path)
    assert path.stat().st_size > 1000


def test_at_least_curves_are_the_survival_function() -> None:
    r = kt.shoot(GUN, TARGET)
    ax = r.plot(kind="at_least")
    line = ax.get_lines()[0]
    x, y = line.get_data()
    assert list(x) == list(range(0, int(r.damage.max) + 1))
    assert np.allclose(y, [100 * r.damage.at_least(int(k)) for k in x])
    assert ax.get_xlabel() == "at least this damage (k)" and ax.get_ylabel() == "P(damage \u2265 k)"


def test_grouped_bars_never_overlap_and_carry_labels() -> None:
    a = kt.shoot(GUN, TARGET)
    b = kt.shoot(kt.Weapon(4, 3, (3, 4), "Balanced"), TARGET)
    ax = mh.plot([a, b], labels=["Lethal", "Balanced"])
    spans = sorted((p.get_x(), p.get_x() + p.get_width()) for p in _bars(ax))
    assert all(left_end <= right_start + 1e-12 for (_, left_end), (right_start, _) in zip(spans, spans[1:]))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["Lethal", "Balanced"]
    assert ax.get_title() == "2 results compared vs 3+ save; 12W (cover 0)"


def test_error_bars_only_on_sampled_non_empty_cells() -> None:
    exact = kt.shoot(GUN, TARGET)
    assert not exact.plot().collections  # no error bars on an exact result
    sampled = Distribution.from_counts([40, 0, 60])
    ax = sampled.plot()
    (bars,) = [c for c in ax.collections if isinstance(c, matplotlib.collections.LineCollection)]
    assert len(bars.get_segments()) == 2  # the empty cell has none


def test_a_fight_plots_both_fighters_and_its_joint_heat_map() -> None:
    a = kt.Fighter(4, 3, (3, 4), 12, rules="Brutal")
    b = kt.Fighter(4, 4, (4, 5), 14, abilities="Storm Shield", strategy="parry")
    r = kt.fight(a, b)
    ax = r.plot()
    assert ax.get_xlabel() == "wounds left"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [f"A: {a}", f"B: {b}"]
    assert ax.get_title() == "Kill Team fight, 1 round, A first (exact)"
    heat = r.plot(kind="joint")
    assert heat.get_ylabel() == f"wounds left, A ({a})" and heat.get_xlabel() == f"wounds left, B ({b})"
    assert np.allclose(heat.images[0].get_array(), 100 * r.joint.pmf)
    assert _ticks_are_integers(heat)


@pytest.mark.parametrize(("result", "quantity"), [
    (lambda: sc.attack(sc.catalog.weapon("c14_rifle"), sc.catalog.unit("zergling"), firing_models=6), "casualties"),
    (lambda: db.combat("A 3/4+ D 2/4+ W 3", "A 2/4+ D 3/4+ W 3"), "wounds taken"),
    (lambda: db.round({"x": "A 2/4+ D 2/4+ W 2", "y": "A 3/3+ D 1/5+ W 3"}, [{"attacker": "x", "defender": "y"}]),
     "wounds left"),
    (lambda: fm.melee(fm.example("line_troopers"), fm.example("militia")), "damage taken"),
    (lambda: kt.attack_dice(GUN, method="monte_carlo", samples=20_000, seed=1), "retained dice"),
])
def test_every_game_plots(result, quantity: str) -> None:
    r = result()
    for kind in ("pmf", "at_least"):
        ax = r.plot(kind=kind)
        assert quantity in ax.get_xlabel() and ax.get_title() and _ticks_are_integers(ax)
        plt.close("all")


def test_results_without_a_joint_table_say_so() -> None:
    with pytest.raises(ValueError, match="^kind: ShootResult has no joint table"):
        kt.shoot(GUN, TARGET).plot(kind="joint")
    with pytest.raises(ValueError, match="^kind: unknown value 'pie'"):
        kt.shoot(GUN, TARGET).plot(kind="pie")

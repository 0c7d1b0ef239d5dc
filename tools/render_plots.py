"""Render the pictures shown in docs/plots.md into docs/img/ (run after changing the plots)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import mathhammer as mh  # noqa: E402
from mathhammer import killteam as kt  # noqa: E402
from mathhammer.cli import main as command  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "docs" / "img"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    target = kt.Operative(save=3, wounds=12)
    lethal = kt.shoot(kt.Weapon(4, 3, (3, 4), "Lethal 5+, Piercing 1"), target, cover=1)
    balanced = kt.shoot(kt.Weapon(4, 3, (3, 4), "Balanced, Piercing 1"), target, cover=1)
    lethal.plot().figure.savefig(OUT / "shot_pmf.png", dpi=100, bbox_inches="tight")
    mh.plot([lethal, balanced], labels=["Lethal 5+", "Balanced"]).figure.savefig(
        OUT / "shots_compared.png", dpi=100, bbox_inches="tight")
    mh.plot([lethal, balanced], labels=["Lethal 5+", "Balanced"], kind="at_least").figure.savefig(
        OUT / "shots_at_least.png", dpi=100, bbox_inches="tight")
    a = kt.Fighter(4, 3, (3, 4), 12, rules="Brutal")
    b = kt.Fighter(4, 4, (4, 5), 14, abilities="Storm Shield", strategy="parry")
    fight = kt.fight(a, b)
    fight.plot().figure.savefig(OUT / "fight_wounds.png", dpi=100, bbox_inches="tight")
    fight.plot(kind="joint").figure.savefig(OUT / "fight_joint.png", dpi=100, bbox_inches="tight")
    # the page's two commands, their pictures written here
    assert command(["killteam", "compare", "--weapon", "meltagun", "--weapon", "bolt_rifle", "--weapon",
                    "4A 3+ 3/4 Lethal 5+", "--plot", str(OUT / "compare_saves.png")]) == 0
    assert command(["sweep", "killteam", "shoot", "--grid", "save=2..6 hit=3,4 cover=0,1", "--plot",
                    str(OUT / "sweep_saves.png")]) == 0


if __name__ == "__main__":
    main()

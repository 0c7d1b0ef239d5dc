"""Results render where developers show them: Markdown (chat, docs), HTML (notebooks), Rich (terminals),
each with the same tables the command line prints."""

from __future__ import annotations

import io

import pytest

from rich.console import Console

from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import killteam as kt
from mathhammer import starcraft as sc
from mathhammer.report.tables import probability_text

RESULTS = {
    "shot": lambda: kt.shoot(kt.Weapon(4, 3, (3, 4), "Lethal 5+"), kt.Operative(3, 12), cover=1),
    "fight": lambda: kt.fight(kt.Fighter(4, 3), kt.Fighter(3, 4, (4, 5), 10)),
    "attack": lambda: sc.attack(sc.catalog.weapon("c14_rifle"), sc.catalog.unit("zergling"), firing_models=2),
    "combat": lambda: db.combat("A 3/4+ D 2/4+ W 3", "A 2/4+ D 3/4+ W 3"),
    "melee": lambda: fm.melee(fm.example("line_troopers"), fm.example("militia")),
}


@pytest.mark.parametrize("name", RESULTS)
def test_markdown_html_and_rich_show_the_tables(name: str) -> None:
    result = RESULTS[name]()
    markdown = result.to_markdown()
    assert markdown.startswith("### ") and "\n|---|" in markdown
    html = result._repr_html_()
    assert html.count("<table>") == markdown.count("### ") and "<caption>" in html
    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None).print(result)
    shown = buffer.getvalue()
    first_title = markdown.splitlines()[0][4:]
    assert " ".join(first_title.split()) in " ".join(shown.split()) and first_title in html  # Rich wraps it


def test_the_markdown_holds_the_numbers() -> None:
    r = RESULTS["shot"]()
    rows = {line.split(" | ")[0].strip("| "): line for line in r.to_markdown().splitlines() if line.startswith("| ")}
    assert f" {probability_text(r.damage.prob(4))} " in rows["4"]  # as the terminal shows it: a percentage
    assert "<" not in RESULTS["fight"]().to_markdown()  # plain Markdown, no HTML

"""Importing a folder of Kill Team catalogues the size of the real data: 49 catalogues (about
3.6 MB), 529 operative entries and 1,548 (operative, weapon profile) pairs (the real data: about 1,580), half of them
through entryLinks to shared weapons with modifiers, one team borrowing from four others.

The folder is generated here (invented names and stats, the real files' structure and size): no
real catalogue is needed or kept. The issue asks for at most 2 s on one core.

Run: PYTHONPATH=python python -m pytest benchmarks/bench_import.py --benchmark-enable -s
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mathhammer import killteam as kt

NS = "http://www.battlescribe.net/schema/catalogueSchema"
SYSTEM = "c521-ad27-44df-f959"
TEAMS = 49
#: Operatives per team: 529 in all (10 teams of 10, 39 of 11).
OPERATIVES = [10] * 10 + [11] * 39
#: Filler of an ability's text, sized so that the folder is about 3.6 MB.
TEXT = "Invented for the benchmark: whenever this operative does something, something else happens. " * 37


def _chars(values: dict[str, str]) -> str:
    return "".join(f'<characteristic name="{name}" typeId="ct-{name.lower()}">{value}</characteristic>'
                   for name, value in values.items())


def _weapon(pid: str, name: str, atk: int, hit: int, wr: str, mods: str = "") -> str:
    chars = _chars({"ATK": str(atk), "HIT": f"{hit}+", "DMG": "3/4", "WR": wr})
    return (f'<profile name="{name}" typeId="pt-weapons" typeName="Weapons" hidden="false" id="{pid}">'
            f"<characteristics>{chars}</characteristics>{mods}</profile>")


def _modifier(field: str, value: str, scope: str, child: str) -> str:
    return (f'<modifiers><modifier type="set" value="{value}" field="ct-{field}"><conditions>'
            f'<condition type="instanceOf" value="1" field="selections" scope="{scope}" childId="{child}" shared="true"/>'
            "</conditions></modifier></modifiers>")


def _constraints(cid: str) -> str:
    return (f'<constraints><constraint type="min" value="1" field="selections" scope="parent" shared="true" id="{cid}-min"/>'
            f'<constraint type="max" value="1" field="selections" scope="parent" shared="true" id="{cid}-max"/></constraints>')


def catalogue(t: int, operatives: int, links: list[int]) -> str:
    """Team ``t``: each operative has a gun of its own and a link to a shared blade whose hit stat
    its leader changes; every other one has a rifle of two profiles as well."""
    ops, shared = [], []
    for s in range(3):
        mods = _modifier("hit", "2+", "ancestor", f"t{t}-op0")
        shared.append(f'<selectionEntry type="upgrade" name="Shared {s}" id="t{t}-w{s}"><profiles>'
                      f'{_weapon(f"t{t}-w{s}-p", f"⚔ Shared blade {s}", 4, 4, "Lethal 5+, Brutal", mods)}'
                      "</profiles></selectionEntry>")
    for o in range(operatives):
        oid = f"t{t}-op{o}"
        own = _weapon(f"{oid}-gun", f"⌖ Gun {o}", 4, 3, 'Range 8", Piercing 1')
        multi = "".join(_weapon(f"{oid}-m{v}", f"⌖ Rifle {o} ({v})", 4, 3, wr)
                        for v, wr in (("standard", "Lethal 5+"), ("overcharge", 'Hot, Piercing 1, Range 6"'))
                        if o % 2 == 1)
        stats = _chars({"APL": "2", "Move": "6&quot;", "Save": "4+", "Wounds": "9"})
        categories = f'<categoryLink name="Operative" id="{oid}-c" targetId="cat-operative" primary="true"/>' + "".join(
            f'<categoryLink name="Keyword {k}" id="{oid}-c{k}" targetId="t{t}-k{k}" primary="false"/>' for k in range(5))
        rules = "".join(f'<infoLink name="Rule {k}" id="{oid}-i{k}" hidden="false" type="rule" targetId="rule-{k}"/>'
                        for k in range(4))
        ops.append(
            f'<selectionEntry type="model" import="true" name="Operative {o}" hidden="false" id="{oid}">'
            f"<categoryLinks>{categories}</categoryLinks><infoLinks>{rules}</infoLinks>"
            f'<profiles><profile name="Operative {o}" typeId="pt-operative" typeName="Operative" id="{oid}-p">'
            f"<characteristics>{stats}</characteristics></profile>"
            f'<profile name="Ability {o}" typeId="pt-abilities" typeName="Abilities" id="{oid}-a"><characteristics>'
            f'<characteristic name="Ability" typeId="ct-ability">{TEXT}</characteristic></characteristics></profile>'
            f"{own}</profiles>"
            f'<selectionEntries><selectionEntry type="upgrade" name="Rifle" id="{oid}-rifle">{_constraints(oid)}'
            f"<profiles>{multi}</profiles></selectionEntry></selectionEntries>"
            f'<entryLinks><entryLink import="true" name="Shared" id="{oid}-l" type="selectionEntry" '
            f'targetId="t{t}-w{o % 3}">{_constraints(oid + "-l")}</entryLink></entryLinks></selectionEntry>')
    borrowed = "".join(f'<entryLink name="Borrowed" id="t{t}-b{u}" type="selectionEntry" targetId="t{u}-w0"/>'
                       for u in links)
    cat_links = "".join(f'<catalogueLink id="t{t}-cl{u}" targetId="t{u}" type="catalogue"/>' for u in links)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<catalogue id="t{t}" name="Team {t}" revision="1" '
            f'gameSystemId="{SYSTEM}" xmlns="{NS}"><catalogueLinks>{cat_links}</catalogueLinks>'
            f"<selectionEntries>{''.join(ops)}</selectionEntries>"
            f"<sharedSelectionEntries>{''.join(shared)}</sharedSelectionEntries>"
            f"<entryLinks>{borrowed}</entryLinks></catalogue>\n")


def game_system() -> str:
    types = "".join(f'<profileType name="{kind}" id="pt-{kind.lower()}"><characteristicTypes>'
                    + "".join(f'<characteristicType id="ct-{c.lower()}" name="{c}"/>' for c in chars)
                    + "</characteristicTypes></profileType>"
                    for kind, chars in (("Operative", ("APL", "Move", "Save", "Wounds")),
                                        ("Weapons", ("ATK", "HIT", "DMG", "WR")), ("Abilities", ("Ability",))))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<gameSystem id="{SYSTEM}" name="Benchmark" revision="1" '
            f'xmlns="http://www.battlescribe.net/schema/gameSystemSchema"><categoryEntries>'
            f'<categoryEntry name="Operative" id="cat-operative"/></categoryEntries>'
            f"<profileTypes>{types}</profileTypes></gameSystem>\n")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("catalogues")
    (where / "2024 - Kill Team.gst").write_text(game_system(), encoding="utf-8")
    for t, operatives in enumerate(OPERATIVES):
        links = [1, 2, 3, 4] if t == 0 else []  # one team borrows from four others
        (where / f"2024 - Team {t}.cat").write_text(catalogue(t, operatives, links), encoding="utf-8")
    return where


def test_import_the_real_data_size(benchmark: Any, folder: Path) -> None:
    size = sum(p.stat().st_size for p in folder.glob("*.cat"))
    assert 3.4e6 < size < 3.8e6
    teams = benchmark.pedantic(lambda: kt.data.load_catalogues(folder), rounds=3, iterations=1)
    assert len(teams) == TEAMS and sum(len(t.operatives) for t in teams) == sum(OPERATIVES) == 529
    pairs = sum(len(op.weapons) for t in teams for op in t.operatives)
    assert pairs == 2 * 529 + 2 * 5 * TEAMS == 1548  # a gun, a blade; a rifle of two profiles for 5 per team
    benchmark.extra_info["catalogues"] = TEAMS
    benchmark.extra_info["megabytes"] = round(size / 1e6, 2)
    benchmark.extra_info["operatives"] = 529
    benchmark.extra_info["pairs"] = pairs
    benchmark.extra_info["seconds_per_import"] = benchmark.stats.stats.mean if benchmark.stats else None

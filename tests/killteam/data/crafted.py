"""Small hostile BattleScribe files, written by the tests themselves (docs/data.md, "Untrusted
files"): link graphs that fan out, operatives with thousands of weapon profiles or of one name,
groups nested past any real file's depth. Every name, id and stat is invented."""

from __future__ import annotations

from pathlib import Path
from typing import Any

KILL_TEAM_2024 = "c521-ad27-44df-f959"
CATALOGUE_NS = 'xmlns="http://www.battlescribe.net/schema/catalogueSchema"'
ROSTER_NS = 'xmlns="http://www.battlescribe.net/schema/rosterSchema"'

SYSTEM = f"""<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="{KILL_TEAM_2024}" name="Crafted Kill Team" revision="1"
            xmlns="http://www.battlescribe.net/schema/gameSystemSchema"/>
"""

STATS = """<profile name="{name}" typeName="Operative" id="{id}-stats"><characteristics>
<characteristic name="APL">2</characteristic><characteristic name="Move">6"</characteristic>
<characteristic name="Save">4+</characteristic><characteristic name="Wounds">{wounds}</characteristic>
</characteristics></profile>"""


def weapon(ident: str, name: str = "\u2316 Gun", attacks: int = 4, hit: int = 3, damage: str = "3/4",
           inner: str = "") -> str:
    """A Weapons profile; ``inner``: what else it holds (modifiers, modifier groups)."""
    return (f'<profile name="{name}" typeName="Weapons" id="{ident}">{inner}<characteristics>'
            f'<characteristic name="ATK" typeId="atk">{attacks}</characteristic>'
            f'<characteristic name="HIT" typeId="hit">{hit}+</characteristic>'
            f'<characteristic name="DMG" typeId="dmg">{damage}</characteristic>'
            '<characteristic name="WR" typeId="wr"></characteristic>'
            "</characteristics></profile>")


def operative(ident: str, name: str = "Crafted", inner: str = "", profiles: str = "", wounds: int = 8) -> str:
    """A model entry with its stats, more ``profiles`` and ``inner`` (links, entries)."""
    stats = STATS.format(name=name, id=ident, wounds=wounds)
    return f'<selectionEntry type="model" name="{name}" id="{ident}"><profiles>{stats}{profiles}</profiles>{inner}' \
           "</selectionEntry>"


def catalogue(body: str, name: str = "Crafted Team", ident: str = "crafted") -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<catalogue id="{ident}" name="{name}" revision="1" '
            f'gameSystemId="{KILL_TEAM_2024}" {CATALOGUE_NS}>{body}</catalogue>\n')


def write_catalogue(folder: Path, body: str, name: str = "Crafted Team") -> Path:
    """The game system and one catalogue of ``body`` in ``folder``; returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "system.gst").write_text(SYSTEM, encoding="utf-8")
    (folder / f"{name}.cat").write_text(catalogue(body, name), encoding="utf-8")
    return folder


def fan_out(levels: int, links: int = 2) -> str:
    """An operative linking to group 0; each group links ``links`` times to the next; the last holds
    a gun. No cycle, yet ``links ** levels`` chains lead to the gun."""
    groups = []
    for level in range(levels):
        inner = "".join(f'<entryLink id="l{level}-{k}" name="to {level + 1}" type="selectionEntryGroup" '
                        f'targetId="g{level + 1}"/>' for k in range(links))
        groups.append(f'<selectionEntryGroup name="group {level}" id="g{level}"><entryLinks>{inner}</entryLinks>'
                      "</selectionEntryGroup>")
    groups.append(f'<selectionEntryGroup name="group {levels}" id="g{levels}"><selectionEntries>'
                  f'<selectionEntry type="upgrade" name="gun" id="gun"><profiles>{weapon("gun-p")}</profiles>'
                  "</selectionEntry></selectionEntries></selectionEntryGroup>")
    root = operative("op", inner='<entryLinks><entryLink id="to-0" name="to 0" type="selectionEntryGroup" '
                                 'targetId="g0"/></entryLinks>')
    return (f"<selectionEntries>{root}</selectionEntries>"
            f"<sharedSelectionEntryGroups>{''.join(groups)}</sharedSelectionEntryGroups>")


def many_weapons(count: int) -> str:
    """One operative with ``count`` weapon profiles, each different."""
    guns = "".join(weapon(f"w{k}", f"\u2316 Gun {k % 7}", 1 + k % 6, 2 + k % 5, f"{1 + k % 9}/{1 + k % 11}")
                   for k in range(count))
    return f"<selectionEntries>{operative('op', profiles=guns)}</selectionEntries>"


def same_names(count: int) -> str:
    """``count`` operatives of one name (each its own entry)."""
    return "<selectionEntries>" + "".join(operative(f"op{k}", "Twin") for k in range(count)) + "</selectionEntries>"


def nested_modifier_groups(depth: int) -> str:
    """A gun whose one modifier sits ``depth`` modifier groups deep."""
    inner = '<modifiers><modifier type="set" field="atk" value="5"/></modifiers>'
    for _ in range(depth):
        inner = f"<modifierGroups><modifierGroup>{inner}</modifierGroup></modifierGroups>"
    return f"<selectionEntries>{operative('op', profiles=weapon('gun', inner=inner))}</selectionEntries>"


def nested_condition_groups(depth: int) -> str:
    """A gun whose modifier's condition sits ``depth`` condition groups deep."""
    inner = '<conditions><condition type="instanceOf" scope="self" childId="any" field="selections" value="1"/>' \
            "</conditions>"
    for _ in range(depth):
        inner = f'<conditionGroups><conditionGroup type="and">{inner}</conditionGroup></conditionGroups>'
    modifier = f'<modifiers><modifier type="set" field="atk" value="5">{inner}</modifier></modifiers>'
    return f"<selectionEntries>{operative('op', profiles=weapon('gun', inner=modifier))}</selectionEntries>"


def nested_forces(depth: int) -> str:
    """A roster whose one operative sits in a force ``depth`` forces deep."""
    selection = ('<selections><selection type="model" name="Crafted" id="s-op" entryId="op" number="1"><profiles>'
                 + STATS.format(name="Crafted", id="s-op", wounds=8) + weapon("s-gun") + "</profiles></selection>"
                 "</selections>")
    inner = f'<force id="f{depth}" catalogueName="Crafted Team">{selection}</force>'
    for level in range(depth - 1, -1, -1):
        inner = f'<force id="f{level}" catalogueName="Crafted Team"><forces>{inner}</forces></force>'
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<roster id="r" name="Crafted list" gameSystemId="{KILL_TEAM_2024}" '
            f"{ROSTER_NS}><forces>{inner}</forces></roster>\n")


def count_visits(monkeypatch: Any) -> list[int]:
    """How many entries the importer's walks visit from now on (each visit a step of its bound):
    ``[count]``, kept up to date."""
    from mathhammer.killteam.data import walk

    visits = [0]
    visit = walk.Walk._visit

    def counting(self: Any, *args: Any) -> None:
        visits[0] += 1
        visit(self, *args)

    monkeypatch.setattr(walk.Walk, "_visit", counting)
    return visits

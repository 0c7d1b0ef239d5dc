"""The pattern table of ability texts (killteam/patterns.py): one invented text per row, read as the
option it means, always or under a condition the engine cannot decide; texts whose condition or
effect the table does not match whole are not recognised, with the reason. The expected options are
the rows' notations written out here by hand, never read from the table."""

from __future__ import annotations

import pytest

from mathhammer.errors import InputTypeError
from mathhammer.killteam.patterns import EFFECTS, MAX_CLAUSE, MAX_SPLITS, MAX_TEXT, clauses, read_text

# (row, invented text, notation, what, on, weapons' kind, condition's cues: () when always true)
CASES = [
    ("Hardy", "Whenever an enemy operative is shooting this operative, defence dice results of 4+ are critical "
              "successes.", "Hardy 4+", "abilities", "operative", "", ()),
    ("Feel No Pain", "Whenever an attack dice inflicts damage on this operative, roll one D6: on a 6+, subtract 1 "
                     "from that inflicted damage.", "Feel No Pain 6+", "abilities", "operative", "", ()),
    ("Just a Scratch (normals)", "The first time an attack dice inflicts Normal Dmg on this operative during that "
                                 "sequence, ignore that inflicted damage.", "Just a Scratch (normals)", "abilities",
     "operative", "", ()),
    ("Just a Scratch (normals), limited by its condition", "Once per turning point, when an attack dice inflicts "
     "Normal Dmg on this operative, you can ignore that inflicted damage.", "Just a Scratch (normals)", "abilities",
     "operative", "", ("once per turning point", "the turning point")),
    ("Durable", "The first time an attack dice inflicts Critical Dmg of 4 or more on this operative during that "
                "sequence, that dice inflicts 1 less damage on it.", "Durable", "abilities", "operative", "", ()),
    ("Dueller", "Whenever this operative is fighting or retaliating, each of your blocks with a critical success can "
                "be allocated to block two unresolved successes (instead of one).", "Dueller", "abilities", "operative",
     "melee", ()),
    ("Storm Shield", "Whenever this operative is fighting or retaliating, each of your blocks can be allocated to "
                     "block two unresolved successes.", "Storm Shield", "abilities", "operative", "melee", ()),
    ("Balanced Saves", "Whenever an operative is shooting this operative, you can re-roll one of your defence dice.",
     "Balanced Saves", "abilities", "operative", "", ()),
    ("Ceaseless Saves", "Whenever an operative is shooting this operative, you can re-roll any of your defence dice "
                        "results of one result (e.g. results of 2).", "Ceaseless Saves", "abilities", "operative", "",
     ()),
    ("Relentless Saves", "Whenever this operative is in cover, you can re-roll any of your defence dice.",
     "Relentless Saves", "abilities", "operative", "", ("cover",)),
    ("Balanced", "Whenever this operative is shooting, you can re-roll one of your attack dice.", "Balanced", "rules",
     "weapons", "ranged", ()),
    ("Ceaseless", "Whenever this operative is fighting or retaliating, you can re-roll any of your attack dice "
                  "results of one result.", "Ceaseless", "rules", "weapons", "melee", ()),
    ("Relentless", "Whenever this operative is shooting, fighting or retaliating, you can re-roll any of your attack "
                   "dice.", "Relentless", "rules", "weapons", "", ()),
    ("weapon rules", "This operative's melee weapons have the Lethal 5+ and Rending weapon rules.", "Lethal 5+, Rending",
     "rules", "weapons", "melee", ()),
    ("weapon rules of this weapon", "Whenever this operative is shooting with this weapon, it has the Accurate 1 "
                                    "weapon rule.", "Accurate 1", "rules", "weapons", "weapon", ()),
    ("Dmg +1", "Whenever this operative is using this weapon against an enemy operative within 3\" of it, add 1 to "
               "both Dmg stats of this weapon.", "Dmg +1", "stats", "weapons", "weapon", ("a range", "the enemy")),
    ("Atk +1", "Add 1 to the Atk stat of this operative's melee weapons.", "Atk +1", "stats", "weapons", "melee", ()),
    ("Hit +1", "Whenever this operative has a Conceal order, improve the Hit stat of its ranged weapons by 1.", "Hit +1",
     "stats", "weapons", "ranged", ("an order",)),
    ("Save +1", "While this operative is within 6\" of your objective marker, improve its Save stat by 1 (to a maximum "
                "of 2+).", "Save +1", "stats", "operative", "", ("a range", "a marker")),
    ("Reduce Normal Dmg", "Whenever this operative is fighting or retaliating, or an operative is shooting it, Normal Dmg "
                          "of 4 or more inflicts 1 less damage on it.", "Reduce Normal Dmg 4+", "abilities", "operative",
     "", ()),
    ("Reduce Dmg", "Whenever this operative has a Conceal order, Normal and Critical Dmg of 3 or more inflicts 1 less "
                   "damage on it.", "Reduce Dmg 3+", "abilities", "operative", "", ("an order",)),
    ("Crits as Normal Dmg", "Whenever an attack dice would inflict Critical Dmg on this operative, you can choose for "
                            "that attack dice to inflict Normal Dmg instead.", "Crits as Normal Dmg", "abilities",
     "operative", "", ()),
    ("Ignore weapon rules", "Whenever an operative is shooting this operative, ignore the Lethal and Piercing 1 weapon "
                            "rules.", "Ignore Lethal, Ignore Piercing", "abilities", "operative", "", ()),
    ("Worsen Piercing", "Once per turning point, when an operative is shooting this operative, worsen the x of the "
                        "Piercing weapon rule by 1 (if any).", "Worsen Piercing", "abilities", "operative", "",
     ("once per turning point", "the turning point")),
]


@pytest.mark.parametrize(("row", "text", "notation", "what", "on", "kind", "cues"), CASES, ids=[c[0] for c in CASES])
def test_each_row_reads_its_invented_text(row: str, text: str, notation: str, what: str, on: str, kind: str,
                                          cues: tuple[str, ...]) -> None:
    (clause,) = read_text(text)
    assert clause.recognised, clause.reason
    assert clause.effect is not None and clause.effect.name == row
    assert (clause.notation, clause.what, clause.on, clause.kind, clause.cues) == (notation, what, on, kind, cues)
    assert clause.conditional == bool(cues)


def test_every_row_has_its_case() -> None:
    assert {case[0] for case in CASES} == {effect.name for effect in EFFECTS}
    # a clause is tried against a row only when it holds the row's words that are never optional
    assert {effect.name: effect.literal for effect in EFFECTS if effect.name in ("Hardy", "Save +1", "weapon rules")} \
        == {"Hardy": "defence dice results of", "Save +1": "save stat", "weapon rules": "weapon rule"}
    assert all(effect.literal for effect in EFFECTS)


@pytest.mark.parametrize(("text", "reason"), [
    # a pattern matches the whole condition: a Feel No Pain only against 3+ damage is no Feel No Pain
    ("Whenever an attack dice inflicts damage of 3 or more on this operative, roll one D6: on a 5+, subtract 1 from "
     "that inflicted damage.", "like Feel No Pain, but not under its own condition"),
    ("The first time an attack dice inflicts Critical Dmg of 3 or more on this operative, that dice inflicts 1 less "
     "damage on it.", "like Durable, but not under its own condition"),
    # every normal damage ignored, with no limit: no engine option
    ("When an attack dice inflicts Normal Dmg on this operative, you can ignore that inflicted damage.",
     "every time, with no limit"),
    # a condition with none of the words of a condition the table knows
    ("Whenever the moon is full, defence dice results of 5+ are critical successes.",
     "its condition is not one the table knows: 'whenever the moon is full'"),
    ("This operative can perform the Fall Back action for 1 less AP.", "no effect on a shot's or a fight's dice"),
    ("Whenever this operative is retaliating, you resolve the first attack dice.", "about the dice"),
    ("This operative's ranged weapons have the Seek Light weapon rule.", "seek light: targeting"),
    ("This operative's weapons have the Piercing 4 weapon rule.", "'piercing 4' is not a weapon rule the engine models"),
    ("Whenever this operative is shooting, its melee weapons have the Severe weapon rule.",
     "melee weapons while ranged: the two cannot meet"),
    ("Whenever an operative is shooting this operative, you can re-roll one of your attack dice.",
     "its own weapons while it is shot"),
])
def test_what_the_table_does_not_match_whole_is_not_recognised(text: str, reason: str) -> None:
    (clause,) = read_text(text)
    assert not clause.recognised and reason in clause.reason


def test_the_operatives_and_weapons_a_clause_names() -> None:
    (grant,) = read_text("Friendly EMBER WARDEN operatives' flame pistols and mauls have the Piercing 1 weapon rule.")
    assert (grant.notation, grant.keyword, grant.named) == ("Piercing 1", "ember warden", ("flame pistol", "maul"))
    (bolt,) = read_text("Whenever this operative is shooting, its bolt weapons have the Severe weapon rule.")
    assert (bolt.named, bolt.kind, bolt.keyword) == (("bolt",), "ranged", "")
    # the operatives a condition names; "a friendly operative" (no keyword) is every one
    (named,) = read_text("Whenever a friendly GLOAM SEER operative is shooting an enemy operative that has one of your "
                         "Hex tokens, that friendly operative's weapons have the Balanced weapon rule.")
    assert (named.keyword, named.cues) == ("gloam seer", ("a token", "the enemy"))
    (anyone,) = read_text("Whenever a friendly operative is fighting or retaliating, its weapons have the Shock weapon "
                          "rule.")
    assert (anyone.keyword, anyone.kind, anyone.conditional) == ("*", "melee", False)
    # rules the engine does not model are left out, the rest kept
    (mixed,) = read_text("Its ranged weapons have the Poison and Severe weapon rules.")
    assert (mixed.notation, mixed.left_out) == ("Severe", "'poison' is not a weapon rule the engine models")


def test_clauses_sentences_bullets_and_a_leading_condition() -> None:
    text = ("Whenever this operative is using this weapon:\n- Each of your blocks can be allocated to block two "
            "unresolved successes.\n• If it is retaliating, it resolves first (i.e. before the attacker). This isn't "
            "cumulative with other rules.")
    assert clauses(text) == [
        "whenever this operative is using this weapon, each of your blocks can be allocated to block two unresolved "
        "successes",
        "whenever this operative is using this weapon, if it is retaliating, it resolves first (ie before the "
        "attacker)"]
    shield, first = read_text(text)
    assert (shield.notation, shield.kind, shield.conditional) == ("Storm Shield", "weapon", False)
    assert not first.recognised
    # a choice's label is left out; the choice itself is the condition ("select": a switch)
    (choice,) = read_text("**STRATEGIC GAMBIT**. Select one of these for a friendly RUST HOUND operative:\n"
                          "- Fierce: Its melee weapons have the Relentless weapon rule.")
    assert (choice.notation, choice.kind, choice.keyword) == ("Relentless", "melee", "rust hound")
    assert "a choice" in choice.cues and "a ploy" in choice.cues


def test_texts_are_checked() -> None:
    with pytest.raises(InputTypeError, match="text: expected an ability's text"):
        read_text(None)  # type: ignore[arg-type]
    (long,) = read_text("x" * (MAX_TEXT + 1))
    assert not long.recognised and f"at most {MAX_TEXT}" in long.reason
    (clause,) = read_text("This operative's melee weapons have the Severe weapon rule" + " x" * MAX_CLAUSE)
    assert not clause.recognised and f"at most {MAX_CLAUSE}" in clause.reason
    # a condition is looked for before the first MAX_SPLITS commas only
    near = "Whenever this operative is shooting" + ", x" * (MAX_SPLITS - 1) + ", its weapons have the Severe weapon rule"
    far = "Whenever this operative is shooting" + ", x" * MAX_SPLITS + ", its weapons have the Severe weapon rule"
    assert read_text(near)[0].reason.startswith("its condition is not one the table knows")
    assert read_text(far)[0].reason == "about the dice, but no phrasing of the table matches it whole"
    assert read_text("") == []


@pytest.mark.parametrize(("text", "reason"), [
    # a defence acting in shots and fights (docs/rules/killteam.md §2.3) under a condition of one of them
    ("Whenever this operative is fighting or retaliating, Normal and Critical Dmg of 3 or more inflicts 1 less damage "
     "on it.", "Reduce Dmg only while it is fighting: the engine's option acts in shots and fights alike"),
    ("Whenever an operative is shooting this operative, Normal Dmg of 3 or more inflicts 1 less damage on it.",
     "Reduce Normal Dmg only while it is shot: the engine's option acts in shots and fights alike"),
    # a rule no ability ignores
    ("Whenever an operative is shooting this operative, ignore the Blast weapon rule.",
     "'blast': no ability of the engine ignores it"),
])
def test_defences_the_engine_cannot_give_as_written_are_set_aside(text: str, reason: str) -> None:
    (clause,) = read_text(text)
    assert not clause.recognised and clause.reason == reason

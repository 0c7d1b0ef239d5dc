"""WR text token by token: every token lands in one place, with its reason (docs/data.md, "Weapon rules")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathhammer import killteam as kt
from mathhammer.killteam.data.tokens import translate

RULES = kt.WeaponRules


@pytest.mark.parametrize(("text", "rules", "accepted"), [
    ("Lethal 5+, Piercing 1", RULES(lethal=5, piercing=1), ("Lethal 5+", "Piercing 1")),
    ("rending,  SEVERE ", RULES(rending=True, severe=True), ("Rending", "Severe")),
    ("Piercing Crits 1, Devastating 3", RULES(piercing_crits=1, devastating=3), ("Piercing Crits 1", "Devastating 3")),
    ("Accurate 1, Punishing, Relentless", RULES(accurate=1, punishing=True, reroll="relentless"),
     ("Accurate 1", "Punishing", "Relentless")),
    ("Ceaseless, Balanced", RULES(reroll="ceaseless_balanced"), ("Ceaseless", "Balanced")),
    ("Brutal, Shock, Saturate", RULES(brutal=True, shock=True, saturate=True), ("Brutal", "Shock", "Saturate")),
    ("-", RULES(), ()),
    ("", RULES(), ()),
])
def test_modelled_as_written(text: str, rules: kt.WeaponRules, accepted: tuple[str, ...]) -> None:
    words = translate(text)
    assert (words.rules, words.accepted, words.rewritten, words.ignored, words.unknown) == (rules, accepted, (), (), ())


@pytest.mark.parametrize(("text", "rules", "read_as", "note"), [
    ('2" Devastating 1', RULES(devastating=1), "Devastating 1",
     'splash: 1 damage to each other operative within 2" of the target as well (not modelled)'),
    ("Piercing1", RULES(piercing=1), "Piercing 1", "a space was missing before the number"),
    ("Lethal 5+ Piercing 1", RULES(lethal=5, piercing=1), "Lethal 5+, Piercing 1", "a comma was missing"),
    ("Brutal Severe", RULES(brutal=True, severe=True), "Brutal, Severe", "a comma was missing"),
])
def test_modelled_after_a_rewrite(text: str, rules: kt.WeaponRules, read_as: str, note: str) -> None:
    words = translate(text)
    assert words.rules == rules
    assert [(r.written, r.read_as, r.note) for r in words.rewritten] == [(text, read_as, note)]
    assert words.unknown == ()


@pytest.mark.parametrize(("text", "token", "reason_starts"), [
    ('Range 8"', 'Range 8"', "targeting and position"),
    ("Heavy", "Heavy", "movement"),
    ("Heavy (Dash only)", "Heavy (Dash only)", "movement"),
    ("heavy (reposition only)", "Heavy (Reposition only)", "movement"),
    ("Seek Light", "Seek Light", "targeting: which cover"),
    ("Silent", "Silent", "orders"),
    ("Stun", "Stun", "after the attack"),
    ("Limited 1", "Limited 1", "uses per battle"),
    ("PSYCHIC", "PSYCHIC", "a keyword"),
    ('Blast 2"', 'Blast 2"', "more targets"),
    ('Torrent 1"', 'Torrent 1"', "more targets"),
    ("Poison*", "Poison*", "a rule of this team's own (marked *)"),
    ("Twin Torrent'", "Twin Torrent'", "a rule of this team's own (marked ')"),
])
def test_kept_with_a_reason(text: str, token: str, reason_starts: str) -> None:
    words = translate(text)
    assert words.rules == RULES() and words.accepted == () and words.unknown == ()
    assert [k.token for k in words.ignored] == [token]
    assert words.ignored[0].reason.startswith(reason_starts)


def test_more_targets_give_their_distance() -> None:
    assert (translate('Blast 2", Saturate').blast, translate('Blast 2"').torrent) == (2, None)
    assert translate('Torrent 1", Range 6"').torrent == 1
    blast = translate("Blast 1")  # the inch mark missing
    assert blast.blast == 1 and blast.rewritten[0].note == "the inch mark was missing"


def test_irregular_spellings_are_rewritten_and_said() -> None:
    assert [r.read_as for r in translate('Rang 8"').rewritten] == ['Range 8"']
    bold = translate("**PSYCHIC**, Heavy (**Dash** only)")
    assert [r.read_as for r in bold.rewritten] == ["PSYCHIC", "Heavy (Dash only)"]
    assert [k.token for k in bold.ignored] == ["PSYCHIC", "Heavy (Dash only)"]
    assert translate("Range 6\u201d").ignored[0].token == 'Range 6"'  # a typographic inch mark


def test_team_rules_get_their_text() -> None:
    words = translate("Poison*, Rending", {"poison": "Invented text."})
    assert words.ignored[0].text == "Invented text." and words.rules == RULES(rending=True)
    assert translate("Blaze*", {"poison": "x"}).ignored[0].text is None


@pytest.mark.parametrize(("text", "reason_has"), [
    ("Foo bar", "not a weapon rule the importer knows"),
    ("Piercing 4", "the engine refuses it: 4 is out of range"),
    ("Balanced, Relentless", "at most one reroll rule"),
    ("Lethal 5+, Lethal 4+", "given twice"),
    ("Waaagh", "not a weapon rule the importer knows"),  # an engine name, not a universal weapon rule
    ("Auto Crits 2", "not a weapon rule the importer knows"),
])
def test_unknown_tokens_are_kept_with_their_reason(text: str, reason_has: str) -> None:
    words = translate(text)
    assert words.unknown and reason_has in words.unknown[-1].reason


def test_a_huge_wr_text_is_one_unknown_token() -> None:
    words = translate("Rending, " * 1000)
    assert words.accepted == () and "characters" in words.unknown[0].reason


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('abcdefghiklmnoprstuvwxyz 0123456789+",*\'()')), max_size=80))
def test_every_token_lands_somewhere(text: str) -> None:
    words = translate(text)
    written = [part.strip() for part in text.split(",") if part.strip() and part.strip() != "-"]
    placed = len(words.ignored) + len(words.unknown) + len(words.accepted)
    assert placed >= len(written)  # a token split by a missing comma counts more than once
    assert words.rules == (kt.WeaponRules.parse(", ".join(words.accepted)) if words.accepted else kt.WeaponRules())

"""Kill Team's rules tables (kt.WeaponRules, kt.Abilities: one row per field) against what they
feed: the notation parses and prints each row back, the rules page's tables are the rows', the
importer accepts the rows datacards write and keeps the tokens of WeaponRules.KEPT with their
reasons, and every row names C++ fields that exist."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from mathhammer import _core
from mathhammer import killteam as kt
from mathhammer.errors import InputError
from mathhammer.killteam.data import tokens
from mathhammer.killteam.notation import Rule

ROOT = Path(__file__).resolve().parents[2]
TABLES = {"rules": kt.WeaponRules, "abilities": kt.Abilities}
ROWS = [(kind, name, row) for kind, cls in TABLES.items() for name, row in cls.TABLE.rows()]


def _written(notation: str, value: int) -> str:
    return re.sub(r"\bx\b", str(value), notation)


def _spellings(row: Rule) -> list[tuple[str, object]]:
    """(text, value it sets) for every notation and spelling of a row, parameters at both ends."""
    if row.kind == "named":
        return [(text, value) for value, named in row.values.items() for text in (named.text, *named.aliases)]
    if row.kind == "flag":
        return [(text, True) for text in (row.notation, *row.aliases)]
    low = max(row.low, 1)  # a parameter of 0 is the rule not given
    return [(_written(text, v), v) for text in (row.notation, *row.aliases) for v in (low, row.high)]


@pytest.mark.parametrize("kind,name,row", ROWS, ids=[f"{k}.{n}" for k, n, _ in ROWS])
def test_every_spelling_of_a_row_parses_to_its_field_and_prints_its_notation(kind: str, name: str, row: Rule) -> None:
    cls = TABLES[kind]
    for text, value in _spellings(row):
        for written in (text, text.upper(), text.lower().replace(" ", "-")):
            parsed = cls.parse(written)
            assert getattr(parsed, name) == value, written
            assert cls.parse(str(parsed)) == parsed
        printed = str(cls.parse(text))
        canonical = row.values[value].text if row.kind == "named" else _written(row.notation, value)
        assert printed == canonical


def test_the_known_names_are_the_rows_notations() -> None:
    for cls in TABLES.values():
        assert cls.KNOWN == tuple(n for _, row in cls.TABLE.rows() for n in row.names())
    message = str(pytest.raises(InputError, kt.WeaponRules.parse, "Severr").value)
    assert "(did you mean 'Severe'?)" in message
    message = str(pytest.raises(InputError, kt.Abilities.parse, "Storm Sheild").value)
    assert message.endswith(", ".join(kt.Abilities.KNOWN))


def test_a_row_names_cpp_fields_that_exist() -> None:
    for _, _, row in ROWS:
        for target in row.engine:
            struct, field = target.split(".")
            assert field in getattr(_core.killteam, struct).field_tags(), target


def test_the_rules_page_holds_the_rows() -> None:
    spec = importlib.util.spec_from_file_location("rules_table", ROOT / "tools" / "rules_table.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    text = tool.PAGE.read_text(encoding="utf-8")
    assert tool.page_with_block(text) == text, "docs/rules/killteam.md §9 is stale: run tools/rules_table.py"
    for _, _, row in ROWS:
        assert f"| {row.names()[0]}" in text


def test_the_importer_accepts_the_rows_datacards_write() -> None:
    written = []
    for _, _, row in (r for r in ROWS if r[0] == "rules"):
        if row.kind == "named":
            written += [named.text for named in row.values.values() if named.datacard]
        elif row.datacard:
            written.append(_written(row.notation, max(row.low, 1)))
    assert {"Lethal 2+", "Piercing Crits 1", "Balanced", "Relentless", "Brutal"} <= set(written)
    for text in written:
        assert tokens.translate(text).accepted == (text,), text
    for name in ("Purity Seal", "Double Balanced", "Auto Crits 1", "Waaagh"):  # the engine's, not the datacards'
        assert tokens.translate(name).accepted == ()


@pytest.mark.parametrize("kept", kt.WeaponRules.KEPT, ids=[k.notation for k in kt.WeaponRules.KEPT])
def test_the_importer_keeps_each_kept_token_with_its_reason(kept) -> None:
    text = _written(kept.notation, 2)
    done = tokens.translate(text)
    assert done.accepted == () and done.unknown == ()
    assert [(k.token, k.reason) for k in done.ignored] == [(text, kept.reason.replace("{0}", "2"))]


def test_hot_is_a_modelled_rule_and_no_kept_token() -> None:
    # docs/rules/killteam.md §2.2: Hot changes the shooter's damage, so the importer models it
    assert "Hot" not in [k.notation for k in kt.WeaponRules.KEPT]
    assert tokens.translate("Hot").accepted == ("Hot",)
    assert kt.WeaponRules.parse("Hot").hot

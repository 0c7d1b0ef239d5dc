"""Broken catalogues and rosters: whatever a file holds, an import gives teams or one InputError
naming the file, never another exception (docs/data.md, "Untrusted files")."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casedata import KILLTEAM_DATA
from mathhammer import killteam as kt
from mathhammer.errors import InputError

DATA = KILLTEAM_DATA
EMBER = (DATA / "2024 - Ember Wardens.cat").read_text(encoding="utf-8")
ROSTER = (DATA / "Ember patrol.ros").read_text(encoding="utf-8")
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
_PIECES = st.sampled_from(['"', "<", ">", "&", "&amp;", "</profile>", "<selectionEntry type='model'>", "3+", "-", "*",
                           "targetId='ew-maul'", "x" * 300, "\u2316", "\u2694", "9" * 12, ""])


@st.composite
def _mutated(draw: st.DrawFn, text: str) -> str:
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, len(text)))
        end = min(len(text), start + draw(st.integers(0, 200)))
        piece = draw(st.one_of(_PIECES, st.text(max_size=20), st.just(text[start:end] * 2)))
        text = text[:start] + piece + text[end:]
    return text


@FUZZ
@given(text=_mutated(EMBER))
def test_a_broken_catalogue(tmp_path: Path, text: str) -> None:
    shutil.copy(DATA / "2024 - Test Game System.gst", tmp_path / "system.gst")
    (tmp_path / "team.cat").write_text(text, encoding="utf-8")
    try:
        teams = kt.data.load_catalogues(tmp_path)
    except InputError as error:
        # the error's field names one of the files (by its last 40 characters when longer)
        named = any(str(p).endswith(error.field.lstrip("…")) for p in tmp_path.iterdir())
        assert named or error.field in ("team", "path"), str(error)
        return
    for team in teams:
        team.to_library()  # whatever imported can be written


@FUZZ
@given(text=_mutated(ROSTER))
def test_a_broken_roster(tmp_path: Path, text: str) -> None:
    path = tmp_path / "list.ros"
    path.write_text(text, encoding="utf-8")
    try:
        kt.data.load_roster(path).to_library()
    except InputError as error:
        assert str(path).endswith(error.field.lstrip("…")), str(error)

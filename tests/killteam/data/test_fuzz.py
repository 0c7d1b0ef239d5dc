"""Broken catalogues and rosters: whatever a file holds, an import gives teams or one InputError
naming the file, never another exception (docs/data.md, "Untrusted files"); hostile ones (links that
fan out, thousands of profiles or of one name, groups nested past any real file) cost a bounded walk."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casedata import KILLTEAM_DATA
from mathhammer import killteam as kt
from mathhammer.errors import InputError
from mathhammer.killteam.data import walk

sys.path.insert(0, str(Path(__file__).parent))
import crafted  # noqa: E402

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
        # the error's field names one of the files, or the folder when no file is to blame (no 2024
        # catalogue among them), by its last 40 characters when longer
        named = any(str(p).endswith(error.field.lstrip("…")) for p in [tmp_path, *tmp_path.iterdir()])
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


# --- hostile files: each piece small, its cost what the bounds allow -----------------------------------

# as deep as a file may nest, past it, and past what recursion would survive (hypothesis itself lifts
# the recursion limit by 2,000 while a test runs)
_DEPTHS = st.one_of(st.integers(0, 70), st.integers(4000, 6000))
_PIECES_OF_CATALOGUES = st.one_of(
    st.builds(crafted.fan_out, st.integers(0, 60), st.integers(1, 3)),
    st.builds(crafted.many_weapons, st.integers(0, 1500)),
    st.builds(crafted.same_names, st.integers(0, 1500)),
    st.builds(crafted.nested_modifier_groups, _DEPTHS),
    st.builds(crafted.nested_condition_groups, _DEPTHS),
)
HOSTILE = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                           HealthCheck.too_slow])


@HOSTILE
@given(pieces=st.lists(_PIECES_OF_CATALOGUES, min_size=1, max_size=2), data=st.data())
def test_a_hostile_catalogue(tmp_path: Path, monkeypatch: Any, pieces: list[str], data: st.DataObject) -> None:
    body = "".join(pieces)  # two pieces share ids ("op"): the first of an id is the one linked to
    if data.draw(st.booleans()):
        body = data.draw(_mutated(body))
    folder = crafted.write_catalogue(tmp_path / "data", body)
    visits = crafted.count_visits(monkeypatch)
    try:
        teams = kt.data.load_catalogues(folder)
    except InputError as error:
        named = any(str(p).endswith(error.field.lstrip("…")) for p in folder.iterdir())
        assert named or error.field in ("team", "path"), str(error)
        assert "\n" not in str(error) and len(str(error)) < 600
    else:
        for team in teams:
            team.to_library()
    finally:
        monkeypatch.undo()
    assert visits[0] <= walk.MAX_STEPS  # the walk's bound, whatever the links


@HOSTILE
@given(depth=_DEPTHS, data=st.data())
def test_a_hostile_roster(tmp_path: Path, depth: int, data: st.DataObject) -> None:
    text = crafted.nested_forces(depth)
    if data.draw(st.booleans()):
        text = data.draw(_mutated(text))
    path = tmp_path / "list.ros"
    path.write_text(text, encoding="utf-8")
    try:
        kt.data.load_roster(path).to_library()
    except InputError as error:
        assert str(path).endswith(error.field.lstrip("…")), str(error)

"""Files that cannot be imported: each is one error naming the file, where in it, and what was
expected; untrusted files (XML bombs, zip bombs, huge files) are refused before they cost anything."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest

from casedata import KILLTEAM_DATA
from mathhammer import killteam as kt
from mathhammer.errors import InputError, ProfileFileError

DATA = KILLTEAM_DATA
SYSTEM = DATA / "2024 - Test Game System.gst"
EMBER = DATA / "2024 - Ember Wardens.cat"
GLOAM = DATA / "2024 - Gloam Pact.cat"
ROSTER = DATA / "Ember patrol.ros"
NS = 'xmlns="http://www.battlescribe.net/schema/catalogueSchema"'
HEAD = f'<catalogue id="t-cat" name="Cycle Team" revision="1" gameSystemId="c521-ad27-44df-f959" {NS}>'


def test_no_game_system_among_the_files(tmp_path: Path) -> None:
    shutil.copy(EMBER, tmp_path)
    with pytest.raises(InputError, match="no game system \\(.gst\\) c521-ad27-44df-f959 among the files"):
        kt.data.load_catalogues(tmp_path)


def test_a_linked_catalogue_missing(tmp_path: Path) -> None:
    for file in (SYSTEM, GLOAM):
        shutil.copy(file, tmp_path)
    with pytest.raises(InputError) as caught:
        kt.data.load_catalogues(tmp_path)
    message = str(caught.value)
    assert "2024 - Gloam Pact.cat" in message and "catalogueLink[@targetId='ew-cat']" in message
    assert "no catalogue 'ew-cat' (Ember Wardens) among the files" in message


def test_no_catalogue_of_the_edition(tmp_path: Path) -> None:
    shutil.copy(DATA / "2021 - Ember Wardens.cat", tmp_path)
    shutil.copy(SYSTEM, tmp_path)
    with pytest.raises(InputError, match="no Kill Team 2024 catalogue"):
        kt.data.load_catalogues(tmp_path)
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no .gst or .cat files"):
        kt.data.load_catalogues(tmp_path / "empty")


def _catalogue(tmp_path: Path, body: str) -> Path:
    shutil.copy(SYSTEM, tmp_path)
    path = tmp_path / "2024 - Cycle Team.cat"
    path.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n{HEAD}\n{body}\n</catalogue>\n', encoding="utf-8")
    return path


def test_a_cycle_of_links(tmp_path: Path) -> None:
    _catalogue(tmp_path, """
  <entryLinks><entryLink id="t-root" name="Looper" type="selectionEntry" targetId="t-model"/></entryLinks>
  <sharedSelectionEntries>
    <selectionEntry type="model" name="Looper" id="t-model">
      <entryLinks><entryLink id="t-to-a" name="A" type="selectionEntryGroup" targetId="t-a"/></entryLinks>
    </selectionEntry>
  </sharedSelectionEntries>
  <sharedSelectionEntryGroups>
    <selectionEntryGroup name="A" id="t-a">
      <entryLinks><entryLink id="t-to-b" name="B" type="selectionEntryGroup" targetId="t-b"/></entryLinks>
    </selectionEntryGroup>
    <selectionEntryGroup name="B" id="t-b">
      <entryLinks><entryLink id="t-back" name="A again" type="selectionEntryGroup" targetId="t-a"/></entryLinks>
    </selectionEntryGroup>
  </sharedSelectionEntryGroups>""")
    with pytest.raises(ProfileFileError) as caught:
        kt.data.load_catalogues(tmp_path)
    message = str(caught.value)
    assert str(tmp_path / "2024 - Cycle Team.cat").endswith(caught.value.field.lstrip("…"))
    assert "entryLink[@id='t-back']: a cycle of links" in message and "selectionEntryGroup[@id='t-a']" in message


def test_a_link_to_nothing_is_reported_and_the_rest_imports(tmp_path: Path) -> None:
    _catalogue(tmp_path, """
  <selectionEntries>
    <selectionEntry type="model" name="Lonely" id="t-lonely">
      <profiles><profile name="Lonely" typeName="Operative" id="t-p">
        <characteristics><characteristic name="APL">2</characteristic><characteristic name="Move">6"</characteristic>
          <characteristic name="Save">4+</characteristic><characteristic name="Wounds">8</characteristic></characteristics>
      </profile></profiles>
      <entryLinks><entryLink id="t-nowhere" name="Gone" type="selectionEntry" targetId="t-missing"/></entryLinks>
    </selectionEntry>
  </selectionEntries>""")
    (team,) = kt.data.load_catalogues(tmp_path)
    assert team["Lonely"].operative == kt.Operative(4, 8) and team["Lonely"].weapons == ()
    assert team.report is not None and "no entry t-missing among the files" in team.report.notes[0]


def test_an_xml_bomb_is_refused(tmp_path: Path) -> None:
    shutil.copy(SYSTEM, tmp_path)
    lol = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))  # 10^9 "lol"s
    bomb = f'<?xml version="1.0"?>\n<!DOCTYPE catalogue [<!ENTITY lol0 "lol">{lol}]>\n{HEAD}&lol9;</catalogue>'
    (tmp_path / "2024 - Bomb.cat").write_text(bomb, encoding="utf-8")
    with pytest.raises(ProfileFileError, match="Bomb.cat: refused: the XML declares a document type or entities"):
        kt.data.load_catalogues(tmp_path)


def test_an_external_entity_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read", encoding="utf-8")
    text = (f'<?xml version="1.0"?>\n<!DOCTYPE roster [<!ENTITY x SYSTEM "file://{secret}">]>\n'
            '<roster gameSystemId="c521-ad27-44df-f959" xmlns="http://www.battlescribe.net/schema/rosterSchema">'
            '&x;</roster>')
    (tmp_path / "evil.ros").write_text(text, encoding="utf-8")
    with pytest.raises(ProfileFileError, match="refused"):
        kt.data.load_roster(tmp_path / "evil.ros")


def test_a_file_over_16_mib_is_refused_unread(tmp_path: Path) -> None:
    shutil.copy(SYSTEM, tmp_path)
    big = tmp_path / "2024 - Huge.cat"
    with open(big, "wb") as handle:
        handle.truncate(17 * 1024 * 1024)  # sparse: nothing is written, and nothing is read
    with pytest.raises(ProfileFileError, match=r"Huge.cat: file of 17825792 bytes is too large; at most 16777216"):
        kt.data.load_catalogues(tmp_path)


@pytest.mark.parametrize(("text", "expected"), [
    ("<catalogue", "not well-formed XML (line 1"),
    (f"<?xml version='1.0' encoding='UUTF-8'?><catalogue id='x' {NS}/>", "unreadable text (unknown encoding: UUTF-8)"),
    ("<html xmlns='http://www.w3.org/1999/xhtml'/>", "root element <html>: expected <gameSystem>, <catalogue> or <roster>"),
    (f"<catalogue name='x' {NS}/>", "catalogue: no id attribute"),
    (f"<catalogue id='x' {NS}/>", "catalogue: no gameSystemId attribute"),
    (f"<roster id='x' {NS}/>", "a roster, not a catalogue"),
])
def test_a_malformed_catalogue_names_what_was_expected(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "2024 - Bad.cat"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProfileFileError) as caught:
        kt.data.load_catalogues([SYSTEM, path])
    assert str(path).endswith(caught.value.field.lstrip("…")) and expected in str(caught.value)


def test_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "2024 - Pipe.cat"
    os.mkfifo(fifo)
    with pytest.raises(ProfileFileError, match="not a regular file"):
        kt.data.load_catalogues([SYSTEM, fifo])
    with pytest.raises(ProfileFileError, match="no such file"):
        kt.data.load_roster(tmp_path / "missing.ros")


def test_two_catalogues_of_one_id(tmp_path: Path) -> None:
    shutil.copy(SYSTEM, tmp_path)
    shutil.copy(EMBER, tmp_path / "2024 - Ember Wardens.cat")
    shutil.copy(EMBER, tmp_path / "2024 - Ember Wardens (old).cat")
    with pytest.raises(ProfileFileError, match="catalogue id ew-cat is also the id of"):
        kt.data.load_catalogues(tmp_path)


# --- zipped rosters ---------------------------------------------------------------------------

CLIMBING = "/".join(["..", "escape.ros"])  # a member that climbs out of the folder it is unzipped in


def _rosz(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def test_a_zip_bomb_is_refused_before_decompressing(tmp_path: Path) -> None:
    path = tmp_path / "bomb.rosz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("list.ros", "w", force_zip64=True) as member:
            block = b"\0" * (1 << 20)
            for _ in range(65):  # 65 MiB of zeros, about 65 KiB compressed
                member.write(block)
    assert path.stat().st_size < 1 << 20
    with pytest.raises(ProfileFileError, match=r"bomb.rosz: the members would decompress to 68157440 bytes; at most 67108864"):
        kt.data.load_roster(path)


@pytest.mark.parametrize(("members", "expected"), [
    ({}, "0 members; expected one .ros roster"),
    ({f"{i}.ros": b"x" for i in range(17)}, "17 members"),
    ({CLIMBING: b"x"}, f"member '{CLIMBING}': expected a plain file name"),
    ({"folder/list.ros": b"x"}, "expected a plain file name"),
    ({"a.ros": b"x", "b.ros": b"y"}, "2 .ros members; expected exactly one roster"),
    ({"notes.txt": b"x"}, "0 .ros members"),
    ({"list.ros": b"\0" * (17 * 1024 * 1024)}, "of 17825792 bytes is too large"),
])
def test_rosz_members_are_checked(tmp_path: Path, members: dict[str, bytes], expected: str) -> None:
    path = _rosz(tmp_path / "list.rosz", members) if members else tmp_path / "list.rosz"
    if not members:
        zipfile.ZipFile(path, "w").close()
    with pytest.raises(ProfileFileError, match=expected.replace("(", r"\(").replace(".", r"\.")):
        kt.data.load_roster(path)


def test_a_rosz_that_is_no_zip(tmp_path: Path) -> None:
    path = tmp_path / "list.rosz"
    path.write_bytes(ROSTER.read_bytes())
    with pytest.raises(ProfileFileError, match="not a zip archive; expected a .rosz holding one .ros roster"):
        kt.data.load_roster(path)


def test_a_roster_of_another_game_system(tmp_path: Path) -> None:
    path = tmp_path / "other.ros"
    text = ROSTER.read_text(encoding="utf-8").replace('gameSystemId="c521-ad27-44df-f959"',
                                                      'gameSystemId="old-edition-system"')
    path.write_text(text.replace('gameSystemName="Test Kill Team (2024)"', 'gameSystemName="Skirmish Classic"'),
                    encoding="utf-8")
    # the edition in words, as the roster names it, and its id
    with pytest.raises(ProfileFileError, match=r"other.ros: roster: a roster of 'Skirmish Classic' \(gameSystemId "
                                               r"'old-edition-system'\); expected a Kill Team 2024 roster"):
        kt.data.load_roster(path)
    path.write_text(text.replace(' gameSystemName="Test Kill Team (2024)"', ""), encoding="utf-8")
    with pytest.raises(ProfileFileError, match="roster: gameSystemId 'old-edition-system'; expected a Kill Team 2024"):
        kt.data.load_roster(path)
    with pytest.raises(ProfileFileError, match="not a roster"):
        kt.data.load_roster(EMBER)

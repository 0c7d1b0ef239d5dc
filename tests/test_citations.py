"""Every rules citation in the repository points at a section that exists in the repository.

Code, tests and docs justify what they do by citing a rules page and a section, e.g.
``docs/rules/killteam.md §3.4``. This test reads every text file under version control and checks
that (a) each cited ``.md`` file is in the repository, (b) each cited section is a heading of it
(``§3.2`` needs a heading numbered ``3.2``), and (c) nothing names a file outside the repository:
a path that climbs out of it, a folder of material the repository does not hold, or one of the
source texts the rules pages were written from. A bare ``§N`` in a file that cites exactly one
rules page (or in a rules page itself) refers to that page and is checked against it too.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".py", ".cpp", ".hpp", ".md", ".toml", ".txt", ".pyi")
RULES_DIR = PurePosixPath("docs/rules")

_SECTION = r"§\s?\d+(?:\.\d+)*"
# A run of sections after one file name: "§3", "§1 and §3", "§2, §4, §7", "§2-§3", "§3/§4".
_SECTIONS = rf"{_SECTION}(?:\s*(?:,\s*(?:and\s+)?|/|-|–|\s+and\s+|\s+or\s+)\s*{_SECTION})*"
CITATION = re.compile(rf"(?P<file>[A-Za-z0-9_./-]*[A-Za-z0-9_]\.md)`?\s*(?P<sections>{_SECTIONS})")
SECTION = re.compile(r"§\s?(\d+(?:\.\d+)*)")
GAMES = ("killteam", "starcraft", "deathburgh", "force_melee")
# A mention of a game's page, cited or not ("the rules of docs/rules/killteam.md").
MD_NAME = re.compile(rf"(?<![A-Za-z0-9_./-])([A-Za-z0-9_./-]*(?<![A-Za-z0-9_])(?:{'|'.join(GAMES)})\.md)\b")
TXT_NAME = re.compile(r"(?<![A-Za-z0-9_./-])([A-Za-z0-9_./-]*[A-Za-z0-9_]\.txt)\b")
HEADING = re.compile(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?(?:\s|$)", re.MULTILINE)
# Folders the repository does not hold, as a path component.
OUTSIDE_FOLDER = re.compile(r"(?<![A-Za-z0-9_.-])(shared|seeds|spec)/")
CLIMB = re.compile(r"(?:\.\./)+[A-Za-z0-9_./-]*")
# The source texts the rules pages were written from: never in the repository, never to be named.
SOURCE_TEXTS = (
    "killteam_fight_resolution.txt", "killteam_combat_rules.txt", "starcraft_damage_calculator.txt",
    "deathburgh_combat.txt", "force_melee.txt", "architecture.md", "quality.md", "killteam_reference.md",
)
# A .txt name that looks like a rules text (as opposed to, say, a scratch file a test writes).
RULES_LIKE_TXT = re.compile(r"killteam|starcraft|deathburgh|force_melee|rules|combat|resolution|calculator|spec|seed",
                            re.IGNORECASE)


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def tracked_files() -> list[str]:
    """The text files under version control that may cite the rules."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return sorted(p for p in out.splitlines() if p.endswith(SUFFIXES))


def headings(text: str) -> set[str]:
    """The section numbers of a Markdown page's numbered headings ("## 3. Fighting" -> "3")."""
    return set(HEADING.findall(text))


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _resolve(name: str, citing: str, files: set[str]) -> str | None:
    """The tracked file a name points at: relative to the citing file, or to the repository root."""
    for base in (PurePosixPath(citing).parent, PurePosixPath()):
        parts: list[str] = []
        for part in (base / name).parts:
            if part == "..":
                if not parts:
                    return None  # climbs out of the repository
                parts.pop()
            elif part != ".":
                parts.append(part)
        candidate = "/".join(parts)
        if candidate in files:
            return candidate
    return None


def check_text(path: str, text: str, pages: dict[str, str], files: set[str]) -> list[Problem]:
    """Every problem with the citations and outside paths of one file.

    ``pages`` maps each tracked Markdown file to its text (for its headings); ``files`` is every
    tracked path.
    """
    problems: list[Problem] = []
    cited: set[str] = set()
    covered: list[tuple[int, int]] = []

    def check_sections(page: str, sections: str, offset: int) -> None:
        found = headings(pages[page])
        for number in SECTION.findall(sections):
            if number not in found:
                problems.append(Problem(path, _line(text, offset), f"{page} has no section {number}"))

    for match in CITATION.finditer(text):
        name = match.group("file")
        covered.append(match.span())
        page = _resolve(name, path, files)
        if page is None or page not in pages:
            problems.append(Problem(path, _line(text, match.start()), f"cites {name}, which is not in the repository"))
            continue
        cited.add(page)
        check_sections(page, match.group("sections"), match.start())

    # A bare § refers to the one page the file cites, or to the rules page it is.
    home = {path} if PurePosixPath(path).parent == RULES_DIR else cited
    if len(home) == 1:
        (page,) = home
        for match in SECTION.finditer(text):
            if not any(start <= match.start() < end for start, end in covered):
                check_sections(page, match.group(0), match.start())

    for match in MD_NAME.finditer(text):
        name = match.group(1)
        if any(start <= match.start() < end for start, end in covered):
            continue  # a citation, reported above
        if _resolve(name, path, files) is None:
            problems.append(Problem(path, _line(text, match.start()), f"names {name}, which is not in the repository"))
    for match in TXT_NAME.finditer(text):
        name = match.group(1)
        if RULES_LIKE_TXT.search(PurePosixPath(name).name) and _resolve(name, path, files) is None:
            problems.append(Problem(path, _line(text, match.start()), f"names {name}, which is not in the repository"))
    for match in OUTSIDE_FOLDER.finditer(text):
        problems.append(Problem(path, _line(text, match.start()), f"names the folder {match.group(1)}/, which is not in the repository"))
    for match in CLIMB.finditer(text):
        if _resolve(match.group(0), path, files) is None:
            problems.append(Problem(path, _line(text, match.start()), f"names {match.group(0)}, outside the repository"))
    lowered = text.lower()
    for name in SOURCE_TEXTS:
        start = lowered.find(name)
        while start != -1:
            # the repository's own page of that name (docs/architecture.md) is no source text
            own = lowered[max(0, start - 5):start] == "docs/" and (ROOT / "docs" / name).is_file()
            if not own:
                problems.append(Problem(path, _line(text, start), f"names the source text {name}"))
            start = lowered.find(name, start + 1)
    return problems


def check_repository() -> list[Problem]:
    files = tracked_files()
    texts = {p: (ROOT / p).read_text(encoding="utf-8") for p in files if (ROOT / p).is_file()}
    pages = {p: t for p, t in texts.items() if p.endswith(".md")}
    tracked = set(files)
    this = PurePosixPath(__file__).name
    # This file names the bad paths on purpose, in the checker's own tests below.
    return [problem for p, t in texts.items() if PurePosixPath(p).name != this
            for problem in check_text(p, t, pages, tracked)]


def test_every_citation_names_a_section_of_a_rules_page_in_the_repository() -> None:
    problems = check_repository()
    assert not problems, "\n".join(map(str, problems))


def test_every_game_has_a_rules_page_with_numbered_sections() -> None:
    for game in GAMES:
        page = ROOT / RULES_DIR / f"{game}.md"
        assert page.is_file(), page
        assert {"1", "2", "3", "4"} <= headings(page.read_text(encoding="utf-8")), game


# --- the checker itself, on synthetic text ---------------------------------------------------------

PAGES = {
    "docs/rules/game.md": "# Game\n\n## 1. Dice\n\n### 1.4 After the roll\n\n## 2. Shooting\n\n## 3. Fighting\n",
    "docs/guide.md": "# Guide\n",
}
FILES = {*PAGES, "src/engine.py", "docs/rules/notes.py"}


def _messages(text: str, path: str = "src/engine.py") -> list[str]:
    return [p.message for p in check_text(path, text, PAGES, FILES)]


def test_checker_accepts_good_citations() -> None:
    assert _messages("# the order of docs/rules/game.md §1.4, then §2\n") == []
    assert _messages("see docs/rules/game.md §1 and §3; docs/rules/game.md §1-§2; docs/rules/game.md §2/§3") == []
    assert _messages("`docs/rules/game.md` §2 (shooting)") == []
    assert _messages("[the rules](rules/game.md) say so", path="docs/guide.md") == []
    assert _messages("see [guide](../guide.md) and §3", path="docs/rules/game.md") == []
    assert _messages("the test writes notes.txt and reads CMakeLists.txt") == []


def test_checker_rejects_a_missing_section() -> None:
    assert _messages("docs/rules/game.md §4") == ["docs/rules/game.md has no section 4"]
    assert _messages("docs/rules/game.md §1.5") == ["docs/rules/game.md has no section 1.5"]
    assert _messages("docs/rules/game.md §1, §2 and §5") == ["docs/rules/game.md has no section 5"]
    # A bare § refers to the page the file cites.
    assert _messages("docs/rules/game.md §1\n# step §2.3 of it") == ["docs/rules/game.md has no section 2.3"]
    # In a rules page, a bare § refers to that page.
    assert _messages("## 1. x\n as §7 says", path="docs/rules/game.md") == ["docs/rules/game.md has no section 7"]


def test_checker_rejects_a_file_not_in_the_repository() -> None:
    assert _messages("game.md §2") == ["cites game.md, which is not in the repository"]
    assert _messages("the spec `rules/starcraft.md`") == ["names rules/starcraft.md, which is not in the repository"]
    assert _messages("the rules of `killteam.md`", path="docs/guide.md") == ["names killteam.md, which is not in the repository"]
    # A cited file that is not a Markdown page of the repository cannot hold sections.
    assert "cites docs/rules/missing.md, which is not in the repository" in _messages("docs/rules/missing.md §1")


@pytest.mark.parametrize("text, expected", [
    ("read /work/shared/cases/game.json", "names the folder shared/, which is not in the repository"),
    ("from seeds/ and", "names the folder seeds/, which is not in the repository"),
    ("the spec/ folder", "names the folder spec/, which is not in the repository"),
    ("open ../../outside/file.json", "names ../../outside/file.json, outside the repository"),
    ("the seed force_melee.txt says", "names the source text force_melee.txt"),
    ("as killteam_reference.md explains", "names the source text killteam_reference.md"),
    ("see game_rules.txt", "names game_rules.txt, which is not in the repository"),
])
def test_checker_rejects_paths_outside_the_repository(text: str, expected: str) -> None:
    assert expected in _messages(text)

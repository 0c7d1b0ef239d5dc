"""Every `mathhammer ...` command in the README and docs runs as written (exit 0), where a user who
installed the package runs it: in an empty folder, after `mathhammer examples --copy examples`.

Shell blocks (```bash / ```sh / plain ```) are read line by line; a line's command starts at
`mathhammer` (after an install step such as `pip install . &&`), comments and output redirection are
dropped. Commands run in-process through the CLI's `main` (the package under test, installed or
not), each in a temporary folder holding nothing but the copied examples: no file of the checkout
is in reach, and the files a command writes (`--output shots.csv`) land there.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from mathhammer.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _shell_lines(text: str) -> list[str]:
    lines: list[str] = []
    fence: str | None = None
    pending = ""
    for line in text.splitlines():
        match = re.match(r"^\s*```(\w*)", line)
        if match:
            fence = None if fence is not None else match.group(1)
            continue
        if fence in ("bash", "sh", "shell", "console", ""):
            if line.rstrip().endswith("\\"):  # a continued command
                pending += line.rstrip()[:-1] + " "
                continue
            lines.append((pending + line).strip())
            pending = ""
    return lines


def _commands() -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for page in PAGES:
        for line in _shell_lines(page.read_text(encoding="utf-8")):
            if re.search(r"<\w+>", line):  # a usage synopsis (mathhammer <game> <action> ...), not a command
                continue
            words = shlex.split(line, comments=True) if "mathhammer" in line else []
            if "mathhammer" not in words:
                continue
            words = words[words.index("mathhammer") + 1:]
            for stop in (">", "|", "&&", ";"):
                if stop in words:
                    words = words[: words.index(stop)]
            out.append((f"{page.relative_to(ROOT)}: mathhammer {' '.join(words)}", words))
    return out


COMMANDS = _commands()


def test_the_docs_show_commands() -> None:
    assert len(COMMANDS) >= 10
    assert any(words == ["run"] for _, words in COMMANDS)  # the README's first command


@pytest.mark.parametrize(("label", "words"), COMMANDS, ids=[label for label, _ in COMMANDS])
def test_documented_command_runs(label: str, words: list[str], monkeypatch: pytest.MonkeyPatch, capsys,
                                 tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["examples", "--copy", "examples"]) == 0
    capsys.readouterr()
    if words[:1] == ["serve"]:  # the options are checked and the app's libraries loaded; no server is started
        from mathhammer.web import app as web

        monkeypatch.setattr(web, "serve", lambda *args, **kwargs: None)
    code = main(words)
    out = capsys.readouterr()
    assert code == 0, f"{label}\n{out.err}"

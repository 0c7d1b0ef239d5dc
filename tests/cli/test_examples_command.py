"""``mathhammer examples``: the example files ship in the package and travel out of it, so the docs'
``examples/...`` commands work after a plain ``pip install``."""

from __future__ import annotations

from pathlib import Path

from cli_cases import run

from mathhammer.cli.examples import EXAMPLE_SUFFIXES, example_files

REPOSITORY_EXAMPLES = Path(__file__).resolve().parents[2] / "python" / "mathhammer" / "examples"


def test_every_example_file_is_listed(capsys):
    on_disk = sorted(p.relative_to(REPOSITORY_EXAMPLES).as_posix() for p in REPOSITORY_EXAMPLES.rglob("*")
                     if p.is_file())
    assert all(name.endswith(EXAMPLE_SUFFIXES) for name in on_disk)
    assert sorted(name for name, _ in example_files()) == on_disk
    code, out, _ = run(capsys, ["examples", "--format", "json"])
    assert code == 0 and "killteam/profiles.toml" in out and "scenario.toml" in out
    assert "killteam/data/Ember patrol.ros" in out and "killteam/teams/Gloam Pact.toml" in out


def test_copied_examples_run_from_where_they_were_copied(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a folder with no checkout in it
    code, out, _ = run(capsys, ["examples", "--copy", "examples"])
    assert code == 0 and f"{len(example_files())} files written to examples" in out
    for name, entry in example_files():
        assert (tmp_path / "examples" / name).read_bytes() == entry.read_bytes()
    for args in (["run", "examples/scenario.toml"], ["deathburgh", "round", "examples/deathburgh/round_scenario.toml"],
                 ["killteam", "fight", "--profiles", "examples/killteam/profiles.toml", "--a-profile", "ork_boy",
                  "--b-profile", "wyche"]):
        code, _, err = run(capsys, args)
        assert code == 0, (args, err)


def test_copy_never_overwrites_a_changed_file_unless_forced(capsys, tmp_path):
    assert run(capsys, ["examples", "--copy", str(tmp_path)])[0] == 0
    edited = tmp_path / "scenario.toml"
    edited.write_text("# mine\n", encoding="utf-8")
    code, _, err = run(capsys, ["examples", "--copy", str(tmp_path)])
    assert code == 2 and err.startswith("error: --copy: ") and "--force" in err
    assert edited.read_text(encoding="utf-8") == "# mine\n"
    assert run(capsys, ["examples", "--copy", str(tmp_path), "--force"])[0] == 0
    assert edited.read_text(encoding="utf-8") != "# mine\n"
    (tmp_path / "file").write_text("x", encoding="utf-8")
    code, _, err = run(capsys, ["examples", "--copy", str(tmp_path / "file")])
    assert code == 2 and "is a file" in err


def test_run_help_points_to_the_examples(capsys):
    code, out, _ = run(capsys, ["run", "--help"])
    assert code == 0 and "mathhammer examples" in out

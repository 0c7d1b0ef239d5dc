"""Bad input on every command: a bad profile file, an unknown rule or keyword name and an
out-of-range value each exit 2 with one line 'error: ...' naming the field (and the file and entry
where there is one), never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_cases import COMMANDS, EXAMPLES, KT_LIBRARY, SCENARIO, assert_one_line_error, run, subprocess_env

BAD_LIBRARIES = {  # game -> (library text with one bad entry, the entry, the field)
    "killteam": ('game = "killteam"\n[fighter.brute]\nattacks = 13\nhit = 3\n', "fighter.brute", "attacks"),
    "starcraft": ('game = "starcraft"\n[unit.hulk]\nmodels = 1\nhp = 99\narmour = 3\n', "unit.hulk", "hp"),
    "deathburgh": ('game = "deathburgh"\n[miniature.ogre]\ncard = "A 4/9+ D 4/4+ W 3"\n', "miniature.ogre", "A_plus"),
    "force_melee": ('game = "force_melee"\n[side.horde]\ndice = 41\nunit = { models = 5 }\n'
                    'weapon = { hit = 4, force = 2 }\n', "side.horde", "dice"),
}


def _library(tmp_path: Path, game: str) -> tuple[Path, str, str]:
    text, entry, field = BAD_LIBRARIES[game]
    path = tmp_path / f"{game}_bad.toml"
    path.write_text(text, encoding="utf-8")
    return path, entry, field


@pytest.mark.parametrize(
    "game, args",
    [
        ("killteam", ["killteam", "fight", "--a-profile", "brute"]),
        ("killteam", ["killteam", "shoot", "--weapon", "bolt_rifle"]),
        ("starcraft", ["starcraft", "attack", "--unit", "hulk"]),
        ("deathburgh", ["deathburgh", "combat", "--attacker", "ogre"]),
        ("force_melee", ["force-melee", "--a-profile", "horde"]),
    ],
)
def test_bad_profile_file(capsys, tmp_path, game, args):
    path, entry, field = _library(tmp_path, game)
    code, out, err = run(capsys, [*args, "--profiles", str(path)])
    assert_one_line_error(code, err, path.name, entry, field)
    assert out == ""


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["killteam", "fight", "--profiles", "missing.toml"], ["missing.toml", "no such file"]),
        (["killteam", "shoot", "--profiles", str(EXAMPLES / "starcraft" / "profiles.toml")],
         ["profiles.toml", "game: this is a starcraft library"]),
        (["starcraft", "attack", "--profiles", str(KT_LIBRARY)], ["game: this is a killteam library"]),
        (["force-melee", "--profiles", str(SCENARIO)], ["scenario.toml", "a profile library needs game"]),
        (["killteam", "fight", "--profiles", str(KT_LIBRARY), "--a-profile", "gretchin"],
         # neither a name nor fighter notation (kt.Fighter.parse)
         ["a.profile", "'gretchin' is neither a known fighter", "ork_boy", "not fighter notation"]),
    ],
)
def test_missing_or_wrong_profile_file(capsys, args, fragments):
    code, _, err = run(capsys, args)
    assert_one_line_error(code, err, *fragments)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_bad_scenario_files(capsys, tmp_path):
    library, entry, field = _library(tmp_path, "killteam")
    uses_it = _write(tmp_path, "uses.toml", f'profiles = ["{library.name}"]\n[[killteam.fight]]\na = "brute"\nb = "brute"\n')
    code, _, err = run(capsys, ["run", str(uses_it)])
    assert_one_line_error(code, err, library.name, entry, field)

    bad_entry = _write(tmp_path, "entry.toml", '[[killteam.shoot]]\nname = "Gun"\nweapon = "4A 3+ 3/4"\n'
                                               'target = { save = 9 }\n')
    code, _, err = run(capsys, ["run", str(bad_entry)])
    assert_one_line_error(code, err, "entry.toml", "killteam.shoot[0] (Gun)", "target.save", "allowed 2..6")

    for text, fragments in [
        ("[[killteam.dance]]\n", ["unknown action [[killteam.dance]]"]),
        ("[[chess.move]]\n", ["unknown section 'chess'"]),
        ("title = \n", ["not valid TOML"]),
        ('title = "nothing"\n', ["no entries"]),
        ('[[force_melee.melee]]\na = "orks"\nb = "militia"\n', ["force_melee.melee[0]", "a: unknown side 'orks'"]),
        ('[[starcraft.attack]]\nweapon = "c14_rifle"\nunit = "zergling"\nfiring_models = 99\n',
         ["starcraft.attack[0]", "firing_models: 99 is out of range"]),
    ]:
        code, _, err = run(capsys, ["run", str(_write(tmp_path, "s.toml", text))])
        assert_one_line_error(code, err, "s.toml", *fragments)

    code, _, err = run(capsys, ["deathburgh", "round", str(_write(tmp_path, "round.toml", "[miniatures]\n"))])
    assert_one_line_error(code, err, "miniatures")
    code, _, err = run(capsys, ["force-melee", "--scenario", str(_write(tmp_path, "fm.toml", '[[force_melee.fight]]\n'))])
    assert_one_line_error(code, err, "fm.toml", "unknown action force_melee.fight")


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["killteam", "fight", "--a-rules", "Explodes 2"], ["a.rules", "unknown weapon rule 'Explodes 2'", "closest known rules: "]),
        (["killteam", "fight", "--b-abilities", "Invulnerable 4+"], ["b.abilities", "unknown ability"]),
        (["killteam", "fight", "--a-strategy", "charge"], ["a.strategy", "unknown value 'charge'"]),
        (["killteam", "shoot", "--rules", "Explodes 2"], ["rules", "unknown weapon rule 'Explodes 2'"]),
        (["killteam", "shoot", "--abilities", "Invulnerable 4+"], ["abilities", "unknown ability 'Invulnerable 4+'"]),
        (["starcraft", "attack", "--keywords", "FLAMING (1)"], ["keywords", "unknown keyword 'FLAMING (1)'"]),
        (["starcraft", "attack", "--tags", "Zerg"], ["tags", "unknown Combat Tag 'Zerg'"]),
        (["starcraft", "attack", "--critical-hit-rule", "random"], ["--critical-hit-rule", "unknown value"]),
        (["deathburgh", "combat", "--edition", "beta"], ["edition", "unknown value 'beta'"]),
        (["deathburgh", "combat", "--attacker-reroll", "twice"], ["--attacker-reroll", "unknown value 'twice'"]),
        (["force-melee", "--a-reroll", "twice"], ["a.weapon.reroll", "unknown value 'twice'"]),
        (["force-melee", "--winner-damage", "most"], ["--winner-damage", "unknown value 'most'"]),
        (["run", str(SCENARIO), "--method", "guess"], ["--method", "'guess' is not one of"]),
    ],
)
def test_unknown_rule_or_keyword(capsys, args, fragments):
    code, _, err = run(capsys, args)
    assert_one_line_error(code, err, *fragments)


def test_unknown_rule_in_a_scenario(capsys, tmp_path):
    path = _write(tmp_path, "rule.toml", '[[killteam.shoot]]\nweapon = "4A 3+ 3/4 Explodes 2"\ntarget = { save = 3 }\n')
    code, _, err = run(capsys, ["run", str(path)])
    assert_one_line_error(code, err, "rule.toml", "killteam.shoot[0]", "weapon", "Explodes 2")
    path = _write(tmp_path, "keyword.toml", '[[deathburgh.combat]]\nattacker = "Bandit Brute"\n'
                                            'defender = "Bandit Leader"\nflank = true\n')
    code, _, err = run(capsys, ["run", str(path)])
    assert_one_line_error(code, err, "keyword.toml", "deathburgh.combat[0]", "flank: unknown keyword")


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["killteam", "fight", "--rounds", "5"], ["rounds: 5 is out of range; allowed 1..3"]),
        (["killteam", "fight", "--b-hit", "7"], ["b.hit: 7 is out of range; allowed 2..6"]),
        (["killteam", "shoot", "--cover", "4"], ["cover: 4 is out of range; allowed 0..3"]),
        (["killteam", "shoot", "--samples", "0", "--method", "monte_carlo"], ["samples: 0 is out of range"]),
        (["starcraft", "attack", "--hit", "7"], ["hit: 7 is out of range; allowed 2..6"]),
        (["deathburgh", "combat", "--attacker-a-plus", "9"], ["--attacker-a-plus", "out of range"]),
        (["deathburgh", "round", str(EXAMPLES / "deathburgh" / "round_scenario.toml"), "--threads", "0",
          "--method", "monte_carlo"], ["threads: 0 is out of range"]),
        (["force-melee", "--a-dice", "41"], ["a.dice: 41 is out of range; allowed 0..40"]),
        (["run", "--samples", "0", "--method", "monte_carlo"], ["samples: 0 is out of range"]),
        (["killteam", "fight", "--a-attacks", "many"], ["--a-attacks", "integer"]),
        (["killteam", "shoot", "--bogus"], ["No such option: --bogus"]),
    ],
)
def test_out_of_range_or_malformed_value(capsys, args, fragments):
    code, _, err = run(capsys, args)
    assert_one_line_error(code, err, *fragments)


@pytest.mark.parametrize("name", [n for n in COMMANDS if n != "deathburgh profiles"])
def test_every_command_refuses_an_out_of_range_seed(capsys, name):
    code, _, err = run(capsys, [*COMMANDS[name], "--method", "monte_carlo", "--samples", "1000", "--seed", "-1"])
    assert_one_line_error(code, err, "seed")


def test_unreadable_files(capsys, tmp_path):
    (tmp_path / "folder.toml").mkdir()
    (tmp_path / "binary.toml").write_bytes(bytes(range(128, 256)))
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    for name, fragment in [("folder.toml", "cannot read it"), ("binary.toml", "not a text file"),
                           ("list.json", "a scenario file holds a table"), ("notes.txt", "unknown file type")]:
        code, _, err = run(capsys, ["run", str(tmp_path / name)])
        assert_one_line_error(code, err, name, fragment)
        for args in (["killteam", "shoot", "--profiles"], ["deathburgh", "combat", "--profiles"],
                     ["deathburgh", "round"], ["force-melee", "--scenario"]):
            code, _, err = run(capsys, [*args, str(tmp_path / name)])
            assert_one_line_error(code, err, name)


def test_a_real_process_exits_2_with_one_line(tmp_path):
    env = subprocess_env()
    path, entry, field = _library(tmp_path, "starcraft")
    for args, fragments in [
        (["killteam", "shoot", "--rules", "Lethal 5+, Explodes 2"], ["rules", "Explodes 2"]),
        (["starcraft", "attack", "--profiles", str(path), "--unit", "hulk"], [path.name, entry, field]),
    ]:
        done = subprocess.run([sys.executable, "-m", "mathhammer.cli", *args], capture_output=True, text=True,
                              env=env, timeout=60)
        assert_one_line_error(done.returncode, done.stderr, *fragments)
        assert done.stdout == ""


@pytest.mark.parametrize("command", [
    ["killteam", "shoot"], ["killteam", "fight"], ["starcraft", "attack"], ["starcraft", "sequence"],
    ["deathburgh", "combat"], ["force-melee", "melee"], ["force-melee", "melee-many"],
])
def test_every_engine_command_takes_variants(command, capsys):
    from mathhammer.cli import main

    assert main([*command, "--variants", "nope", "--format", "json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --variants: unknown preset 'nope'") and err.count("\n") == 1, err


@pytest.mark.parametrize(("command", "text", "field", "value"), [
    (["starcraft", "attack"], "leftover=lost", "leftover", "lost"),
    (["deathburgh", "combat"], "souls_limit=2", "souls_limit", 2),
    (["force-melee", "melee"], "winner_damage=excess", "winner_damage", "excess"),
])
def test_variants_reach_the_engine_and_the_output(command, text, field, value, capsys):
    import json

    from mathhammer.cli import main

    assert main([*command, "--variants", text, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["result"]["variants"][field] == value


def test_a_switch_given_twice_is_refused(capsys):
    from mathhammer.cli import main

    assert main(["starcraft", "attack", "--variants", "leftover=lost", "--leftover", "lost"]) == 2
    assert "--leftover is also given" in capsys.readouterr().err


HUGE = "x" * 100_000


@pytest.mark.parametrize("args", [
    ["killteam", "shoot", "--rules", HUGE], ["killteam", "shoot", "--rules", "x" * 4000],
    ["killteam", "shoot", "--weapon", HUGE], ["killteam", "shoot", "--variants", "y" * 4000 + "=1"],
    ["killteam", "shoot", "--profiles", "/tmp/" + "z" * 3000 + ".toml"], ["starcraft", "attack", "--unit", HUGE],
    ["deathburgh", "combat", "--attacker", HUGE], ["killteam", "fight", "--a-strategy", HUGE],
    ["sweep", "killteam", "shoot", "--grid", "cover=" + "9" * 5000], ["sweep", "killteam", "shoot", "--grid", HUGE + "=1"],
])
def test_an_echoed_value_is_excerpted(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    """Error lines stay short whatever the input: a value or path is echoed by at most 40 characters."""
    code, _, err = run(capsys, args)
    assert_one_line_error(code, err)
    assert len(err) < 700 and "x" * 41 not in err and "y" * 41 not in err and "z" * 41 not in err


def test_a_variants_switch_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, ["killteam", "shoot", "--variants", "shock=discard_crit,shock=norms_only"])
    assert_one_line_error(code, err, "--variants.shock: is given twice")

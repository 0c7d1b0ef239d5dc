"""Hardening: each finding of the robustness review, reproduced (before the fix it hung, took
seconds to minutes, printed a traceback or raised outside InputError / InputTypeError)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import killteam as kt
from mathhammer.files import library
from mathhammer.files import scenario
from mathhammer import starcraft as sc
from mathhammer.core.guard import MAX_FILE_BYTES, MAX_TEXT
from mathhammer.errors import InputError, InputTypeError
from mathhammer.core.distributions import Distribution, JointDistribution

sys.path.insert(0, str(Path(__file__).parent / "cli"))
from cli_cases import assert_one_line_error, run  # noqa: E402
from timing import CPU_MARGIN, cpu_at_most  # noqa: E402

# --- 3. parsers are linear and bounded ------------------------------------------------------------------

# (parser, a text of n characters that does not parse): the slow cases of the review, padded.
SLOW_TEXTS: dict[str, tuple[Callable[[str], Any], Callable[[int], str]]] = {
    "keywords PIERCE": (sc.parse_keywords, lambda n: "PIERCE Armoured" + " " * (n - 16) + "x"),
    "keywords BURST FIRE": (sc.parse_keywords, lambda n: "BURST FIRE 8" + " " * (n - 13) + "x"),
    "Weapon pierce": (lambda t: sc.Weapon(2, 3, 1, pierce=t), lambda n: "a" + " " * (n - 2) + "x"),  # type: ignore[arg-type]
    "Miniature.parse": (db.Miniature.parse, lambda n: "A 4/4+" + " " * (n - 7) + "x"),
    "kt Weapon.parse": (kt.Weapon.parse, lambda n: "4A 3+ 3/4" + " " * (n - 10) + "x"),
    "kt WeaponRules.parse": (kt.WeaponRules.parse, lambda n: "Lethal" + " " * (n - 7) + "x"),
    "kt Abilities.parse": (kt.Abilities.parse, lambda n: "Feel No Pain" + " " * (n - 13) + "x"),
    "tags": (lambda t: sc.Unit(models=1, hp=1, armour=3, tags=t), lambda n: "Light" + " " * (n - 6) + "x"),  # type: ignore[arg-type]
}


def _cpu_seconds(parser: Callable[[str], Any], text: str) -> float:
    """The CPU time of 20 failing parses: the least of several batches (the least disturbed)."""
    best = float("inf")
    for _ in range(7):
        start = time.process_time()
        for _ in range(20):
            with pytest.raises((InputError, InputTypeError)):
                parser(text)
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("name", list(SLOW_TEXTS))
def test_parsers_grow_linearly(name: str) -> None:
    parser, text = SLOW_TEXTS[name]
    short, long = _cpu_seconds(parser, text(256)), _cpu_seconds(parser, text(4096))
    # Sixteen times the text takes 1 to 11 times the CPU time (a fixed cost, then linear); the
    # quadratic and cubic patterns of the review gave 256 and 4096 times. The bound is CPU_MARGIN
    # times linear growth, with a floor for batches of a fraction of a millisecond.
    assert long <= CPU_MARGIN * 16 * short + 1e-3, (name, short, long)
    assert long < CPU_MARGIN * 0.012, (name, long)  # 20 parses of 4096 characters: 1 to 11 ms


@pytest.mark.parametrize("name", list(SLOW_TEXTS))
def test_parsers_refuse_4097_characters(name: str) -> None:
    parser, text = SLOW_TEXTS[name]
    with pytest.raises(InputError, match=r"4097 characters is too long; at most 4096"):
        parser(text(MAX_TEXT + 1))


def test_review_cases_answer_at_once() -> None:
    with cpu_at_most(0.001):  # under a millisecond of CPU
        with pytest.raises(InputError, match="keywords"):
            sc.parse_keywords("PIERCE Armoured" + " " * 3200 + "x")  # 84 s before
        with pytest.raises(InputError, match="pierce"):
            sc.Weapon(2, 3, 1, pierce="a" + " " * 4000 + "x")  # type: ignore[arg-type]
        with pytest.raises(InputError, match="profile"):
            db.Miniature.parse("A 4/4+" + " " * 4000 + "x")


@pytest.mark.parametrize("build, field", [
    (lambda t: kt.Weapon.parse(f"4A 3+ {t}/4"), "weapon"),
    (lambda t: kt.WeaponRules.parse(f"Lethal {t}+"), "rules"),
    (lambda t: sc.parse_keywords(f"PRECISION ({t})"), "keywords"),
    (lambda t: sc.Weapon(2, 3, 1, pierce=f"Armoured {t}"), "pierce"),  # type: ignore[arg-type]
    (lambda t: sc.Weapon(f"BT+{t}", 3, 1), "roa"),  # type: ignore[arg-type]
    (lambda t: db.Miniature.parse(f"A {t}/4+ D 4/4+ W 3"), "profile"),
    (lambda t: kt.Fighter(attacks=3, hit=f"{t}+"), "hit"),  # type: ignore[arg-type]
])
@pytest.mark.parametrize("digits", [7, 4000, 5000])
def test_numbers_of_more_than_six_digits(build: Callable[[str], Any], field: str, digits: int) -> None:
    # 5000 digits gave Python's "Exceeds the limit (4300 digits)" ValueError without the field
    with pytest.raises(InputError) as error:
        build("9" * digits)
    assert error.value.field == field
    if digits < MAX_TEXT:  # longer texts are refused for their length first
        assert f"a number of {digits} digits; at most 6" in str(error.value)


def test_six_digit_numbers_still_read() -> None:
    with pytest.raises(InputError, match=r"999999 is out of range"):
        kt.Weapon.parse("4A 3+ 999999/4")


# --- 5. the CLI: one line, exit 2 -----------------------------------------------------------------------


def _cli_cases(tmp: Path) -> list[tuple[list[str], str]]:
    deep_json = tmp / "deep.json"
    deep_json.write_text("[" * 100_000, encoding="utf-8")
    deep_toml = tmp / "deep.toml"
    deep_toml.write_text("a = " + "[" * 100_000, encoding="utf-8")
    digits = tmp / "digits.json"
    digits.write_text('{"game": "killteam", "weapon": {"w": {"attacks": ' + "9" * 5000 + ', "hit": 3}}}', "utf-8")
    unhashable = tmp / "unhashable.json"
    unhashable.write_text('{"game": []}', encoding="utf-8")
    executor = tmp / "executor.toml"
    executor.write_text('[[killteam.fight]]\na = "4A 3+ 3/4"\nb = "4A 3+ 3/4"\nexecutor = "x"\n', encoding="utf-8")
    zero = tmp / "zero.toml"
    zero.symlink_to("/dev/zero")
    return [
        (["run", str(deep_json)], "deep.json"),
        (["run", str(deep_toml)], "deep.toml"),
        (["killteam", "shoot", "--profiles", str(deep_json)], "deep.json"),
        (["killteam", "shoot", "--profiles", str(digits)], "digits.json"),
        (["killteam", "shoot", "--weapon", "4A 3+ " + "9" * 5000 + "/4"], "weapon"),
        (["killteam", "shoot", "--save", "9" * 5000], "save"),
        (["killteam", "shoot", "--profiles", str(unhashable)], "game"),
        (["run", str(executor)], "executor"),
        (["run", str(zero)], "zero.toml"),
        (["deathburgh", "round", str(zero)], "zero.toml"),
        (["starcraft", "attack", "--keywords", "PIERCE Armoured" + " " * 3200 + "x"], "keywords"),
    ]


def test_cli_errors_are_one_line(capsys: Any, tmp_path: Path) -> None:
    for args, fragment in _cli_cases(tmp_path):
        code, _, err = run(capsys, args)
        assert_one_line_error(code, err, fragment)
        assert len(err) < 2000, err[:200]


# --- 6. files: regular files only, bounded -------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_fifo_is_refused_without_waiting(capsys: Any, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    link = tmp_path / "link.toml"
    link.symlink_to(fifo)
    # A FIFO with no writer: opening it would block for good. Refused from its file type instead, in
    # about 0.2 s of CPU (the commands' first run).
    with cpu_at_most(0.2):
        for path in (fifo, link):
            for loader in (library.load_library, db.load_profiles, db.load_round, scenario.load_scenario):
                with pytest.raises(InputError, match="not a regular file"):
                    loader(path)
            for args in (["killteam", "shoot", "--profiles", str(path)], ["deathburgh", "round", str(path)],
                         ["run", str(path)]):
                code, _, err = run(capsys, args)
                assert_one_line_error(code, err, path.name, "not a regular file")
        scenario_file = tmp_path / "scenario.toml"
        scenario_file.write_text('profiles = ["pipe.toml"]\n[[killteam.shoot]]\nweapon = "4A 3+ 3/4"\n', "utf-8")
        with pytest.raises(InputError, match="not a regular file"):
            scenario.read_scenario_file(scenario_file)


def test_devices_are_refused(tmp_path: Path) -> None:
    for device in ("/dev/zero", "/dev/urandom"):
        if not os.path.exists(device):
            continue
        link = tmp_path / (Path(device).name + ".json")
        link.symlink_to(device)
        with pytest.raises(InputError, match="not a regular file"):
            library.load_library(link)


def test_files_over_16_mib_are_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:  # sparse: no 16 MiB written to the disk
        handle.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(InputError, match="too large"):
        library.load_library(big)


def test_a_link_to_a_regular_file_is_read(tmp_path: Path) -> None:
    target = tmp_path / "real.toml"
    target.write_text('game = "killteam"\n[weapon.bolter]\ncard = "4A 3+ 3/4"\n', encoding="utf-8")
    link = tmp_path / "link.toml"
    link.symlink_to(target)
    assert library.load_library(link)["weapon"]["bolter"] == kt.Weapon(4, 3, (3, 4))


# --- 7. scenarios stay in their folder -------------------------------------------------------------------

SECRET = 'game = "hunter2-SECRET-VALUE"\n'


def _outside(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    secret = tmp_path / "secret.toml"
    secret.write_text(SECRET, encoding="utf-8")
    return folder, secret


@pytest.mark.parametrize("how", ["absolute", "dotdot", "symlink"])
def test_profiles_stay_inside_the_scenario_folder(capsys: Any, tmp_path: Path, how: str) -> None:
    folder, secret = _outside(tmp_path)
    if how == "absolute":
        named = str(secret)
    elif how == "dotdot":
        named = str(Path("..") / secret.name)  # climbs out of the scenario's folder
    else:
        (folder / "inside.toml").symlink_to(secret)
        named = "inside.toml"
    path = folder / "scenario.toml"
    path.write_text(f"profiles = [{json.dumps(named)}]\n[[killteam.shoot]]\nweapon = \"4A 3+ 3/4\"\ntarget = {{ save = 3 }}\n", "utf-8")
    with pytest.raises(InputError, match="outside the scenario's folder") as error:
        scenario.read_scenario_file(path)
    assert "SECRET" not in str(error.value)
    code, _, err = run(capsys, ["run", str(path)])
    assert_one_line_error(code, err, "scenario.toml", "outside the scenario's folder", "--allow-outside")
    assert "SECRET" not in err
    # allowed on request: the foreign file is read (its error is about its own content)
    with pytest.raises(InputError, match="unknown game"):
        scenario.read_scenario_file(path, allow_outside=True)
    code, _, err = run(capsys, ["run", str(path), "--allow-outside"])
    assert code == 2 and "unknown game" in err


def test_profiles_inside_the_folder_still_load(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    (folder / "lib").mkdir(parents=True)
    (folder / "lib" / "kt.toml").write_text('game = "killteam"\n[weapon.bolter]\ncard = "4A 3+ 3/4"\n', "utf-8")
    path = folder / "scenario.toml"
    inside = str(Path("lib") / ".." / "lib" / "kt.toml")  # ".." that stays inside
    path.write_text(f'profiles = ["{inside}"]\n[[killteam.shoot]]\nweapon = "bolter"\ntarget = {{ save = 3 }}\n', "utf-8")
    (entry,) = scenario.read_scenario_file(path)
    assert entry.kwargs["weapon"] == kt.Weapon(4, 3, (3, 4))
    # built-in profiles need no file: the StarCraft catalogue by name
    path.write_text('[[starcraft.attack]]\nweapon = {roa = 2, hit = 3, damage = 1}\nunit = "Marine"\n', "utf-8")
    (entry,) = scenario.read_scenario_file(path)
    assert entry.kwargs["unit"] == sc.catalog.UNITS["marine"]


def test_messages_quote_at_most_a_short_excerpt(tmp_path: Path) -> None:
    long_key = "K" * 500
    path = tmp_path / "scenario.toml"
    path.write_text(f'[[killteam.shoot]]\nweapon = "4A 3+ 3/4"\n{long_key} = 1\n', encoding="utf-8")
    with pytest.raises(InputError) as error:
        scenario.read_scenario_file(path)
    assert long_key not in str(error.value) and "KKKK" in str(error.value)
    lib = tmp_path / "lib.json"
    lib.write_text(json.dumps({"game": "\x1b[2J" + "S" * 500}), encoding="utf-8")
    with pytest.raises(InputError) as error:
        library.load_library(lib)
    message = str(error.value)
    assert "\x1b" not in message and "S" * 41 not in message and "\\x1b" in message


# --- 8. payloads are checked ---------------------------------------------------------------------------


@pytest.mark.parametrize("load, text, field", [
    (kt.FightResult.from_json, '{"wounds_a": {}}', "wounds_a.pmf"),
    (fm.MeleeResult.from_json, '{"joint": {"pmf": [[1]], "names": ["x"]}}', None),
    (scenario.Outcome.from_json, "{}", "game"),
    (kt.FightResult.from_json, "[" * 100_000, "json"),
    (kt.FightResult.from_json, "[1]", "FightResult"),
    (kt.FightResult.from_json, "{", "json"),
])
def test_payloads_of_the_wrong_shape(load: Callable[[str], Any], text: str, field: str | None) -> None:
    with pytest.raises((InputError, InputTypeError)) as error:
        load(text)
    assert isinstance(error.value, (InputError, InputTypeError))
    if field is not None:
        assert error.value.field == field


@pytest.mark.parametrize("data, field", [
    ({"pmf": [1], "start": float("inf")}, "distribution.start"),
    ({"pmf": [float("nan"), -5, 7]}, "distribution.pmf[0]"),
    ({"pmf": [0.5, -0.5, 1.0]}, "distribution.pmf[1]"),
    ({"pmf": [0.5, 0.4]}, "distribution.pmf"),
    ({"pmf": []}, "distribution.pmf"),
    ({"pmf": ["1"]}, "distribution.pmf[0]"),
    ({"pmf": [1], "samples": 0}, "distribution.samples"),
    ({"pmf": [1], "start": True}, "distribution.start"),
    ({"pmf": [1], "extra": 1}, "distribution.extra"),
    ([1], "distribution"),
])
def test_distribution_payloads(data: Any, field: str) -> None:
    with pytest.raises((InputError, InputTypeError)) as error:
        Distribution.from_dict(data)
    assert isinstance(error.value, (InputError, InputTypeError)) and error.value.field == field


@pytest.mark.parametrize("data, field", [
    ({"pmf": [[0.5], [0.25, 0.25]], "names": ["a", "b"]}, "joint.pmf[1]"),
    ({"pmf": [[1]], "names": ["x"]}, "joint.names"),
    ({"pmf": [1], "names": ["x", "y"]}, "joint.pmf[0]"),
    ({"pmf": [[float("inf")]], "names": ["x", "y"]}, "joint.pmf[0][0]"),
])
def test_joint_payloads(data: Any, field: str) -> None:
    with pytest.raises((InputError, InputTypeError)) as error:
        JointDistribution.from_dict(data)
    assert isinstance(error.value, (InputError, InputTypeError)) and error.value.field == field


def test_valid_payloads_round_trip() -> None:
    exact = kt.fight(kt.Fighter(attacks=3, hit=3, wounds=8), kt.Fighter(attacks=3, hit=4, wounds=7))
    assert kt.FightResult.from_json(exact.to_json()) == exact
    melee = fm.melee(fm.EXAMPLES["militia"], fm.EXAMPLES["walker"])
    assert fm.MeleeResult.from_json(melee.to_json()) == melee
    dist = Distribution([0.25, 0.75], start=-2, samples=100)
    assert Distribution.from_dict(dist.to_dict()) == dist


def test_a_payload_with_inconsistent_shapes() -> None:
    data = kt.fight(kt.Fighter(attacks=3, hit=3, wounds=8), kt.Fighter(attacks=3, hit=4, wounds=7)).to_dict()
    data["method"] = 3
    with pytest.raises(InputTypeError) as error:
        kt.FightResult.from_dict(data)
    assert error.value.field == "method"
    data = fm.melee(fm.EXAMPLES["militia"], fm.EXAMPLES["walker"]).to_dict()
    data["remaining_a"] = {"x": 1}
    with pytest.raises(InputTypeError) as error:
        fm.MeleeResult.from_dict(data)
    assert error.value.field == "remaining_a"


# --- 9. errors inside the contract ------------------------------------------------------------------------


def test_mixed_type_keys() -> None:
    weapon, unit = sc.Weapon(2, 3, 1), sc.catalog.UNITS["marine"]
    with pytest.raises(InputError) as error:
        sc.attack(weapon, unit, reaction={1: 2, "a": 3})
    assert error.value.field == "reaction.1"
    with pytest.raises(InputError):
        sc.Batch(weapon, **{"a": 1, "b": 2})


def test_an_array_for_a_name() -> None:
    with pytest.raises(InputError) as error:
        kt.WeaponRules(reroll=np.array([3, 4]))  # type: ignore[arg-type]
    assert error.value.field == "rules.reroll"


def test_library_of_the_wrong_type() -> None:
    with pytest.raises(InputTypeError) as error:
        library.resolve_profile("starcraft", "unit", "marine", library=1)  # type: ignore[arg-type]
    assert error.value.field == "library"
    with pytest.raises(InputError):
        library.resolve_profile([], "unit", "marine")  # type: ignore[arg-type]


def test_unknown_profile_lists_five_close_names() -> None:
    names = {f"unit_{i:06d}": sc.catalog.UNITS["marine"] for i in range(100_000)}
    with cpu_at_most(1.5), pytest.raises(InputError) as error:  # about 1.4 s of CPU
        library.resolve_profile("starcraft", "unit", "unit_00000x", {"unit": names})
    message = str(error.value)
    assert len(message) < 1000, len(message)
    known = message.split("known: ", 1)[1]
    assert "more" in known and known.count("unit_0") == 5  # five close names, not 100,007
    assert str(100_000 + len(sc.catalog.UNITS) - 5) in message


# --- found by the fuzz suite (tests/test_fuzz_public.py) --------------------------------------------------


def test_fuzz_findings_in_payloads() -> None:
    combat = db.combat("Bandit Brute", "Bandit Leader", method="exact").to_dict()
    combat["joint"]["names"] = ["x", "y"]  # its frame reads the axes by name: KeyError before
    with pytest.raises(InputError, match="inconsistent fields"):
        db.CombatResult.from_dict(combat)
    attack = sc.attack(sc.Weapon(2, 3, 1), sc.Unit(models=2, hp=2, armour=4), method="exact").to_dict()
    attack["state"]["p"] = []  # numpy broadcasting ValueError before
    with pytest.raises(InputError) as error:
        sc.AttackResult.from_dict(attack)
    assert error.value.field == "state"
    attack["state"]["p"] = [1.0] + [0.0] * (len(attack["state"]["models"]) - 1)
    attack["state"]["models"] = [1.5] * len(attack["state"]["models"])  # cast to int64 silently before
    with pytest.raises(InputError) as error:
        sc.AttackResult.from_dict(attack)
    assert error.value.field == "state.models"
    outcome = scenario.prepare_entries({"killteam": {"shoot": [{"weapon": "4A 3+ 3/4", "target": {"save": 3},
                                                                "method": "exact"}]}})[0].run().to_dict()
    outcome["inputs"]["cover"] = float("inf")  # loaded, then to_json wrote Infinity (not JSON) before
    with pytest.raises(InputError) as error:
        scenario.Outcome.from_dict(outcome)
    assert error.value.field == "inputs.cover"


def test_stderr_of_a_probability_rounded_above_one() -> None:
    p = 1.0 + 2**-52  # a Monte Carlo sum can land here; sqrt(p (1 - p)) was NaN with a warning
    dist = Distribution([p], samples=100)
    assert dist.stderr is not None and dist.stderr[0] == 0.0
    joint = JointDistribution(np.array([[p]]), samples=100)
    assert joint.stderr is not None and joint.stderr[0, 0] == 0.0


@pytest.mark.parametrize("axis", [1.0, True, 0.5, None])
def test_a_joint_marginal_axis_must_be_an_integer_or_a_name(axis: object) -> None:
    """1.0 == 1 and True == 1 passed the range check and reached numpy (found by the fuzz suite)."""
    joint = JointDistribution(np.array([[0.25, 0.25], [0.5, 0.0]]), ("a", "b"))
    with pytest.raises(InputTypeError) as caught:
        joint.marginal(axis)  # type: ignore[arg-type]
    assert caught.value.field == "axis"
    assert joint.marginal(1).pmf.tolist() == [0.75, 0.25] and joint.marginal("a").pmf.tolist() == [0.5, 0.5]

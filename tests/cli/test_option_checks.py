"""Options the run ignores are said to be ignored, flags show no value in the help, a doubled '+'
and a repeated single-value option are refused."""

from __future__ import annotations

import pytest
from cli_cases import assert_one_line_error, run

IGNORED_NOTE = "ignored: the result is exact"


@pytest.mark.parametrize("args, named", [
    (["killteam", "shoot", "--samples", "5000"], "--samples is ignored"),
    (["killteam", "shoot", "--samples", "5000", "--seed", "3"], "--samples and --seed are ignored"),
    (["killteam", "fight", "--method", "exact", "--seed", "3"], "--seed is ignored"),
    (["run", "--method", "exact", "--seed", "4"], "--seed is ignored"),
])
def test_monte_carlo_options_on_an_exact_run_are_noted_once(capsys, args, named):
    code, out, err = run(capsys, [*args, "--format", "json"])
    assert code == 0, err
    assert err.count(IGNORED_NOTE) == 1 and named in err, err
    assert out.startswith("{")  # stdout stays the result alone


@pytest.mark.parametrize("args", [
    ["killteam", "shoot"],  # nothing given, nothing ignored
    ["killteam", "shoot", "--method", "monte_carlo", "--samples", "5000", "--seed", "3", "--threads", "1"],
])
def test_no_note_when_nothing_is_ignored(capsys, args):
    code, _, err = run(capsys, [*args, "--format", "json"])
    assert code == 0 and err == "", err


@pytest.mark.parametrize("args, flag", [
    (["killteam", "shoot", "--help"], "--obscured"),
    (["deathburgh", "combat", "--help"], "--draw-in-dodge"),
])
def test_flags_show_no_bool_metavar(capsys, args, flag):
    code, out, _ = run(capsys, args)
    assert code == 0 and flag in out
    assert "<bool>" not in out and "BOOL" not in out
    assert "<int>" in out  # value options keep theirs


@pytest.mark.parametrize("args, option", [
    (["killteam", "fight", "--a-hit", "3++"], "a.hit"),
    (["killteam", "shoot", "--hit", "4++"], "hit"),
    (["force-melee", "--a-hit", "3++"], "hit"),
])
def test_doubled_plus_is_refused(capsys, args, option):
    code, _, err = run(capsys, args)
    assert_one_line_error(code, err, option, "++", "not a target number")


def test_single_plus_still_reads(capsys):
    code, out_plus, err = run(capsys, ["killteam", "shoot", "--hit", "4+", "--format", "json"])
    assert code == 0, err
    code, out_bare, err = run(capsys, ["killteam", "shoot", "--hit", "4", "--format", "json"])
    assert code == 0 and out_plus == out_bare


@pytest.mark.parametrize("args, option, pointer", [
    (["killteam", "shoot", "--weapon", "meltagun", "--weapon", "bolt_rifle"], "--weapon", "mathhammer killteam compare"),
    (["killteam", "shoot", "--save=3", "--save", "4"], "--save", "mathhammer killteam compare"),
    (["killteam", "fight", "--a-hit", "3", "--a-hit", "4"], "--a-hit", "mathhammer killteam compare-fights"),
    (["starcraft", "attack", "--unit", "marine", "--unit", "zealot"], "--unit", "mathhammer starcraft compare"),
    (["force-melee", "--a-profile", "veterans", "--a-profile", "walker"], "--a-profile", "mathhammer sweep"),
])
def test_repeated_single_value_option_is_refused(capsys, args, option, pointer):
    code, out, err = run(capsys, args)
    assert out == ""
    assert_one_line_error(code, err, option, "given twice", pointer)


def test_repeated_flag_and_distinct_options_pass(capsys):
    code, _, err = run(capsys, ["killteam", "shoot", "--obscured", "--obscured", "--hit", "4", "--save", "4",
                                "--format", "json"])
    assert code == 0, err


def test_version_prints_once(capsys):
    code, out, _ = run(capsys, ["--version"])
    assert code == 0 and out.count("mathhammer ") == 1

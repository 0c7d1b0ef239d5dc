"""Ctrl-C returns control within a second, whatever the engine is doing.

A timer thread sends SIGINT to this process while the call runs in C++; the call must raise
KeyboardInterrupt within a second of the signal. The command line, sent SIGINT, exits with 130
within a second. The second is a deadline the code implements: asserted with tests/timing.py's
slack for a loaded machine (every call below would run for minutes or hours unstopped).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import mathhammer
from mathhammer import killteam as kt
from mathhammer import starcraft as sc
from timing import assert_deadline

fight_module = importlib.import_module("mathhammer.killteam.fighting")  # the name `fight` is the function

# The signal lands this long after the call starts: well inside every run below.
DELAY = 0.4
LATENCY = 1.0


@pytest.fixture(autouse=True)
def _default_sigint_handler() -> Iterator[None]:
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def latency_of_ctrl_c(call: Callable[[], Any]) -> float:
    """Seconds from SIGINT to the KeyboardInterrupt that ``call`` raises."""
    sent: list[float] = []
    main = threading.main_thread().ident
    assert main is not None and threading.get_ident() == main

    def send() -> None:
        sent.append(time.monotonic())
        signal.pthread_kill(main, signal.SIGINT)

    timer = threading.Timer(DELAY, send)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        stopped = time.monotonic()
    finally:
        timer.cancel()
        timer.join()
    assert sent, "the call ended before the signal was sent: make it longer"
    return stopped - sent[0]


def test_a_long_monte_carlo_fight_stops_within_a_second() -> None:
    fnp = kt.Fighter(attacks=6, hit=3, damage=(3, 4), wounds=14, abilities="Feel No Pain 5+")
    latency = latency_of_ctrl_c(
        lambda: kt.fight(fnp, fnp, rounds=3, method="monte_carlo", samples=5_000_000_000, seed=1, threads=2))
    assert_deadline(latency, LATENCY)


def test_the_optimal_solver_stops_within_a_second() -> None:
    big = kt.Fighter(attacks=12, hit=2, damage=(1, 2), wounds=40, strategy="optimal")
    # A budget large enough that the solver would run for minutes: only Ctrl-C stops it.
    latency = latency_of_ctrl_c(
        lambda: kt.fight(big, big, rounds=3, method="exact", max_states=1_000_000_000, max_memory=1 << 40))
    assert_deadline(latency, LATENCY)


def test_the_optimal_solver_under_monte_carlo_stops_within_a_second() -> None:
    big = kt.Fighter(attacks=12, hit=2, damage=(1, 2), wounds=40, strategy="optimal")
    latency = latency_of_ctrl_c(lambda: kt.fight(big, big, rounds=3, method="monte_carlo", samples=1000, seed=1,
                                                 max_states=1_000_000_000, max_memory=1 << 40))
    assert_deadline(latency, LATENCY)


def test_an_exact_relic_fight_stops_within_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    # About a minute by kt.exact_seconds, past the exact engine's time budget, so the budget is
    # lifted: the chance explorer runs long.
    monkeypatch.setattr(fight_module, "EXACT_SECONDS_MAX", 1e9)
    relics = kt.Fighter(attacks=12, hit=3, damage=(3, 4), wounds=24, abilities="Saintly Relics 2D6")
    assert kt.exact_seconds(relics, relics, rounds=3) > 10 * LATENCY
    latency = latency_of_ctrl_c(lambda: kt.fight(relics, relics, rounds=3, method="exact"))
    assert_deadline(latency, LATENCY)


HEAVY_BATCHES = [sc.Batch(sc.Weapon(roa=30, hit=3, damage=1), firing_models=4) for _ in range(50)]
HORDE = sc.Unit(models=30, hp=30, armour=6)


@pytest.mark.parametrize("threads", [1, 256])
def test_a_heavy_starcraft_sequence_stops_within_a_second(threads: int) -> None:
    latency = latency_of_ctrl_c(lambda: sc.sequence(HORDE, HEAVY_BATCHES, method="monte_carlo",
                                                    samples=1_000_000_000, seed=5, threads=threads))
    assert_deadline(latency, LATENCY)


def test_work_after_an_interrupt_runs_normally() -> None:
    """An interrupt stops the runs it caught, not the ones started afterwards."""
    fnp = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12, abilities="Feel No Pain 5+")
    latency_of_ctrl_c(lambda: kt.fight(fnp, fnp, method="monte_carlo", samples=5_000_000_000, seed=2, threads=1))
    first = kt.fight(fnp, fnp, method="monte_carlo", samples=70_000, seed=2, threads=1)
    again = kt.fight(fnp, fnp, method="monte_carlo", samples=70_000, seed=2, threads=2)
    assert first.joint.pmf.tolist() == again.joint.pmf.tolist()


# --- the command line: exit code 130 within a second -------------------------------------------

LAUNCH = ("import sys, mathhammer.cli as cli; sys.stderr.write('ready\\n'); sys.stderr.flush(); "
          "sys.exit(cli.main(sys.argv[1:]))")


@pytest.mark.parametrize("threads", ["1", "256"])
def test_the_command_line_stops_within_a_second(threads: str) -> None:
    args = ["killteam", "fight", "--method", "monte_carlo", "--samples", "5000000000", "--rounds", "3",
            "--a-abilities", "Feel No Pain 5+", "--b-abilities", "Feel No Pain 5+", "--threads", threads]
    env = dict(os.environ, PYTHONPATH=str(Path(mathhammer.__file__).resolve().parents[1]))
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stderr is not None and process.stderr.readline() == "ready\n"
        time.sleep(DELAY)
        assert process.poll() is None  # still sampling: 5e9 fights take hours
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = process.communicate(timeout=10)
        stopped_after = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert err == "interrupted\n" and out == ""
    assert_deadline(stopped_after, LATENCY)


def test_a_sweep_on_worker_processes_stops_within_two_seconds() -> None:
    # Ctrl-C at a terminal goes to the whole process group: the sweep and its two workers. Each cell
    # is minutes of sampling, and more chunks wait in the pool's queue: none of them may start.
    args = ["sweep", "killteam", "fight", "--grid", "a-attacks=3..8", "--method", "monte_carlo",
            "--samples", "1000000000", "--workers", "2", "--chunk", "1"]
    env = dict(os.environ, PYTHONPATH=str(Path(mathhammer.__file__).resolve().parents[1]))
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        assert process.stderr is not None and process.stderr.readline() == "ready\n"
        time.sleep(3 * DELAY + 1.0)  # the workers have started and are sampling
        assert process.poll() is None
        os.killpg(process.pid, signal.SIGINT)
        sent = time.monotonic()
        out, err = process.communicate(timeout=30)
        stopped_after = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, err
    assert err.endswith("interrupted\n") and out == ""
    assert_deadline(stopped_after, 2.0)


@pytest.mark.parametrize("presses", [1, 2])
def test_a_meta_on_worker_processes_stops_within_two_seconds(tmp_path: Path, presses: int) -> None:
    # The meta on a process pool, Ctrl-C at a terminal (the whole process group) once its first parts
    # are written: the workers' chunks stop, running and queued (seconds of them), no process is left,
    # and the parts are taken by --resume. A second Ctrl-C while the pool stops changes nothing.
    sys.path.insert(0, str(Path(__file__).parent / "killteam"))
    from synthetic_teams import synthetic_team

    from mathhammer.files.teams import save_teams
    from mathhammer.killteam.meta import meta

    teams = tmp_path / "teams"
    save_teams([synthetic_team(700 + k) for k in range(8)], teams)  # 64 pairings: 15 s of work
    out = tmp_path / "meta.csv"
    args = ["killteam", "meta", str(teams), "--out", str(out), "--workers", "2", "--chunk", "1"]
    env = dict(os.environ, PYTHONPATH=str(Path(mathhammer.__file__).resolve().parents[1]))
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        assert process.stderr is not None and process.stderr.readline() == "ready\n"
        assert [process.stderr.readline() for _ in range(2)] == ["meta: 0/64 pairings\n", "meta: 6/64 pairings\n"]
        os.killpg(process.pid, signal.SIGINT)  # six parts written, more chunks running and queued
        sent = time.monotonic()
        if presses == 2:
            time.sleep(0.1)
            with contextlib.suppress(ProcessLookupError):  # unless it is over already
                os.killpg(process.pid, signal.SIGINT)
        out_text, err = process.communicate(timeout=60)
        stopped_after = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    # a second Ctrl-C that lands as the process exits ends it by the signal: a shell says 130 too
    assert process.returncode == 130 or (presses == 2 and process.returncode == -signal.SIGINT), err
    assert err.endswith("interrupted\n") and "Traceback" not in err and out_text == ""
    assert_deadline(stopped_after, 2.0)
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):  # no worker left behind
        os.killpg(process.pid, 0)
    assert not out.exists() and not (tmp_path / "meta.csv.lock").exists()
    kept = len(list((tmp_path / "meta.csv.parts").iterdir()))
    assert 6 <= kept < 64
    counts: list[int] = []

    def taken(done: int, total: int) -> None:  # every part read and checked: stop before computing more
        counts.append(done)
        raise StopIteration

    with pytest.raises(StopIteration):
        meta(teams, out, resume=True, chunk=1, progress=taken)
    assert counts == [kept]

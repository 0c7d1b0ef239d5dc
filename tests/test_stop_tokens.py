"""A stop token per call (mathhammer.core.stop): a call stops when its own token does, and a failure
in one call no longer stops the others in the process (it used to interrupt every computation)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from mathhammer import killteam as kt
from mathhammer.core.stop import StopToken, Stopped, current, stopping
from timing import assert_deadline

A = kt.Fighter(4, 3, (3, 4), 12)
B = kt.Fighter(4, 3, (3, 4), 12)


def test_a_long_monte_carlo_run_stops_within_a_second_of_its_limit() -> None:
    token = StopToken()
    timer = threading.Timer(0.5, token.stop)
    started = time.perf_counter()
    timer.start()
    try:
        with stopping(token), pytest.raises(Stopped):
            kt.fight(A, B, method="monte_carlo", samples=10**10, threads=1)
    finally:
        timer.cancel()
    # stopped at 0.5 s, and the run sees it between batches of about a quarter of a second
    assert_deadline(time.perf_counter() - started, 0.5 + 1.0, earliest=0.5)


def test_a_token_stopped_before_the_call_stops_it_at_once() -> None:
    token = StopToken()
    token.stop()
    with stopping(token), pytest.raises(Stopped):
        kt.shoot(kt.Weapon(4, 3), kt.Operative(3), method="monte_carlo", samples=10**9)


def test_a_child_stops_with_its_parent_never_the_other_way() -> None:
    parent = StopToken()
    child = parent.child()
    child.stop()
    assert child.stopped and not parent.stopped
    other = parent.child()
    parent.stop()
    assert other.stopped
    with pytest.raises(TypeError):
        StopToken(parent="x")  # type: ignore[arg-type]


def test_stopping_is_scoped_to_its_block() -> None:
    token = StopToken()
    assert current() is None
    with stopping(token):
        assert current() is token
    assert current() is None


def test_a_failure_in_one_call_leaves_another_threads_call_running() -> None:
    """One call's progress callback fails after its batches went to a thread pool: that call raises,
    and a shot running meanwhile on another thread finishes with its full sample count."""
    outcome: dict[str, Any] = {}

    def long_shot() -> None:
        try:
            outcome["shot"] = kt.shoot(kt.Weapon(4, 3), kt.Operative(3), method="monte_carlo", samples=30_000_000,
                                       seed=1, threads=1)
        except BaseException as error:  # noqa: BLE001 - the test reports what escaped
            outcome["shot"] = error

    def fail(done: int, total: int) -> None:
        raise RuntimeError("progress callback failed")

    other = threading.Thread(target=long_shot)
    other.start()
    time.sleep(0.1)
    with ThreadPoolExecutor(2) as pool, pytest.raises(RuntimeError, match="progress callback failed"):
        kt.fight(A, B, method="monte_carlo", samples=5_000_000, seed=2, threads=1, executor=pool, progress=fail)
    other.join(timeout=120)
    assert isinstance(outcome["shot"], kt.ShootResult), outcome["shot"]
    assert outcome["shot"].samples == 30_000_000


# A fight whose exact solution takes about two seconds here: the optimal fighter's game over two
# rounds, solved inside one C++ call.
SLOW_A = kt.Fighter(8, 3, (3, 4), 24, strategy="optimal")
SLOW_B = kt.Fighter(8, 3, (3, 4), 24)


def _stopped_after(seconds: float, call: Any) -> float:
    """Run ``call`` under a token stopped after ``seconds``; the time it took to raise Stopped."""
    token = StopToken()
    timer = threading.Timer(seconds, token.stop)
    started = time.perf_counter()
    timer.start()
    try:
        with stopping(token), pytest.raises(Stopped):
            call()
    finally:
        timer.cancel()
    return time.perf_counter() - started


def test_the_compiled_core_stops_an_exact_call_on_its_token() -> None:
    # the call never returns to Python before it is done: only the C++ can see the token
    took = _stopped_after(0.3, lambda: kt.fight(SLOW_A, SLOW_B, rounds=2, method="exact"))
    assert_deadline(took, 0.3 + 0.5, earliest=0.3)


def test_a_stop_inside_the_core_stops_that_call_only() -> None:
    token = StopToken()
    outcome: dict[str, Any] = {}

    def other() -> None:  # an unrelated call on another thread, under no token
        outcome["other"] = kt.fight(SLOW_A, SLOW_B, rounds=2, method="exact")

    thread = threading.Thread(target=other)
    thread.start()
    timer = threading.Timer(0.3, token.stop)
    timer.start()
    try:
        with stopping(token), pytest.raises(Stopped):
            kt.fight(SLOW_A, SLOW_B, rounds=2, method="exact")
    finally:
        timer.cancel()
    thread.join()
    expected = kt.fight(SLOW_A, SLOW_B, rounds=2, method="exact")
    assert outcome["other"].to_json() == expected.to_json()


def test_the_core_stops_one_long_monte_carlo_call_between_its_chunks() -> None:
    # one C++ call over 100,000 chunks (6.5e9 samples, minutes of work): only the C++ sees the token
    from mathhammer import _core
    from mathhammer.killteam.plan import shot

    config = shot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12), 0, False, 1, 0, kt.Variants()).config
    samples = 100_000 * int(_core.core.CHUNK_SAMPLES)
    took = _stopped_after(0.3, lambda: _core.killteam.shoot_counts(config, 1, samples, 0, 100_000, 2))
    assert_deadline(took, 0.3 + 0.5, earliest=0.3)

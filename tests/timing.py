"""Time in tests, asserted so that a machine busy with other work does not fail them.

Two kinds of timing assertion, and no other (CONTRIBUTING.md, "Timing in tests"):

- **A deadline the code implements** (a stop token, the server's time limit, Ctrl-C within a
  second): ``assert_deadline`` holds the measured wall time between a lower bound (the stop came no
  earlier than it should) and the deadline plus ``LOAD_SLACK``. A loaded machine makes a stop late,
  so the upper bound leaves it two seconds; the work stopped must run far longer than that.
- **Any other time** is CPU time: ``cpu_at_most(typical)`` fails when the block takes more than
  ``CPU_MARGIN`` times the CPU seconds it typically takes (a cold call on the development machine),
  so only work gone ten times slower fails, never the machine's other work. Speed itself is measured
  in benchmarks/.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["CPU_MARGIN", "LOAD_SLACK", "assert_deadline", "cpu_at_most"]

#: Seconds a deadline's upper bound leaves above the deadline.
LOAD_SLACK = 2.0
#: How many times its typical CPU time a block may take.
CPU_MARGIN = 10.0
#: Under AddressSanitizer (tools/sanitize.sh) the C++ runs a few times slower.
SANITIZER_SLOWDOWN = 4.0 if os.environ.get("MATHHAMMER_SANITIZED") == "1" else 1.0


def assert_deadline(seconds: float, deadline: float, earliest: float = 0.0) -> None:
    """``seconds`` (wall time, measured by the test) is at least ``earliest`` and under ``deadline``
    plus LOAD_SLACK."""
    assert earliest <= seconds < deadline + LOAD_SLACK, (
        f"{seconds:.2f} s: expected from {earliest} s to the deadline of {deadline} s (+{LOAD_SLACK} s)")


@contextmanager
def cpu_at_most(typical: float) -> Iterator[None]:
    """The block's CPU time (every thread of this process) is under CPU_MARGIN times ``typical``."""
    started = time.process_time()
    yield
    spent = time.process_time() - started
    limit = CPU_MARGIN * SANITIZER_SLOWDOWN * typical
    assert spent < limit, f"{spent:.3f} s of CPU time: over {limit:.3f} s ({CPU_MARGIN:g} x the typical {typical} s)"

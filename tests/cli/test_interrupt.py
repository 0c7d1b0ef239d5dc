"""Ctrl-C stops a long Monte Carlo run cleanly: exit code 130, 'interrupted', no traceback."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from cli_cases import subprocess_env

# The CLI's own main, in a real process that says when it is about to start (so the signal lands in
# the run, not in the imports).
LAUNCH = ("import sys, mathhammer.cli as cli; sys.stderr.write('ready\\n'); sys.stderr.flush(); "
          "sys.exit(cli.main(sys.argv[1:]))")
LONG_RUN = ["killteam", "fight", "--method", "monte_carlo", "--samples", "2000000000",
            "--a-abilities", "Feel No Pain 5+", "--threads", "1"]


def test_ctrl_c_stops_a_long_monte_carlo_run():
    env = subprocess_env()
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, *LONG_RUN], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stderr.readline() == "ready\n"
        time.sleep(1.0)
        assert process.poll() is None  # still sampling: 2e9 fights take minutes
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = process.communicate(timeout=10)
        stopped_after = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert err == "interrupted\n" and "Traceback" not in err and out == ""
    assert stopped_after < 5.0

"""A loopback load test of ``mathhammer serve`` (benchmarks/README.md, "Web server"); not part of CI.

Starts ``mathhammer serve --workers 2`` on a free loopback port, then runs wrk (Debian's ``wrk``
package) with 32 connections for 20 s on the exact 4-dice shot, and prints requests/s, the
p50/p95/p99 latencies, the answers that were not 200, the servers' memory before and after, and the
CPU time the servers spent per request (steadier than requests/s on a machine shared with other
work, so the figure to compare interleaved runs by).

    PYTHONPATH=python python benchmarks/web_load.py [--seconds 20] [--connections 32] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

# The exact 4-dice shot of the issue: 4 attacks 3+ 3/4 Lethal 5+ at a 3+ save, 12 wounds, in cover.
BODY = {"weapon": {"attacks": 4, "hit": 3, "damage": [3, 4], "rules": "Lethal 5+"},
        "target": {"save": 3, "wounds": 12}, "cover": 1, "method": "exact"}

# wrk's script: the request, and at the end its own percentiles and non-2xx count as one JSON line.
SCRIPT = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '%s'
done = function(summary, latency, requests)
  io.write(string.format('RESULT {"requests": %%d, "seconds": %%.3f, "non_2xx": %%d, "socket_errors": %%d, '
    .. '"p50_ms": %%.2f, "p95_ms": %%.2f, "p99_ms": %%.2f, "max_ms": %%.2f}\\n',
    summary.requests, summary.duration / 1e6, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50) / 1e3, latency:percentile(95) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3))
end
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def tree(root: int) -> list[int]:
    """A process and all its descendants (the uvicorn workers), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes have spent so far, from /proc."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_rss_kib(root: int) -> int:
    """Resident memory of a process and all its descendants (the uvicorn workers), from /proc."""
    total = 0
    for pid in tree(root):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    wrk = shutil.which("wrk")
    if wrk is None:
        sys.exit("needs wrk: apt-get install -y wrk")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "mathhammer.cli", "serve", "--port", str(port),
                               "--workers", str(args.workers)], env=os.environ.copy())
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/api/v1/health", timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                sys.exit("the server did not start")
            time.sleep(0.2)
        request = urllib.request.Request(base + "/api/v1/killteam/shoot", data=json.dumps(BODY).encode(),
                                         headers={"Content-Type": "application/json"})
        for _ in range(50):  # warm: every worker has planned the shot
            urllib.request.urlopen(request, timeout=5).read()
        before = tree_rss_kib(server.pid)
        servers = tree(server.pid)
        cpu_before = cpu_seconds(servers)
        with tempfile.TemporaryDirectory() as folder:
            script = Path(folder) / "shot.lua"
            script.write_text(SCRIPT % json.dumps(BODY), encoding="utf-8")
            load = subprocess.Popen([wrk, "-t2", f"-c{args.connections}", f"-d{args.seconds}s", "-s", str(script),
                                     base + "/api/v1/killteam/shoot"], stdout=subprocess.PIPE, text=True)
            memory = []  # the servers' memory every 5 s of the run: flat, or growing per request
            while load.poll() is None:
                time.sleep(5)
                memory.append(round(tree_rss_kib(server.pid) / 1024, 1))
            output = load.communicate()[0]
        cpu = cpu_seconds(servers) - cpu_before
        after = tree_rss_kib(server.pid)
    finally:
        server.terminate()
        server.wait(20)
    line = next(part for part in output.splitlines() if part.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    result["requests_per_second"] = round(result["requests"] / result["seconds"], 1)
    result["server_cpu_ms_per_request"] = round(cpu / max(1, result["requests"]) * 1000, 3)
    result["rss_mib_before"] = round(before / 1024, 1)
    result["rss_mib_during"] = memory
    result["rss_mib_after"] = round(after / 1024, 1)
    print(json.dumps(result, indent=2))
    return 0 if result["non_2xx"] == 0 and result["socket_errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

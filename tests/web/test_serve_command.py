"""``mathhammer serve`` (docs/web.md): its options reach uvicorn, binding off loopback warns, a bad
library is one error line, and ``mathhammer --help`` still loads no web library."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import mathhammer
from mathhammer.cli import main
from mathhammer.core.sampling import usable_cores
from timing import CPU_MARGIN, assert_deadline
from mathhammer.web import app as web


@pytest.fixture()
def started(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(web, "serve", lambda host, port, workers, profiles, limits, hosts: calls.append(
        {"host": host, "port": port, "workers": workers, "profiles": profiles, "limits": limits, "hosts": hosts}))
    return calls


def test_serve_binds_loopback_by_default(started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve"]) == 0
    assert started[0]["host"] == "127.0.0.1" and started[0]["port"] == 8000 and started[0]["workers"] == 1
    assert started[0]["limits"].concurrency == usable_cores() and started[0]["limits"].time_limit == 10.0
    assert started[0]["hosts"] == ["localhost", "127.0.0.1", "[::1]"]  # the loopback names, the bound address among them
    assert "warning" not in capsys.readouterr().err


def test_serve_warns_off_loopback_and_shares_the_cores_among_workers(
        started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    library = tmp_path / "mine.toml"
    library.write_text('game = "killteam"\n[weapon.gun]\nattacks = 4\nhit = 3\n', encoding="utf-8")
    assert main(["serve", "--host", "0.0.0.0", "--port", "9001", "--workers", "2", "--profiles", str(library),
                 "--time-limit", "3"]) == 0
    assert started[0]["limits"].concurrency == max(1, usable_cores() // 2) and started[0]["limits"].time_limit == 3
    assert started[0]["profiles"] == [str(library)]
    err = capsys.readouterr().err
    assert "warning: binding 0.0.0.0: the server is reachable from other machines" in err
    assert started[0]["hosts"] == ["localhost", "127.0.0.1", "[::1]", "0.0.0.0"]
    assert "--allowed-hosts" in err  # the names clients use must be given


def test_allowed_hosts_replace_the_default(started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "0.0.0.0", "--allowed-hosts", "dice.example.org", "--allowed-hosts", "10.0.0.5"]) == 0
    assert started[0]["hosts"] == ["dice.example.org", "10.0.0.5"]
    assert "--allowed-hosts" not in capsys.readouterr().err


def test_a_missing_profiles_path_says_so(started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    assert main(["serve", "--profiles", str(tmp_path / "nonexistent")]) == 2
    err = capsys.readouterr().err  # the path's end names it (a long path is cut to its last 40 characters)
    assert err.startswith("error: ") and err.strip().endswith("/nonexistent: no such file or folder"), err
    assert len(err.strip().splitlines()) == 1 and not started


def test_a_bad_library_is_one_error_line(started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    library = tmp_path / "bad.toml"
    library.write_text('game = "killteam"\n[weapon.gun]\nattacks = 4\nhit = 9\n', encoding="utf-8")
    assert main(["serve", "--profiles", str(library)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "weapon.gun" in err and len(err.strip().splitlines()) == 1
    assert not started


def test_the_workers_build_the_app_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(web.ENVIRONMENT, '{"profiles": [], "limits": {"concurrency": 3, "time_limit": 2.5}, '
                                        '"hosts": ["localhost"]}')
    app = web.from_environment()
    assert app.state.limits.concurrency == 3 and app.state.limits.time_limit == 2.5
    client = TestClient(app)  # its Host is "testserver"
    assert client.get("/api/v1/health").status_code == 400
    assert client.get("/api/v1/health", headers={"host": "localhost:8000"}).status_code == 200


def test_help_loads_no_web_library() -> None:
    here = str(Path(mathhammer.__file__).resolve().parent.parent)
    code = "import sys\nfrom mathhammer.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n" \
           "print('LOADED', ' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": here})
    assert "serve" in done.stdout
    loaded = set(done.stdout.split("LOADED", 1)[1].split())
    assert not loaded & {"fastapi", "starlette", "pydantic", "uvicorn", "mathhammer.web"}


# --- the server as `mathhammer serve` runs it, under hostile clients (loopback, short limits) -------------------

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _rss(pid: int) -> int:
    """The resident memory of a process, in bytes (from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def _cpu_seconds(pid: int) -> float:
    """The CPU time a process has used, user and system (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _call(port: int, path: str, body: Any = None, host: str | None = None) -> tuple[int, Any, float]:
    """One request to the served app: (status, its JSON, seconds)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    start = time.perf_counter()
    try:
        connection.putrequest("POST" if body is not None else "GET", path, skip_host=True)
        connection.putheader("Host", host or f"127.0.0.1:{port}")
        data = json.dumps(body).encode() if body is not None else b""
        if body is not None:
            connection.putheader("Content-Type", "application/json")
            connection.putheader("Content-Length", str(len(data)))
        connection.endheaders(data)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null"), time.perf_counter() - start
    finally:
        connection.close()


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[int, int]]:
    """`mathhammer serve` on a free loopback port, in its own process (its memory is measured): a 2 s
    time limit, two computations at once. Yields (port, process id)."""
    port = _free_port()
    here = str(Path(mathhammer.__file__).resolve().parent.parent)
    server = subprocess.Popen([sys.executable, "-m", "mathhammer.cli", "serve", "--port", str(port), "--time-limit", "2",
                               "--concurrency", "2"], env={**os.environ, "PYTHONPATH": here})
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if _call(port, "/api/v1/health")[0] == 200:
                    break
            except OSError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield port, server.pid
    finally:
        server.terminate()
        server.wait(20)


def test_a_client_streaming_headers_is_cut_off_and_slows_no_one(served: tuple[int, int]) -> None:
    port, pid = served
    before = _rss(pid)
    streamed: dict[str, Any] = {"sent": 0}

    def stream() -> None:  # an endless header: 16 MiB unless the server hangs up first
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            try:
                sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ")
                while streamed["sent"] < 16 << 20:
                    sock.sendall(b"a" * 65536)
                    streamed["sent"] += 65536
                sock.sendall(b"\r\n\r\n")
                streamed["answer"] = sock.recv(64)
            except OSError as error:  # the server closed the connection
                streamed["error"] = error

    client = threading.Thread(target=stream)
    cpu_before = _cpu_seconds(pid)
    client.start()
    answered, peak = 0, before
    while client.is_alive() or not answered:  # other requests go on meanwhile
        status, _, _ = _call(port, "/api/v1/health")
        assert status == 200
        answered += 1
        peak = max(peak, _rss(pid))
    client.join()
    assert "error" in streamed and streamed["sent"] < 16 << 20, streamed  # hung up on, long before the end
    # The server's CPU time meanwhile: under a clock tick (10 ms) here, the head read and dropped in
    # bounded steps; a parse that grew with the head would have kept it busy (and the others waiting).
    assert _cpu_seconds(pid) - cpu_before < CPU_MARGIN * 0.05
    assert peak - before < 8 << 20  # the header was not kept
    # a head over 16 KiB sent at once is refused the same way, with an answer in the API's shape
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 40_000 + b"\r\n\r\n")
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 431 "), answer
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"] == "headers too large"
    # a head under the limit, and requests following each other on one connection, are served
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(2):
        connection.request("POST", "/api/v1/killteam/shoot", body=b'{"weapon": "bolt_rifle", "target": "kommando"}',
                           headers={"Content-Type": "application/json", "X-Pad": "a" * 12_000})
        response = connection.getresponse()
        assert response.status == 200 and response.read() and connection.sock is not None  # still open
    connection.close()


def test_a_host_the_server_does_not_answer_to_is_400(served: tuple[int, int]) -> None:
    # a page whose name was pointed at 127.0.0.1 (DNS rebinding) sends its own name as the Host
    port, _ = served
    for host in ("rebound.example", f"rebound.example:{port}", "127.0.0.1.rebound.example"):
        status, body, _ = _call(port, "/api/v1/health", host=host)
        assert status == 400 and body["error"] == "host not allowed", (host, body)
    status, body, _ = _call(port, "/api/v1/killteam/shoot", {"weapon": "bolt_rifle", "target": "kommando"},
                            host="rebound.example")
    assert status == 400  # refused before the body is read or anything runs
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "LOCALHOST", f"[::1]:{port}"):
        assert _call(port, "/api/v1/health", host=host)[0] == 200, host


GUN = {"attacks": 4, "hit": 3, "damage": [3, 4]}
# at the grid limit of 10,000 cells: a comparison's results and answer at their largest
HEAVY = [
    ("starcraft/compare", {"weapons": ["quad_k12"] * 100, "units": ["roach"] * 100}),
    ("killteam/compare", {"situations": [{"weapon": GUN}, {"weapon": GUN, "cover": 1}], "at_least": list(range(1, 1001))}),
    ("killteam/compare-fights", {"fighters": ["wyche"] * 100, "opponents": ["ork_boy"] * 100}),
    ("starcraft/compare", {"weapons": ["c14_rifle"] * 100, "units": ["zergling"] * 100}),
]
# 2 x 20 x 10,000 cells in a 59 KB body: a 13 MB answer, built after its engine finished (a second
# of the server holding the GIL, a hundred MiB kept), were it not refused
OVER = ("killteam/compare", {"situations": [{"weapon": GUN}, {"weapon": GUN, "cover": 1}], "saves": [2, 3, 4, 5, 6] * 4,
                             "at_least": list(range(1, 10_001))})


def test_a_burst_of_heavy_requests_keeps_the_server_quick_and_gives_its_memory_back(served: tuple[int, int]) -> None:
    port, pid = served
    for path, body in HEAVY[:3]:  # warm: the engines and pandas loaded, as an idle server that has served
        small = {key: value[:1] if isinstance(value, list) and key != "situations" else value for key, value in body.items()}
        assert _call(port, f"/api/v1/{path}", small)[0] == 200
    idle = _rss(pid)
    health, peak, done = [], idle, threading.Event()

    def watch() -> None:  # /health throughout, and the server's memory
        nonlocal peak
        while not done.is_set():
            health.append(_call(port, "/api/v1/health")[0])
            peak = max(peak, _rss(pid))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    with ThreadPoolExecutor(len(HEAVY) + 1) as pool:
        over = pool.submit(_call, port, f"/api/v1/{OVER[0]}", OVER[1])
        answers = list(pool.map(lambda request: _call(port, f"/api/v1/{request[0]}", request[1]), HEAVY))
        status, body, took = over.result()
    assert status == 422 and body["error"] == "too large" and body["field"] == "at_least", body
    assert_deadline(took, 0.0)  # refused before it ran
    assert all(status in (200, 504) for status, _, _ in answers), [a[:2] for a in answers]
    time.sleep(0.5)  # the last slots free (a computation stopped at its limit returns within the grace)
    done.set()
    watcher.join()
    assert _call(port, "/api/v1/health")[1]["running"] == 0
    after = _rss(pid)
    # answered throughout (how quickly, under the burst, is a wall-clock figure: benchmarks' business)
    assert health and set(health) == {200}, health
    # docs/web.md, "Limits": the allocator keeps some of what the burst used; the rest comes back
    assert after - idle < 64 << 20, (idle >> 20, after >> 20, peak >> 20)
    assert peak - idle < 160 << 20, (idle >> 20, after >> 20, peak >> 20)

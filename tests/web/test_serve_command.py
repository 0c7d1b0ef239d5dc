"""``mathhammer serve`` (docs/web.md): its options reach uvicorn, binding off loopback warns, a bad
library is one error line, and ``mathhammer --help`` still loads no web library."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import mathhammer
from mathhammer.cli import main
from mathhammer.core.sampling import usable_cores
from mathhammer.web import app as web


@pytest.fixture()
def started(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(web, "serve", lambda host, port, workers, profiles, limits: calls.append(
        {"host": host, "port": port, "workers": workers, "profiles": profiles, "limits": limits}))
    return calls


def test_serve_binds_loopback_by_default(started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve"]) == 0
    assert started[0]["host"] == "127.0.0.1" and started[0]["port"] == 8000 and started[0]["workers"] == 1
    assert started[0]["limits"].concurrency == usable_cores() and started[0]["limits"].time_limit == 10.0
    assert "warning" not in capsys.readouterr().err


def test_serve_warns_off_loopback_and_shares_the_cores_among_workers(
        started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    library = tmp_path / "mine.toml"
    library.write_text('game = "killteam"\n[weapon.gun]\nattacks = 4\nhit = 3\n', encoding="utf-8")
    assert main(["serve", "--host", "0.0.0.0", "--port", "9001", "--workers", "2", "--profiles", str(library),
                 "--time-limit", "3"]) == 0
    assert started[0]["limits"].concurrency == max(1, usable_cores() // 2) and started[0]["limits"].time_limit == 3
    assert started[0]["profiles"] == [str(library)]
    assert "warning: binding 0.0.0.0: the server is reachable from other machines" in capsys.readouterr().err


def test_a_bad_library_is_one_error_line(started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    library = tmp_path / "bad.toml"
    library.write_text('game = "killteam"\n[weapon.gun]\nattacks = 4\nhit = 9\n', encoding="utf-8")
    assert main(["serve", "--profiles", str(library)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "weapon.gun" in err and len(err.strip().splitlines()) == 1
    assert not started


def test_the_workers_build_the_app_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(web.ENVIRONMENT, '{"profiles": [], "limits": {"concurrency": 3, "time_limit": 2.5}}')
    app = web.from_environment()
    assert app.state.limits.concurrency == 3 and app.state.limits.time_limit == 2.5


def test_help_loads_no_web_library() -> None:
    here = str(Path(mathhammer.__file__).resolve().parent.parent)
    code = "import sys\nfrom mathhammer.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n" \
           "print('LOADED', ' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": here})
    assert "serve" in done.stdout
    loaded = set(done.stdout.split("LOADED", 1)[1].split())
    assert not loaded & {"fastapi", "starlette", "pydantic", "uvicorn", "mathhammer.web"}

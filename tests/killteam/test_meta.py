"""The meta (kt meta / mathhammer killteam meta): every team against every team, the same table
serially, on a process pool and on Dask, bit for bit; a run whose worker is killed half way resumes
to the same table; the rows are those of kt.matchup."""

from __future__ import annotations

import os
import signal
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd
import pytest

from mathhammer import InputError
from mathhammer import killteam as kt
from mathhammer.cli import main
from mathhammer.files.teams import save_team
from mathhammer.killteam.meta import META_COLUMNS, meta

from synthetic_teams import synthetic_team

OPTIONS = {"cover": (0, 1)}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("teams")
    for k in range(4):
        save_team(synthetic_team(900 + k, operatives=3), where, stem=f"team {k}")
    return where


@pytest.fixture(scope="module")
def serial(folder: Path) -> pd.DataFrame:
    return meta(folder, seed=5, **OPTIONS)


def test_rows_are_the_matchups(folder: Path, serial: pd.DataFrame) -> None:
    assert list(serial.columns) == list(META_COLUMNS)
    files = sorted(folder.glob("*.toml"))
    teams = [kt.data.load_team(p) for p in files]
    parts = []
    for a in teams:
        for b in teams:
            frame = kt.matchup(a, b, **OPTIONS).to_frame()
            by_name = {op.name: op.operative for op in b}
            operatives = [by_name[d.split("/")[0]] for d in frame["defender"]]  # the synthetic names hold no "/"
            frame["defender_save"] = [op.save for op in operatives]
            frame["defender_wounds"] = [op.wounds for op in operatives]
            frame.insert(0, "team_b", b.name)
            frame.insert(0, "team_a", a.name)
            parts.append(frame)
    pd.testing.assert_frame_equal(serial, pd.concat(parts, ignore_index=True), check_exact=True, check_dtype=False)
    assert len(set(zip(serial["team_a"], serial["team_b"]))) == 16


def test_the_same_table_on_a_process_pool_and_in_files(folder: Path, serial: pd.DataFrame, tmp_path: Path) -> None:
    with ProcessPoolExecutor(2) as pool:
        pooled = meta(folder, tmp_path / "meta.parquet", executor=pool, chunk=3, seed=5, **OPTIONS)
    pd.testing.assert_frame_equal(pooled, serial, check_exact=True)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "meta.parquet"), serial, check_exact=True,
                                  check_dtype=False)
    assert not (tmp_path / "meta.parquet.parts").exists()  # the parts go once the table is written
    as_csv = meta(folder, tmp_path / "meta.csv", chunk=5, seed=5, **OPTIONS)
    pd.testing.assert_frame_equal(as_csv, serial, check_exact=True)
    # a finished table is never read back (only parts are, with their manifest): --resume runs it again,
    # to the same bytes
    written = (tmp_path / "meta.csv").read_bytes()
    counts: list[tuple[int, int]] = []
    again = meta(folder, tmp_path / "meta.csv", resume=True, seed=5, progress=lambda d, t: counts.append((d, t)),
                 **OPTIONS)
    assert counts[0] == (0, 16) and counts[-1] == (16, 16)
    pd.testing.assert_frame_equal(again, serial, check_exact=True)
    assert (tmp_path / "meta.csv").read_bytes() == written


def test_the_same_table_on_dask(folder: Path, serial: pd.DataFrame) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            on_dask = meta(folder, executor=client.get_executor(), chunk=2, seed=5, **OPTIONS)
    pd.testing.assert_frame_equal(on_dask, serial, check_exact=True)


def test_a_run_whose_worker_is_killed_resumes_to_the_same_table(tmp_path: Path) -> None:
    # teams of eight operatives: a chunk takes longer than writing a part, so that work is still
    # queued when the worker dies (with tiny teams the workers could finish every chunk first)
    folder = tmp_path / "teams"
    for k in range(4):
        save_team(synthetic_team(910 + k, operatives=8), folder, stem=f"team {k}")
    serial = meta(folder, seed=5, **OPTIONS)
    out = tmp_path / "meta.parquet"
    killed: list[int] = []
    with ProcessPoolExecutor(2) as pool:
        def progress(done: int, total: int) -> None:
            if done >= total // 2 and not killed:  # half way: one worker terminated
                pid = next(iter(pool._processes))  # the pool's own worker processes
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        with pytest.raises(Exception):  # the pool breaks (BrokenProcessPool)
            meta(folder, out, executor=pool, chunk=1, seed=5, progress=progress, **OPTIONS)
    assert killed and not out.exists()
    kept = list((tmp_path / "meta.parquet.parts").glob("*.parquet"))
    assert 8 <= len(kept) < 16  # the chunks that finished before the kill
    counts: list[tuple[int, int]] = []
    resumed = meta(folder, out, resume=True, seed=5, progress=lambda d, t: counts.append((d, t)), **OPTIONS)
    assert counts[0] == (len(kept), 16) and counts[-1] == (16, 16)
    pd.testing.assert_frame_equal(resumed, serial, check_exact=True)
    pd.testing.assert_frame_equal(pd.read_parquet(out), serial, check_exact=True, check_dtype=False)


def test_errors(folder: Path, tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"^out: "):
        meta(folder, tmp_path / "meta.xlsx")
    with pytest.raises(InputError, match=r"^folder: no team libraries"):
        meta(tmp_path)
    with pytest.raises(InputError, match=r"^seeds: not a meta option"):
        meta(folder, seeds=3)


def test_the_command(folder: Path, serial: pd.DataFrame, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "meta.parquet"
    assert main(["killteam", "meta", str(folder), "--out", str(out), "--seed", "5", "--workers", "2"]) == 0
    captured = capsys.readouterr()
    assert "16/16 pairings" in captured.err and f"{len(serial):,} rows: 4 teams, 16 pairings" in captured.out
    pd.testing.assert_frame_equal(pd.read_parquet(out), serial, check_exact=True, check_dtype=False)
    assert main(["killteam", "meta", str(folder), "--out", str(tmp_path / "m.txt")]) == 2
    assert main(["killteam", "meta", str(folder), "--out", str(out), "--executor", "tcp://x:1"]) == 2

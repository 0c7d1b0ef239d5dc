"""The meta (kt meta / mathhammer killteam meta): every team against every team, the same table
serially, on a process pool and on Dask, bit for bit; a run whose worker is killed half way resumes
to the same table; the rows are those of kt.matchup."""

from __future__ import annotations

import json
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
from mathhammer.killteam.meta import META_COLUMNS, meta, ranking

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


# --- the ranking ------------------------------------------------------------------------------------

def _ranking_by_hand(table: pd.DataFrame, teams: list[kt.data.Team]) -> dict[str, tuple[float, ...]]:
    """Each team's offence, defence, fights won and edge, with pandas from the long table: per pairing
    and defender at cover 1 the gun of fewest mean shots to kill (then most mean damage), striking
    first the fight of mine most likely to win once their weapon least likely to fall answers it."""
    shots = table[(table["kind"] == "shoot") & (table["cover"] == 1)].assign(order=lambda f: range(len(f)))
    shots = shots[shots["shots_to_kill"] < float("inf")]
    best_shot = shots.sort_values(["shots_to_kill", "mean_damage", "order"], ascending=[True, False, True]) \
        .groupby(["team_a", "team_b", "defender"]).head(1)
    kill = {(r.team_a, r.team_b, r.defender): r.kill_chance for r in best_shot.itertuples()}
    fights = table[(table["kind"] == "fight") & (table["first"] == "a")].assign(order=lambda f: range(len(f)))
    fights["operative"] = fights["defender"].str.split("/").str[0]
    answered = fights.sort_values(["kill_chance", "death_chance", "order"], ascending=[True, False, True]) \
        .groupby(["team_a", "team_b", "operative", "attacker", "weapon"]).head(1)
    best_fight = answered.sort_values(["kill_chance", "death_chance", "order"], ascending=[False, True, True]) \
        .groupby(["team_a", "team_b", "operative"]).head(1)
    win = {(r.team_a, r.team_b, r.operative): r.kill_chance for r in best_fight.itertuples()}
    ops = {t.name: [op.name for op in t] for t in teams}
    melee = {t.name: [op.name for op in t if any(w.kind == "melee" for w in op.weapons)] for t in teams}

    def mean(values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    out = {}
    for t in ops:
        others = [o for o in ops if o != t]
        offence = mean([kill.get((t, o, d), 0.0) for o in others for d in ops[o]])
        defence = mean([kill.get((o, t, d), 0.0) for o in others for d in ops[t]])
        won = mean([win.get((t, o, d), 0.0) for o in others for d in melee[o]])
        edges = [(mean([kill.get((t, o, d), 0.0) for d in ops[o]]) - mean([kill.get((o, t, d), 0.0) for d in ops[t]])
                  + mean([win.get((t, o, d), 0.0) for d in melee[o]]) - mean([win.get((o, t, d), 0.0) for d in melee[t]]))
                 / 2 for o in others]
        out[t] = (offence, defence, won, mean(edges), others[edges.index(max(edges))], others[edges.index(min(edges))])
    return out


def test_the_ranking_is_the_table_read_by_hand(folder: Path, serial: pd.DataFrame) -> None:
    teams = [kt.data.load_team(p) for p in sorted(folder.glob("*.toml"))]
    ranked = ranking(serial, teams, method="auto")
    expected = _ranking_by_hand(serial, teams)
    assert [t.team for t in ranked.teams] == sorted(expected, key=lambda name: (-expected[name][3], name))
    for t in ranked.teams:
        assert (t.offence, t.defence, t.fights, t.edge) == pytest.approx(expected[t.team][:4], abs=1e-12)
        assert (t.best, t.worst) == expected[t.team][4:]
    assert sum(t.edge for t in ranked.teams) == pytest.approx(0.0, abs=1e-12)  # every edge is another's loss
    assert ranked.cover == 1 and ranked.first == "a"
    assert kt.MetaRanking.from_json(ranked.to_json()) == ranked


def test_the_command_ranks_without_writing(folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = sorted(p.name for p in folder.iterdir())
    assert main(["killteam", "meta", str(folder), "--seed", "5"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0] == "The meta's 4 teams, cover 1, striking first" and len(lines) <= 2 * 4 + 12
    assert max(len(line) for line in lines) <= 80 and "%" in captured.out
    assert sorted(p.name for p in folder.iterdir()) == before  # no parts folder, no table
    assert main(["killteam", "meta", str(folder), "--seed", "5", "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    expected = ranking(meta(folder, seed=5), [kt.data.load_team(p) for p in sorted(folder.glob("*.toml"))],
                       method="auto")
    assert kt.MetaRanking.from_dict(payload["ranking"]) == expected
    for args, message in ((["--resume"], "--resume: "), (["--cover", "0,5"], "--cover: 5 is out of range")):
        assert main(["killteam", "meta", str(folder), *args]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {message}") and err.count("\n") == 1, err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["killteam", "meta", str(empty)]) == 2
    assert "no team libraries" in capsys.readouterr().err

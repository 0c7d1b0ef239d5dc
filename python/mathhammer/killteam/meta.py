"""The meta (docs/meta.md): every team of a folder of team libraries against every team, as one long
table, chunk by chunk on any executor, restartable.

A pairing is an ordered pair of teams (A's weapons against B's operatives, a team against itself
included), numbered in the order of the sorted team files; its matchup (``kt.matchup``) is seeded
``cell_seed(seed, pairing)``, so the table depends on the teams and the options only, never on what
ran it. Chunks of ``chunk`` pairings run where the executor sends them; each finished chunk is
written at once into ``<out>.parts/`` (a dropped worker loses its chunk only), and the table is
written, in pairing order, once every pairing is done. ``resume=True`` skips the pairings already
in the parts folder or in ``out`` itself.
"""

from __future__ import annotations

import functools
import os
import pickle
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, as_completed
from pathlib import Path
from typing import Any

from mathhammer.core.checks import check_bool, check_int
from mathhammer.core.guard import as_path
from mathhammer.core.options import MAX_SEED
from mathhammer.core.sampling import cell_seed
from mathhammer.errors import InputError, InputTypeError
from mathhammer.killteam.versus import matchup
from mathhammer.killteam.results import MATCHUP_COLUMNS

__all__ = ["META_COLUMNS", "OUTPUT_SUFFIXES", "meta", "meta_pairings", "team_files"]

#: The meta table's columns: the two teams, a matchup's (Matchup.to_frame()), then the defending
#: operative's save and wounds (what the meta's questions group by: docs/meta.md).
META_COLUMNS: tuple[str, ...] = ("team_a", "team_b", *MATCHUP_COLUMNS, "defender_save", "defender_wounds")

#: The files the meta writes.
OUTPUT_SUFFIXES = (".parquet", ".csv")

_LIBRARY_SUFFIXES = (".toml", ".json")

# the matchup options the meta passes on (kt.matchup's keywords but the executor and progress)
_OPTIONS = ("shoot", "fight", "cover", "obscured", "first", "strategies", "method")

_ROW = "_row"  # a part's row number within its pairing: the table's order, dropped when written


def team_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The team libraries of a folder (``*.toml`` / ``*.json`` but the ``.import.json`` reports),
    sorted by name."""
    where = as_path(folder, "folder")
    if not where.is_dir():
        raise InputError("folder", f"{where} is not a folder")
    files = sorted(p for p in where.iterdir() if p.is_file() and p.suffix.lower() in _LIBRARY_SUFFIXES
                   and not p.name.lower().endswith(".import.json"))
    if not files:
        raise InputError("folder", f"no team libraries (.toml, .json) in {where}")
    return files


def meta_pairings(count: int) -> list[tuple[int, int]]:
    """The pairings of ``count`` teams, in table order: (a, b) for every a, then every b."""
    return [(a, b) for a in range(count) for b in range(count)]


@functools.lru_cache(maxsize=64)
def _load(path: str) -> Any:
    # each worker process reads a team once (the team library reader, docs/data.md)
    from mathhammer.killteam.data.load import load_team

    return load_team(path)


def _run_chunk(paths: tuple[str, ...], pairs: tuple[tuple[int, int, int], ...], seed: int,
               options: Mapping[str, Any]) -> Any:
    """The rows of some pairings (pairing index, team a, team b): what a worker runs."""
    import pandas as pd

    frames = []
    for index, a, b in pairs:
        team_a, team_b = _load(paths[a]), _load(paths[b])
        frame = matchup(team_a, team_b, seed=cell_seed(seed, index), **options).to_frame()
        # a fight's defender is "operative/weapon": both spellings name the operative
        stats = {op.name: op.operative for op in team_b}
        stats.update({f"{op.name}/{w.name}": op.operative for op in team_b for w in op.weapons})
        frame["defender_save"] = [stats[d].save for d in frame["defender"]]
        frame["defender_wounds"] = [stats[d].wounds for d in frame["defender"]]
        frame.insert(0, "team_b", team_b.name)
        frame.insert(0, "team_a", team_a.name)
        frame[_ROW] = range(len(frame))
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def _parts_folder(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def _read_output(out: Path) -> Any:
    import pandas as pd

    if out.suffix.lower() == ".parquet":
        frame = pd.read_parquet(out)
    else:
        # every digit back (pandas 3 reads floats round-trip by default and deprecates asking for it)
        exact = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
        frame = pd.read_csv(out, **exact)
    return _typed(frame)


def _typed(frame: Any) -> Any:
    # the dtypes a matchup's frame has, whatever file the rows were read from
    frame = frame.astype({"cover": "Int64", "blast": "Int64", "torrent": "Int64"})
    for name in ("kind", "attacker", "weapon", "defender", "first", "strategy_a", "strategy_b", "team_a", "team_b"):
        frame[name] = frame[name].astype(object).where(frame[name].notna(), None)
    return frame


def _write_output(out: Path, frame: Any) -> None:
    tmp = out.with_name(out.name + ".tmp")
    if out.suffix.lower() == ".parquet":
        frame.to_parquet(tmp, index=False)
    else:
        frame.to_csv(tmp, index=False)
    os.replace(tmp, out)


def meta(
    teams: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    out: str | os.PathLike[str] | None = None,
    *,
    resume: bool = False,
    executor: Executor | None = None,
    chunk: int = 4,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> Any:
    """Every team against every team: the long table (pandas) of their matchups, ``team_a`` and
    ``team_b`` first, then ``Matchup.to_frame()``'s columns, in pairing order.

    ``teams``: a folder of team libraries (``mathhammer killteam import`` writes them) or a list of
    library files. ``out``: the .parquet or .csv file to write (None: only return the table; then
    nothing is kept between chunks and ``resume`` has nothing to resume). ``executor``: any
    ``concurrent.futures.Executor`` (a process pool, a Dask ``Client.get_executor()``), sent
    ``chunk`` pairings at a time; None runs them here. ``progress(done, total)`` counts pairings.
    ``options``: ``kt.matchup``'s (``cover``, ``first``, ``strategies``, ``shoot``, ``fight``,
    ``obscured``, ``method``). The same teams, options and ``seed`` give the same table, bit for
    bit, whatever runs it.
    """
    import pandas as pd

    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise InputError(unknown[0], f"not a meta option; allowed: {', '.join(_OPTIONS)}")
    chunk = check_int("chunk", chunk, 1, 10_000)
    seed = check_int("seed", seed, 0, MAX_SEED)
    if isinstance(teams, (str, os.PathLike)):
        files = team_files(teams)
    elif isinstance(teams, Sequence) and teams:
        files = [as_path(p, f"teams[{i}]") for i, p in enumerate(teams)]
    else:
        raise InputTypeError("teams", "expected a folder or a list of team library files")
    paths = tuple(str(p) for p in files)
    names = [_load(p).name for p in paths]  # read here first: a bad file fails before any work
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise InputError("teams", f"two libraries hold the team {twice[0]!r}; the meta names teams by name")
    # the options checked once, before any work: a matchup of no pairings
    matchup(_load(paths[0]), _load(paths[0]), **{**options, "shoot": False, "fight": False})
    for name in ("shoot", "fight"):
        check_bool(name, options.get(name, True))
    out_path = None if out is None else as_path(out, "out")
    if out_path is not None and out_path.suffix.lower() not in OUTPUT_SUFFIXES:
        raise InputError("out", f"{out_path.name}: write a .parquet or a .csv file")
    pairings = meta_pairings(len(paths))
    position = {(names[a], names[b]): i for i, (a, b) in enumerate(pairings)}

    done: list[Any] = []  # frames already computed (resumed parts, the output's rows)
    parts = None if out_path is None else _parts_folder(out_path)
    if out_path is not None and not resume:
        if parts is not None and parts.exists():
            for old in parts.glob("*.pkl"):
                old.unlink()
    if resume and out_path is not None:
        if out_path.exists():
            frame = _read_output(out_path)
            frame[_ROW] = frame.groupby(["team_a", "team_b"], sort=False).cumcount()
            done.append(frame)
        if parts is not None and parts.exists():
            for part in sorted(parts.glob("*.pkl")):
                with part.open("rb") as handle:
                    done.append(pickle.load(handle))  # noqa: S301 - files this function wrote
    finished = {(a, b) for frame in done for a, b in zip(frame["team_a"], frame["team_b"])}
    todo = [(i, a, b) for i, (a, b) in enumerate(pairings) if (names[a], names[b]) not in finished]
    chunks = [tuple(todo[k:k + chunk]) for k in range(0, len(todo), chunk)]
    total = len(pairings)
    count = total - len(todo)
    if progress is not None:
        progress(count, total)
    if parts is not None and chunks:
        parts.mkdir(parents=True, exist_ok=True)
    matchup_options = dict(options)

    def keep(pairs: tuple[tuple[int, int, int], ...], frame: Any) -> None:
        nonlocal count
        if parts is not None:  # written whole, then renamed: a part is either there or not
            part = parts / f"{pairs[0][0]:06d}-{pairs[-1][0]:06d}.pkl"
            tmp = part.with_suffix(".tmp")
            with tmp.open("wb") as handle:
                pickle.dump(frame, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, part)
        done.append(frame)
        count += len(pairs)
        if progress is not None:
            progress(count, total)

    failure: BaseException | None = None
    if executor is None:
        for pairs in chunks:
            keep(pairs, _run_chunk(paths, pairs, seed, matchup_options))
    else:
        futures: dict[Future[Any], tuple[tuple[int, int, int], ...]] = {
            executor.submit(_run_chunk, paths, pairs, seed, matchup_options): pairs for pairs in chunks}
        for future in as_completed(futures):
            try:
                frame = future.result()
            except Exception as error:  # keep every chunk that did finish, then fail
                failure = failure or error
                continue
            keep(futures[future], frame)
    if failure is not None:
        raise failure

    table = pd.concat(done, ignore_index=True) if done else pd.DataFrame(columns=[*META_COLUMNS, _ROW])
    order = [position[(a, b)] for a, b in zip(table["team_a"], table["team_b"])]
    table = table.assign(_pairing=order).sort_values(["_pairing", _ROW], kind="stable")
    table = _typed(table.drop(columns=["_pairing", _ROW]).reset_index(drop=True))[list(META_COLUMNS)]
    if out_path is not None:
        _write_output(out_path, table)
        if parts is not None and parts.exists():
            for part in parts.glob("*.pkl"):
                part.unlink()
            parts.rmdir()
    return table

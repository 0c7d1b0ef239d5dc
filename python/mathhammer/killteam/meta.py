"""The meta (docs/meta.md): every team of a folder of team libraries against every team, as one long
table, chunk by chunk on any executor, restartable.

A pairing is an ordered pair of teams (A's weapons against B's operatives, a team against itself
included), numbered in the order of the sorted team files; its matchup (``kt.matchup``) is seeded
``cell_seed(seed, pairing)``, so the table depends on the teams and the options only, never on what
ran it. Chunks of ``chunk`` pairings run where the executor sends them; each finished chunk is
written at once into ``<out>.parts/`` as a part: data only (Parquet, or JSON lines without
pyarrow) with the manifest of the run that made it (the teams' SHA-256, the options, the seed, the
package's version). The table is written, in pairing order, once every pairing is done.
``resume=True`` takes the parts whose manifest is the run's and refuses anything else; nothing read
from a file is ever run as code.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import io
import json
import numbers
import os
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future, as_completed
from pathlib import Path
from typing import Any

from mathhammer import __version__
from mathhammer.core.batches import is_sequence
from mathhammer.core.checks import check_bool, check_choice, check_int
from mathhammer.core.guard import as_path, excerpt, read_bytes, shown_path
from mathhammer.core.options import MAX_SEED, METHODS
from mathhammer.core.sampling import cell_seed
from mathhammer.core.writing import check_output_file, is_temporary, output_lock, remove_file, write_whole
from mathhammer.errors import InputError, InputTypeError, ProfileFileError
from mathhammer.killteam.profiles import ALL_STRATEGIES
from mathhammer.killteam.results import (
    MATCHUP_COLUMNS,
    SIDES,
    Matchup,
    MatchupFight,
    MatchupShot,
    MatchupSummary,
    MetaRanking,
    TeamStanding,
)
from mathhammer.killteam.versus import matchup

__all__ = ["META_COLUMNS", "OUTPUT_SUFFIXES", "meta", "meta_pairings", "meta_ranking", "ranking", "team_files"]

#: The meta table's columns: the two teams, a matchup's (Matchup.to_frame()), then the defending
#: operative's save and wounds (what the meta's questions group by: docs/meta.md).
META_COLUMNS: tuple[str, ...] = ("team_a", "team_b", *MATCHUP_COLUMNS, "defender_save", "defender_wounds")

#: The files the meta writes.
OUTPUT_SUFFIXES = (".parquet", ".csv")

#: The largest part read back (a chunk of 10,000 pairings of big teams stays well below).
MAX_PART_BYTES = 1 << 30

_LIBRARY_SUFFIXES = (".toml", ".json")

# the matchup options the meta passes on (kt.matchup's keywords but the executor and progress)
_OPTIONS = ("shoot", "fight", "cover", "obscured", "first", "strategies", "method")

_PAIRING, _ROW = "_pairing", "_row"  # a part's pairing and row within it: the table's order, dropped when written
_PART_COLUMNS = (*META_COLUMNS, _PAIRING, _ROW)
_FLOATS = ("mean_damage", "kill_chance", "half_chance", "shots_to_kill", "death_chance", "both_survive",
           "mean_wounds_a", "mean_wounds_b")
_OPTIONAL_WHOLE = ("cover", "blast", "torrent")  # whole numbers, empty where a kind has none
_WHOLE = ("defender_save", "defender_wounds", _PAIRING, _ROW)
_PART_NAME = re.compile(r"(\d{6,})-(\d{6,})\.(parquet|jsonl)")
_PART_KIND = "mathhammer meta part"
_PART_FORMAT = 1
_METADATA_KEY = b"mathhammer"


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
    count = check_int("count", count, 0, 100_000)
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
        frame[_PAIRING] = index
        frame[_ROW] = range(len(frame))
        frames.append(frame)
    return _typed(pd.concat(frames, ignore_index=True))


def _typed(frame: Any) -> Any:
    """The dtypes of the table, whatever the rows were read from: floats, whole numbers (nullable
    where a kind leaves them empty), text with None where empty."""
    import pandas as pd

    columns = {}
    for name in frame.columns:
        column = frame[name]
        if name in _FLOATS:
            columns[name] = pd.to_numeric(column, errors="raise").astype("float64")
        elif name in _OPTIONAL_WHOLE:
            columns[name] = column.astype("Int64")
        elif name in _WHOLE:
            columns[name] = column.astype("int64")
        else:
            columns[name] = column.astype(object).where(column.notna(), None)
    return pd.DataFrame(columns, columns=list(frame.columns))


# --- the run's manifest -------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    # an option's value as JSON holds it, for the manifest (the options are checked by then)
    if isinstance(value, str):
        return value
    if is_sequence(value):
        return [_plain(v) for v in value]
    if isinstance(value, numbers.Integral):
        return bool(value) if isinstance(value, bool) else int(value)
    return excerpt(value)


def _canonical(options: Mapping[str, Any]) -> dict[str, Any]:
    """The matchup options as the manifest records them: every option (defaults filled in), one
    spelling per meaning (``cover=1`` is ``[1]``, ``first="A"`` is ``["a"]``)."""
    defaults = inspect.signature(matchup).parameters
    given = {name: options.get(name, defaults[name].default) for name in _OPTIONS}
    covers = given["cover"] if is_sequence(given["cover"]) else [given["cover"]]
    firsts = given["first"] if is_sequence(given["first"]) else [given["first"]]
    return {
        "shoot": bool(given["shoot"]), "fight": bool(given["fight"]), "obscured": bool(given["obscured"]),
        "cover": [int(c) for c in covers],
        "first": [check_choice("first", f, SIDES) for f in firsts],
        "strategies": [[check_choice("strategies", a, ALL_STRATEGIES), check_choice("strategies", b, ALL_STRATEGIES)]
                       for a, b in given["strategies"]],
        "method": check_choice("method", given["method"], METHODS),
    }


def _manifest(paths: Sequence[str], names: Sequence[str], options: Mapping[str, Any], seed: int) -> dict[str, Any]:
    teams = []
    for path, name in zip(paths, names):
        digest = hashlib.sha256(read_bytes(path, "teams")).hexdigest()
        teams.append({"file": Path(path).name, "team": name, "sha256": digest})
    return {"kind": _PART_KIND, "format": _PART_FORMAT, "version": __version__, "seed": seed,
            "options": _canonical(options), "teams": teams}


def _difference(theirs: Any, ours: Mapping[str, Any]) -> str | None:
    """What differs between a part's manifest and the run's, in words (None: nothing)."""
    if not isinstance(theirs, dict) or theirs.get("kind") != _PART_KIND or theirs.get("format") != _PART_FORMAT:
        return "no manifest of a mathhammer meta part"
    if theirs.get("version") != ours["version"]:
        return f"mathhammer {excerpt(theirs.get('version'))} made it, this is {ours['version']}"
    if theirs.get("seed") != ours["seed"]:
        return f"seed {excerpt(theirs.get('seed'))} there, {ours['seed']} here"
    options = theirs.get("options")
    for name, value in ours["options"].items():
        other = options.get(name) if isinstance(options, dict) else None
        if other != value:
            return f"{name} {excerpt(other)} there, {excerpt(value)} here"
    if options != ours["options"]:
        return "other options"
    teams = theirs.get("teams")
    if not isinstance(teams, list) or len(teams) != len(ours["teams"]):
        return f"{len(teams) if isinstance(teams, list) else 'other'} teams there, {len(ours['teams'])} here"
    for their, our in zip(teams, ours["teams"]):
        if their != our:
            return f"the team library {excerpt(our['file'])} is not the one it was made from"
    return None


# --- parts: written whole, read back only when their manifest is the run's ---------------------------

def _parquet_available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _part_bytes(frame: Any, manifest: Mapping[str, Any], pairings: Sequence[int], parquet: bool) -> bytes:
    """A part: its rows and its manifest (the run's, with the pairings it holds), as Parquet (the
    manifest in the file's metadata) or as JSON lines (the manifest, then one row a line; floats as
    ``repr`` writes them, so every digit comes back)."""
    import pandas as pd

    own = {**manifest, "pairings": list(pairings), "columns": list(_PART_COLUMNS)}
    frame = frame[list(_PART_COLUMNS)]
    if parquet:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(frame, preserve_index=False)
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), _METADATA_KEY: json.dumps(own)})
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink)
        return bytes(sink.getvalue().to_pybytes())
    lines = [json.dumps(own)]
    for row in frame.astype(object).itertuples(index=False, name=None):
        lines.append(json.dumps([None if v is None or v is pd.NA else v if isinstance(v, str) else
                                 float(v) if isinstance(v, float) else int(v) for v in row]))
    return ("\n".join(lines) + "\n").encode("utf-8")


def _bad_part(path: Path, why: str, parts: Path) -> ProfileFileError:
    return ProfileFileError(str(path), f"{why}; delete {shown_path(parts)} to start again (or this file)")


def _read_part(path: Path, manifest: Mapping[str, Any], parts: Path, names: Sequence[str],
               pairings: Sequence[tuple[int, int]]) -> tuple[list[int], Any]:
    """A part's pairings and rows, when its manifest is the run's; anything else refused."""
    import pandas as pd

    try:
        data = read_bytes(path, str(path), MAX_PART_BYTES)
    except InputError as error:
        raise _bad_part(path, str(error).split(": ", 1)[-1], parts) from None
    try:
        if path.suffix == ".parquet":
            if not _parquet_available():
                raise _bad_part(path, "reading a Parquet part needs pyarrow: pip install 'mathhammer[parquet]'", parts)
            import pyarrow as pa
            import pyarrow.parquet as pq

            metadata = pq.read_schema(pa.BufferReader(data)).metadata or {}
            theirs = json.loads(metadata.get(_METADATA_KEY, b"null"))
            differs = _difference(theirs, manifest)
            if differs is None:
                frame = pq.read_table(pa.BufferReader(data)).to_pandas()
        else:
            lines = data.decode("utf-8").split("\n")
            theirs = json.loads(lines[0])
            differs = _difference(theirs, manifest)
            if differs is None:
                if lines[-1] != "":
                    raise ValueError("the last line is cut")
                rows = [json.loads(line) for line in lines[1:-1]]
                if any(not isinstance(row, list) or len(row) != len(_PART_COLUMNS) for row in rows):
                    raise ValueError(f"a row is not {len(_PART_COLUMNS)} values")
                frame = pd.DataFrame(rows, columns=list(_PART_COLUMNS), dtype=object)
    except ProfileFileError:
        raise
    except Exception as error:  # whatever a corrupt or foreign file makes the readers raise
        raise _bad_part(path, f"not a meta part this run can read ({excerpt(str(error), 60)[1:-1]})", parts) from None
    if differs is not None:
        raise _bad_part(path, f"made by another run: {differs}", parts)
    held = theirs.get("pairings")
    if (theirs.get("columns") != list(_PART_COLUMNS) or list(frame.columns) != list(_PART_COLUMNS)
            or not isinstance(held, list) or not held
            or any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(pairings) for i in held)):
        raise _bad_part(path, "its pairings or columns are not a meta part's", parts)
    try:
        frame = _typed(frame)
    except (TypeError, ValueError) as error:
        raise _bad_part(path, f"a value of the wrong type ({excerpt(str(error), 60)[1:-1]})", parts) from None
    expected = {i: (names[pairings[i][0]], names[pairings[i][1]]) for i in held}
    next_row: dict[int, int] = {}
    for pairing, a, b, row in zip(frame[_PAIRING], frame["team_a"], frame["team_b"], frame[_ROW]):
        if expected.get(int(pairing)) != (a, b) or next_row.get(int(pairing), 0) != row:
            raise _bad_part(path, f"its rows are not those of the pairings it names (pairing {excerpt(pairing)})",
                            parts)
        next_row[int(pairing)] = int(row) + 1
    return [int(i) for i in held], frame


def _parts_folder(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def _part_entries(parts: Path) -> list[Path]:
    """The parts folder's parts (its temporary files, left by a write that stopped, are removed);
    anything else in it is refused before any work."""
    if parts.is_symlink() or (parts.exists() and not parts.is_dir()):
        raise ProfileFileError(str(parts), "not the meta's parts folder (a file or a link); delete it or write "
                               "another --out")
    if not parts.exists():
        return []
    found, temporary = [], []
    for entry in sorted(parts.iterdir()):
        try:
            mode = entry.lstat().st_mode
        except OSError:
            continue
        if stat.S_ISREG(mode) and is_temporary(entry.name):
            temporary.append(entry)
        elif stat.S_ISREG(mode) and _PART_NAME.fullmatch(entry.name):
            found.append(entry)
        else:
            raise _bad_part(entry, "not a part of a meta (only parts are read, and nothing in them is run)", parts)
    for entry in temporary:
        remove_file(entry, str(entry))
    return found


def _output_bytes(out: Path, table: Any) -> bytes:
    if out.suffix.lower() == ".parquet":
        buffer = io.BytesIO()
        table.to_parquet(buffer, index=False)
        return buffer.getvalue()
    return bytes(table.to_csv(index=False).encode("utf-8"))


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
    bit, whatever runs it; ``resume=True`` takes the parts a stopped run of the same teams, options,
    seed and version left in ``<out>.parts/`` and refuses any other file there.
    """
    unknown = sorted(set(options) - set(_OPTIONS))
    if unknown:
        raise InputError(unknown[0], f"not a meta option; allowed: {', '.join(_OPTIONS)}")
    resume = check_bool("resume", resume)
    chunk = check_int("chunk", chunk, 1, 10_000)
    seed = check_int("seed", seed, 0, MAX_SEED)
    if executor is not None and not isinstance(executor, Executor):
        raise InputTypeError("executor", f"expected a concurrent.futures.Executor (a process pool, a Dask client's "
                             f"get_executor()) or None, got {excerpt(executor)}")
    if progress is not None and not callable(progress):
        raise InputTypeError("progress", f"expected a function progress(done, total) or None, got {excerpt(progress)}")
    out_path = None if out is None else check_output_file("out", out, OUTPUT_SUFFIXES)
    if isinstance(teams, (str, os.PathLike)):
        files = team_files(teams)
    elif isinstance(teams, Sequence) and not isinstance(teams, (bytes, bytearray)) and teams:
        files = [as_path(p, f"teams[{i}]") for i, p in enumerate(teams)]
    else:
        raise InputTypeError("teams", f"expected a folder or a list of team library files, got {excerpt(teams)}")
    paths = tuple(str(p) for p in files)
    names = [_load(p).name for p in paths]  # read here first: a bad file fails before any work
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise InputError("teams", f"two libraries hold the team {twice[0]!r}; the meta names teams by name")
    # the options checked once, before any work: a matchup of no pairings
    matchup(_load(paths[0]), _load(paths[0]), **{**options, "shoot": False, "fight": False})
    for name in ("shoot", "fight"):
        check_bool(name, options.get(name, True))
    pairings = meta_pairings(len(paths))
    manifest = _manifest(paths, names, options, seed) if out_path is not None else {}
    with output_lock("out", out_path):
        return _run(paths, pairings, names, out_path, manifest, resume, executor, chunk, seed, progress, dict(options))


def _run(paths: tuple[str, ...], pairings: list[tuple[int, int]], names: list[str], out: Path | None,
         manifest: Mapping[str, Any], resume: bool, executor: Executor | None, chunk: int, seed: int,
         progress: Callable[[int, int], None] | None, options: dict[str, Any]) -> Any:
    import pandas as pd

    parts = None if out is None else _parts_folder(out)
    done: dict[int, Any] = {}  # pairing -> its rows (a part's frame holds several)
    frames: list[Any] = []
    ours: list[Path] = []  # the parts of this run, removed once the table is written
    if parts is not None:
        existing = _part_entries(parts)  # refused before any work: anything but parts
        if resume:
            for part in existing:
                held, frame = _read_part(part, manifest, parts, names, pairings)
                twice = [i for i in held if i in done]
                if twice:
                    raise _bad_part(part, f"pairing {twice[0]} is also in another part", parts)
                done.update((i, frame) for i in held)
                frames.append(frame)
                ours.append(part)
        else:
            for part in existing:  # a new run: the parts of an old one go
                remove_file(part, str(part))
    todo = [(i, a, b) for i, (a, b) in enumerate(pairings) if i not in done]
    chunks = [tuple(todo[k:k + chunk]) for k in range(0, len(todo), chunk)]
    total = len(pairings)
    count = total - len(todo)
    if progress is not None:
        progress(count, total)
    parquet = _parquet_available()
    if parts is not None and chunks:
        try:
            parts.mkdir(exist_ok=True)
        except OSError as error:
            raise InputError("out", f"cannot make {shown_path(parts)}: {error.strerror or error}") from None

    def keep(pairs: tuple[tuple[int, int, int], ...], frame: Any) -> None:
        nonlocal count
        if parts is not None:  # written whole, then renamed: a part is either there or not
            held = [i for i, _, _ in pairs]
            part = parts / f"{held[0]:06d}-{held[-1]:06d}.{'parquet' if parquet else 'jsonl'}"
            write_whole(part, _part_bytes(frame, manifest, held, parquet), "out")
            ours.append(part)
        frames.append(frame)
        count += len(pairs)
        if progress is not None:
            progress(count, total)

    failure: BaseException | None = None
    if executor is None:
        for pairs in chunks:
            keep(pairs, _run_chunk(paths, pairs, seed, options))
    else:
        futures: dict[Future[Any], tuple[tuple[int, int, int], ...]] = {}
        try:
            for pairs in chunks:
                futures[executor.submit(_run_chunk, paths, pairs, seed, options)] = pairs
            for future in as_completed(futures):
                try:
                    frame = future.result()
                except Exception as error:  # keep every chunk that did finish, then fail
                    failure = failure or error
                    continue
                keep(futures[future], frame)
        except BaseException:  # Ctrl-C, a failed write: the chunks not started never start
            for future in futures:
                future.cancel()
            raise
    if failure is not None:
        raise failure

    if frames:
        table = pd.concat(frames, ignore_index=True)
    else:
        table = pd.DataFrame({name: [] for name in _PART_COLUMNS})
    table = table.sort_values([_PAIRING, _ROW], kind="stable")
    table = _typed(table.drop(columns=[_PAIRING, _ROW]).reset_index(drop=True))[list(META_COLUMNS)]
    if out is not None and parts is not None:
        write_whole(out, _output_bytes(out, table), "out")
        for part in ours:  # the table is whole: its parts go (a stop here leaves parts that resume to it)
            remove_file(part, "out")
        try:
            parts.rmdir()
        except OSError:  # gone already, or something else was put there meanwhile: left as it is
            pass
    return table


# --- the ranking ----------------------------------------------------------------------------------------

_SHOT_FIELDS = ("attacker", "weapon", "defender", "cover", "mean_damage", "kill_chance", "half_chance", "shots_to_kill")
_FIGHT_FIELDS = ("attacker", "weapon", "defender", "first", "strategy_a", "strategy_b", "kill_chance", "death_chance",
                 "both_survive", "mean_wounds_a", "mean_wounds_b")


def _pairing_matchup(team_a: str, team_b: Any, rows: Any) -> Matchup:
    """A pairing's matchup read back from its rows of the meta table (the figures the summary reads)."""
    shooting, fighting = rows[rows["kind"] == "shoot"], rows[rows["kind"] == "fight"]
    shots = tuple(MatchupShot(*values) for values in shooting[list(_SHOT_FIELDS)].itertuples(index=False, name=None))
    fights = tuple(MatchupFight(*values) for values in fighting[list(_FIGHT_FIELDS)].itertuples(index=False, name=None))
    return Matchup(team_a, team_b.name, shots, fights, "exact", defenders=tuple(op.name for op in team_b),
                   defender_wounds=tuple(op.operative.wounds for op in team_b))


def _mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values)) if values else 0.0


def ranking(table: Any, teams: Sequence[Any], cover: int | None = None, method: str = "exact") -> MetaRanking:
    """The teams of a meta ranked (docs/meta.md, "The ranking"), from the meta's table and its teams
    (``kt.data.Team``, the table's ``team_a`` / ``team_b`` names): each pairing read as its matchup
    summary at ``cover`` (default 1, else the first computed) with the attacker striking first, and
    each team's offence, defence and fights won meant over the enemy operatives of every other team
    (a meta of one team: itself), its edge over each and its best and worst matchup."""
    by_name = {team.name: team for team in teams}
    summaries: dict[tuple[str, str], MatchupSummary] = {}
    for (a, b), rows in table.groupby(["team_a", "team_b"], sort=False):
        if a not in by_name or b not in by_name:
            raise InputError("teams", f"the table names the team {excerpt(a if a not in by_name else b)}, which is "
                             "not among the teams given")
        summaries[(a, b)] = _pairing_matchup(a, by_name[b], rows).summary(cover)
    melee = {team.name: {op.name for op in team if any(w.kind == "melee" for w in op.weapons)} for team in teams}

    def kills(a: str, b: str) -> list[float]:  # my best gun's kill chance at each of their operatives
        found = summaries.get((a, b))
        chances = {s.defender: s.kill_chance for s in found.shots} if found is not None else {}
        return [chances.get(op.name, 0.0) for op in by_name[b]]

    def wins(a: str, b: str) -> list[float]:  # my best fight's chance to win against each that fights
        found = summaries.get((a, b))
        chances = {f.defender: f.kill_chance for f in found.fights} if found is not None else {}
        return [chances.get(op.name, 0.0) for op in by_name[b] if op.name in melee[b]]

    names = [team.name for team in teams]
    standings = []
    for name in names:
        others = [other for other in names if other != name] or [name]
        edges = [((_mean(kills(name, o)) - _mean(kills(o, name))) + (_mean(wins(name, o)) - _mean(wins(o, name)))) / 2
                 for o in others]
        best = max(range(len(others)), key=lambda i: edges[i])
        worst = min(range(len(others)), key=lambda i: edges[i])
        standings.append(TeamStanding(
            name, _mean([k for o in others for k in kills(name, o)]), _mean([k for o in others for k in kills(o, name)]),
            _mean([w for o in others for w in wins(name, o)]), _mean(edges), others[best], edges[best], others[worst],
            edges[worst]))
    standings.sort(key=lambda t: (-t.edge, t.team))
    first = next((s.first for s in summaries.values() if s.first is not None), None)
    covered = next((s.cover for s in summaries.values() if s.cover is not None), None)
    return MetaRanking(tuple(standings), covered, first, method)


def meta_ranking(
    teams: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    executor: Executor | None = None,
    chunk: int = 4,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    cover: int | Sequence[int] = (0, 1),
    **options: Any,
) -> MetaRanking:
    """Every team of a folder (or list) of team libraries against every team, ranked
    (:func:`ranking`): the meta's table is computed (:func:`meta`, nothing written) and read as
    each pairing's summary at cover 1 (else the first of ``cover``). Only what the ranking reads is
    computed: that cover value and, unless ``first`` is given, the attacker striking first."""
    files = team_files(teams) if isinstance(teams, (str, os.PathLike)) else teams
    covers = [cover] if isinstance(cover, int) else list(cover)
    # an empty or bad list is passed on whole: meta() says what is wrong with it
    read = [c for c in covers if type(c) is int and c == 1][:1] or covers[:1]
    options.setdefault("first", ("a",))
    table = meta(files, None, executor=executor, chunk=chunk, seed=seed, progress=progress,
                 cover=read if read and not isinstance(cover, bool) else cover, **options)
    loaded = [_load(str(as_path(p, "teams"))) for p in files]
    return ranking(table, loaded, method=str(options.get("method", "auto")))

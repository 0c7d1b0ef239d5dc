"""``mathhammer killteam import``, ``teams``, ``matchup`` and ``meta``: BattleScribe files into team
libraries, what a folder holds (docs/data.md), one team against another (docs/matchup.md) and every
team of a folder against every team (docs/meta.md).

The importer loads when a command runs; :func:`register` adds the commands to the Kill Team group.
"""

from __future__ import annotations

import contextlib
import enum
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from mathhammer.cli.commands import epilog
from mathhammer.cli.options import FormatOption, Method, MethodOption, OutputFormat, SeedOption, WithOption
from mathhammer.cli.output import emit, note_plot, result_tables
from mathhammer.core.guard import shown_path
from mathhammer.errors import InputError
from mathhammer.report.tables import Table

__all__ = ["import_command", "matchup_command", "meta_command", "register", "teams_command"]


class LibraryFormat(str, enum.Enum):
    toml = "toml"
    json = "json"


#: The files ``matchup --output`` writes: the long table.
FRAME_SUFFIXES = (".csv", ".json", ".parquet")


def import_command(
    paths: Annotated[list[Path], typer.Argument(help="BattleScribe files: a folder of .gst and .cat files, the files "
                                                     "themselves, or rosters (.ros, .rosz).", show_default=False)],
    # text, not a Path: a Path of "" is ".", and an empty --out must not mean this folder
    out: Annotated[str, typer.Option("--out", help="The folder the team libraries are written to (made if missing).",
                                     metavar="PATH")],
    team: Annotated[Optional[list[str]], typer.Option("--team", help="Import only this team (repeatable).")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 2 when any weapon-rule token is unknown or a weapon "
                                                          "is imported as both kinds.")] = False,
    report: Annotated[bool, typer.Option("--report", help="Print every line of each team's report (what was applied, "
                                                          "made a switch, set aside, skipped, and why).")] = False,
    fmt: Annotated[LibraryFormat, typer.Option("--format", help="The libraries' format: toml or json.",
                                               case_sensitive=False)] = LibraryFormat.toml,
) -> None:
    """Import Kill Team teams from BattleScribe data: one profile library per team, with its report.

    Each team becomes <team>.toml (weapons, fighters and operatives for --profiles, the abilities
    applied, the switches --with turns on) and <team>.import.json (what was read, rewritten, left
    out and why) in --out. A few lines per team say what became of its abilities.
    """
    from mathhammer.core.writing import check_output_folder
    from mathhammer.files.teams import save_teams
    from mathhammer.killteam.data import load_roster, read_catalogues
    from mathhammer.killteam.data.load import ROSTER_SUFFIXES
    from mathhammer.killteam.data.report import summary_lines

    folder = check_output_folder("--out", out)  # before any file is read
    rosters = [p for p in paths if p.suffix.lower() in ROSTER_SUFFIXES]
    others = [p for p in paths if p not in rosters]
    teams = [load_roster(p) for p in rosters]
    skipped: list[tuple[str, str]] = []
    if others:
        found = read_catalogues(others, team)
        teams += found.teams
        skipped = found.skipped
    elif team:
        names = {t.name.lower() for t in teams}
        missing = [name for name in team if name.strip().lower() not in names]
        if missing:
            raise InputError("--team", f"no team {missing[0]!r} among the rosters")
        teams = [t for t in teams if t.name.lower() in {name.strip().lower() for name in team}]
    written = save_teams(teams, folder, fmt.value, field="--out")
    unknown: Counter[str] = Counter()
    flagged: list[str] = []
    rows = []
    lines: list[str] = []
    for one, library, _ in written:
        counts = one.report.unknown_tokens() if one.report is not None else Counter()
        unknown.update(counts)
        skips = len(one.report.skipped()) if one.report is not None else 0
        rows.append([one.name, "" if one.revision is None else one.revision, len(one.operatives),
                     one.weapon_count(), skips, sum(counts.values()), library.name])
        if one.report is not None:
            flagged += [f"{e.operative}/{e.weapon}" if e.operative else e.weapon for e in one.report.flagged()]
            lines += summary_lines(one.report, len(one.operatives), one.weapon_count(), full=report)
    tables = [Table(f"Imported into {folder}", ["team", "revision", "operatives", "weapons", "skipped",
                                             "unknown tokens", "library"], rows)]
    if unknown:
        tables.append(Table("Unknown weapon-rule tokens", ["token", "profiles"], [[t, n] for t, n in unknown.most_common()]))
    lines += [f"{len(written)} teams, {sum(len(t.operatives) for t in teams)} operatives, "
              f"{sum(t.weapon_count() for t in teams)} weapons; each team's <team>.import.json says what was left out"]
    lines += [f"skipped {name}: {why}" for name, why in skipped]
    payload = {"out": str(folder), "teams": [{"team": t.name, "file": t.file, "revision": t.revision,
                                           "library": str(lib), "report": str(rep)} for t, lib, rep in written],
               "unknown_tokens": dict(unknown), "flagged": flagged, "skipped_files": [list(s) for s in skipped]}
    emit(OutputFormat.table, tables, payload, lines)
    if strict and (unknown or flagged):
        problems = []
        if unknown:
            shown = ", ".join(repr(t) for t, _ in unknown.most_common(3))
            problems.append(f"{sum(unknown.values())} unknown weapon-rule tokens ({shown}"
                            f"{', ...' if len(unknown) > 3 else ''})")
        if flagged:
            shown = ", ".join(repr(f) for f in flagged[:3])
            problems.append(f"{len(flagged)} weapons imported as both kinds ({shown}{', ...' if len(flagged) > 3 else ''})")
        raise InputError("--strict", f"{'; '.join(problems)}; the reports beside the libraries list them")


def teams_command(
    folder: Annotated[Path, typer.Argument(help="A folder of BattleScribe files or team libraries.", show_default=False)],
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """List what a folder holds: game systems, catalogues, rosters and team libraries."""
    from mathhammer.killteam.data import folder_contents

    rows = folder_contents(folder)
    table = Table(f"Kill Team files in {folder}", ["file", "kind", "name", "detail"],
                  [[r["file"], r["kind"], r["name"], r["detail"]] for r in rows])
    payload: dict[str, Any] = {"folder": str(folder), "files": rows}
    emit(fmt, [table], payload, [] if rows else ["no BattleScribe files or team libraries here"])


def _split(option: str, text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise InputError(option, f"{text!r}: give comma-separated values")
    return parts


def _as_int(option: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InputError(option, f"{text!r} is not a whole number") from None


def frame_bytes(path: Path, frame: Any) -> bytes:
    """A long table as the bytes of ``path``'s format: .csv, .json (records, every digit) or
    .parquet (pyarrow)."""
    import io
    import json

    suffix = path.suffix.lower()
    if suffix == ".csv":
        return bytes(frame.to_csv(index=False).encode("utf-8"))
    if suffix == ".json":
        text = json.dumps(frame.astype(object).where(frame.notna(), None).to_dict(orient="records"), indent=2)
        return (text + "\n").encode("utf-8")
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def matchup_command(
    profiles: Annotated[Path, typer.Option("--profiles", help="Team A's library (mathhammer killteam import).")],
    against: Annotated[Path, typer.Option("--against", help="Team B's library.")],
    cover: Annotated[str, typer.Option(help="Cover values of the shooting rows, comma-separated (0..3).")] = "0,1",
    obscured: Annotated[bool, typer.Option("--obscured", help="Every target is obscured.")] = False,
    shoot: Annotated[bool, typer.Option("--shoot/--no-shoot", help="Shooting rows: A's ranged weapons.")] = True,
    fight: Annotated[bool, typer.Option("--fight/--no-fight", help="Fighting rows: A's melee weapons.")] = True,
    first: Annotated[str, typer.Option(help="Who strikes first in the fights, comma-separated: a, b or a,b.")] = "a,b",
    strategies: Annotated[str, typer.Option(help="Strategy pairs A/B, comma-separated, e.g. "
                                                 "max_damage/max_damage,parry/strike.")] = "max_damage/max_damage",
    output: Annotated[Optional[Path], typer.Option(help="Also write the long table (.csv, .json or .parquet).")] = None,
    every: Annotated[bool, typer.Option("--all", help="Print every pairing (the long tables) instead of the "
                                                      "summary.")] = False,
    switches: WithOption = None,
    method: MethodOption = Method.auto,
    seed: SeedOption = None,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """Team A against team B: for each of B's operatives, A's best weapon and best fight.

    The summary takes cover 1 (else the first of --cover) and A striking first; --all prints every
    pairing: each ranged weapon at each cover value, each fight with each side first.
    """
    from mathhammer.core.writing import check_output_file, output_lock

    if output is not None:  # checked and locked before any work, written whole after it
        output = check_output_file("--output", output, FRAME_SUFFIXES)
    with output_lock("--output", output):
        _matchup(profiles, against, cover, obscured, shoot, fight, first, strategies, output, every, switches or [],
                 method, seed, fmt)


def _matchup(profiles: Path, against: Path, cover: str, obscured: bool, shoot: bool, fight: bool, first: str,
             strategies: str, output: Path | None, every: bool, switches: list[str], method: Method, seed: int | None,
             fmt: OutputFormat) -> None:
    from mathhammer.core.checks import check_int
    from mathhammer.core.writing import write_whole
    from mathhammer.killteam import matchup
    from mathhammer.killteam.profiles import MAX_COVER
    from mathhammer.killteam.report import matchup_all_tables, matchup_picture

    for option, path in (("--profiles", profiles), ("--against", against)):
        if path.is_dir():  # the other commands take folders; a matchup is one team against one
            raise InputError(option, f"{shown_path(path)} is a folder; a matchup takes one team library per side "
                             "(killteam meta takes a folder)")
    covers = [check_int("--cover", _as_int("--cover", c), 0, MAX_COVER) for c in _split("--cover", cover)]
    pairs = []
    for pair in _split("--strategies", strategies):
        a, slash, b = pair.partition("/")
        if not slash:
            raise InputError("--strategies", f"{pair!r}: write a pair as strategy_a/strategy_b")
        pairs.append((a.strip(), b.strip()))
    try:
        result = matchup(profiles, against, shoot=shoot, fight=fight, cover=covers, obscured=obscured,
                         first=_split("--first", first), strategies=pairs, method=method.value, seed=seed,
                         switches=tuple(switches))
    except InputError as error:  # matchup's own "switches" is this command's --with
        if not error.field.startswith("switches"):
            raise
        raise type(error)("--with", str(error)[len(error.field) + 2:]) from None
    if output is not None:
        write_whole(output, frame_bytes(output, result.to_frame()), "--output")
    if result.shots or result.fights:
        note_plot(lambda: matchup_picture(result))
    summary = result.summary()
    tables, lines = result_tables("", result)
    if every:
        tables, lines = matchup_all_tables(result)
    emit(fmt, tables, {"team_a": result.team_a, "team_b": result.team_b, "summary": summary.to_dict(),
                       **({"with": list(switches)} if switches else {}),
                       "result": result.to_dict()}, lines)


def _executor(stack: contextlib.ExitStack, address: str | None, workers: int) -> Any:
    """--executor dask://host:port (a Dask scheduler) or --workers N (a process pool that stops with
    the command: Ctrl-C stops its chunks, running and queued); None: here. Closed with ``stack``."""
    if address is not None:
        if workers != 1:
            raise InputError("--workers", "give --workers or --executor, not both")
        if not address.startswith("dask://"):
            raise InputError("--executor", f"{address!r}: give a Dask scheduler as dask://host:port")
        try:
            from dask.distributed import Client
        except ImportError:
            raise InputError("--executor", "Dask is not installed: pip install 'mathhammer[dask]'") from None
        try:
            client = Client("tcp://" + address[len("dask://"):], timeout=10)
        except OSError as error:
            raise InputError("--executor", f"cannot reach the scheduler at {address}: {error}") from None
        stack.callback(client.close)
        return client.get_executor()
    if workers < 1:
        raise InputError("--workers", f"{workers}: give 1 or more")
    if workers == 1:
        return None
    from mathhammer.cli.workers import capped_workers, worker_pool

    return stack.enter_context(worker_pool(capped_workers(workers)))


def meta_command(
    folder: Annotated[Path, typer.Argument(help="A folder of team libraries (mathhammer killteam import --out).",
                                           show_default=False)],
    out: Annotated[Optional[Path], typer.Option("--out", help="Write the long table instead of printing the "
                                                             "ranking: .parquet or .csv.")] = None,
    executor: Annotated[Optional[str], typer.Option("--executor", help="Run the chunks on a Dask scheduler: "
                                                                       "dask://host:port.")] = None,
    workers: Annotated[int, typer.Option(help="Run the chunks on a pool of this many processes.")] = 1,
    resume: Annotated[bool, typer.Option("--resume", help="Take the pairings of the parts a stopped run of the same "
                                                          "teams and options left in --out's parts folder.")] = False,
    chunk: Annotated[int, typer.Option(help="Pairings per chunk (a dropped worker loses one chunk).")] = 4,
    cover: Annotated[str, typer.Option(help="Cover values of the shooting rows, comma-separated (0..3).")] = "0,1",
    fight: Annotated[bool, typer.Option("--fight/--no-fight", help="Fighting rows.")] = True,
    seed: Annotated[int, typer.Option(help="The meta's seed (each pairing's is derived from it).")] = 0,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """Every team of a folder against every team: the teams ranked, or with --out the long table.

    The ranking reads each matchup as its summary (cover 1, striking first): offence, defence and
    fights won, and each team's best and worst matchup.
    """
    import sys

    from mathhammer.core.checks import check_int
    from mathhammer.core.writing import check_output_file
    from mathhammer.killteam.meta import OUTPUT_SUFFIXES, meta, meta_ranking
    from mathhammer.killteam.profiles import MAX_COVER

    if out is not None:
        out = check_output_file("--out", out, OUTPUT_SUFFIXES)  # before any work
    elif resume:
        raise InputError("--resume", "resumes the parts of a run that writes --out FILE; give --out")
    covers = [check_int("--cover", _as_int("--cover", c), 0, MAX_COVER) for c in _split("--cover", cover)]
    shown = [-1]

    def progress(done: int, total: int) -> None:  # one line a tenth of the way, on stderr
        step = max(1, total // 10)
        if done == total or done // step != shown[0] // step:
            shown[0] = done
            sys.stderr.write(f"meta: {done}/{total} pairings\n")

    if out is None:
        with contextlib.ExitStack() as stack:
            pool = _executor(stack, executor, workers)
            ranked = meta_ranking(folder, executor=pool, chunk=chunk, seed=seed, progress=progress, cover=covers,
                                  fight=fight)
        tables, lines = result_tables("", ranked)
        emit(fmt, tables, {"folder": str(folder), "ranking": ranked.to_dict()}, lines)
        return
    try:
        with contextlib.ExitStack() as stack:
            pool = _executor(stack, executor, workers)
            table = meta(folder, out, resume=resume, executor=pool, chunk=chunk, seed=seed, progress=progress,
                         cover=covers, fight=fight)
    except InputError as error:  # the meta's own "out" is this command's --out
        if error.field != "out":
            raise
        raise type(error)("--out", str(error)[len(error.field) + 2:]) from None
    teams = len(set(table["team_a"]))
    sys.stdout.write(f"{len(table):,} rows: {teams} teams, {teams * teams} pairings, written to {shown_path(out)}\n")


def register(app: typer.Typer) -> None:
    """Add ``import``, ``teams``, ``matchup`` and ``meta`` to the Kill Team command group."""
    for name, function in (("import", import_command), ("teams", teams_command), ("matchup", matchup_command),
                           ("meta", meta_command)):
        app.command(name, epilog=epilog("killteam", name))(function)

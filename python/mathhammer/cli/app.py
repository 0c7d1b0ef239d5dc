"""The ``mathhammer`` command: one group per game, ``sweep`` and ``run``, loaded on first use.

``mathhammer --version`` and ``--help`` import no game (nor numpy, nor the compiled core): each game's
commands live in their own module (:mod:`mathhammer.cli.killteam`, ...) imported only when one of
them runs or its help is shown. Exit codes: 0 success, 2 bad input (one line naming the field, no
traceback), 130 interrupted.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer
from typer._click import Command, Context
from typer._click import exceptions as click_exceptions  # typer >= 0.29 (the pinned minimum) carries click
from typer.core import TyperCommand, TyperGroup

from mathhammer import __version__
from mathhammer.cli import examples, run, serve
from mathhammer.cli.commands import group_help, root_epilog
from mathhammer.cli.games import GAME_APPS
from mathhammer.cli.options import finish
from mathhammer.errors import InputError
from mathhammer.report.tables import DISPLAY, Display
from mathhammer.core.guard import excerpt

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "app", "main"]

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


def _sweep() -> Any:
    from mathhammer.cli import sweep

    return sweep.app


#: The command groups loaded on first use: name -> (the one line --help shows, the Typer app).
LAZY_GROUPS: dict[str, tuple[str, Callable[[], Any]]] = {
    **{name: (help_line, load) for name, (help_line, load) in GAME_APPS.items()},
    "sweep": (group_help("sweep"), _sweep),
}


class LazyGroup(TyperGroup):
    """The root group: the game groups and ``sweep`` are built (their modules imported) when a command
    of theirs is resolved; the root's --help lists them from :data:`LAZY_GROUPS` without loading them."""

    _listing = False

    def list_commands(self, ctx: Context) -> list[str]:
        own = super().list_commands(ctx)
        return [*LAZY_GROUPS, *[name for name in own if name not in LAZY_GROUPS]]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        if cmd_name not in LAZY_GROUPS:
            own: Command | None = super().get_command(ctx, cmd_name)
            return own
        if self._listing:  # --help: a stand-in that only knows its one line
            return TyperCommand(name=cmd_name, help=LAZY_GROUPS[cmd_name][0])
        built: dict[str, Command] = self.__dict__.setdefault("_built", {})
        if cmd_name not in built:
            command = typer.main.get_command(LAZY_GROUPS[cmd_name][1]())
            command.name = cmd_name
            finish(command)
            built[cmd_name] = command
        return built[cmd_name]

    def format_help(self, ctx: Context, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


app = typer.Typer(
    name="mathhammer",
    cls=LazyGroup,
    help=group_help(),
    epilog=root_epilog(),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mathhammer {__version__}")
        raise typer.Exit()


@app.callback(help=group_help())
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")]
    = False,
) -> None:
    """The root command (its help is the command table's)."""


run.register(app)
examples.register(app)
serve.register(app)


#: Where to go to try several values of one option, by command path.
COMPARE_COMMANDS: dict[tuple[str, ...], str] = {
    ("killteam", "shoot"): "mathhammer killteam compare",
    ("killteam", "fight"): "mathhammer killteam compare-fights",
    ("starcraft", "attack"): "mathhammer starcraft compare",
}


def check_repeated_options(command: Any, args: Sequence[str]) -> None:
    """Refuse a single-value option given twice (``--weapon a --weapon b``): click keeps the last one
    silently, which reads as a comparison that never happened. Points to the command that compares."""
    if any(token in ("--version", "--help") for token in args):  # eager options: nothing runs
        return
    path: list[str] = []
    rest = list(args)
    ctx: Any = None
    while hasattr(command, "commands"):  # descend the groups as click does, without running anything
        ctx = command.make_context(path[-1] if path else "mathhammer", rest, parent=ctx, resilient_parsing=True)
        rest = [*ctx._protected_args, *ctx.args]
        if not rest:
            return
        name, sub, rest = command.resolve_command(ctx, rest)
        if sub is None or name is None:
            return
        path.append(name)
        command = sub
    options = {opt: param for param in command.get_params(Context(command)) if getattr(param, "param_type_name", "") == "option"
               for opt in [*param.opts, *param.secondary_opts]}
    seen: dict[str, str] = {}
    i = 0
    while i < len(rest):
        token = rest[i]
        i += 1
        if token == "--":
            break
        param = options.get(token.split("=", 1)[0])
        if param is None:
            continue
        takes_value = not param.is_flag and not param.count
        value = token.split("=", 1)[1] if "=" in token else (rest[i] if takes_value and i < len(rest) else "")
        if takes_value and "=" not in token:
            i += 1
        if not takes_value or param.multiple or param.name is None:
            continue
        if param.name in seen:
            game_action = len(path) == 2 and path[0] != "sweep"
            where = COMPARE_COMMANDS.get(tuple(path), f"mathhammer sweep {' '.join(path)} --grid" if game_action else "")
            option = param.opts[-1] if param.opts else token
            hint = f"; to compare several, use {where}" if where else ""
            raise InputError(option, f"given twice ({excerpt(seen[param.name])}, then {excerpt(value)}); it takes one value{hint}")
        seen[param.name] = value


# --- running -------------------------------------------------------------------------------------

def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _usage_error(error: Any) -> str:
    """A click usage error as one line naming the option: "error: --samples: ... greater than or equal to 1"."""
    hint = None
    if isinstance(error, click_exceptions.BadParameter) and not isinstance(error, click_exceptions.MissingParameter):
        hint = error.param_hint
        if hint is None and error.param is not None:
            hint = getattr(error.param, "opts", None) or getattr(error.param, "name", None)
        if isinstance(hint, (list, tuple)):
            hint = " / ".join(hint)
    if hint:
        message = _one_line(error.message)
        return f"error: {hint}: {message.removeprefix('Value error, ')}"
    return f"error: {_one_line(error.format_message())}"


#: Errors of writing the output (a full disk, a closed pipe): one line, not a traceback.
_OUTPUT_ERRORS = {errno.EPIPE, errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO}
#: The exit code of a command whose reader went away (``| head``), as a shell reports SIGPIPE.
EXIT_BROKEN_PIPE = 141


def _output_failed(error: OSError) -> int:
    """Stdout cannot take the output: say so once (quietly for a closed pipe) and make sure the
    interpreter's own flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout has no file descriptor (captured): nothing to silence
        pass
    if error.errno == errno.EPIPE:
        return EXIT_BROKEN_PIPE
    typer.echo(f"error: cannot write the output: {error.strerror or error}", err=True)
    return EXIT_BAD_INPUT


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (also used by the console script)."""
    command = typer.main.get_command(app)
    finish(command)
    display = DISPLAY.set(Display())  # --digits / --probabilities hold for this run only
    try:
        check_repeated_options(command, sys.argv[1:] if argv is None else argv)
        code = command.main(args=argv, prog_name="mathhammer", standalone_mode=False)
    except InputError as error:
        typer.echo(f"error: {_one_line(str(error))}", err=True)
        return EXIT_BAD_INPUT
    except click_exceptions.NoArgsIsHelpError as error:  # a bare group: its help
        error.show()
        return error.exit_code
    except click_exceptions.UsageError as error:
        typer.echo(_usage_error(error), err=True)
        return EXIT_BAD_INPUT
    except click_exceptions.ClickException as error:
        typer.echo(f"error: {_one_line(error.format_message())}", err=True)
        return error.exit_code
    except typer.Exit as done:
        code = done.exit_code
    except (typer.Abort, KeyboardInterrupt):
        code = EXIT_INTERRUPTED
    except OSError as error:
        if error.errno not in _OUTPUT_ERRORS:
            raise
        return _output_failed(error)
    finally:
        DISPLAY.reset(display)
    try:
        sys.stdout.flush()
    except OSError as error:
        if error.errno not in _OUTPUT_ERRORS:
            raise
        return _output_failed(error)
    # typer turns Ctrl-C inside a command into Exit(130), returned here as the command's value
    code = code if isinstance(code, int) and not isinstance(code, bool) else 0
    if code == EXIT_INTERRUPTED:
        typer.echo("interrupted", err=True)
    return code

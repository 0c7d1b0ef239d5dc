"""The ``mathhammer`` command: one sub-command group per game, and ``run`` for scenario files.

Exit codes: 0 success, 2 bad input (one line naming the field, no traceback), 130 interrupted.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from mathhammer import __version__
from mathhammer._cli_common import (
    FormatOption,
    Method,
    OutputFormat,
    ProgressGroup,
    Section,
    add_display_options,
    check_repeated_options,
    emit_sections,
    hide_flag_metavars,
    result_tables,
)
from mathhammer._validate import InputError, InputTypeError

from typer._click import exceptions as click_exceptions  # typer >= 0.29 (the pinned minimum) carries click

app = typer.Typer(
    name="mathhammer",
    help="Outcome distributions for tabletop-miniature dice combat, exact or Monte Carlo.",
    epilog="Every game has one shape, mathhammer <game> <action>: killteam fight|shoot|advise|compare|compare-fights|profiles, "
    "starcraft attack|sequence|compare|profiles, deathburgh combat|round|profiles, force-melee melee|melee-many|profiles; "
    "mathhammer run FILE runs a scenario; mathhammer sweep <game> <action> --grid GRID runs a grid of one.\n\n"
    "Example: mathhammer killteam shoot --rules 'Lethal 5+' --save 4 --format json",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mathhammer {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    """Outcome distributions for tabletop-miniature dice combat, exact or Monte Carlo."""


def _register_games() -> None:
    from mathhammer.deathburgh import cli as deathburgh_cli
    from mathhammer.force_melee import cli as force_melee_cli
    from mathhammer.killteam import cli as killteam_cli
    from mathhammer.starcraft import cli as starcraft_cli

    for game in (killteam_cli, starcraft_cli, deathburgh_cli, force_melee_cli):
        game.register(app)


_register_games()


def _register_sweep() -> None:
    from mathhammer import cli_sweep

    cli_sweep.register(app)


_register_sweep()

RUN_EPILOG = """Examples:

  mathhammer run                                   # the embedded example: one fight, shot, attack, combat and melee

  mathhammer run examples/scenario.toml --format json

  mathhammer run examples/scenario.toml --method monte_carlo --samples 200000 --seed 1

  mathhammer run examples/deathburgh/round_scenario.toml       # a Deathburgh round file
"""


@app.command("run", epilog=RUN_EPILOG)
def run(
    scenario: Annotated[
        Optional[Path], typer.Argument(help="Scenario file (.toml or .json); none runs the embedded example.")
    ] = None,
    method: Annotated[
        Optional[Method], typer.Option(help="Override every entry's method: exact, monte_carlo or auto.")
    ] = None,
    samples: Annotated[Optional[int], typer.Option(help="Override every entry's Monte Carlo samples.")] = None,
    seed: Annotated[Optional[int], typer.Option(help="Override every entry's Monte Carlo seed.")] = None,
    threads: Annotated[Optional[int], typer.Option(help="Threads for Monte Carlo (default: all cores).")] = None,
    allow_outside: Annotated[bool, typer.Option(
        "--allow-outside", help="Let the scenario's profiles paths leave its folder (absolute paths, '..').")] = False,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """Run every fight, shot, attack, sequence, combat, round or melee of a scenario file and print the results.

    The format is described in docs/scenarios.md; examples/scenario.toml shows every game. A Deathburgh
    round file runs as one round. A key an entry's function does not take is an error listing the
    allowed keys.
    """
    from mathhammer import scenario as scenarios

    overrides: dict[str, Any] = {"method": method.value if method is not None else None, "samples": samples,
                                 "seed": seed, "threads": threads}
    overrides = {key: value for key, value in overrides.items() if value is not None}
    with ProgressGroup() as bars:
        if scenario is None:
            text = resources.files("mathhammer").joinpath("data/example_scenario.toml").read_text(encoding="utf-8")
            source = "example scenario"
            data = scenarios.parse_scenario_text(text, source)
            outcomes = scenarios.run_scenario(data, source=source, progress=bars.callback, overrides=overrides)
        else:
            source = str(scenario)
            data = scenarios.load_scenario(scenario)
            outcomes = scenarios.run_scenario(data, base=scenario.parent, source=source, progress=bars.callback,
                                              overrides=overrides, allow_outside=allow_outside)
    sections = [Section(outcome.name, *result_tables("", outcome.result)) for outcome in outcomes]
    payload = {"scenario": source, "title": data.get("title", ""), "overrides": overrides,
               "outcomes": [o.to_dict() for o in outcomes]}
    emit_sections(fmt, sections, payload)


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


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (also used by the console script)."""
    command = typer.main.get_command(app)
    add_display_options(command)
    hide_flag_metavars(command)
    try:
        check_repeated_options(command, sys.argv[1:] if argv is None else argv)
        code = command.main(args=argv, prog_name="mathhammer", standalone_mode=False)
    except (InputError, InputTypeError) as error:
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
    # typer turns Ctrl-C inside a command into Exit(130), returned here as the command's value
    code = code if isinstance(code, int) and not isinstance(code, bool) else 0
    if code == EXIT_INTERRUPTED:
        typer.echo("interrupted", err=True)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""The ``mathhammer`` command: one sub-command group per game.

Exit codes: 0 success, 2 bad input (one line naming the field, no traceback), 130 interrupted.
"""

from __future__ import annotations

import sys

from importlib import resources
from pathlib import Path
from typing import Annotated, Optional

import click
import typer

from mathhammer._cli_common import FormatOption, OutputFormat, ProgressGroup, Table, emit, result_tables
from mathhammer.library import tomllib

from mathhammer import __version__
from mathhammer._validate import InputError, InputTypeError

app = typer.Typer(
    name="mathhammer",
    help="Outcome distributions for tabletop-miniature dice combat, exact or Monte Carlo.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


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


@app.command("run")
def run(
    scenario: Annotated[
        Optional[Path], typer.Argument(help="Scenario file (.toml or .json); none runs the embedded example.")
    ] = None,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """Run every attack, shot, fight or combat of a scenario file and print the results.

    Example: mathhammer run examples/scenario.toml --format json
    """
    from mathhammer import scenario as scenarios

    with ProgressGroup(enabled=fmt is OutputFormat.table) as bars:
        if scenario is None:
            text = resources.files("mathhammer").joinpath("data/example_scenario.toml").read_text(encoding="utf-8")
            outcomes = scenarios.run_scenario(tomllib.loads(text), source="example scenario", progress=bars.callback)
        else:
            outcomes = scenarios.run_scenario_file(scenario, progress=bars.callback)
    tables: list[Table] = []
    summary: list[str] = []
    for outcome in outcomes:
        t, s = result_tables(outcome.name, outcome.result)
        tables += t
        summary += s
    emit(fmt, tables, {"outcomes": [o.to_dict() for o in outcomes]}, summary)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (also used by the console script)."""
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="mathhammer", standalone_mode=False)
        if code == 130:  # Typer turns Ctrl-C into exit code 130 and returns it
            typer.echo("interrupted", err=True)
            return 130
    except (InputError, InputTypeError) as error:
        typer.echo(f"error: {error}", err=True)
        return 2
    except click.exceptions.Exit as done:
        return int(done.exit_code)
    except click.exceptions.ClickException as error:
        error.show()
        return error.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        typer.echo("interrupted", err=True)
        return 130
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

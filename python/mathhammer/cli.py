"""The ``mathhammer`` command: one sub-command group per game.

Exit codes: 0 success, 2 bad input (one line naming the field, no traceback), 130 interrupted.
"""

from __future__ import annotations

import sys

import click
import typer

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


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (also used by the console script)."""
    command = typer.main.get_command(app)
    try:
        command.main(args=argv, prog_name="mathhammer", standalone_mode=False)
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

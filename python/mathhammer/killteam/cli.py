"""`mathhammer killteam fight|shoot`."""

from __future__ import annotations

import typer

from mathhammer._cli_common import register_profiles_command
from mathhammer.killteam import cli_advise, cli_compare, cli_fight, cli_shoot

killteam_app = typer.Typer(
    name="killteam",
    help="Kill Team 2024: fights and shots, and matrices comparing them.",
    epilog="Example: mathhammer killteam shoot --rules 'Lethal 5+, Piercing 1' --save 3 --cover 1",
    no_args_is_help=True,
)
cli_fight.register(killteam_app)
cli_shoot.register(killteam_app)
cli_compare.register(killteam_app)
cli_advise.register(killteam_app)
register_profiles_command(killteam_app, "killteam")


def register(app: typer.Typer) -> None:
    """Add the killteam command group to the top-level app."""
    app.add_typer(killteam_app, name="killteam")

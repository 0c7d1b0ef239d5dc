"""`mathhammer killteam fight` (filled in when the fight engine lands)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the fight command to the killteam group."""

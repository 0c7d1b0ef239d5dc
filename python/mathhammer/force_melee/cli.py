"""CLI commands for force_melee (filled in when the force_melee engine lands)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this game's commands to the top-level app."""

"""CLI commands for killteam (filled in when the killteam engine lands)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this game's commands to the top-level app."""

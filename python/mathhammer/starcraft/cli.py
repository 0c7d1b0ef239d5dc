"""CLI commands for starcraft (filled in when the starcraft engine lands)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this game's commands to the top-level app."""

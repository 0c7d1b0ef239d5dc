"""`mathhammer killteam shoot` (filled in when the shoot engine lands)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the shoot command to the killteam group."""

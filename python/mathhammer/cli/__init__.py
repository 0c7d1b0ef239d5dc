"""The ``mathhammer`` command line (the console script is :func:`main`).

Layout: :mod:`~mathhammer.cli.app` (the root command, lazy game groups, error handling),
:mod:`~mathhammer.cli.options` (the shared options, declared once), :mod:`~mathhammer.cli.output`
(formats, ``--plot``), :mod:`~mathhammer.cli.progress`, :mod:`~mathhammer.cli.render` (the Rich
tables), :mod:`~mathhammer.cli.run` and :mod:`~mathhammer.cli.sweep`, and one module per game.
"""

from __future__ import annotations

from mathhammer.cli.app import app, main

__all__ = ["app", "main"]

"""What every game shares, below the games and above the report layer: distributions and results,
the payload codec, the engine options and their bounds, the Variants base, sampling and seeds,
batches, profiles as tables, scenario entries, and the :class:`~mathhammer.core.game.Game`
descriptor each game declares (docs/architecture.md)."""

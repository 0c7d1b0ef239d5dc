"""deathburgh."""

"""starcraft."""

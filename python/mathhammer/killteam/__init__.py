"""killteam."""

"""force_melee."""

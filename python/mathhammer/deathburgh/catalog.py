"""The Deathburgh profiles the package ships: the alpha v0.1 sample warbands (docs/rules/deathburgh.md §9).

Each is a card in the game's notation and a role; :data:`mathhammer.deathburgh.EXAMPLES` holds them as
miniatures, and every name works wherever a miniature is named. Notes: the Ranged Warrior's
Crossbow adds one rolled die at ≤ 6" (``extra_dice=1``); the Old Fellas Brute's "Behind me" gives
+1 Support to an ally in contact (Defensive); the Bandit Leader's "Are you sure?" lets allies within
10" reroll one miss (``reroll="one_fail"``); the Bandit Erudite's "Shiny!" is 3 automatic hits
(``auto_hits=3``).
"""

from __future__ import annotations

__all__ = ["CARDS"]

#: name -> (card, role)
CARDS: dict[str, tuple[str, str]] = {
    "Old Fellas Melee Warrior Follower": ("A 4/4+ D 4/4+ W 3", "melee"),
    "Old Fellas Ranged Warrior Follower": ("A 4/4+ D 4/6+ W 3", "ranged"),
    "Old Fellas Brute": ("A 3/4+ D 5/3+ W 5", "melee"),
    "Old Fellas Leader": ("A 5/3+ D 5/4+ W 4", "melee"),
    "Bandit Melee Follower": ("A 4/4+ D 4/5+ W 3", "melee"),
    "Bandit Ranged Follower": ("A 4/4+ D 4/6+ W 3", "ranged"),
    "Bandit Brute": ("A 3/3+ D 6/4+ W 5", "melee"),
    "Bandit Specialist": ("A 6/3+ D 4/5+ W 2", "melee"),
    "Bandit Leader": ("A 5/3+ D 5/4+ W 4", "melee"),
    "Bandit Erudite": ("A 3/3+ D 3/4+ W 2", "melee"),
}

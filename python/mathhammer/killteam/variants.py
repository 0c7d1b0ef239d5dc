"""Kill Team's rule switches, passed to every Kill Team engine function as ``variants=``.

The engine implements the readings of docs/rules/killteam.md. Kill Team has no switches yet: its
departures from the reference calculator (docs/rules/killteam.md §4) become named switches, with a
``"ktcalc"`` preset reproducing that calculator, together with the reference's remaining rules.
Until then ``variants=`` accepts None, ``kt.Variants()`` or an empty mapping, and results record it.
"""

from __future__ import annotations

from dataclasses import dataclass

from mathhammer import options

__all__ = ["Variants"]


@dataclass(frozen=True)
class Variants(options.Variants):
    """Kill Team's rule switches (none yet; see the module docstring)."""

    GAME = "killteam"

"""StarCraft's rule switches, passed to every StarCraft engine function as ``variants=`` (or its
older name ``rules=``; docs/rules/starcraft.md §8)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mathhammer.core.checks import check_choice
from mathhammer.core.variants import Variants as BaseVariants
from mathhammer.errors import InputError

__all__ = ["Variants", "check_variants"]


@dataclass(frozen=True)
class Variants(BaseVariants):
    """StarCraft's rule switches (docs/rules/starcraft.md §8), passed as ``variants=`` (or ``rules=``).

    critical_hit: "count" (default: CRITICAL HIT (X) moves X dice) or "natural" (dice showing exactly X,
    the seed's reading). leftover: "marker" (default: leftover damage stays as the Damage Marker) or
    "lost" (the seed's reading). stacking: "sum" (default: the same X-keyword from several sources adds
    up) or "max" (the largest applies).
    """

    GAME = "starcraft"

    critical_hit: str = "count"
    leftover: str = "marker"
    stacking: str = "sum"

    def __post_init__(self) -> None:
        object.__setattr__(self, "critical_hit", check_choice("rules.critical_hit", self.critical_hit, ("count", "natural")))
        object.__setattr__(self, "leftover", check_choice("rules.leftover", self.leftover, ("marker", "lost")))
        object.__setattr__(self, "stacking", check_choice("rules.stacking", self.stacking, ("sum", "max")))

    @classmethod
    def of(cls, value: Variants | Mapping[str, Any] | str | None, field: str = "rules") -> Variants:
        """Variants from None (defaults), a mapping of its fields, a preset / ``field=value`` text, or Variants."""
        return cls.resolve(value, field)


def check_variants(rules: Any, variants: Any) -> Variants:
    """The switches of a call given as ``rules=`` (the older keyword) or ``variants=``, never both."""
    if rules is not None and variants is not None:
        raise InputError("rules", "give the switches either as rules= or as variants=, not both")
    if rules is not None:
        return Variants.of(rules, "rules")
    return Variants.of(variants, "variants")

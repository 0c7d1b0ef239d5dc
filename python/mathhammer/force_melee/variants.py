"""The Force melee's rule switches (docs/rules/force_melee.md §5), passed as ``variants=`` or as the plain
keywords of the same names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mathhammer import _core
from mathhammer.core.variants import Variants as BaseVariants
from mathhammer.core.variants import check_switches
from mathhammer.core.checks import check_bool, check_choice

__all__ = ["ALLOCATIONS", "SUSTAINED_MODES", "WINNER_DAMAGE", "Variants", "switches_of"]

_fm = _core.force_melee

WINNER_DAMAGE: tuple[str, ...] = ("once", "excess", "per_hit", "pairing")
ALLOCATIONS: tuple[str, ...] = ("spill", "no_spill")
SUSTAINED_MODES: tuple[str, ...] = ("bonus", "extra_hits")


@dataclass(frozen=True)
class Variants(BaseVariants):
    """The switches that hold for a whole melee.

    winner_damage: the damage of the side with more hits — "once" (default: its Force, the rule read
    literally), "excess" (Force per hit more), "per_hit" (Force per hit) or "pairing" (hits paired
    off). allocation: "spill" (default: damage past a model carries to the next) or "no_spill".
    sustained_mode: Sustained Damage as "bonus" damage per hit (default) or "extra_hits" per crit.
    bonus_always: the flat bonus applies even without base damage (default False).
    """

    GAME = "force_melee"

    winner_damage: str = "once"
    allocation: str = "spill"
    sustained_mode: str = "bonus"
    bonus_always: bool = False

    def __post_init__(self) -> None:
        set_field = object.__setattr__
        set_field(self, "winner_damage", check_choice("winner_damage", self.winner_damage, WINNER_DAMAGE))
        set_field(self, "allocation", check_choice("allocation", self.allocation, ALLOCATIONS))
        set_field(self, "sustained_mode", check_choice("sustained_mode", self.sustained_mode, SUSTAINED_MODES))
        set_field(self, "bonus_always", check_bool("bonus_always", self.bonus_always))

    def rules(self) -> _fm.ExchangeRules:
        """The C++ ExchangeRules of these switches."""
        return _fm.ExchangeRules(
            getattr(_fm.WinnerDamage, self.winner_damage),
            getattr(_fm.SustainedMode, self.sustained_mode),
            self.bonus_always,
        )

    def allocation_enum(self) -> _fm.Allocation:
        allocation: _fm.Allocation = getattr(_fm.Allocation, self.allocation)
        return allocation


def switches_of(variants: Any, winner_damage: Any, allocation: Any, sustained_mode: Any, bonus_always: Any) -> Variants:
    """The switches of a call given as keywords or as ``variants=`` (never both; see check_switches)."""
    if variants is None and winner_damage is None and allocation is None and sustained_mode is None \
            and bonus_always is None:
        return Variants.resolve(None)  # the defaults, checked once
    return check_switches(Variants, variants, dict(winner_damage=winner_damage, allocation=allocation,
                                                   sustained_mode=sustained_mode, bonus_always=bonus_always))

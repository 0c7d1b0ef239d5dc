"""Deathburgh's rule switches (docs/rules/deathburgh.md §5), passed to every Deathburgh engine
function as ``variants=`` or as the plain keywords of the same names."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from mathhammer import _core
from mathhammer.core.checks import check_bool, check_choice, check_int
from mathhammer.core.variants import Variants as BaseVariants
from mathhammer.errors import InputError
from mathhammer.deathburgh.profiles import MAX_BONUS

__all__ = ["BONUS_DICE", "DRAWS", "EDITIONS", "REACTIONS", "RULE_FIELDS", "SOULS", "SUPPORT_STACKING", "Variants"]

_cpp = _core.deathburgh

EDITIONS = ("web", "alpha")
REACTIONS = ("attack", "dodge", "none")
BONUS_DICE = ("replace", "add")
SOULS = ("convert", "add")
DRAWS = ("always", "scored")
SUPPORT_STACKING = ("per_ally", "once")


@dataclass(frozen=True)
class Variants(BaseVariants):
    """The rule switches of docs/rules/deathburgh.md §5 that hold for a whole combat (or round), passed as
    ``variants=`` or as the plain keywords of the same names.

    edition: ``"web"`` (the rules site, default) or ``"alpha"`` (the alpha rulebook), DB-1.
    bonus_dice: a bonus 6! ``"replace"``-s a die to be rolled (default) or ``"add"``-s one (DB-3).
    souls: a Soul's Dice ``"convert"``-s a die into a 6! (default) or ``"add"``-s one (DB-4);
    souls_limit: Soul's Dice per side per combat (default 1).
    draw: alpha, a draw costs each side 1 wound ``"always"`` (0–0 included, default) or only when
    ``"scored"`` (both ≥ 1) (DB-2); draw_in_dodge: alpha, a drawn dodge costs each 1 too (default off).
    cap_wounds_at_dice: wounds a side inflicts are capped at its dice count (DB-7, default off).
    support_stacking: one 6! ``"per_ally"`` (default) or ``"once"`` however many allies (DB-10).
    """

    GAME = "deathburgh"

    edition: str = "web"
    bonus_dice: str = "replace"
    souls: str = "convert"
    souls_limit: int = 1
    draw: str = "always"
    draw_in_dodge: bool = False
    cap_wounds_at_dice: bool = False
    support_stacking: str = "per_ally"

    def __post_init__(self) -> None:
        set_field = object.__setattr__
        set_field(self, "edition", check_choice("edition", self.edition, EDITIONS))
        set_field(self, "bonus_dice", check_choice("bonus_dice", self.bonus_dice, BONUS_DICE))
        set_field(self, "souls", check_choice("souls", self.souls, SOULS))
        set_field(self, "souls_limit", check_int("souls_limit", self.souls_limit, 0, MAX_BONUS))
        set_field(self, "draw", check_choice("draw", self.draw, DRAWS))
        set_field(self, "draw_in_dodge", check_bool("draw_in_dodge", self.draw_in_dodge))
        set_field(self, "cap_wounds_at_dice", check_bool("cap_wounds_at_dice", self.cap_wounds_at_dice))
        set_field(self, "support_stacking", check_choice("support_stacking", self.support_stacking, SUPPORT_STACKING))
        if self.edition == "web":
            # The draw rule exists only in the alpha rulebook: refuse a switch that would do nothing.
            if self.draw != "always":
                raise InputError("draw", "the draw rule belongs to edition='alpha' (the web edition has no draws)")
            if self.draw_in_dodge:
                raise InputError("draw_in_dodge", "the draw rule belongs to edition='alpha' (the web edition has no draws)")

    def outcome_rules(self, reaction: str, same_role: bool) -> _cpp.OutcomeRules:
        """The C++ ``OutcomeRules`` for one combat."""
        out = _cpp.OutcomeRules()
        out.edition = getattr(_cpp.Edition, self.edition)
        out.reaction = getattr(_cpp.Reaction, reaction)
        out.same_role = bool(same_role)
        out.draw_at_zero = self.draw == "always"
        out.draw_in_dodge = self.draw_in_dodge
        return out


RULE_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Variants))

"""Bad input fails early with an InputError / InputTypeError whose message starts with the field."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathhammer import deathburgh as db
from mathhammer.errors import InputError, InputTypeError

MELEE = db.Miniature(A=4, A_plus=4, D=4, D_plus=4, W=3)
RANGED = db.Miniature(A=4, A_plus=4, D=4, D_plus=6, W=3, role="ranged")


def side(mini: db.Miniature = MELEE, **kwargs: Any) -> db.Side:
    return db.Side(mini, **kwargs)


BAD: list[tuple[str, Callable[[], Any], str]] = [
    # profiles
    ("too many dice", lambda: db.Miniature(A=21, A_plus=4, D=4, D_plus=4, W=3), "A"),
    ("target 7", lambda: db.Miniature(A=4, A_plus=7, D=4, D_plus=4, W=3), "A_plus"),
    ("target text", lambda: db.Miniature(A=4, A_plus=4, D=4, D_plus="four", W=3), "D_plus"),
    ("no wounds", lambda: db.Miniature(A=4, A_plus=4, D=4, D_plus=4, W=0), "W"),
    ("float dice", lambda: db.Miniature(A=4.0, A_plus=4, D=4, D_plus=4, W=3), "A"),
    ("role", lambda: db.Miniature(A=4, A_plus=4, D=4, D_plus=4, W=3, role="sniper"), "role"),
    ("notation", lambda: db.Miniature.parse("A4 D4 W3"), "profile"),
    ("example", lambda: db.example("Old Fellas Wizard"), "name"),
    # sides
    ("mode", lambda: side(mode="berserk"), "mode"),
    ("support", lambda: side(support=-1), "support"),
    ("support bool", lambda: side(support=True), "support"),
    ("charge int", lambda: side(charge=1), "charge"),
    ("reroll", lambda: side(reroll="some"), "reroll"),
    ("wounds above W", lambda: side(wounds=4), "wounds"),
    ("auto hits", lambda: side(auto_hits=21), "auto_hits"),
    ("mini", lambda: db.Side(42), "mini"),
    ("mini text", lambda: db.Side("Old Fellas Wizard"), "mini"),
    ("mini table", lambda: db.Side({"A": 4, "A_plus": 9, "D": 4, "D_plus": 4, "W": 3}), "mini.A_plus"),
    ("side keys", lambda: db.Side.from_dict({"mini": MELEE, "chrage": True}), "side"),
    # switches
    ("reaction", lambda: db.combat(MELEE, MELEE, "flee"), "reaction"),
    ("edition", lambda: db.combat(MELEE, MELEE, edition="beta"), "edition"),
    ("bonus_dice", lambda: db.combat(MELEE, MELEE, bonus_dice="double"), "bonus_dice"),
    ("souls", lambda: db.combat(MELEE, MELEE, souls="keep"), "souls"),
    ("souls_limit", lambda: db.combat(MELEE, MELEE, souls_limit=-1), "souls_limit"),
    ("draw", lambda: db.combat(MELEE, MELEE, edition="alpha", draw="never"), "draw"),
    ("draw in web", lambda: db.combat(MELEE, MELEE, draw="scored"), "draw"),
    ("draw_in_dodge in web", lambda: db.combat(MELEE, MELEE, draw_in_dodge=True), "draw_in_dodge"),
    ("cap", lambda: db.combat(MELEE, MELEE, cap_wounds_at_dice="yes"), "cap_wounds_at_dice"),
    ("support_stacking", lambda: db.combat(MELEE, MELEE, support_stacking="twice"), "support_stacking"),
    ("stand_and_shoot type", lambda: db.combat(MELEE, MELEE, stand_and_shoot=1), "stand_and_shoot"),
    ("method", lambda: db.combat(MELEE, MELEE, method="guess"), "method"),
    ("samples", lambda: db.combat(MELEE, MELEE, method="monte_carlo", samples=0), "samples"),
    ("samples huge", lambda: db.combat(MELEE, MELEE, method="monte_carlo", samples=10**12), "samples"),
    ("seed", lambda: db.combat(MELEE, MELEE, method="monte_carlo", seed=-1), "seed"),
    ("threads", lambda: db.combat(MELEE, MELEE, method="monte_carlo", threads=0), "threads"),
    ("unknown keyword", lambda: db.combat(MELEE, MELEE, editon="alpha"), "editon"),
    ("attacker type", lambda: db.combat(4, MELEE), "attacker"),
    ("attacker text", lambda: db.combat("A 4/4+ W 3", MELEE), "attacker"),
    ("attacker dict", lambda: db.combat({"mini": MELEE, "mode": "x"}, MELEE), "attacker.mode"),
    # legality
    ("roles", lambda: db.combat(MELEE, RANGED, "attack"), "reaction"),
    ("stand and shoot without charge", lambda: db.combat(MELEE, RANGED, "attack", stand_and_shoot=True),
     "stand_and_shoot"),
    ("stand and shoot, melee defender", lambda: db.combat(side(charge=True), MELEE, "attack", stand_and_shoot=True),
     "stand_and_shoot"),
    ("stand and shoot, dodge", lambda: db.combat(side(charge=True), side(RANGED), "dodge", stand_and_shoot=True),
     "stand_and_shoot"),
    ("auto hits met with attack", lambda: db.combat(side(auto_hits=3), MELEE, "attack"), "reaction"),
    ("auto hits on the defender", lambda: db.combat(MELEE, side(auto_hits=3), "dodge"), "defender.auto_hits"),
    ("auto hits with a charge", lambda: db.combat(side(auto_hits=3, charge=True), MELEE, "dodge"), "attacker.charge"),
    ("auto hits with a reroll", lambda: db.combat(side(auto_hits=3, reroll="all_fails"), MELEE, "dodge"),
     "attacker.reroll"),
    ("defender charges", lambda: db.combat(MELEE, side(charge=True), "attack"), "defender.charge"),
    ("ranged charge", lambda: db.combat(side(RANGED, charge=True), MELEE, "dodge"), "attacker.charge"),
    ("support at range", lambda: db.combat(side(RANGED, support=1), MELEE, "dodge"), "attacker.support"),
    ("support vs shooting", lambda: db.combat(RANGED, side(support=1), "dodge"), "defender.support"),
    ("melee full visibility", lambda: db.combat(side(full_visibility=True), MELEE), "attacker.full_visibility"),
    ("defender steady aim", lambda: db.combat(RANGED, side(RANGED, steady_aim=True), "dodge"), "defender.steady_aim"),
    ("cover in melee", lambda: db.combat(MELEE, side(take_cover=True), "dodge"), "defender.take_cover"),
    ("get down, attacker", lambda: db.combat(side(RANGED, get_down=True), MELEE, "dodge"), "attacker.get_down"),
    ("zig zag web", lambda: db.combat(RANGED, side(mode="defensive", zig_zag=True), "dodge"), "defender.zig_zag"),
    ("zig zag aggressive", lambda: db.combat(RANGED, side(zig_zag=True), "dodge", edition="alpha"),
     "defender.zig_zag"),
    ("souls over the limit", lambda: db.combat(side(souls_dice=2), MELEE), "attacker.souls_dice"),
    ("too many dice", lambda: db.combat(side(extra_dice=17), MELEE), "attacker.extra_dice"),
    ("added dice", lambda: db.combat(side(extra_dice=10, instant6=7), MELEE, bonus_dice="add"), "attacker.extra_dice"),
    ("wasted attacker", lambda: db.combat(side(wounds=0), MELEE), "attacker.wounds"),
    ("wasted defender reacts", lambda: db.combat(MELEE, side(wounds=0), "dodge"), "defender.wounds"),
    ("no reaction, defender bonus", lambda: db.combat(MELEE, side(support=1), "none"), "defender.support"),
    # pool
    ("pool dice", lambda: db.pool(21, 4), "dice"),
    ("pool target", lambda: db.pool(2, 1), "target"),
    ("pool reroll", lambda: db.pool(2, 4, reroll="all"), "reroll"),
    ("pool souls", lambda: db.pool(2, 4, souls_dice=2), "souls_dice"),
    ("pool keyword", lambda: db.pool(2, 4, reroll_all=True), "reroll_all"),
    ("pool extra", lambda: db.pool(15, 4, extra_dice=6), "extra_dice"),
]


@pytest.mark.parametrize("label, call, field", BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_the_field(label: str, call: Callable[[], Any], field: str) -> None:
    with pytest.raises((InputError, InputTypeError)) as error:
        call()
    assert isinstance(error.value, (ValueError, TypeError))
    assert str(error.value).startswith(f"{field}:"), str(error.value)


def test_unknown_choices_list_the_allowed_ones() -> None:
    with pytest.raises(InputError, match="allowed: attack, dodge, none"):
        db.combat(MELEE, MELEE, "flee")
    with pytest.raises(InputError, match="allowed: none, all_fails, one_fail"):
        side(reroll="most")
    with pytest.raises(InputTypeError, match="known: attacker, defender, reaction, edition"):
        db.combat(MELEE, MELEE, colour="red")


def test_zero_dice_and_a_wasted_defender_without_reaction_are_fine() -> None:
    nothing = db.Miniature(A=0, A_plus=4, D=0, D_plus=4, W=1)
    r = db.combat(nothing, MELEE)
    assert r.successes_attacker.pmf.tolist() == [1.0]
    wasted = db.combat(MELEE, side(wounds=0), "none")
    assert wasted.wasted("defender") == pytest.approx(1.0, abs=1e-12)


_values = st.one_of(
    st.integers(-3, 25), st.sampled_from(["melee", "ranged", "aggressive", "defensive", "none", "all_fails",
                                          "one_fail", "4+", "x", ""]),
    st.booleans(), st.none(), st.floats(allow_nan=True), st.lists(st.integers(), max_size=2),
)
_side_keys = ["mode", "charge", "support", "full_visibility", "steady_aim", "take_cover", "get_down", "zig_zag",
              "instant6", "instant1", "souls_dice", "extra_dice", "reroll", "wounds", "auto_hits"]
_mini_keys = ["A", "A_plus", "D", "D_plus", "W", "role"]
_switch_keys = ["edition", "bonus_dice", "souls", "souls_limit", "draw", "draw_in_dodge", "cap_wounds_at_dice",
                "support_stacking", "stand_and_shoot"]


@st.composite
def _combat_inputs(draw: Any) -> dict[str, Any]:
    def fields(keys: list[str], base: dict[str, Any]) -> dict[str, Any]:
        out = dict(base)
        for key in draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)):
            out[key] = draw(_values)
        return out

    base_mini = {"A": 3, "A_plus": 4, "D": 3, "D_plus": 4, "W": 3, "role": "melee"}
    return {
        "attacker": (fields(_mini_keys, base_mini), fields(_side_keys, {})),
        "defender": (fields(_mini_keys, base_mini), fields(_side_keys, {})),
        "reaction": draw(st.one_of(st.sampled_from(["attack", "dodge", "none"]), _values)),
        "switches": fields(_switch_keys, {}),
    }


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_combat_inputs())
def test_fuzzed_inputs_raise_only_input_errors(inputs: dict[str, Any]) -> None:
    try:
        sides = [db.Side(db.Miniature(**mini), **options) for mini, options in (inputs["attacker"], inputs["defender"])]
        result = db.combat(sides[0], sides[1], inputs["reaction"], **inputs["switches"])
    except (InputError, InputTypeError) as error:
        assert str(error).split(":", 1)[0], "the message names a field"
        return
    assert abs(result.joint.pmf.sum() - 1.0) < 1e-9

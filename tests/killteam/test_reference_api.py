"""The surface of docs/rules/killteam.md §8: notation of the new rules and abilities, cover crit saves, the
injury chance, adding distributions, kt.Variants, and the command line's --cover-crits / --variants."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathhammer import killteam as kt
from mathhammer.errors import InputError, InputTypeError
from mathhammer.cli import main
from mathhammer.killteam.profiles import REROLLS
from mathhammer.killteam.variants import CHOICES
from mathhammer.core.distributions import Distribution

# ----------------------------------------------------------------------------------------------
# Notation


@pytest.mark.parametrize(
    "text, field, value",
    [
        ("Auto Crits 3", "auto_crits", 3), ("purity seal", "purity_seal", True),
        ("Close Assault", "close_assault", True), ("Waaagh", "waaagh", True), ("Waaagh!", "waaagh", True),
        ("Mystic Scry", "mystic_scry", True), ("Mystic Scry Buff", "mystic_scry", True),
        ("Accurate 12", "accurate", 12), ("Norms to Crits 12", "norms_to_crits", 12),
    ],
)
def test_new_weapon_rules_parse_and_print_back(text, field, value):
    rules = kt.WeaponRules.parse(text)
    assert getattr(rules, field) == value
    assert kt.WeaponRules.parse(str(rules)) == rules


@pytest.mark.parametrize(
    "text, field, value",
    [
        ("Hardy 4+", "hardy", 4), ("Indomitus", "indomitus", True), ("Save Fails to Norms 2", "save_fails_to_norms", 2),
        ("Save Norms to Crits 3", "save_norms_to_crits", 3), ("Balanced Saves", "save_reroll", "balanced"),
        ("Double Balanced Saves", "save_reroll", "double_balanced"), ("Ceaseless Saves", "save_reroll", "ceaseless"),
        ("Ceaseless Balanced Saves", "save_reroll", "ceaseless_balanced"),
        ("Relentless Saves", "save_reroll", "relentless"),
        ("Relentless Saves (crit-fishing)", "save_reroll", "relentless_crit_fishing"),
        ("Reroll Ones Saves", "save_reroll", "reroll_ones"),
        ("Reroll Ones Balanced Saves", "save_reroll", "reroll_ones_balanced"),
    ],
)
def test_new_target_abilities_parse_and_print_back(text, field, value):
    abilities = kt.Abilities.parse(text)
    assert getattr(abilities, field) == value
    assert kt.Abilities.parse(str(abilities)) == abilities


_abilities = st.fixed_dictionaries(
    {},
    optional={
        "hardy": st.integers(2, 6), "save_reroll": st.sampled_from(REROLLS), "indomitus": st.booleans(),
        "save_fails_to_norms": st.integers(0, 3), "save_norms_to_crits": st.integers(0, 3),
        "punishing": st.booleans(), "durable": st.booleans(), "feel_no_pain": st.integers(2, 6),
        "saintly_relics": st.integers(0, 2), "just_a_scratch": st.booleans(),
    },
)


@settings(max_examples=150, deadline=None)
@given(_abilities)
def test_any_valid_target_prints_and_parses_back(fields):
    abilities = kt.Abilities(**fields)
    assert kt.Abilities.parse(str(abilities)) == abilities


@pytest.mark.parametrize(
    "make, field",
    [
        (lambda: kt.WeaponRules.parse("Auto Crits 13"), "rules.auto_crits"),
        (lambda: kt.WeaponRules.parse("Fails to Norms 13"), "rules.fails_to_norms"),
        (lambda: kt.Abilities.parse("Hardy 1+"), "abilities.hardy"),
        (lambda: kt.Abilities.parse("Hardy 7+"), "abilities.hardy"),
        (lambda: kt.Abilities.parse("Save Fails to Norms 4"), "abilities.save_fails_to_norms"),
        (lambda: kt.Abilities.parse("Save Norms to Crits 4"), "abilities.save_norms_to_crits"),
        (lambda: kt.Abilities(save_reroll="sometimes"), "abilities.save_reroll"),
        (lambda: kt.shoot(kt.Weapon(2, 3), kt.Operative(3), cover_crits=4), "cover_crits"),
    ],
)
def test_out_of_range_values_name_the_field(make, field):
    with pytest.raises(InputError) as error:
        make()
    assert error.value.field == field


def test_unknown_names_list_the_known_ones():
    with pytest.raises(InputError, match="did you mean 'Waaagh'") as error:
        kt.WeaponRules.parse("Waagh")
    # the known rules: the table's and the datacard tokens it sets aside (Range x", Silent, ...)
    known = len(kt.WeaponRules.KNOWN) + len(kt.WeaponRules.KEPT)
    assert "closest known rules: Waaagh, " in str(error.value) and str(error.value).endswith(f"{known - 5} more")
    with pytest.raises(InputError, match="Hardy x\\+") as error:
        kt.Abilities.parse("Sometimes Saves")
    assert "Indomitus" in str(error.value) and "Relentless Saves" in str(error.value)


def test_a_save_reroll_given_twice_is_refused():
    with pytest.raises(InputError, match="twice"):
        kt.Abilities.parse("Balanced Saves, Relentless Saves")


# ----------------------------------------------------------------------------------------------
# Cover crit saves and the injury chance, checked by hand


def test_cover_crit_saves_block_a_crit_and_come_before_cover():
    # 1 attack at 2+ (a 6 is a crit, 2-5 a norm), 3/4; Piercing 2 leaves one defence die, taken as a
    # cover crit save (it blocks anything), so no damage; with cover instead it is a normal save.
    gun = kt.Weapon(1, 2, (3, 4), "Piercing 2")
    target = kt.Operative(3, 12)
    assert kt.shoot(gun, target, cover=1, cover_crits=1).damage.pmf.tolist() == pytest.approx([1.0], abs=1e-15)
    with_cover = kt.shoot(gun, target, cover=1)
    # a crit (1/6) beats a lone normal save: 4 damage; a norm is blocked
    assert with_cover.damage.prob(4) == pytest.approx(1 / 6, abs=1e-15)
    assert kt.shoot(gun, target, cover=1, cover_crits=1).cover_crits == 1
    # Saturate takes both away: the defence die is rolled (3+: 4/6 saves)
    saturated = kt.shoot(kt.Weapon(1, 2, (3, 4), "Piercing 2, Saturate"), target, cover_crits=1).damage
    assert saturated.prob(3) == pytest.approx(Fraction(4, 6) * Fraction(2, 6), abs=1e-15)


def test_defender_punishing_counts_cover_crit_saves():
    # two defence dice: one cover crit save, one rolled at 6+; Punishing turns its fail into a save
    target = kt.Operative(6, 12, "Punishing")
    saves = kt.shoot(kt.Weapon(1, 2, rules="Piercing 1"), target, cover_crits=1).retained_saves.pmf
    assert saves[1, 1] == pytest.approx(5 / 6, abs=1e-15) and saves[2, 0] == pytest.approx(1 / 6, abs=1e-15)


@pytest.mark.parametrize("wounds", [1, 2, 5, 6, 7, 12])
def test_injury_chance_is_fewer_than_half_wounds_left_but_alive(wounds):
    # 3 attacks at 4+, 1/1, no save dice: damage = successes ~ Binomial(3, 1/2), every round uncapped
    gun = kt.Weapon(3, 4, (1, 1), "Piercing 3")
    r = kt.shoot(gun, kt.Operative(3, wounds), rounds=2)
    pmf = [Fraction(int(math.comb(6, k)), 64) for k in range(7)]
    want = sum((p for k, p in enumerate(pmf) if 2 * (wounds - k) < wounds and k < wounds), Fraction(0))
    assert r.injury_chance == pytest.approx(float(want), abs=1e-15)
    assert r.summary()["injury_chance"] == r.injury_chance
    assert r.injury_stderr is None


# ----------------------------------------------------------------------------------------------
# Adding distributions


def test_adding_distributions_convolves_exactly():
    a = Distribution([Fraction(1, 2), Fraction(1, 2)], start=1)  # 1 or 2
    b = Distribution([Fraction(1, 3), 0, Fraction(2, 3)])  # 0 or 2
    total = a + b
    want = {1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 3), 4: Fraction(1, 3)}
    assert total.start == 1 and total.is_exact and not total.estimated
    for value, p in want.items():
        assert total.prob(value) == pytest.approx(float(p), abs=1e-15)
    assert (a + 3).values.tolist() == [4, 5] and (3 + a).start == 4
    assert sum([a, b, a]).mean == pytest.approx(2 * 1.5 + 4 / 3, abs=1e-12)
    with pytest.raises(TypeError):
        _ = a + "1"
    with pytest.raises(TypeError):
        _ = a + True


def test_a_sum_with_a_monte_carlo_operand_has_no_per_cell_errors():
    exact = Distribution([0.5, 0.5])
    sampled = Distribution.from_counts([30, 70])
    total = exact + sampled
    assert total.estimated and not total.is_exact
    assert total.samples is None and total.stderr is None and total.mean_stderr is None
    assert Distribution.from_dict(total.to_dict()) == total
    assert "estimated" in repr(total)


def test_combined_shots_are_the_sum_of_two_shots():
    s1 = kt.shoot(kt.Weapon(2, 3, (3, 4)), kt.Operative(4, 8))
    s2 = kt.shoot(kt.Weapon(1, 2, (2, 5), "Piercing 1"), kt.Operative(5, 8, "Durable"))
    total = s1.damage + s2.damage
    brute = np.zeros(total.pmf.size)
    for (i, p), (j, q) in itertools.product(enumerate(s1.damage.pmf), enumerate(s2.damage.pmf)):
        brute[i + j] += p * q
    assert np.abs(total.pmf - brute).max() < 1e-15
    assert total.at_least(8) == pytest.approx(float(brute[8:].sum()), abs=1e-15)


# ----------------------------------------------------------------------------------------------
# Variants


def test_variants_fields_defaults_and_preset():
    v = kt.Variants()
    assert v.field_names() == tuple(CHOICES)
    assert all(getattr(v, name) == readings[0] for name, readings in CHOICES.items())
    ktcalc = kt.Variants.resolve("ktcalc")
    assert all(getattr(ktcalc, name) == readings[1] for name, readings in CHOICES.items())
    assert kt.Variants.resolve("blocks=greedy, fnp=per_hit") == kt.Variants(blocks="greedy", fnp="per_hit")
    assert kt.Variants(shock="Norms Only").shock == "norms_only"


def test_bad_variants_name_the_switch_and_list_the_known_ones():
    with pytest.raises(InputError, match="allowed: optimal, greedy") as error:
        kt.shoot(kt.Weapon(2, 3), kt.Operative(3), variants={"blocks": "clever"})
    assert error.value.field == "variants.blocks"
    with pytest.raises(InputError, match="lethal_test") as error:
        kt.fight(kt.Fighter(2, 3), kt.Fighter(2, 3), variants={"lethality": "nominal"})
    with pytest.raises(InputError, match="ktcalc"):
        kt.attack_dice(kt.Weapon(2, 3), variants="reference")
    with pytest.raises(InputTypeError):
        kt.Variants(ones=2)


# ----------------------------------------------------------------------------------------------
# Command line


def run_json(capsys, *args: str) -> dict:
    assert main(["killteam", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_shoot_command_takes_cover_crits_and_variants(capsys):
    out = run_json(capsys, "shoot", "--attacks", "3", "--hit", "4", "--damage", "5/5",
                   "--rules", "Purity Seal, Waaagh, Auto Crits 1", "--abilities", "Hardy 5+, Indomitus, Durable",
                   "--cover-crits", "1", "--variants", "ktcalc")
    weapon = kt.Weapon(3, 4, (5, 5), "Purity Seal, Waaagh, Auto Crits 1")
    r = kt.shoot(weapon, kt.Operative(3, 12, "Hardy 5+, Indomitus, Durable"), cover_crits=1, variants="ktcalc")
    assert np.allclose(out["result"]["damage"]["pmf"], r.damage.pmf, atol=1e-15)
    assert out["cover_crits"] == 1 and out["result"]["variants"]["blocks"] == "greedy"
    assert out["injury_chance"] == pytest.approx(r.injury_chance)


def test_fight_command_takes_variants(capsys):
    out = run_json(capsys, "fight", "--variants", "shock=norms_only,duelist=always")
    assert out["result"]["variants"]["shock"] == "norms_only" and out["result"]["variants"]["duelist"] == "always"


def test_unknown_variants_on_the_command_line_list_the_known_ones(capsys):
    assert main(["killteam", "shoot", "--variants", "ktcalx"]) == 2
    err = capsys.readouterr().err
    assert "ktcalc" in err and "just_a_scratch" in err
    assert main(["killteam", "shoot", "--cover-crits", "4"]) == 2
    assert capsys.readouterr().err.startswith("error: cover_crits")

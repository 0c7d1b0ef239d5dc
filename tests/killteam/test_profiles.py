"""Kill Team profiles and datacard notation: parsing, printing back, and errors that name the field."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathhammer import killteam as kt
from mathhammer.errors import InputError, InputTypeError


def test_weapon_rules_parse_every_name():
    rules = kt.WeaponRules.parse(
        "Lethal 5+, Accurate 1, Rending, Severe, Punishing, Brutal, Shock, Saturate, Piercing 1, "
        "Piercing Crits 2, Devastating 3, Fails to Norms 1, Norms to Crits 2, Relentless (crit-fishing)"
    )
    assert rules.lethal == 5 and rules.accurate == 1 and rules.piercing == 1 and rules.piercing_crits == 2
    assert rules.devastating == 3 and rules.fails_to_norms == 1 and rules.norms_to_crits == 2
    assert rules.rending and rules.severe and rules.punishing and rules.brutal and rules.shock and rules.saturate
    assert rules.reroll == "relentless_crit_fishing"


@pytest.mark.parametrize(
    "text, reroll",
    [
        ("Balanced", "balanced"),
        ("double balanced", "double_balanced"),
        ("CEASELESS", "ceaseless"),
        ("Ceaseless Balanced", "ceaseless_balanced"),
        ("Ceaseless, Balanced", "ceaseless_balanced"),
        ("Balanced, Ceaseless", "ceaseless_balanced"),
        ("Relentless", "relentless"),
        ("Reroll Ones", "reroll_ones"),
        ("Reroll Ones, Balanced", "reroll_ones_balanced"),
        ("Reroll Ones Balanced", "reroll_ones_balanced"),
    ],
)
def test_reroll_names_and_combinations(text, reroll):
    assert kt.WeaponRules.parse(text).reroll == reroll


@pytest.mark.parametrize("text", ["Balanced, Relentless", "Ceaseless, Relentless", "Balanced, Double Balanced"])
def test_other_reroll_combinations_are_refused(text):
    with pytest.raises(InputError, match="at most one reroll rule"):
        kt.WeaponRules.parse(text)


@pytest.mark.parametrize(
    "text, field",
    [("Lethal 1+", "lethal"), ("Lethal 7+", "lethal"), ("Piercing 4", "piercing"), ("Devastating 10", "devastating"),
     ("Accurate 13", "accurate"), ("Norms to Crits 13", "norms_to_crits"), ("Fails to Norms 13", "fails_to_norms"),
         ("Auto Crits 13", "auto_crits"), ("Piercing Crits 4", "piercing_crits")],
)
def test_out_of_range_rule_values_name_the_field(text, field):
    with pytest.raises(InputError, match=f"rules.{field}: "):
        kt.WeaponRules.parse(text)


def test_unknown_rule_lists_the_known_ones():
    with pytest.raises(InputError) as error:
        kt.Weapon(4, 3, rules="Lethal 5+, Explodes 2")
    assert error.value.field == "rules"
    assert "'Explodes 2'" in str(error.value) and "closest known rules: " in str(error.value)
    with pytest.raises(InputError) as error:  # a typo names the rule it misspells, and only the closest five
        kt.Weapon(4, 3, rules="Lethl 5+")
    message = str(error.value)
    assert "(did you mean 'Lethal x+'?)" in message and message.endswith(
        f"and {len(kt.WeaponRules.KNOWN) + len(kt.WeaponRules.KEPT) - 5} more")  # those set aside too


def test_duplicate_rule_is_refused():
    with pytest.raises(InputError, match="twice"):
        kt.WeaponRules.parse("Lethal 5+, Lethal 4+")


def test_abilities_parse():
    a = kt.Abilities.parse(
        "Storm Shield, Dueller, Duelist, Hammerhand, Just a Scratch, Just a Scratch (normals), "
        "Half Damage First Strike, Durable, Murderous Entrance, Punishing, Feel No Pain 5+, Saintly Relics (2D6)"
    )
    assert a.storm_shield and a.dueller and a.duelist and a.hammerhand and a.just_a_scratch
    assert a.just_a_scratch_normals and a.half_damage_first_strike and a.durable and a.murderous_entrance
    assert a.punishing and a.feel_no_pain == 5 and a.saintly_relics == 2
    assert kt.Abilities.parse("saintly relics").saintly_relics == 1
    with pytest.raises(InputError, match="feel_no_pain"):
        kt.Abilities.parse("Feel No Pain 1+")
    with pytest.raises(InputError, match="unknown ability"):
        kt.Abilities.parse("Invulnerable Save 4+")


def test_weapon_card_notation_round_trips():
    weapon = kt.Weapon.parse("4A 3+ 3/4 Lethal 5+, Piercing 1")
    assert (weapon.attacks, weapon.hit, weapon.damage) == (4, 3, (3, 4))
    assert weapon.rules.lethal == 5 and weapon.rules.piercing == 1
    assert str(weapon) == "4A 3+ 3/4 Lethal 5+, Piercing 1"
    assert kt.Weapon.parse(str(weapon)) == weapon


_rules = st.fixed_dictionaries(
    {},
    optional={
        "lethal": st.integers(2, 6), "accurate": st.integers(0, 12), "punishing": st.booleans(),
        "severe": st.booleans(), "rending": st.booleans(), "brutal": st.booleans(), "shock": st.booleans(),
        "saturate": st.booleans(), "fails_to_norms": st.integers(0, 12), "norms_to_crits": st.integers(0, 12),
        "auto_crits": st.integers(0, 12), "purity_seal": st.booleans(), "close_assault": st.booleans(),
        "waaagh": st.booleans(), "mystic_scry": st.booleans(),
        "piercing": st.integers(0, 3), "piercing_crits": st.integers(0, 3), "devastating": st.integers(0, 9),
        "reroll": st.sampled_from(["none", "balanced", "double_balanced", "ceaseless", "ceaseless_balanced",
                                   "relentless", "relentless_crit_fishing", "reroll_ones", "reroll_ones_balanced"]),
    },
)


@settings(max_examples=200, deadline=None)
@given(_rules, st.integers(1, 12), st.integers(2, 6), st.integers(0, 12), st.integers(0, 12))
def test_any_valid_weapon_prints_and_parses_back(rules, attacks, hit, dn, dc):
    weapon = kt.Weapon(attacks, hit, (dn, dc), kt.WeaponRules(**rules))
    assert kt.Weapon.parse(str(weapon)) == weapon


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_rule_parser_only_raises_input_errors(text):
    try:
        kt.WeaponRules.parse(text)
        kt.Abilities.parse(text)
    except InputError:
        pass


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(attacks=0, hit=3), "attacks"),
        (dict(attacks=13, hit=3), "attacks"),
        (dict(attacks=4, hit=1), "hit"),
        (dict(attacks=4, hit=7), "hit"),
        (dict(attacks=4, hit=3, damage=(3, 13)), "damage.critical"),
        (dict(attacks=4, hit=3, damage=(-1, 4)), "damage.normal"),
        (dict(attacks=4, hit=3, wounds=0), "wounds"),
        (dict(attacks=4, hit=3, wounds=41), "wounds"),
        (dict(attacks=4, hit=3, strategy="berserk"), "strategy"),
    ],
)
def test_fighter_ranges_name_the_field(kwargs, field):
    with pytest.raises(InputError) as error:
        kt.Fighter(**kwargs)
    assert error.value.field == field


@pytest.mark.parametrize(
    "kwargs, field",
    [(dict(attacks=4.0, hit=3), "attacks"), (dict(attacks=4, hit=3, rules=5), "rules"),
     (dict(attacks=4, hit=3, damage=3), "damage"), (dict(attacks=True, hit=3), "attacks")],
)
def test_wrong_types_raise_type_errors(kwargs, field):
    with pytest.raises(InputTypeError) as error:
        kt.Fighter(**kwargs)
    assert error.value.field == field


def test_stats_accept_plus_notation_and_damage_strings():
    fighter = kt.Fighter(attacks=4, hit="3+", damage="4/5", wounds=14, strategy="Min Dmg".replace("Dmg", "damage"))
    assert fighter.hit == 3 and fighter.damage == (4, 5) and fighter.strategy == "min_damage"
    assert kt.Operative(save="4+", wounds=8).save == 4


def test_a_name_is_how_results_say_the_profile_never_what_the_engine_sees():
    named, plain = kt.Weapon(4, 3, (3, 4), "Lethal 5+", name="bolter"), kt.Weapon(4, 3, (3, 4), "Lethal 5+")
    target, dummy = kt.Operative(3, 12, name="marine"), kt.Operative(3, 12)
    assert named == plain and hash(named) == hash(plain) and str(named) == str(plain) == "4A 3+ 3/4 Lethal 5+"
    # whichever comes first, the shot kept by value lends neither result its name
    for first, second in ((plain, named), (named, plain)):
        a, b = kt.shoot(first, dummy), kt.shoot(second, target)
        assert a.damage == b.damage
        assert {a.weapon, b.weapon} == {"4A 3+ 3/4 Lethal 5+", "bolter (4A 3+ 3/4 Lethal 5+)"}
    assert kt.shoot(plain, target).target == "marine (3+ save; 12W)" and kt.shoot(plain, dummy).target == "3+ save; 12W"
    batch = kt.shoot_batch([plain, named], [target, dummy])
    assert [batch[0].weapon, batch[1].target] == ["4A 3+ 3/4 Lethal 5+", "3+ save; 12W"]
    assert batch[1].weapon == "bolter (4A 3+ 3/4 Lethal 5+)"
    ork, anyone = kt.Fighter(4, 3, (4, 5), 10, "Brutal", name="ork"), kt.Fighter(4, 3)
    assert kt.fight(ork, anyone).fighters == ("ork (4A 3+ 4/5 Brutal; 10W; max_damage)", "4A 3+ 3/4; 12W; max_damage")
    assert kt.fight_batch([anyone], [ork])[0].fighters[1] == "ork (4A 3+ 4/5 Brutal; 10W; max_damage)"
    assert kt.attack_dice(ork).weapon == "ork (4A 3+ 4/5 Brutal)"
    # a profile's fields as a library writes them hold the name; read back, it is there
    assert kt.Weapon.from_dict(named.to_dict()).name == "bolter" and "name" not in plain.to_dict()
    with pytest.raises(InputTypeError, match="^name: "):
        kt.Operative(3, 12, name=5)  # type: ignore[arg-type]


def test_a_library_names_its_entries_by_their_keys(tmp_path):
    from mathhammer.files.library import load_library

    path = tmp_path / "lib.toml"
    path.write_text('game = "killteam"\n[weapon.gun]\ncard = "4A 3+ 3/4"\n[weapon.other]\ncard = "4A 3+ 3/4"\n'
                    'name = "Other gun"\n[operative.target]\nsave = 4\n[fighter.brute]\nattacks = 3\nhit = 4\n',
                    encoding="utf-8")
    library = load_library(path)
    assert [library["weapon"]["gun"].name, library["weapon"]["other"].name] == ["gun", "Other gun"]
    assert library["operative"]["target"].name == "target" and library["fighter"]["brute"].name == "brute"


# A datacard's WR line as printed, and what a shot reads of it (the rest changes nothing in one shot)
PASTED = [
    ('Range 8", Piercing 1, Silent', "Piercing 1", ['Range 8"', "Silent"]),
    ("Heavy (Dash only), Lethal 5+, Limited 1, Seek Light", "Lethal 5+", ["Heavy (Dash only)", "Limited 1", "Seek Light"]),
    ("PSYCHIC, Stun, Devastating 2, Range 6", "Devastating 2", ["PSYCHIC", "Stun", 'Range 6"']),
    ("heavy (reposition only), seek, balanced, range 12\u201d", "Balanced",
     ["Heavy (Reposition only)", "Seek", 'Range 12"']),
    ('Blast 2", Piercing 1', "Piercing 1", ['Blast 2"']),
    ('Torrent 1"', "", ['Torrent 1"']),
]


@pytest.mark.parametrize("pasted, modelled, set_aside", PASTED)
def test_pasted_datacard_rules_are_the_shot_without_what_changes_nothing(pasted, modelled, set_aside):
    rules, notes = kt.WeaponRules.parse_datacard(pasted)
    assert rules == kt.WeaponRules.parse(modelled) == kt.WeaponRules.parse(pasted)
    assert [note.split(": ", 1)[0] for note in notes] == set_aside
    target = kt.Operative(4, 10, "Feel No Pain 6+")
    assert kt.shoot(kt.Weapon(4, 3, (3, 4), pasted), target, 1) == kt.shoot(kt.Weapon(4, 3, (3, 4), modelled), target, 1)
    assert kt.Weapon.parse(f"4A 3+ 3/4 {pasted}") == kt.Weapon(4, 3, (3, 4), modelled)


def test_notes_say_why_and_blast_points_to_volley():
    _, notes = kt.WeaponRules.parse_datacard('Range 8", Blast 2"')
    assert notes[0] == 'Range 8": targeting and position: the shot assumes the target is within range'
    assert notes[1].startswith('Blast 2": more targets: every other operative within 2"') and "kt.volley" in notes[1]


def test_unknown_words_stay_errors():
    # Hot is modelled (docs/rules/killteam.md §2.2): read as a rule, with no note
    assert kt.WeaponRules.parse_datacard("Piercing 1, Hot") == (kt.WeaponRules(piercing=1, hot=True), ())
    with pytest.raises(InputError, match=r"^rules: unknown weapon rule 'Rang 8\"' \(did you mean 'Range x\"'\?\)"):
        kt.WeaponRules.parse_datacard('Rang 8", Piercing 1')
    with pytest.raises(InputError, match=r"^rules.piercing: "):
        kt.WeaponRules.parse_datacard('Range 8", Piercing 9')

"""Imported teams as they play (examples/killteam/data and crafted catalogues): no weapon dropped,
options that change a save made variants, ability texts applied, made switches or set aside, and
the report that says so. Expected values are read off the XML by hand or worked out by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from casedata import KILLTEAM_DATA as DATA
from mathhammer import killteam as kt
from mathhammer.killteam.data.report import summary_lines

from .crafted import operative, weapon, write_catalogue


@pytest.fixture(scope="module")
def ember() -> kt.data.Team:
    (team,) = kt.data.load_catalogues(DATA, teams=["Ember Wardens"])
    return team


def _entry(team: kt.data.Team, operative: str, weapon: str = "") -> kt.data.Entry:
    assert team.report is not None
    (found,) = [e for e in team.report.entries if (e.operative, e.weapon) == (operative, weapon)]
    return found


def _ability(team: kt.data.Team, name: str) -> kt.data.AbilityEntry:
    assert team.report is not None
    (found,) = [a for a in team.report.abilities if a.name == name]
    return found


def test_no_weapon_is_dropped(ember: kt.data.Team) -> None:
    recruit = ember["Warden Recruit"]
    # no glyph: Silent says ranged, Shock melee; "-" says nothing: both, flagged
    assert [(w.name, w.kind) for w in recruit.weapons] == [
        ("Lasher", "ranged"), ("Mystery device", "ranged"), ("Grapnel (ranged)", "ranged"),
        ("Grapnel (melee)", "melee"), ("Long lasher", "ranged")]
    assert _entry(ember, "Warden Recruit", "Mystery device").kind_from == "its Silent rule"
    assert _entry(ember, "Warden Recruit", "Shield bash").kind_from == "its Shock rule"
    grapnel = _entry(ember, "Warden Recruit", "Grapnel")
    assert grapnel.kind_from == "nothing: both"
    assert "imported as both, 'Grapnel (ranged)' and 'Grapnel (melee)'" in grapnel.flagged
    assert ember.report is not None and ember.report.flagged() == [grapnel]
    assert recruit.weapon("Grapnel (melee)").weapon == recruit.weapon("Grapnel (ranged)").weapon == kt.Weapon(3, 5, (1, 1))


def test_rules_that_disagree_make_both(tmp_path: Path) -> None:
    body = "<selectionEntries>" + operative("op", profiles=weapon("w", "Odd")
                                            .replace('typeId="wr"></characteristic>',
                                                     'typeId="wr">Range 6", Brutal</characteristic>')) + \
           "</selectionEntries>"
    (team,) = kt.data.load_catalogues(write_catalogue(tmp_path, body))
    assert [w.name for w in team["Crafted"].weapons] == ["Odd (ranged)", "Odd (melee)"]
    assert "its rules say both kinds (Brutal and Range)" in _entry(team, "Crafted", "Odd").flagged


def test_an_option_that_changes_the_save_is_a_variant(ember: kt.data.Team) -> None:
    base, shield = ember["Warden Recruit"], ember["Warden Recruit (Ward shield)"]
    assert (base.operative, shield.operative) == (kt.Operative(4, 8), kt.Operative(2, 8))
    assert (shield.variant_of, shield.option, shield.apl, shield.move) == ("Warden Recruit", "Ward shield", 2, 6)
    # the shield's weapon is the variant's only; the long lasher, its alternative, the base's only
    assert [w.name for w in shield.weapons] == ["Lasher", "Mystery device", "Grapnel (ranged)", "Grapnel (melee)",
                                                "Shield bash"]
    assert "Shield bash" not in [w.name for w in base.weapons]
    assert "Long lasher" in [w.name for w in base.weapons] and "Long lasher" not in [w.name for w in shield.weapons]
    entry = _entry(ember, "Warden Recruit (Ward shield)")
    assert entry.variant_of == "Warden Recruit" and entry.notes == ("Warden Recruit with Ward shield: Save 4+ -> 2+",)
    assert ember.report is not None and ember.report.variants() == [entry]


def test_abilities_applied_switched_and_set_aside(ember: kt.data.Team) -> None:
    # unconditional: the Captain's Iron Will is Hardy 5+, its source recorded
    captain = ember["Warden Captain"]
    assert captain.operative == kt.Operative(3, 15, "Hardy 5+")
    assert captain.applied == (kt.data.Applied("Iron Will", "abilities", "Hardy 5+"),)
    assert _ability(ember, "Iron Will").outcome == "applied"
    # a team rule named "*Ward" is the "Ward*" of the shield's WR: Storm Shield while fighting with it
    bash = ember["Warden Recruit (Ward shield)"].weapon("Shield bash")
    assert bash.abilities == kt.Abilities(storm_shield=True)
    assert ember["Warden Recruit (Ward shield)"].fighter("Shield bash") == kt.Fighter(3, 4, (2, 3), 8, "Shock",
                                                                                       "Storm Shield")
    ward = _entry(ember, "Warden Recruit", "Shield bash").ignored[0]
    assert ward.token == "Ward*" and ward.text is not None and ward.text.startswith("Whenever this operative is fighting")
    # conditional: switches, off by default
    assert [(s.name, s.what, s.notation) for s in ember.switches] == [
        ("Ember Ward", "abilities", "Just a Scratch (normals)"), ("Cinder Oath", "rules", "Severe")]
    assert ember.switch("ember ward").applies_to == ("Warden Sergeant",) and ember["Warden Sergeant"].operative == \
        kt.Operative(3, 14)
    assert ember.switch("Cinder Oath").applies_to == tuple(
        f"{op.name}/{w.name}" for op in ember for w in op.weapons if w.kind == "ranged")
    assert "one of your cinder tokens" in ember.switch("Cinder Oath").condition
    # the faction rule's second sentence changes no dice
    oath = _ability(ember, "Cinder Oath")
    assert (oath.source, oath.outcome, [r.outcome for r in oath.readings]) == ("faction rule", "partly",
                                                                               ["switch", "set aside"])
    assert oath.readings[1].reason == "no effect on a shot's or a fight's dice"
    assert _ability(ember, "Scorch*").outcome == "set aside"


def test_a_recognised_ability_changes_the_numbers_as_the_option_does(ember: kt.data.Team) -> None:
    gun = kt.Weapon(4, 3, (3, 4), "Lethal 5+")
    # (the team's profiles carry their names, which results repeat: the expected ones are named so)
    captain = "Warden Captain"
    assert kt.shoot(gun, ember[captain].operative) == kt.shoot(gun, kt.Operative(3, 15, "Hardy 5+", name=captain))
    assert kt.shoot(gun, ember[captain].operative) != kt.shoot(gun, kt.Operative(3, 15, name=captain))
    on = ember.with_switches(["Ember Ward"])
    sergeant = kt.Operative(3, 14, "Just a Scratch (normals)", name="Warden Sergeant")
    assert kt.shoot(gun, on["Warden Sergeant"].operative) == kt.shoot(gun, sergeant)
    assert on["Warden Sergeant"].fighter("Ember maul").abilities == kt.Abilities(just_a_scratch_normals=True)
    fight = kt.fight(ember["Warden Recruit (Ward shield)"].fighter("Shield bash"), ember["Warden Sergeant"].fighter("Knife & Fork"))
    assert fight == kt.fight(kt.Fighter(3, 4, (2, 3), 8, "Shock", "Storm Shield", name="Warden Recruit (Ward shield)/Shield bash"),
                             kt.Fighter(3, 4, (2, 3), 14, name="Warden Sergeant/Knife & Fork"))


HARDY = "Whenever an operative is shooting this operative, defence dice results of 5+ are critical successes."


def _ability_profile(ident: str, name: str, text: str) -> str:
    return (f'<profile name="{name}" typeName="Abilities" id="{ident}"><characteristics>'
            f'<characteristic name="Ability">{text}</characteristic></characteristics></profile>')


def test_hardy_worked_by_hand(tmp_path: Path) -> None:
    # 1 attack at 2+, 3/4, Piercing 2 against a 3+ save (one defence die). The attack is a crit (1/6),
    # a norm (4/6) or a fail. With Hardy 5+ the die is a crit save on 5-6 (2/6), a normal save on 3-4
    # (2/6), a fail on 1-2 (2/6): a norm gets through on a fail, P(3) = 4/6 * 2/6 = 8/36; a crit on
    # anything but a crit save, P(4) = 1/6 * 4/6 = 4/36. Without it a crit save is a 6 only: P(4) = 5/36.
    body = "<selectionEntries>" + operative("op", "Plague Keeper", profiles=_ability_profile("a", "Stubborn", HARDY)) + \
           "</selectionEntries>"
    (team,) = kt.data.load_catalogues(write_catalogue(tmp_path, body.replace(">4+<", ">3+<")))
    target = team["Plague Keeper"].operative
    assert target == kt.Operative(3, 8, "Hardy 5+")
    pmf = kt.shoot(kt.Weapon(1, 2, (3, 4), "Piercing 2"), target).damage.pmf
    assert [Fraction(p).limit_denominator(1000) for p in pmf[[3, 4]]] == [Fraction(8, 36), Fraction(4, 36)]
    plain = kt.shoot(kt.Weapon(1, 2, (3, 4), "Piercing 2"), kt.Operative(3, 8)).damage.pmf
    assert Fraction(plain[4]).limit_denominator(1000) == Fraction(5, 36)


def test_abilities_are_read_from_their_words_never_their_names(tmp_path: Path) -> None:
    # three abilities named "Hardy" (three rules), one named like an engine option that is none
    ops = (operative("a", "Alpha", profiles=_ability_profile("a1", "Hardy", HARDY))
           + operative("b", "Beta", profiles=_ability_profile("b1", "Hardy", "This operative can perform the Dash "
                                                                           "action for 1 less AP."))
           + operative("c", "Gamma", profiles=_ability_profile("c1", "Hardy", HARDY.replace("5+", "4+")))
           + operative("d", "Delta", profiles=_ability_profile("d1", "Storm Shield", "This operative is stubborn.")))
    (team,) = kt.data.load_catalogues(write_catalogue(tmp_path, f"<selectionEntries>{ops}</selectionEntries>"))
    assert [str(op.operative.abilities) for op in team] == ["Hardy 5+", "", "Hardy 4+", ""]
    assert team.report is not None
    assert [(a.name, a.holders, a.outcome) for a in team.report.abilities] == [
        ("Hardy", ("Alpha",), "applied"), ("Hardy", ("Beta",), "set aside"), ("Hardy", ("Gamma",), "applied"),
        ("Storm Shield", ("Delta",), "set aside")]


def test_a_faction_rule_names_operatives_by_their_categories(tmp_path: Path) -> None:
    rule = ("<rules><rule name=\"Seer's Sight\" id=\"r\"><description>Whenever a friendly GLOAM SEER operative is "
            "shooting, its ranged weapons have the Balanced weapon rule.</description></rule></rules>")
    categories = ('<categoryEntries><categoryEntry name="Gloam" id="k-gloam"/><categoryEntry name="Seer" id="k-seer"/>'
                  "</categoryEntries>")

    def member(ident: str, name: str, cats: list[str]) -> str:
        links = "".join(f'<categoryLink id="{ident}-{c}" targetId="{c}"/>' for c in cats)
        return operative(ident, name, f"<categoryLinks>{links}</categoryLinks>", weapon(f"{ident}-gun"))

    ops = member("s", "Seer", ["k-gloam", "k-seer"]) + member("w", "Warrior", ["k-gloam"])
    (team,) = kt.data.load_catalogues(write_catalogue(tmp_path, f"{categories}{rule}<selectionEntries>{ops}"
                                                                "</selectionEntries>"))
    assert team["Seer"].weapon("Gun").weapon.rules == kt.WeaponRules(reroll="balanced")
    assert team["Warrior"].weapon("Gun").weapon.rules == kt.WeaponRules()  # a GLOAM operative, not a SEER
    assert team["Seer"].weapon("Gun").applied == (kt.data.Applied("Seer's Sight", "rules", "Balanced"),)


def test_the_report_and_its_summary(ember: kt.data.Team) -> None:
    assert ember.report is not None
    data = json.loads(json.dumps(ember.report.to_dict()))
    assert data["counts"]["abilities"] == {"applied": 2, "switch": 2, "set_aside": 2, "texts": 5}
    assert (data["counts"]["flagged"], data["counts"]["variants"]) == (1, 1)
    ward = next(a for a in data["abilities"] if a["name"] == "Ward*")
    assert ward["outcome"] == "applied" and ward["readings"][0]["targets"] == [
        "Warden Recruit (Ward shield)/Shield bash"]
    # every team rule's text attached ("*Ward" too), null when the files have none ("Grim Ward*")
    texts = {k["token"]: k["text"] for e in data["entries"] for k in e.get("ignored", []) if k["token"].endswith("*")}
    assert texts["Scorch*"] == "Invented for the tests: the target smoulders." and texts["Ward*"].startswith("Whenever")
    assert texts["Grim Ward*"] is None
    short = summary_lines(ember.report, len(ember.operatives), ember.weapon_count())
    assert short == [
        "Ember Wardens (revision 4): 8 operatives, 25 weapons",
        "  applied      2  Iron Will: Hardy 5+, Ward*: Storm Shield",
        "  switches     2  Ember Ward: Just a Scratch (normals), Cinder Oath: Severe",
        "  set aside    2  Cinder Oath (no effect on a shot's or a fight's dice), +1 more",
        "  skipped      2  Warden Recruit/Broken gun, Warden Recruit/Ritual blade",
        "  flagged      1  Warden Recruit/Grapnel (both kinds)",
        "  variants     1  Warden Recruit (Ward shield)",
        "  unknown      0"]
    full = summary_lines(ember.report, len(ember.operatives), ember.weapon_count(), full=True)
    assert max(len(line) for line in full) <= 80 and len(full) > len(short)
    assert "    Scorch*: 'invented for the tests: the target smoulders': no effect on a" in full
    narrow = summary_lines(ember.report, len(ember.operatives), ember.weapon_count(), width=40)
    assert max(len(line) for line in narrow) <= 40

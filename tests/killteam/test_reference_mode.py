"""Reference mode (docs/rules/killteam.md §8.5, §8.6): for each switch, the plain transcription of the reference
calculator's behaviour in ktcalc_reference.py, brute-forced over every face (at most 3 dice a side), against the
engine with that switch alone and with variants="ktcalc", to 1e-12; and the reference's own worked examples.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from typing import Any

import numpy as np
import pytest

from mathhammer import _core
from mathhammer import killteam as kt
from mathhammer.killteam.plan import shoot_config

import ktcalc_reference as ref
from dice_brute import FACES, brute_dice

TOL = 1e-12
KTCALC = dict(kt.Variants.PRESETS["ktcalc"])

# ----------------------------------------------------------------------------------------------
# Fights: shock, lethal_test, duelist, durable.

ABILITY_TEXT = {
    "brutal": ("rules", "Brutal"), "shock": ("rules", "Shock"), "storm_shield": ("abilities", "Storm Shield"),
    "dueller": ("abilities", "Dueller"), "duelist": ("abilities", "Duelist"),
    "hammerhand": ("abilities", "Hammerhand"), "jas": ("abilities", "Just a Scratch"),
    "jas_normals": ("abilities", "Just a Scratch (normals)"),
    "half_damage": ("abilities", "Half Damage First Strike"), "durable": ("abilities", "Durable"),
    "murderous_entrance": ("abilities", "Murderous Entrance"),
}
STRATEGY_PAIRS = [("strike", "strike"), ("max_damage", "min_damage"), ("parry", "max_damage"),
                  ("min_damage", "parry"), ("max_damage", "max_damage"), ("strike", "parry")]


def fighter(abilities: frozenset, dn: int, dc: int, wounds: int, strategy: str) -> kt.Fighter:
    rules = ", ".join(t for kind, t in (ABILITY_TEXT[a] for a in sorted(abilities)) if kind == "rules")
    text = ", ".join(t for kind, t in (ABILITY_TEXT[a] for a in sorted(abilities)) if kind == "abilities")
    return kt.Fighter(3, 3, (dn, dc), wounds, rules, text, strategy)


# (switch, A's abilities, B's abilities, A's damage, B's damage, wounds A, wounds B)
FIGHT_MIXES: list[tuple[str, frozenset, frozenset, tuple[int, int], tuple[int, int], int, int]] = [
    ("shock", frozenset({"shock"}), frozenset(), (3, 4), (3, 4), 12, 12),
    ("shock", frozenset({"shock", "murderous_entrance"}), frozenset({"storm_shield"}), (2, 5), (3, 4), 9, 7),
    ("shock", frozenset({"shock"}), frozenset({"shock", "brutal"}), (3, 3), (2, 4), 5, 6),
    ("lethal_test", frozenset(), frozenset({"jas"}), (3, 4), (3, 4), 8, 3),
    ("lethal_test", frozenset(), frozenset({"jas_normals"}), (3, 4), (2, 3), 6, 3),
    ("lethal_test", frozenset({"hammerhand"}), frozenset({"half_damage"}), (1, 4), (3, 4), 7, 4),
    ("lethal_test", frozenset({"murderous_entrance"}), frozenset({"durable"}), (3, 4), (3, 5), 9, 6),
    ("lethal_test", frozenset({"murderous_entrance"}), frozenset({"jas", "half_damage"}), (5, 3), (2, 3), 6, 8),
    ("duelist", frozenset({"duelist"}), frozenset(), (3, 4), (3, 4), 12, 12),
    ("duelist", frozenset({"duelist", "storm_shield"}), frozenset({"duelist"}), (3, 4), (2, 5), 8, 7),
    ("duelist", frozenset({"duelist", "dueller"}), frozenset({"brutal"}), (3, 4), (3, 4), 6, 6),
    ("durable", frozenset({"hammerhand"}), frozenset({"durable"}), (3, 3), (3, 4), 10, 10),
    ("durable", frozenset(), frozenset({"durable", "half_damage"}), (3, 8), (3, 5), 9, 12),
    ("durable", frozenset({"hammerhand"}), frozenset({"durable", "half_damage"}), (4, 4), (3, 7), 11, 9),
    ("durable", frozenset({"durable"}), frozenset({"durable", "jas"}), (3, 5), (2, 4), 7, 7),
]
DICE = [(c, n) for c in range(4) for n in range(4 - c)]


def fixed_dice_cases() -> list[tuple[int, str, tuple[int, int], tuple[int, int], int]]:
    """Every pair of retained dice (at most 3 a side) for every mix; strategies and who goes first cycle."""
    return [(m, ("a", "b")[(i + m) % 2], da, db, (i + m) % len(STRATEGY_PAIRS))
            for m in range(len(FIGHT_MIXES)) for i, (da, db) in enumerate(itertools.product(DICE, DICE))]


FIXED_DICE_CASES = fixed_dice_cases()


def states(m: int, da: tuple[int, int], db: tuple[int, int], s: int) -> tuple[ref.FighterState, ref.FighterState]:
    _, ab_a, ab_b, dmg_a, dmg_b, wa, wb = FIGHT_MIXES[m]
    sa, sb = STRATEGY_PAIRS[s]
    return (ref.FighterState(da[0], da[1], wa, dmg_a[0], dmg_a[1], sa, ab_a),
            ref.FighterState(db[0], db[1], wb, dmg_b[0], dmg_b[1], sb, ab_b))


def fighters(m: int, s: int) -> tuple[kt.Fighter, kt.Fighter]:
    _, ab_a, ab_b, dmg_a, dmg_b, wa, wb = FIGHT_MIXES[m]
    sa, sb = STRATEGY_PAIRS[s]
    return fighter(ab_a, *dmg_a, wa, sa), fighter(ab_b, *dmg_b, wb, sb)


@pytest.mark.parametrize("mode", ["switch", "ktcalc", "default"])
@pytest.mark.parametrize("m", range(len(FIGHT_MIXES)))
def test_fixed_dice_fights_match_the_transcription(m, mode):
    switch = FIGHT_MIXES[m][0]
    variants = {"switch": {switch: ref.switches(KTCALC)[switch]}, "ktcalc": KTCALC, "default": {}}[mode]
    fight = ref.Fight(variants)
    for mm, first, da, db, s in FIXED_DICE_CASES:
        if mm != m:
            continue
        a, b = fighters(m, s)
        log = kt.resolve_fight(a, b, da, db, first, variants=variants)
        assert (log.wounds_a, log.wounds_b) == fight.resolve(*states(m, da, db, s), first), (da, db, first, s)


def test_each_fight_switch_changes_some_fixed_dice_fight():
    """The transcriptions of the two readings really differ on these mixes (else the test above proves little)."""
    for switch in ("shock", "lethal_test", "duelist", "durable"):
        reference = ref.Fight({switch: ref.switches(KTCALC)[switch]})
        default = ref.Fight()
        assert any(reference.resolve(*states(m, da, db, s), first) != default.resolve(*states(m, da, db, s), first)
                   for m, first, da, db, s in FIXED_DICE_CASES if FIGHT_MIXES[m][0] == switch), switch


def brute_fighter_dice(f: kt.Fighter) -> dict[tuple[int, int], float]:
    crit = f.weapon.crit_threshold
    return brute_dice(f.attacks, f.hit, crit, 0, 0, "none", {})


@pytest.mark.parametrize("m", [0, 3, 5, 6, 8, 9, 12, 13])
def test_exact_fight_distribution_matches_brute_force(m):
    """kt.fight in reference mode against every face of both fighters' dice through the transcription."""
    s = m % len(STRATEGY_PAIRS)
    a, b = fighters(m, s)
    first = ("a", "b")[m % 2]
    got = kt.fight(a, b, first, 1, method="exact", variants="ktcalc").joint.pmf
    want = np.zeros_like(got)
    fight = ref.Fight(KTCALC)
    for (da, pa), (db, pb) in itertools.product(brute_fighter_dice(a).items(), brute_fighter_dice(b).items()):
        ra, rb = states(m, da, db, s)
        want[fight.resolve(ra, rb, first)] += pa * pb
    assert np.abs(got - want).max() < TOL


def test_murderous_entrance_on_min_damage_strikes_the_norm_as_the_reference_does():
    """B (1 crit, 1 norm, 9W, Min Dmg, Murderous Entrance) against A (2 norms, 16W), B to move. By hand:
    striking the norm first (A 14), A strikes (B 7), B crit-parries A's last norm: B ends on 7. Parrying
    first also leaves B on 7 (A's norm strikes, B's crit strikes), so Min Dmg's tie strikes; and norm-first
    beats crit-first (the crit and its bonus, then both A's norms: B on 5). The nominal test never sees a
    kill: 3 + 3 < 14 at most."""
    a = kt.Fighter(3, 3, (2, 4), 16, "Balanced, Lethal 5+", "", "min_damage")
    b = kt.Fighter(3, 3, (2, 3), 9, "", "Murderous Entrance", "min_damage")
    for variants in ("ktcalc", "lethal_test=nominal", None):
        log = kt.resolve_fight(a, b, (0, 2), (1, 1), "b", variants=variants)
        assert log.actions == (("b", "norm_strike", 2), ("a", "norm_strike", 2), ("b", "crit_parry", 1)), variants
        assert (log.wounds_a, log.wounds_b) == (14, 7)


@pytest.mark.parametrize("mover", ["min_damage", "max_damage"])
def test_murderous_entrance_decisions_around_it_match_the_transcription(mover):
    """The decisions around that one: every split of up to 3 dice a side, the enemy on every strategy and on
    wounds below and above what the bonus's nominal dc reaches, in reference mode, against the transcription."""
    fight = ref.Fight(KTCALC)
    checked = 0
    for enemy in ("strike", "parry", "max_damage", "min_damage"):
        for wounds_a, wounds_b in itertools.product((4, 7, 9, 12, 16), (5, 9)):
            a = kt.Fighter(3, 3, (2, 4), wounds_a, "", "", enemy)
            b = kt.Fighter(3, 3, (2, 3), wounds_b, "", "Murderous Entrance", mover)
            for da, db in itertools.product(DICE, DICE):
                log = kt.resolve_fight(a, b, da, db, "b", variants=KTCALC)
                want = fight.resolve(ref.FighterState(*da, wounds_a, 2, 4, enemy),
                                     ref.FighterState(*db, wounds_b, 2, 3, mover, frozenset({"murderous_entrance"})),
                                     "b")
                assert (log.wounds_a, log.wounds_b) == want, (enemy, wounds_a, wounds_b, da, db)
                checked += 1
    assert checked == 4 * 10 * len(DICE) ** 2


@pytest.mark.parametrize(
    "a, b, first, ktcalc, default",
    [
        # Shock: B's crit strike finds no norm to discard; A strikes back.
        ((1, 0, 12, 3, 4, "strike", ""), (1, 0, 12, 3, 4, "strike", "Shock"), "b", (8, 8), (8, 12)),
        # Lethal test: Just a Scratch makes the "lethal" norm strike deal 0.
        ((0, 1, 12, 3, 4, "min_damage", ""), (0, 1, 3, 3, 4, "strike", "Just a Scratch"), "a", (9, 3), (12, 3)),
        ((0, 1, 12, 1, 4, "parry", ""), (0, 1, 2, 3, 4, "strike", "Half Damage First Strike"), "a", (12, 2), (12, 0)),
        # Duelist with only norms against only crits.
        ((0, 1, 12, 3, 4, "max_damage", "Duelist"), (1, 0, 12, 3, 4, "max_damage", ""), "a", (8, 12), (8, 9)),
        # Durable before Hammerhand: a 3-damage crit.
        ((1, 0, 12, 3, 3, "strike", "Hammerhand"), (0, 0, 12, 3, 4, "strike", "Durable"), "a", (12, 8), (12, 9)),
    ],
)
def test_the_references_worked_fight_examples(a, b, first, ktcalc, default):
    def make(spec: tuple) -> tuple[kt.Fighter, tuple[int, int]]:
        c, n, wounds, dn, dc, strategy, text = spec
        rules = "Shock" if text == "Shock" else ""
        abilities = "" if text == "Shock" else text
        return kt.Fighter(max(1, c + n), 3, (dn, dc), wounds, rules, abilities, strategy), (c, n)

    (fa, da), (fb, db) = make(a), make(b)
    for variants, want in (("ktcalc", ktcalc), (None, default)):
        log = kt.resolve_fight(fa, fb, da, db, first, variants=variants)
        assert (log.wounds_a, log.wounds_b) == want, variants


# ----------------------------------------------------------------------------------------------
# Shooting: blocks, just_a_scratch, fnp (and the relic order, the same in both modes).


def test_greedy_blocks_match_the_transcription_exhaustively():
    config = _core.killteam.ShootConfig()
    config.blocks = _core.killteam.BlockRule.greedy
    checked = 0
    for dn, dc in itertools.product(range(0, 7), range(0, 10)):
        config.normal_damage, config.critical_damage = dn, dc
        for c, n in itertools.product(range(9), range(9)):
            if c + n > 12:
                continue
            for s, t in itertools.product(range(4), range(4)):
                if s + t > 3:
                    continue
                got = _core.killteam.shoot_blocks(config, c, n, s, t)
                assert (got[2], got[3]) == ref.greedy_blocks(c, n, s, t, dn, dc), (c, n, s, t, dn, dc)
                checked += 1
    assert checked == 7 * 10 * 71 * 10  # every dn, dc, hit split of at most 12 dice, save split


@pytest.mark.parametrize("jas, jas_normals, durable", list(itertools.product((False, True), repeat=3)))
@pytest.mark.parametrize("blocks", ("optimal", "greedy"))
@pytest.mark.parametrize("timing", ("after_blocks", "before_blocks"))
def test_blocks_and_scratch_timing_match_the_transcription(jas, jas_normals, durable, blocks, timing):
    variants = {"blocks": blocks, "just_a_scratch": timing}
    target = kt.Operative(4, 12, kt.Abilities(just_a_scratch=jas, just_a_scratch_normals=jas_normals,
                                              durable=durable))
    for dn, dc in ((3, 4), (4, 4), (5, 5), (2, 5), (3, 7), (5, 3), (0, 4), (4, 0), (2, 4)):
        config = shoot_config(kt.Weapon(6, 3, (dn, dc)), target, variants=kt.Variants(**variants))
        cfg = {"dn": dn, "dc": dc, "jas": jas, "jas_normals": jas_normals, "durable": durable}
        for c, n in itertools.product(range(5), range(5)):
            for s, t in itertools.product(range(4), range(4)):
                if s + t > 3 or c + n > 6:
                    continue
                got = _core.killteam.shoot_blocks(config, c, n, s, t)
                assert (got[2], got[3]) == ref.survivors(c, n, s, t, cfg, variants), (c, n, s, t, dn, dc)


def fnp_successes(rolls: int, x: int) -> list[float]:
    out = [0.0] * (rolls + 1)
    for faces in itertools.product(FACES, repeat=rolls):
        out[sum(f >= x for f in faces)] += 6.0 ** -rolls
    return out


def relic_try(dice: int) -> float:
    rolls = list(itertools.product(FACES, repeat=dice))
    return sum(6 in r for r in rolls) / len(rolls)


def brute_shot(w: kt.Weapon, target: kt.Operative, cover: int, variants: dict[str, str]) -> dict[int, float]:
    """One attack, every attack face, every save face, every relic die and every Feel No Pain die."""
    rules, ab = w.rules, target.abilities
    cfg = {"dn": w.normal_damage, "dc": w.critical_damage, "devastating": rules.devastating,
           "jas": ab.just_a_scratch, "jas_normals": ab.just_a_scratch_normals, "durable": ab.durable}
    attack = brute_dice(w.attacks, w.hit, w.crit_threshold, 0, rules.accurate, rules.reroll,
                        {"punishing": rules.punishing, "rending": rules.rending}, False)
    out: dict[int, float] = defaultdict(float)
    for (c, n), pa in attack.items():
        dice = 3 - (max(rules.piercing, rules.piercing_crits) if c > 0 else rules.piercing)
        saves = brute_dice(dice, target.save, 6, 0, min(cover, dice), "none", {})
        for (s, t), ps in saves.items():
            uc, un = ref.survivors(c, n, s, t, cfg, variants)
            branches: list[tuple[str | None, float]] = []
            reach = 1.0
            if ab.saintly_relics:
                q = relic_try(ab.saintly_relics)
                for kind in ref.relic_order(uc, un, cfg["dn"], cfg["dc"], cfg["durable"]):
                    branches.append((kind, reach * q))
                    reach *= 1 - q
            branches.append((None, reach))
            for ignored, pr in branches:
                damage, rolls, pooled = ref.attack_outcome(c, uc, un, ignored, cfg, variants)
                chances = fnp_successes(rolls, ab.feel_no_pain) if ab.feel_no_pain else [1.0]
                for k, pf in enumerate(chances):
                    final = max(0, damage - k) if pooled else damage - k
                    out[final] += pa * ps * pr * pf
    return dict(out)


SHOTS = [
    # (weapon, target abilities, save, cover)
    (kt.Weapon(2, 6, (5, 5), "Accurate 1, Piercing 2"), "Durable", 6, 0),
    (kt.Weapon(3, 6, (2, 5), "Accurate 2, Piercing 1"), "Durable, Feel No Pain 5+", 6, 2),
    (kt.Weapon(3, 6, (2, 5), "Accurate 2, Piercing 1"), "Durable, Saintly Relics", 6, 2),
    (kt.Weapon(1, 2, (3, 3), "Lethal 2+, Devastating 2, Piercing 3"), "Feel No Pain 5+", 3, 0),
    (kt.Weapon(2, 2, (0, 4), "Accurate 1, Piercing 3"), "Feel No Pain 5+", 3, 0),
    (kt.Weapon(1, 2, (3, 4), "Lethal 2+, Devastating 2, Piercing 3"), "Feel No Pain 5+, Saintly Relics (2D6)", 3, 0),
    (kt.Weapon(3, 6, (3, 7), "Accurate 2, Piercing 1"), "Just a Scratch", 6, 2),
    (kt.Weapon(3, 3, (4, 4), "Lethal 5+, Rending"), "Durable, Saintly Relics, Just a Scratch (normals)", 4, 1),
    (kt.Weapon(3, 4, (3, 6), "Balanced, Devastating 1"), "Feel No Pain 4+, Just a Scratch, Durable", 5, 0),
    (kt.Weapon(2, 3, (4, 0), "Lethal 5+, Devastating 2, Punishing"), "Feel No Pain 6+, Saintly Relics", 3, 1),
    (kt.Weapon(3, 3, (6, 6), "Piercing Crits 1, Relentless"), "Durable, Feel No Pain 5+, Saintly Relics", 3, 1),
]
SHOOT_VARIANTS = [dict(zip(("blocks", "just_a_scratch", "fnp"), combo))
                  for combo in itertools.product(("optimal", "greedy"), ("after_blocks", "before_blocks"),
                                                 ("per_damage_instance", "per_hit"))]


@pytest.mark.parametrize("variants", SHOOT_VARIANTS, ids=lambda v: "-".join(v.values()))
@pytest.mark.parametrize("shot", range(len(SHOTS)))
def test_shots_match_the_transcription_by_brute_force(shot, variants):
    w, abilities, save, cover = SHOTS[shot]
    target = kt.Operative(save, 12, abilities)
    got = kt.shoot(w, target, cover, variants=variants).damage.pmf
    want = np.zeros(max(got.size, 40))
    for d, p in brute_shot(w, target, cover, variants).items():
        want[d] += p
    assert np.abs(want[: got.size] - got).max() < TOL and want[got.size:].sum() < TOL


def test_shots_cover_every_shooting_switch_with_its_rules():
    abilities = [kt.Abilities.parse(a) for _, a, _, _ in SHOTS]
    assert any(a.durable and a.saintly_relics for a in abilities)
    assert any(a.feel_no_pain and w.rules.devastating for (w, *_), a in zip(SHOTS, abilities))
    assert any(a.just_a_scratch for a in abilities) and any(a.just_a_scratch_normals for a in abilities)
    assert any(w.normal_damage == 0 or w.critical_damage == 0 for w, *_ in SHOTS)


@pytest.mark.parametrize(
    "shot, variants, expected",
    [
        # greedy blocks, Durable, dc = dn >= 4: the 1/36 moves from 4 to 5
        (0, "ktcalc", {0: 5 / 36, 5: 26 / 36, 9: 5 / 36}),
        (0, None, {0: 5 / 36, 4: 1 / 36, 5: 25 / 36, 9: 5 / 36}),
        # Feel No Pain per hit: one roll on a surviving crit with Devastating
        (3, "ktcalc", {0: 1 / 6, 4: 5 / 6 * 1 / 3, 5: 5 / 6 * 2 / 3}),
    ],
)
def test_the_references_worked_shots(shot, variants, expected):
    w, abilities, save, cover = SHOTS[shot]
    pmf = kt.shoot(w, kt.Operative(save, 12, abilities), cover, variants=variants).damage.pmf
    want = np.zeros(pmf.size)
    for d, p in expected.items():
        want[d] = p
    assert np.abs(pmf - want).max() < 1e-12


def test_relic_order_is_the_same_in_both_modes():
    """The corrected order (a lone Durable crit tried after a norm when dn = dc) is not a switch."""
    w = kt.Weapon(2, 6, (6, 6), "Accurate 1, Piercing 3")
    target = kt.Operative(3, 12, "Durable, Saintly Relics")
    default = kt.shoot(w, target).damage.pmf
    reference = kt.shoot(w, target, variants="ktcalc").damage.pmf
    assert np.array_equal(default, reference)
    # By hand: the rolled die is a crit with 1/6 (a lone Durable crit deals 5), the Accurate norm deals 6.
    # Norm alone: ignored with 1/6. Crit and norm: the relic tries the norm (saves 6) before the crit
    # (saves 5): 5 with 1/6, else 6 with 5/6 * 1/6, else 11.
    want = {0: 5 / 36, 5: 1 / 36, 6: 25 / 36 + 5 / 216, 11: 25 / 216}
    assert np.abs(default - np.array([want.get(i, 0.0) for i in range(default.size)])).max() < 1e-15


def variants_any() -> Any:
    return kt.Variants.resolve("ktcalc")


def test_results_record_the_variants():
    w = kt.Weapon(2, 3)
    assert kt.shoot(w, kt.Operative(3), variants="ktcalc").variants == variants_any()
    assert kt.attack_dice(w, variants="ktcalc").variants == variants_any()
    a = kt.Fighter(2, 3)
    assert kt.fight(a, a, variants="ktcalc").variants == variants_any()
    assert kt.resolve_fight(a, a, (1, 0), (0, 1), variants="ktcalc").variants == variants_any()
    assert kt.advise(a, a, (1, 0), (0, 1), variants="ktcalc").variants == variants_any()


# The reference calculator's attack-dice view of one weapon (its own figures, rounded as it prints
# them): Mystic Scry's fail -> norm is scored with Rending after it, and Rending takes only rolled
# norms left over once Norms to Crits and Mystic Scry have been charged to them (docs/rules/killteam.md
# §8.5, upgrades=rolled_first). Reading Norms to Crits as taking the Accurate norm when no rolled
# norm is left gave P(5, 0) = 0.9364.
SCRY_WEAPON = ("Accurate 1, Relentless (crit-fishing), Lethal 3+, Rending, Mystic Scry, Norms to Crits 1, "
               "Devastating 3")
SCRY_REFERENCE = {(5, 0): "0.7804", (4, 1): "0.2006", (3, 1): "0.0165", (2, 1): "0.00065", (3, 2): "0.00184",
                  (2, 2): "0.000057", (1, 1): "0.0000095"}


def test_mystic_scry_and_rending_match_the_reference_calculator():
    weapon = kt.Weapon(5, 2, (1, 8), SCRY_WEAPON)  # five dice: one Accurate norm and four rolled
    joint = kt.attack_dice(weapon, variants="ktcalc").joint
    for (crits, norms), printed in SCRY_REFERENCE.items():
        last_digit = 10.0 ** -len(printed.split(".")[1])  # within half of the last digit printed
        assert float(joint.pmf[crits, norms]) == pytest.approx(float(printed), abs=last_digit / 2)
    # crit value 8 + Devastating 3, norm value 1 score Mystic Scry's options
    rules = {"rending": True, "mystic_scry": True, "norms_to_crits": 1, "scry_values": (8 + 3, 1)}
    brute = brute_dice(5, 2, 3, auto=0, accurate=1, reroll="relentless_crit_fishing", rules=rules,
                       upgrades="rolled_first")
    for (crits, norms), p in brute.items():
        assert float(joint.pmf[crits, norms]) == pytest.approx(p, abs=TOL)

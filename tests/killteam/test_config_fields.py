"""No field of Kill Team's C++ configs or rules tables is dropped on the way to the engine.

Every field of the C++ field lists (AttackProfile, ShootConfig, FighterSpec, FightSpec: their
``field_tags()``) has a row below: a pair of values, the cache keys that must read the field, the
half of a shot it comes from, and whether the engine's result changes between the two values (with
a base config where the field only acts beside another). The test builds both configs and checks
that the configs differ, that exactly the keys the row names differ, that shoot_config_join takes
the field from its half, and that the results differ where the row says so. A field added to a list
without a row, or without its key's tag, fails here.

Every row of the rules tables (kt.WeaponRules, kt.Abilities) has a pair of profiles too: the plan's
C++ configs of the two must differ in exactly the C++ fields the row names (``Rule.engine``), or in
none where the row says the two are the same rule (Lethal 6+ is no Lethal; Accurate is clipped to
the attacks).

And a field a key leaves out cannot change what the key caches: the blocks tables (every field not
tagged blocks leaves every block of every dice and saves unchanged) and the fight decisions (a
decision cache kept from a fight that differs in a field not tagged decisions gives the fresh
cache's joint, bit for bit).
"""

from __future__ import annotations

import dataclasses
import itertools
import pickle
from typing import Any

import numpy as np
import pytest

from mathhammer import _core
from mathhammer import killteam as kt
from mathhammer.killteam import plan

_kt = _core.killteam


@dataclasses.dataclass(frozen=True)
class Pair:
    """Two values of one C++ field; ``keys``: the caches that must read it; ``half``: where a
    shot's field comes from; ``changes``: whether the result differs; ``base``: other fields set
    first (on the config, or ``a.x`` / ``b.x`` on a fighter)."""

    a: Any
    b: Any
    keys: frozenset[str] = frozenset()
    half: str | None = None
    changes: bool = True
    base: tuple[tuple[str, Any], ...] = ()


DICE = frozenset({"dice_table"})
BLOCKS = frozenset({"blocks"})
DECISIONS = frozenset({"decisions"})
R = _kt.Reroll

ATTACK_PROFILE = {
    "dice": Pair(3, 4, DICE),
    "hit": Pair(3, 4, DICE),
    "crit": Pair(6, 5, DICE),
    "auto_crits": Pair(0, 1, DICE),
    "accurate": Pair(0, 1, DICE),
    "reroll": Pair(R.none, R.balanced, DICE),
    "punishing": Pair(False, True, DICE),
    "purity_seal": Pair(False, True, DICE),
    "close_assault": Pair(False, True, DICE),
    "waaagh": Pair(False, True, DICE),
    "severe": Pair(False, True, DICE),
    "rending": Pair(False, True, DICE),
    "mystic_scry": Pair(False, True, DICE, base=(("scry_crit_value", 4), ("scry_norm_value", 3))),
    "scry_crit_value": Pair(4, 9, DICE, base=(("mystic_scry", True), ("scry_norm_value", 3))),
    "scry_norm_value": Pair(3, 1, DICE, base=(("mystic_scry", True), ("scry_crit_value", 4))),
    "fails_to_norms": Pair(0, 1, DICE),
    "norms_to_crits": Pair(0, 1, DICE),
    "obscured": Pair(False, True, DICE),
    # docs/rules/killteam.md §8.6: the reference's own example of rolled_first
    "upgrades": Pair(_kt.Upgrades.accurate_first, _kt.Upgrades.rolled_first, DICE,
                     base=(("dice", 5), ("hit", 2), ("crit", 3), ("accurate", 1), ("reroll", R.relentless_crit_fishing),
                           ("rending", True), ("mystic_scry", True), ("norms_to_crits", 1), ("scry_crit_value", 11),
                           ("scry_norm_value", 1))),
    "ones": Pair(_kt.Ones.unmodified_ones, _kt.Ones.any_two_fails, DICE, base=(("purity_seal", True), ("hit", 4))),
}

_more_dice = _kt.AttackProfile()
_more_dice.dice = 5


def _attack(**fields: Any) -> Any:
    """A shot's attack dice with these fields (the base of a target's defence against a weapon rule)."""
    profile = _kt.AttackProfile()
    for name, value in fields.items():
        setattr(profile, name, value)
    return profile


SHOOT_CONFIG = {
    "attack": Pair(_kt.AttackProfile(), _more_dice, half="weapon"),
    "normal_damage": Pair(3, 2, BLOCKS, "weapon"),
    "critical_damage": Pair(4, 5, BLOCKS, "weapon"),
    "devastating": Pair(0, 1, half="weapon"),
    "piercing": Pair(0, 1, half="weapon"),
    "piercing_crits": Pair(0, 1, half="weapon"),
    "saturate": Pair(False, True, half="weapon", base=(("cover", 1),)),
    "hot": Pair(False, True, half="weapon"),  # the shooter's damage changes, the target's does not
    "save": Pair(3, 4, half="target"),
    "cover": Pair(0, 1, half="situation"),
    "cover_crits": Pair(0, 1, half="situation"),
    "hardy": Pair(0, 4, half="target"),
    "save_reroll": Pair(R.none, R.balanced, half="target"),
    "defender_punishing": Pair(False, True, half="target"),
    "indomitus": Pair(False, True, half="target", base=(("save", 4),)),
    "save_fails_to_norms": Pair(0, 1, half="target"),
    "save_norms_to_crits": Pair(0, 1, half="target"),
    "ones": Pair(_kt.Ones.unmodified_ones, _kt.Ones.any_two_fails, half="weapon", base=(("indomitus", True), ("save", 5))),
    "blocks": Pair(_kt.BlockRule.optimal, _kt.BlockRule.greedy, BLOCKS, "weapon",
                   base=(("normal_damage", 1), ("critical_damage", 3), ("just_a_scratch", True))),
    # docs/rules/killteam.md §8.6: with optimal blocks the timing of Just a Scratch never changes a result
    "scratch": Pair(_kt.ScratchTiming.after_blocks, _kt.ScratchTiming.before_blocks, BLOCKS, "weapon", changes=False,
                    base=(("just_a_scratch", True),)),
    "fnp": Pair(_kt.FnpRule.per_damage_instance, _kt.FnpRule.per_hit, half="weapon",
                base=(("feel_no_pain", 5), ("devastating", 1))),
    "just_a_scratch": Pair(False, True, BLOCKS, "target"),
    "just_a_scratch_normals": Pair(False, True, BLOCKS, "target"),
    "durable": Pair(False, True, BLOCKS, "target", base=(("critical_damage", 5),)),
    "feel_no_pain": Pair(0, 5, half="target"),
    "saintly_relics": Pair(0, 1, half="target"),
    "ignore_piercing": Pair(False, True, half="target", base=(("piercing", 1),)),
    "worsen_piercing": Pair(False, True, half="target", base=(("piercing", 1),)),
    "ignore_lethal": Pair(False, True, half="target", base=(("attack", _attack(crit=5)),)),
    "ignore_rending": Pair(False, True, half="target", base=(("attack", _attack(rending=True)),)),
    "ignore_severe": Pair(False, True, half="target", base=(("attack", _attack(severe=True)),)),
    "ignore_saturate": Pair(False, True, half="target", base=(("saturate", True), ("cover", 1))),
    "reduce_normal_damage": Pair(0, 3, BLOCKS, "target"),
    "reduce_damage": Pair(0, 4, BLOCKS, "target"),
    "crits_as_normal": Pair(False, True, BLOCKS, "target"),
    "rounds": Pair(1, 2, half="situation"),
}

S = _kt.Strategy
FIGHTER_SPEC = {
    "wounds": Pair(12, 6),
    "normal_damage": Pair(3, 4, DECISIONS),
    "critical_damage": Pair(4, 5, DECISIONS),
    "strategy": Pair(S.max_damage, S.parry, DECISIONS),
    "objective": Pair(_kt.Objective.trade, _kt.Objective.kill, DECISIONS, base=(("a.strategy", S.optimal),)),
    "brutal": Pair(False, True, DECISIONS, base=(("b.strategy", S.parry),)),
    "shock": Pair(False, True, DECISIONS),
    "storm_shield": Pair(False, True, DECISIONS, base=(("a.strategy", S.parry),)),
    "dueller": Pair(False, True, DECISIONS, base=(("a.strategy", S.parry),)),
    "duelist": Pair(False, True, DECISIONS),
    "hammerhand": Pair(False, True, DECISIONS),
    "just_a_scratch": Pair(False, True, DECISIONS),
    "just_a_scratch_normals": Pair(False, True, DECISIONS),
    "half_damage_first_strike": Pair(False, True, DECISIONS),
    "durable": Pair(False, True, DECISIONS, base=(("b.critical_damage", 5),)),
    "murderous_entrance": Pair(False, True, DECISIONS),
    "feel_no_pain": Pair(0, 5, DECISIONS),
    "saintly_relics": Pair(0, 1, DECISIONS),
    "reduce_normal_damage": Pair(0, 3, DECISIONS),  # on fighter A: B's 3/4 strikes deal less
    "reduce_damage": Pair(0, 4, DECISIONS),
    "crits_as_normal": Pair(False, True, DECISIONS),
}

_other_fighter = _kt.FighterSpec()
_other_fighter.normal_damage = 4
FIGHT_SPEC = {
    "fighter": Pair(_kt.FighterSpec(), _other_fighter, DECISIONS),  # fighter A; FIGHTER_SPEC covers each field
    "first": Pair(0, 1),
    "shock": Pair(_kt.ShockRule.discard_crit, _kt.ShockRule.norms_only, DECISIONS, base=(("a.shock", True),)),
    "lethal_test": Pair(_kt.LethalTest.real_damage, _kt.LethalTest.nominal, DECISIONS,
                        base=(("a.strategy", S.strike), ("a.normal_damage", 2), ("a.critical_damage", 3),
                              ("b.strategy", S.parry), ("b.half_damage_first_strike", True), ("b.wounds", 3))),
    "lookahead": Pair(_kt.Lookahead.fixed, _kt.Lookahead.rolled, DECISIONS, base=(("b.feel_no_pain", 4),)),
    "duelist": Pair(_kt.DuelistRule.never_parry_nothing, _kt.DuelistRule.always, DECISIONS, base=(("a.duelist", True),)),
    "durable": Pair(_kt.DurableRule.after_damage_modifiers, _kt.DurableRule.before_damage_modifiers, DECISIONS,
                    base=(("a.hammerhand", True), ("a.critical_damage", 3), ("b.durable", True))),
    "injured": Pair(True, False),  # the results are of two-round fights, with injured dice (result_of)
}

LISTS = {"AttackProfile": ATTACK_PROFILE, "ShootConfig": SHOOT_CONFIG, "FighterSpec": FIGHTER_SPEC,
         "FightSpec": FIGHT_SPEC}
KEYS = ("dice_table", "blocks", "decisions")
HALVES = ("weapon", "target", "situation")


def fields_of(struct: str) -> list[tuple[str, str]]:
    return [(struct, name) for name in getattr(_kt, struct).field_tags()]


ALL_FIELDS = [f for struct in LISTS for f in fields_of(struct)]


def test_every_field_of_every_list_has_a_row() -> None:
    for struct, rows in LISTS.items():
        declared = list(getattr(_kt, struct).field_tags())
        assert sorted(rows) == sorted(declared), f"{struct}: add a row for each new field (and drop gone ones)"


# --- building a config of each list from a row -----------------------------------------------------

def build(struct: str, name: str, value: Any) -> Any:
    """A config of ``struct`` with the row's base and ``name`` = value (a fighter field on fighter A)."""
    pair = LISTS[struct][name]
    if struct in ("FighterSpec", "FightSpec"):
        spec = _kt.FightSpec()
        fighters = {"a": _kt.FighterSpec(), "b": _kt.FighterSpec()}
        own = []
        for key, v in pair.base:
            side, _, field = key.rpartition(".")
            if side:
                setattr(fighters[side], field, v)
            else:
                own.append((field, v))
        if struct == "FighterSpec":
            setattr(fighters["a"], name, value)
        for field, v in own:
            setattr(spec, field, v)
        if struct == "FightSpec" and name == "fighter":
            fighters["a"] = value
        elif struct == "FightSpec":
            setattr(spec, name, value)
        spec.fighter_a, spec.fighter_b = fighters["a"], fighters["b"]
        return spec
    config = getattr(_kt, struct)()
    for field, v in pair.base:
        setattr(config, field, v)
    setattr(config, name, value)
    return config


def keys_of(config: Any, other: Any) -> dict[str, bool]:
    """For each cache key, whether ``config`` and ``other`` have the same one."""
    if isinstance(config, _kt.AttackProfile):
        return {"dice_table": config.dice_table_key() == other.dice_table_key()}
    if isinstance(config, _kt.ShootConfig):
        return {"blocks": config.blocks_key() == other.blocks_key(),
                "dice_table": config.attack.dice_table_key() == other.attack.dice_table_key()}
    return {"decisions": bool(_kt.same_decision_rules(config, other))}


def result_of(config: Any) -> np.ndarray:
    if isinstance(config, _kt.AttackProfile):
        return np.asarray(_kt.attack_distribution(config))
    if isinstance(config, _kt.ShootConfig):
        damage, _, _, self_damage = _kt.shoot_exact(config)  # the target's damage, then Hot's to the shooter
        return np.concatenate([np.asarray(damage), [-1.0], np.asarray(self_damage)])
    # two rounds, an injured fighter rolling at 4+ instead of 3+ (docs/rules/killteam.md §3.9)
    dice = _kt.attack_distribution(_kt.AttackProfile())
    injured = _kt.attack_distribution(_kt.injured_profile(_kt.AttackProfile()))
    pmf, _ = _kt.fight_exact(config, dice, dice, 2, injured_a=injured, injured_b=injured)
    return np.asarray(pmf)


@pytest.mark.parametrize("struct,name", ALL_FIELDS, ids=[f"{s}.{n}" for s, n in ALL_FIELDS])
def test_two_values_of_a_field_change_the_config_its_keys_and_its_result(struct: str, name: str) -> None:
    pair = LISTS[struct][name]
    a, b = build(struct, name, pair.a), build(struct, name, pair.b)
    assert a.__getstate__() != b.__getstate__()
    assert pickle.loads(pickle.dumps(b)).__getstate__() == b.__getstate__()  # pickling keeps the field
    # exactly the keys the row names read the field
    tags = set(getattr(_kt, struct).field_tags()[name])
    assert tags & set(KEYS) == set(pair.keys), f"{struct}.{name}: its line in the C++ field list has other tags"
    same = keys_of(a, b)
    for key, equal in same.items():
        if struct == "ShootConfig" and key == "dice_table":
            assert equal == (name != "attack"), f"{name}: a shot's attack dice are its own AttackProfile"
            continue
        assert equal == (key not in pair.keys), f"{struct}.{name}: the {key} key {'ignores' if equal else 'reads'} it"
    # the result changes where the row says so
    changed = not np.array_equal(result_of(a), result_of(b))
    assert changed == pair.changes, f"{struct}.{name}: {pair.a} -> {pair.b}"


@pytest.mark.parametrize("name", list(SHOOT_CONFIG), ids=list(SHOOT_CONFIG))
def test_shoot_config_join_takes_a_field_from_its_half(name: str) -> None:
    pair = SHOOT_CONFIG[name]
    assert pair.half in HALVES and _kt.ShootConfig.field_tags()[name] and pair.half in _kt.ShootConfig.field_tags()[name]
    weapon, target = _kt.ShootConfig(), _kt.ShootConfig()
    situation = {"cover": 0, "cover_crits": 0, "rounds": 1}
    if pair.half == "weapon":
        setattr(weapon, name, pair.b)
    elif pair.half == "target":
        setattr(target, name, pair.b)
        setattr(weapon, name, pair.a)
    else:
        situation[name] = pair.b
        setattr(weapon, name, pair.a)
        setattr(target, name, pair.a)
    joined = _kt.shoot_config_join(weapon, target, **situation)
    expected = build("ShootConfig", name, pair.b) if not pair.base else None
    value = getattr(joined, name)
    if isinstance(value, _kt.AttackProfile):
        assert value.__getstate__() == pair.b.__getstate__()
    else:
        assert value == pair.b
    if expected is not None:
        assert joined.__getstate__() == expected.__getstate__()


# --- a field a key leaves out cannot change what the key caches ----------------------------------

@pytest.mark.parametrize("name", [n for n, tags in _kt.ShootConfig.field_tags().items() if "blocks" not in tags])
def test_a_field_the_blocks_key_leaves_out_changes_no_block(name: str) -> None:
    pair = SHOOT_CONFIG[name]
    for base in ({}, {"just_a_scratch": True, "durable": True, "critical_damage": 5},
                 {"blocks": _kt.BlockRule.greedy, "normal_damage": 4, "critical_damage": 3}):
        a, b = _kt.ShootConfig(), _kt.ShootConfig()
        for field, value in base.items():
            setattr(a, field, value)
            setattr(b, field, value)
        setattr(a, name, pair.a)
        setattr(b, name, pair.b)
        assert a.blocks_key() == b.blocks_key()
        for crits, norms, crit_saves, norm_saves in itertools.product(range(4), range(4), range(4), range(4)):
            if crit_saves + norm_saves > 3:
                continue
            args = (crits, norms, crit_saves, norm_saves)
            assert _kt.shoot_blocks(a, *args) == _kt.shoot_blocks(b, *args), (name, base, args)


def _left_out_of_decisions() -> list[tuple[str, str]]:
    out = [("FighterSpec", n) for n, tags in _kt.FighterSpec.field_tags().items() if "decisions" not in tags]
    return out + [("FightSpec", n) for n, tags in _kt.FightSpec.field_tags().items() if "decisions" not in tags]


@pytest.mark.parametrize("struct,name", _left_out_of_decisions())
def test_a_field_the_decisions_key_leaves_out_gets_the_fresh_joint_from_kept_decisions(struct: str, name: str) -> None:
    pair = LISTS[struct][name]
    before, after = build(struct, name, pair.a), build(struct, name, pair.b)
    for side in ("fighter_a", "fighter_b"):  # a fight with some decisions to make
        f = getattr(before, side)
        f.strategy = S.min_damage if side == "fighter_b" else S.max_damage
        setattr(before, side, f)
        g = getattr(after, side)
        g.strategy = f.strategy
        setattr(after, side, g)
    assert _kt.same_decision_rules(before, after)
    dice = _kt.attack_distribution(_kt.AttackProfile())
    fresh, _ = _kt.fight_exact(after, dice, dice, 2)
    _kt.fight_exact(before, dice, dice, 2, reuse_decisions=True)  # leaves its decisions for the next call
    kept, _ = _kt.fight_exact(after, dice, dice, 2, reuse_decisions=True)
    assert np.array_equal(np.asarray(kept), np.asarray(fresh))


# --- the rules tables reach the C++ configs ----------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Profiles:
    """Two rules or ability texts on one profile; ``same``: the plan's configs are equal (the
    two are one rule); ``attacks``: the weapon's dice."""

    a: str
    b: str
    same: bool = False
    attacks: int = 4


WEAPON_RULES = {
    "accurate": [Profiles("", "Accurate 1"), Profiles("Accurate 2", "Accurate 3", same=True, attacks=2)],
    "auto_crits": [Profiles("", "Auto Crits 1"), Profiles("Auto Crits 2", "Auto Crits 5", same=True, attacks=2)],
    "reroll": [Profiles("", "Balanced"), Profiles("Ceaseless, Balanced", "Ceaseless Balanced", same=True)],
    "lethal": [Profiles("", "Lethal 5+"), Profiles("", "Lethal 6+", same=True)],
    "punishing": [Profiles("", "Punishing")],
    "severe": [Profiles("", "Severe")],
    "rending": [Profiles("", "Rending")],
    "brutal": [Profiles("", "Brutal")],
    "shock": [Profiles("", "Shock")],
    "saturate": [Profiles("", "Saturate")],
    "purity_seal": [Profiles("", "Purity Seal")],
    "close_assault": [Profiles("", "Close Assault")],
    "waaagh": [Profiles("", "Waaagh")],
    "mystic_scry": [Profiles("", "Mystic Scry")],
    "fails_to_norms": [Profiles("", "Fails to Norms 1")],
    "norms_to_crits": [Profiles("", "Norms to Crits 1")],
    "piercing": [Profiles("", "Piercing 1")],
    "piercing_crits": [Profiles("", "Piercing Crits 1")],
    "devastating": [Profiles("", "Devastating 1")],
    "hot": [Profiles("", "Hot")],
}
ABILITIES = {
    "storm_shield": [Profiles("", "Storm Shield")],
    "dueller": [Profiles("", "Dueller")],
    "duelist": [Profiles("", "Duelist")],
    "hammerhand": [Profiles("", "Hammerhand")],
    "just_a_scratch": [Profiles("", "Just a Scratch")],
    "just_a_scratch_normals": [Profiles("", "Just a Scratch (normals)")],
    "half_damage_first_strike": [Profiles("", "Half Damage First Strike")],
    "durable": [Profiles("", "Durable")],
    "murderous_entrance": [Profiles("", "Murderous Entrance")],
    "punishing": [Profiles("", "Punishing")],
    "feel_no_pain": [Profiles("", "Feel No Pain 5+")],
    "saintly_relics": [Profiles("", "Saintly Relics"), Profiles("Saintly Relics", "Saintly Relics (2D6)")],
    "hardy": [Profiles("", "Hardy 5+")],
    "save_reroll": [Profiles("", "Balanced Saves")],
    "indomitus": [Profiles("", "Indomitus")],
    "save_fails_to_norms": [Profiles("", "Save Fails to Norms 1")],
    "save_norms_to_crits": [Profiles("", "Save Norms to Crits 1")],
    "ignore_piercing": [Profiles("", "Ignore Piercing")],
    "worsen_piercing": [Profiles("", "Worsen Piercing")],
    "ignore_lethal": [Profiles("", "Ignore Lethal")],
    "ignore_rending": [Profiles("", "Ignore Rending")],
    "ignore_severe": [Profiles("", "Ignore Severe")],
    "ignore_saturate": [Profiles("", "Ignore Saturate")],
    "reduce_normal_damage": [Profiles("", "Reduce Normal Dmg 3+"), Profiles("Reduce Normal Dmg 3+", "Reduce Normal Dmg 4+")],
    "reduce_damage": [Profiles("", "Reduce Dmg 4+")],
    "crits_as_normal": [Profiles("", "Crits as Normal Dmg")],
}
# C++ fields a row sets beside the ones it names: Mystic Scry's scores come from the damage.
ALSO_SET = {"mystic_scry": {"AttackProfile.scry_crit_value", "AttackProfile.scry_norm_value"}}


def test_every_row_of_the_rules_tables_has_a_pair() -> None:
    assert list(WEAPON_RULES) == [name for name, _ in kt.WeaponRules.TABLE.rows()]
    assert list(ABILITIES) == [name for name, _ in kt.Abilities.TABLE.rows()]


def _configs(rules: str, abilities: str, attacks: int) -> dict[str, tuple[Any, ...]]:
    """Every C++ config the plan makes of a weapon, a target and a fighter with these texts."""
    weapon = kt.Weapon(attacks, 3, (3, 4), rules)
    fighter = kt.Fighter(attacks, 3, (3, 4), 12, rules, abilities)
    target = kt.Operative(3, 12, abilities)
    shot = plan.shoot_config(weapon, target)
    return {"AttackProfile": plan.attack_profile(weapon).__getstate__(),
            "ShootConfig": shot.__getstate__(),
            "FighterSpec": plan.fight_spec(fighter, fighter).fighter_a.__getstate__()}


def _differing(a: dict[str, tuple[Any, ...]], b: dict[str, tuple[Any, ...]]) -> set[str]:
    out = set()
    for struct in a:
        names = list(getattr(_kt, struct).field_tags())
        for name, x, y in zip(names, a[struct], b[struct]):
            if x != y and not (struct == "ShootConfig" and name == "attack"):  # AttackProfile says which
                out.add(f"{struct}.{name}")
    return out


@pytest.mark.parametrize("table,name", [("rules", n) for n in WEAPON_RULES] + [("abilities", n) for n in ABILITIES])
def test_a_rule_reaches_exactly_the_cpp_fields_its_row_names(table: str, name: str) -> None:
    rows = dict((kt.WeaponRules if table == "rules" else kt.Abilities).TABLE.rows())
    engine = set(rows[name].engine) | ALSO_SET.get(name, set())
    for pair in (WEAPON_RULES if table == "rules" else ABILITIES)[name]:
        texts = {"rules": ("", ""), "abilities": ("", "")}
        texts[table] = (pair.a, pair.b)
        a = _configs(texts["rules"][0], texts["abilities"][0], pair.attacks)
        b = _configs(texts["rules"][1], texts["abilities"][1], pair.attacks)
        assert _differing(a, b) == (set() if pair.same else engine), pair


@pytest.mark.parametrize("config", ["AttackProfile", "ShootConfig", "FighterSpec", "FightSpec"])
def test_from_fields_sets_each_field_as_an_attribute_write_does(config: str) -> None:
    # the plans build configs with from_fields({field: value}) instead of one attribute write per
    # field: every field it can set must land where the attribute write puts it, and nowhere else
    cls = getattr(_kt, config)
    default = cls()
    changed = 0
    for name in cls.field_tags():
        value = getattr(default, name, None)
        if isinstance(value, bool):
            other: object = not value
        elif isinstance(value, int):
            other = value + 1
        elif hasattr(type(value), "__members__"):
            members = list(type(value).__members__.values())
            other = members[(members.index(value) + 1) % len(members)]
        else:
            continue  # a nested config or an array of them: the nested ones are set whole below
        written = cls()
        setattr(written, name, other)
        assert cls.from_fields({name: other}).__getstate__() == written.__getstate__(), name
        changed += 1
    assert changed >= 5
    with pytest.raises(KeyError, match="not a field: no_such_field"):
        cls.from_fields({"no_such_field": 1})


def test_from_fields_takes_a_nested_config_whole() -> None:
    profile = _kt.AttackProfile.from_fields({"dice": 7, "hit": 2, "rending": True})
    config = _kt.ShootConfig.from_fields({"attack": profile, "save": 5})
    assert (config.attack.dice, config.attack.hit, config.attack.rending, config.save) == (7, 2, True, 5)

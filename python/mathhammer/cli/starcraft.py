"""``mathhammer starcraft attack|sequence|compare|profiles``.

``attack``: one batch from the command line (defaults: one Marine's C-14 rifle into 12 Zerglings, as
``sc.attack`` fires one model; ``--attacker marine`` fires the whole unit); ``sequence``: several
batches against one unit, its state carried over (defaults: 6 Marines then 2 Marauders into a Zealot
squad); ``compare``: each weapon against each unit. Each command imports the StarCraft engine when it
runs, so this module loads no game by itself.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from mathhammer.cli.options import (
    FormatOption,
    Method,
    OptionSpec,
    OutputFormat,
    ProfilesOption,
    VariantsOption,
    cli_variants,
    engine_options,
    engine_parameters,
    option_parameters,
    take,
    with_parameters,
)
from mathhammer.cli.commands import epilog, group_help
from mathhammer.cli.output import add_profiles_command, emit, note_plot, result_tables
from mathhammer.cli.progress import progress_bar
from mathhammer.core.options import DEFAULT_SAMPLES
from mathhammer.errors import InputError
from mathhammer.core.guard import excerpt

if TYPE_CHECKING:
    from mathhammer.starcraft import AttackResult, Batch, Unit, Variants, Weapon

__all__ = ["app", "parse_batch"]

app = typer.Typer(name="starcraft", help=group_help("starcraft"), epilog=epilog("starcraft"), no_args_is_help=True)

_W, _U, _A, _R = "Weapon", "Target unit", "Attack", "Rule variants"
# Weapon fields that keywords set: --keywords replaces all of them.
_KEYWORD_FIELDS = {"pierce": None, "precision": 0, "critical_hit": 0, "anti_evade": 0, "burst_fire": 0,
                   "locked_in": 0, "long_range": False, "concentrated_fire": None, "instant": False}
_NONE = ("-", "none", "")


def _library(profiles: Path | None) -> Any:
    from mathhammer.files.library import default_library, load_game_library

    return load_game_library(profiles, "starcraft") if profiles is not None else default_library("starcraft")


def _profile(kind: str, name: str, library: Any) -> Any:
    """A weapon or unit by name: an entry of --profiles, or of the built-in catalogue."""
    from mathhammer.files.library import resolve_profile

    return resolve_profile("starcraft", kind, name, library)


def _none_or(text: str | None) -> Any:
    return None if text is not None and text.strip().lower() in _NONE else text


def _pairs(field: str, text: str | None, keys: tuple[str, ...]) -> dict[str, int]:
    from mathhammer.core.guard import check_notation

    if text is None or not text.strip():
        return {}
    out: dict[str, int] = {}
    for part in re.split(r"[,;]", check_notation(field, text)):
        match = re.fullmatch(r"\s*([a-z_]+)\s*[=:]\s*(-?\d+)\s*", part)
        if not match:
            raise InputError(field, f"{excerpt(part.strip())}: write key=value pairs such as 'dodge=1,tough=1' (keys: {', '.join(keys)})")
        out[match.group(1)] = int(match.group(2))
    return out


def _hits(text: str | None) -> tuple[int, int] | None:
    from mathhammer.core.guard import check_notation

    if text is None:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*[,(/ ]\s*(\d+)\s*\)?\s*", check_notation("hits", text))
    if not match:
        raise InputError("hits", f"{excerpt(text)}: write X,Y for HITS X (Y), e.g. 2,1")
    return int(match.group(1)), int(match.group(2))


def _damage_set(text: str | None) -> Any:
    from mathhammer.core.guard import check_notation

    if text is None:
        return None
    items = [t.strip() for t in check_notation("damage_set", text).split(",") if t.strip()]
    values: list[Any] = []
    for item in items:
        if item.lower() == "size":
            values.append("size")
        elif re.fullmatch(r"\d+", item):
            values.append(int(item))
        else:
            raise InputError("damage_set", f"{excerpt(item)}: write a number or 'size' (several separated by commas)")
    return values[0] if len(values) == 1 else values


# --- attack: its options, declared by group --------------------------------------------------------

WEAPON_OPTIONS = (
    OptionSpec("weapon", Optional[str], "Weapon by name: a catalogue key (c14_rifle, quad_k12, particle_disruptors, kerrigan_blades, shock_cannon) or an entry of --profiles. Default c14_rifle (none with --mode hits)."),
    OptionSpec("profiles", Optional[Path], "Profile library (.toml/.json, game = \"starcraft\") to take --weapon and --unit from."),
    OptionSpec("roa", Optional[str], "Rate of Attack per model, or BT+k for a template weapon."),
    OptionSpec("hit", Optional[str], "Hit target number, 2..6 (3 or 3+)."),
    OptionSpec("damage", Optional[int], "Damage per die, 0..20."),
    OptionSpec("surge_tags", Optional[str], "Surge Combat Tags, e.g. 'Light, Armoured' ('-' for no Surge)."),
    OptionSpec("surge_dice", Optional[str], "Surge die: D3, D3+1, D6 ('-' for none)."),
    OptionSpec("template", Optional[bool], "A template weapon (RoA BT+k, Surge = affected models).", flag=True),
    OptionSpec("keywords", Optional[str], "Weapon keywords in card notation; replaces the weapon's, e.g. 'PIERCE Armoured (2), CRITICAL HIT (2)'."),
    OptionSpec("pierce", Optional[str], "PIERCE as 'Tag X', e.g. 'Armoured 2' ('-' for none)."),
    OptionSpec("precision", Optional[int], "PRECISION (X) of the weapon."),
    OptionSpec("critical_hit", Optional[int], "CRITICAL HIT (X) of the weapon."),
    OptionSpec("anti_evade", Optional[int], "ANTI-EVADE (X) of the weapon."),
    OptionSpec("burst_fire", Optional[int], "BURST FIRE (X) of the weapon."),
    OptionSpec("locked_in", Optional[int], "LOCKED IN (X) of the weapon."),
    OptionSpec("long_range", Optional[bool], "LONG RANGE.", flag=True),
    OptionSpec("concentrated_fire", Optional[int], "CONCENTRATED FIRE (X); 0 for none."),
    OptionSpec("instant", Optional[bool], "INSTANT (no reactions).", flag=True),
)
UNIT_OPTIONS = (
    OptionSpec("unit", str, "Target unit by name: a catalogue key (marine, marauder, zergling, roach, zealot, stalker, immortal) or an entry of --profiles.", "zergling"),
    OptionSpec("models", Optional[int], "Models in the unit, 1..40."),
    OptionSpec("hp", Optional[int], "HP per model, 1..30."),
    OptionSpec("armour", Optional[str], "Armour target number, 2..6."),
    OptionSpec("evade", Optional[str], "Evade target number, 2..6, or '-' (never evades)."),
    OptionSpec("shield", Optional[int], "Shield, 0..20."),
    OptionSpec("tags", Optional[str], "Combat Tags, e.g. 'Biological, Light, Ground'."),
    OptionSpec("size", Optional[int], "Unit Size (for --damage-set size)."),
    OptionSpec("tough", Optional[int], "TOUGH (X) of the unit."),
    OptionSpec("marker", Optional[int], "Damage Marker before the attack."),
    OptionSpec("shielded", Optional[bool], "Shielded before the attack (default: Shield > 0).",
               declarations=("--shielded/--no-shielded", " /--not-shielded")),
    OptionSpec("first_model_alive", Optional[bool], "Whether the Shield-carrying first model still stands.",
               declarations=("--first-model-alive/--first-model-dead",)),
)
ATTACK_OPTIONS = (
    OptionSpec("attacker", Optional[str], "The attacking unit by name (marine, marauder, stalker, or an entry of --profiles with --weapon): all its models fire its weapon."),
    OptionSpec("mode", str, "weapon, spillover (a template's other unit) or hits (HITS X (Y)).", "weapon"),
    OptionSpec("firing_models", Optional[int], "Models firing the weapon, 0..60 (default 1, like sc.attack; with --attacker, all its models)."),
    OptionSpec("long_range_models", int, "Of those, models at LONG RANGE (-1 to hit).", 0),
    OptionSpec("burst_models", Optional[int], "Models within BURST FIRE range (default: all at normal range)."),
    OptionSpec("target_stationary", bool, "The target is stationary (LOCKED IN).", False,
               declarations=("--stationary/--no-stationary", " /--not-stationary")),
    OptionSpec("affected_models", Optional[int], "Models under the template (template weapons, spillover)."),
    OptionSpec("hits", Optional[str], "HITS X (Y) as X,Y (with --mode hits)."),
    OptionSpec("roa_mod", int, "RoA modifier per model.", 0),
    OptionSpec("dice_mod", int, "Attack Pool dice modifier (Guardian Shield -1).", 0),
    OptionSpec("hit_mod", int, "Hit roll modifier (+1 lowers the target number).", 0),
    OptionSpec("armour_mod", int, "Armour roll modifier.", 0),
    OptionSpec("evade_mod", int, "Evade roll modifier.", 0),
    OptionSpec("bonus_precision", int, "Extra PRECISION granted for this batch.", 0),
    OptionSpec("bonus_critical_hit", int, "Extra CRITICAL HIT granted for this batch.", 0),
    OptionSpec("bonus_anti_evade", int, "Extra ANTI-EVADE granted for this batch.", 0),
    OptionSpec("dodge", int, "DODGE (X) of the target.", 0),
    OptionSpec("bonus_tough", int, "Extra TOUGH granted for this batch.", 0),
    OptionSpec("evade_eligible", Optional[bool], "Whether the unit may Evade (default: when it has an Evade value).", flag=True),
    OptionSpec("damage_set", Optional[str], "Damage per die set by an ability: a number or 'size' (Aftershock)."),
    OptionSpec("damage_cap", Optional[int], "Damage per die capped (Improved Barrier = 1)."),
    OptionSpec("td_reduction", int, "Total Damage reduction (Transfusion 2).", 0),
    OptionSpec("td_floor", int, "Total Damage floor after the reduction.", 0),
    OptionSpec("visible_models", Optional[int], "Models visible to the attacker (caps casualties unless engaged)."),
    OptionSpec("engaged", bool, "The target is engaged (no visible-model cap).", False,
               declarations=("--engaged/--no-engaged", " /--not-engaged")),
    OptionSpec("reaction", Optional[str], "Reaction grants as key=value pairs: dodge, tough, damage_cap, td_reduction, td_floor."),
)
RULE_OPTIONS = (
    OptionSpec("critical_hit_rule", Optional[str], "count (default: CRITICAL HIT moves X dice) or natural (dice showing X)."),
    OptionSpec("leftover", Optional[str], "marker (default: leftover damage stays) or lost."),
    OptionSpec("stacking", Optional[str], "sum (default) or max: the same keyword from several sources."),
)


def _rules(switches: dict[str, Any], variants: str | None) -> Variants:
    """The rule variants from --variants or from the rule options given (``take(options, RULE_OPTIONS)``)."""
    from mathhammer.starcraft import Variants

    rules: Variants = cli_variants(Variants, variants, {"critical_hit": switches["critical_hit_rule"],
                                                        "leftover": switches["leftover"], "stacking": switches["stacking"]},
                                   {"critical_hit": "--critical-hit-rule"})
    return rules


def _weapon(given: dict[str, Any], name: str, library: Any) -> tuple[Weapon, Weapon]:
    """The weapon named (a catalogue key or a library entry) with the weapon options given, and the
    profile it started from."""
    from mathhammer.starcraft import Weapon

    base: Weapon = _profile("weapon", name, library)
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(Weapon)}
    if given["keywords"] is not None:
        fields.update(_KEYWORD_FIELDS, keywords=given["keywords"])
    plain = ("roa", "hit", "damage", "template", "precision", "critical_hit", "anti_evade", "burst_fire", "locked_in",
             "long_range", "instant")
    fields.update({k: given[k] for k in plain if given[k] is not None})
    if given["surge_tags"] is not None:
        fields["surge_tags"] = _none_or(given["surge_tags"]) or ()
        if not fields["surge_tags"]:  # no Surge line at all
            fields["surge_dice"] = None
    if given["surge_dice"] is not None:
        fields["surge_dice"] = _none_or(given["surge_dice"])
    if given["pierce"] is not None:
        fields["pierce"] = _none_or(given["pierce"])
    if given["concentrated_fire"] is not None:
        fields["concentrated_fire"] = given["concentrated_fire"] or None
    return Weapon(**fields), base


def _unit(given: dict[str, Any], library: Any) -> tuple[Unit, Unit]:
    """The target unit named with the unit options given, and the profile it started from."""
    from mathhammer.starcraft import Unit

    base: Unit = _profile("unit", given["unit"], library)
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(Unit)}
    plain = ("models", "hp", "armour", "shield", "size", "tough", "marker", "first_model_alive")
    fields.update({k: given[k] for k in plain if given[k] is not None})
    if given["evade"] is not None:
        fields["evade"] = _none_or(given["evade"])
    if given["tags"] is not None:
        fields["tags"] = _none_or(given["tags"]) or ()
    fields["shielded"] = given["shielded"]  # Shielded follows the (possibly changed) Shield unless it is given
    return Unit(**fields), base


def _batch_options(given: dict[str, Any], weapon: Weapon | None) -> dict[str, Any]:
    """The batch options of sc.attack from the attack options given."""
    from mathhammer.starcraft.plan import REACTION_KEYS

    mode = given["mode"]
    options: dict[str, Any] = {
        "mode": mode, "firing_models": 1 if given["firing_models"] is None else given["firing_models"],
        "long_range_models": given["long_range_models"], "burst_models": given["burst_models"],
        "target_stationary": given["target_stationary"], "affected_models": given["affected_models"],
        "hits": _hits(given["hits"]), "roa_mod": given["roa_mod"], "dice_mod": given["dice_mod"],
        "hit_mod": given["hit_mod"], "armour_mod": given["armour_mod"], "evade_mod": given["evade_mod"],
        "anti_evade": given["bonus_anti_evade"], "precision": given["bonus_precision"],
        "critical_hit": given["bonus_critical_hit"], "dodge": given["dodge"], "tough": given["bonus_tough"],
        "evade_eligible": given["evade_eligible"], "damage_set": _damage_set(given["damage_set"]),
        "damage_cap": given["damage_cap"], "td_reduction": given["td_reduction"], "td_floor": given["td_floor"],
        "visible_models": given["visible_models"], "engaged": given["engaged"],
        "reaction": _pairs("reaction", given["reaction"], REACTION_KEYS) or None,
    }
    if weapon is None or weapon.template or mode != "weapon":
        options.pop("firing_models")  # only a non-template weapon batch counts firing models
    return options


@app.command("attack", epilog=epilog("starcraft", "attack"))
@with_parameters(before=[*option_parameters(WEAPON_OPTIONS, _W), *option_parameters(UNIT_OPTIONS, _U),
                         *option_parameters(ATTACK_OPTIONS, _A), *option_parameters(RULE_OPTIONS, _R)],
                 after=engine_parameters(Method.auto, DEFAULT_SAMPLES))
def attack_command(variants: VariantsOption = None, fmt: FormatOption = OutputFormat.table, **options: Any) -> None:
    """One batch: every model firing one weapon at one unit; prints damage and casualty tables.

    One model fires unless --firing-models says how many, or --attacker names the unit that fires.
    """
    from mathhammer.starcraft import attack

    engine = engine_options(options)
    weapon_given, unit_given, attack_given, switches = (take(options, specs) for specs in (
        WEAPON_OPTIONS, UNIT_OPTIONS, ATTACK_OPTIONS, RULE_OPTIONS))
    library = _library(weapon_given["profiles"])
    attacker = attack_given["attacker"]
    shooter: Unit | None = None if attacker is None else _profile("unit", attacker, library)
    if shooter is not None:
        attack_given["firing_models"] = _attacker_models(shooter, attack_given["firing_models"])
    the_weapon: Weapon | None = None
    base_weapon: Weapon | None = None
    if weapon_given["weapon"] is not None or shooter is not None or attack_given["mode"] != "hits":
        # HITS X (Y) needs no weapon
        name = weapon_given["weapon"] or (_attacker_weapon(attacker, shooter) if attacker and shooter else "c14_rifle")
        the_weapon, base_weapon = _weapon(weapon_given, name, library)
    the_unit, base_unit = _unit(unit_given, library)
    batch = _batch_options(attack_given, the_weapon)
    rules = _rules(switches, variants)
    # a profile an option changed is no longer the one named: the result names it by its card
    if the_weapon is not None and the_weapon != base_weapon:
        the_weapon = dataclasses.replace(the_weapon, name="")
    if the_unit != base_unit:
        the_unit = dataclasses.replace(the_unit, name="")
    with progress_bar("StarCraft attack") as progress:
        result = attack(the_weapon, the_unit, variants=rules, **engine.keywords(), progress=progress, **batch)
    _print(result, the_weapon, the_unit, batch, rules, fmt, shooter)


def _attacker_models(shooter: Unit, firing_models: int | None) -> int:
    """How many of a named attacker's models fire: all of them, or the --firing-models of them."""
    if firing_models is None:
        return shooter.models
    if firing_models > shooter.models:
        raise InputError("--firing-models", f"{firing_models} models, but the attacker {shooter.name or shooter} "
                         f"has {shooter.models}; give at most {shooter.models}")
    return firing_models


def _attacker_weapon(name: str, shooter: Unit) -> str:
    """The weapon a named attacker fires: the catalogue's for its unit (sc.catalog.ARMED_WITH)."""
    from mathhammer.starcraft.catalog import ARMED_WITH, weapon_of

    found = weapon_of(name) or (weapon_of(shooter.name) if shooter.name else None)
    if found is None:
        armed = ", ".join(f"{unit} ({weapon})" for unit, weapon in ARMED_WITH.items())
        raise InputError("--attacker", f"{excerpt(name)} fires no weapon mathhammer knows; name it with --weapon "
                         f"(units that bring theirs: {armed})")
    return found


def _print(result: AttackResult, weapon: Weapon | None, unit: Unit, options: dict[str, Any], rules: Variants,
           fmt: OutputFormat, shooter: Unit | None = None) -> None:
    from mathhammer.core.profiles import profile_to_dict

    tables, lines = result_tables("", result)
    payload = {
        "weapon": profile_to_dict(weapon) if weapon is not None else None,
        "attacker": profile_to_dict(shooter) if shooter is not None else None,
        "unit": profile_to_dict(unit),
        "options": {k: v for k, v in options.items() if v is not None},
        "rules": dataclasses.asdict(rules),
        "result": result.to_dict(),
    }
    emit(fmt, tables, payload, lines)


# ---- several batches -------------------------------------------------------------------------------

#: What the bare ``sequence`` fires: 6 Marines' C-14 rifles, then 2 Marauders' Quad K12, into Zealots.
DEFAULT_BATCHES = ("c14_rifle firing_models=6", "quad_k12 firing_models=2")

def _option_value(text: str) -> Any:
    """A batch option's value as written: a whole number, true/false, X,Y (a pair of numbers) or a word."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if re.fullmatch(r"-?\d+", lowered):
        return int(lowered)
    if re.fullmatch(r"-?\d+(,-?\d+)+", lowered):
        return [int(part) for part in lowered.split(",")]
    return text.strip()


def parse_batch(text: str, index: int, library: Any) -> Batch:
    """``WEAPON key=value ...`` -> sc.Batch; WEAPON '-' is none (HITS mode)."""
    from mathhammer.core.guard import check_notation
    from mathhammer.files.library import resolve_profile
    from mathhammer.starcraft import Batch
    from mathhammer.starcraft.profiles import ATTACK_KWARGS

    field = f"--batch[{index}]"
    words = check_notation(field, text).split()
    if not words:
        raise InputError(field, "empty; write a weapon and its options, e.g. 'c14_rifle firing_models=6'")
    weapon_name, *options = words
    kwargs: dict[str, Any] = {}
    try:
        weapon = None if weapon_name.lower() in _NONE else resolve_profile("starcraft", "weapon", weapon_name, library,
                                                                            f"{field}.weapon")
    except InputError:
        armed = _armed_unit(weapon_name, library)
        if armed is None:
            raise
        # A unit named in the weapon's place fires its weapon with all its models (as --attacker does).
        shooter, weapon = armed
        kwargs["firing_models"] = shooter.models
    for option in options:
        key, found, value = option.partition("=")
        if not found or not key:
            raise InputError(field, f"{excerpt(option)}: write options as key=value (keys: {', '.join(ATTACK_KWARGS)})")
        kwargs[key] = _option_value(value)
    if isinstance(kwargs.get("hits"), list):
        kwargs["hits"] = tuple(kwargs["hits"])
    try:
        return Batch(weapon, **kwargs)
    except InputError as error:
        raise InputError(f"{field}.{error.field}", str(error).split(": ", 1)[1]) from None


def _armed_unit(name: str, library: Any) -> tuple[Unit, Weapon] | None:
    """A unit that brings its weapon (sc.catalog.ARMED_WITH), and that weapon; None for any other name."""
    from mathhammer.starcraft.catalog import weapon_of

    key = weapon_of(name)
    if key is None:
        return None
    unit: Unit = _profile("unit", name, library)
    weapon: Weapon = _profile("weapon", key, library)
    return unit, weapon


@app.command("sequence", epilog=epilog("starcraft", "sequence"))
@with_parameters(before=option_parameters(RULE_OPTIONS, _R), after=engine_parameters(Method.auto, DEFAULT_SAMPLES))
def sequence_command(
    unit: Annotated[str, typer.Option(help="Target unit by name: a catalogue key or an entry of --profiles.",
                                      rich_help_panel=_U)] = "zealot",
    batch: Annotated[Optional[list[str]], typer.Option(
        help="A batch: 'WEAPON key=value ...' (sc.attack options). Repeat it, in firing order.", rich_help_panel=_A)] = None,
    profiles: Annotated[Optional[Path], typer.Option(
        help="Profile library (.toml/.json, game = \"starcraft\") to take weapons and --unit from.", rich_help_panel=_W)]
    = None,
    variants: VariantsOption = None,
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """Several batches against one unit in order, its models, Damage Marker and Shielded carried over."""
    from mathhammer.core.profiles import profile_to_dict
    from mathhammer.starcraft import sequence

    engine = engine_options(options)
    switches = take(options, RULE_OPTIONS)
    library = _library(profiles)
    the_unit: Unit = _profile("unit", unit, library)
    batches = [parse_batch(text, i, library) for i, text in enumerate(batch or DEFAULT_BATCHES)]
    rules = _rules(switches, variants)
    with progress_bar("StarCraft sequence") as progress:
        result = sequence(the_unit, batches, variants=rules, **engine.keywords(), progress=progress)
    tables, lines = result_tables("", result)
    payload = {
        "unit": profile_to_dict(the_unit),
        "batches": [b.to_dict() for b in batches],
        "rules": dataclasses.asdict(rules),
        "result": result.to_dict(),
    }
    emit(fmt, tables, payload, lines)


# ---- compare ---------------------------------------------------------------------------------------

@app.command("compare", epilog=epilog("starcraft", "compare"))
@with_parameters(after=engine_parameters(Method.auto, DEFAULT_SAMPLES))
def compare_command(
    weapon: Annotated[list[str], typer.Option(help="A weapon (repeatable): a catalogue key such as c14_rifle, or an entry of --profiles.")],
    unit: Annotated[list[str], typer.Option(help="A target unit (repeatable): a catalogue key such as zergling, or an entry of --profiles.")],
    firing_models: Annotated[int, typer.Option(help="Models firing each weapon, 0..60.")] = 1,
    profiles: ProfilesOption = None,
    variants: VariantsOption = None,
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """Each weapon against each unit: mean damage, mean casualties, destroyed chance."""
    from mathhammer.files.library import resolve_profile
    from mathhammer.starcraft import Variants, compare
    from mathhammer.starcraft.report import comparison_heading, comparison_picture

    engine = engine_options(options)
    library = _library(profiles)
    weapons = [resolve_profile("starcraft", "weapon", w, library, f"weapon[{i}]") for i, w in enumerate(weapon)]
    units = [resolve_profile("starcraft", "unit", u, library, f"unit[{i}]") for i, u in enumerate(unit)]
    comparison = compare(weapons, units, firing_models=firing_models, **engine.keywords(),
                         variants=cli_variants(Variants, variants, {}))
    payload = {"weapons": list(comparison.weapons), "units": list(comparison.units),
               "firing_models": firing_models, "rows": comparison.to_frame().to_dict(orient="records"),
               "result": comparison.to_dict()}
    note_plot(lambda: comparison_picture(comparison, f"StarCraft: mean damage by target ({comparison_heading(comparison)})"))
    tables, lines = result_tables("", comparison)
    emit(fmt, tables, payload, lines)


add_profiles_command(app, "starcraft")

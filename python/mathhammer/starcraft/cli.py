"""`mathhammer starcraft attack`: one batch from the command line (defaults: one Marine's C-14 rifle
into 12 Zerglings, as ``sc.attack`` fires one model; ``--attacker marine`` fires the whole unit);
`mathhammer starcraft sequence`: several batches against one unit, its state carried over
(defaults: 6 Marines then 2 Marauders into a Zealot squad)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from mathhammer._cli_common import (
    note_result,
    FormatOption,
    Method,
    MethodOption,
    OutputFormat,
    SamplesOption,
    SeedOption,
    Table,
    ThreadsOption,
    VariantsOption,
    cli_variants,
    distribution_table,
    emit,
    method_line,
    probability_text,
    progress_bar,
    register_printer,
    register_profiles_command,
    run_conditions,
)
from mathhammer._validate import InputError
from mathhammer.library import default_library, load_game_library, resolve_profile
from mathhammer.starcraft.engine import DEFAULT_SAMPLES, REACTION_KEYS, attack, sequence
from mathhammer.starcraft.profiles import ATTACK_KWARGS, Batch, Rules, Unit, Variants, Weapon
from mathhammer.starcraft.results import AttackResult, SequenceResult

starcraft_app = typer.Typer(
    name="starcraft",
    help="StarCraft: Tabletop Miniatures Game attacks and sequences of attacks, exact or Monte Carlo.",
    epilog="Example: mathhammer starcraft attack --weapon quad_k12 --firing-models 2 --unit roach\n\n"
    "Example: mathhammer starcraft attack --attacker marine --unit zergling   # all 6 Marines fire\n\n"
    "Example: mathhammer starcraft sequence --unit zealot --batch 'c14_rifle firing_models=6' --batch quad_k12",
    no_args_is_help=True,
)

_W, _U, _A, _R = "Weapon", "Target unit", "Attack", "Rule variants"
# Weapon fields that keywords set: --keywords replaces all of them.
_KEYWORD_FIELDS = {"pierce": None, "precision": 0, "critical_hit": 0, "anti_evade": 0, "burst_fire": 0,
                   "locked_in": 0, "long_range": False, "concentrated_fire": None, "instant": False}
_NONE = ("-", "none", "")


def _o(panel: str, text: str, *names: str) -> Any:
    """A typer option in one of the --help groups."""
    return typer.Option(*names, help=text, rich_help_panel=panel)


register_profiles_command(starcraft_app, "starcraft")


def register(app: typer.Typer) -> None:
    """Add the starcraft command group to the top-level app."""
    app.add_typer(starcraft_app, name="starcraft")


def _profile(kind: str, name: str, profiles: Path | None) -> Any:
    """A weapon or unit by name: an entry of --profiles, or of the built-in catalogue."""
    library = load_game_library(profiles, "starcraft") if profiles is not None else default_library("starcraft")
    return resolve_profile("starcraft", kind, name, library)


def _none_or(text: str | None) -> Any:
    return None if text is not None and text.strip().lower() in _NONE else text


def _pairs(field: str, text: str | None, keys: tuple[str, ...]) -> dict[str, int]:
    if text is None or not text.strip():
        return {}
    out: dict[str, int] = {}
    for part in re.split(r"[,;]", text):
        match = re.fullmatch(r"\s*([a-z_]+)\s*[=:]\s*(-?\d+)\s*", part)
        if not match:
            raise InputError(field, f"{part.strip()!r}: write key=value pairs such as 'dodge=1,tough=1' (keys: {', '.join(keys)})")
        out[match.group(1)] = int(match.group(2))
    return out


def _hits(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*[,(/ ]\s*(\d+)\s*\)?\s*", text)
    if not match:
        raise InputError("hits", f"{text!r}: write X,Y for HITS X (Y), e.g. 2,1")
    return int(match.group(1)), int(match.group(2))


def _damage_set(text: str | None) -> Any:
    if text is None:
        return None
    items = [t.strip() for t in text.split(",") if t.strip()]
    values: list[Any] = []
    for item in items:
        if item.lower() == "size":
            values.append("size")
        elif re.fullmatch(r"\d+", item):
            values.append(int(item))
        else:
            raise InputError("damage_set", f"{item!r}: write a number or 'size' (several separated by commas)")
    return values[0] if len(values) == 1 else values


@starcraft_app.command("attack")
def attack_command(
    weapon: Annotated[Optional[str], _o(_W, "Weapon by name: a catalogue key (c14_rifle, quad_k12, particle_disruptors, kerrigan_blades, shock_cannon) or an entry of --profiles. Default c14_rifle (none with --mode hits).")] = None,
    profiles: Annotated[Optional[Path], _o(_W, "Profile library (.toml/.json, game = \"starcraft\") to take --weapon and --unit from.")] = None,
    roa: Annotated[Optional[str], _o(_W, "Rate of Attack per model, or BT+k for a template weapon.")] = None,
    hit: Annotated[Optional[str], _o(_W, "Hit target number, 2..6 (3 or 3+).")] = None,
    damage: Annotated[Optional[int], _o(_W, "Damage per die, 0..20.")] = None,
    surge_tags: Annotated[Optional[str], _o(_W, "Surge Combat Tags, e.g. 'Light, Armoured' ('-' for no Surge).")] = None,
    surge_dice: Annotated[Optional[str], _o(_W, "Surge die: D3, D3+1, D6 ('-' for none).")] = None,
    template: Annotated[Optional[bool], _o(_W, "A template weapon (RoA BT+k, Surge = affected models).", "--template/--no-template")] = None,
    keywords: Annotated[Optional[str], _o(_W, "Weapon keywords in card notation; replaces the weapon's, e.g. 'PIERCE Armoured (2), CRITICAL HIT (2)'.")] = None,
    pierce: Annotated[Optional[str], _o(_W, "PIERCE as 'Tag X', e.g. 'Armoured 2' ('-' for none).")] = None,
    precision: Annotated[Optional[int], _o(_W, "PRECISION (X) of the weapon.")] = None,
    critical_hit: Annotated[Optional[int], _o(_W, "CRITICAL HIT (X) of the weapon.")] = None,
    anti_evade: Annotated[Optional[int], _o(_W, "ANTI-EVADE (X) of the weapon.")] = None,
    burst_fire: Annotated[Optional[int], _o(_W, "BURST FIRE (X) of the weapon.")] = None,
    locked_in: Annotated[Optional[int], _o(_W, "LOCKED IN (X) of the weapon.")] = None,
    long_range: Annotated[Optional[bool], _o(_W, "LONG RANGE.", "--long-range/--no-long-range")] = None,
    concentrated_fire: Annotated[Optional[int], _o(_W, "CONCENTRATED FIRE (X); 0 for none.")] = None,
    instant: Annotated[Optional[bool], _o(_W, "INSTANT (no reactions).", "--instant/--no-instant")] = None,
    unit: Annotated[str, _o(_U, "Target unit by name: a catalogue key (marine, marauder, zergling, roach, zealot, stalker, immortal) or an entry of --profiles.")] = "zergling",
    models: Annotated[Optional[int], _o(_U, "Models in the unit, 1..40.")] = None,
    hp: Annotated[Optional[int], _o(_U, "HP per model, 1..30.")] = None,
    armour: Annotated[Optional[str], _o(_U, "Armour target number, 2..6.")] = None,
    evade: Annotated[Optional[str], _o(_U, "Evade target number, 2..6, or '-' (never evades).")] = None,
    shield: Annotated[Optional[int], _o(_U, "Shield, 0..20.")] = None,
    tags: Annotated[Optional[str], _o(_U, "Combat Tags, e.g. 'Biological, Light, Ground'.")] = None,
    size: Annotated[Optional[int], _o(_U, "Unit Size (for --damage-set size).")] = None,
    tough: Annotated[Optional[int], _o(_U, "TOUGH (X) of the unit.")] = None,
    marker: Annotated[Optional[int], _o(_U, "Damage Marker before the attack.")] = None,
    shielded: Annotated[Optional[bool], _o(_U, "Shielded before the attack (default: Shield > 0).", "--shielded/--no-shielded", " /--not-shielded")] = None,
    first_model_alive: Annotated[Optional[bool], _o(_U, "Whether the Shield-carrying first model still stands.", "--first-model-alive/--first-model-dead")] = None,
    attacker: Annotated[Optional[str], _o(_A, "The attacking unit by name (marine, marauder, stalker, or an entry of --profiles with --weapon): all its models fire its weapon.")] = None,
    mode: Annotated[str, _o(_A, "weapon, spillover (a template's other unit) or hits (HITS X (Y)).")] = "weapon",
    firing_models: Annotated[Optional[int], _o(_A, "Models firing the weapon, 0..60 (default 1, like sc.attack; with --attacker, all its models).")] = None,
    long_range_models: Annotated[int, _o(_A, "Of those, models at LONG RANGE (-1 to hit).")] = 0,
    burst_models: Annotated[Optional[int], _o(_A, "Models within BURST FIRE range (default: all at normal range).")] = None,
    target_stationary: Annotated[bool, _o(_A, "The target is stationary (LOCKED IN).", "--stationary/--no-stationary", " /--not-stationary")] = False,
    affected_models: Annotated[Optional[int], _o(_A, "Models under the template (template weapons, spillover).")] = None,
    hits: Annotated[Optional[str], _o(_A, "HITS X (Y) as X,Y (with --mode hits).")] = None,
    roa_mod: Annotated[int, _o(_A, "RoA modifier per model.")] = 0,
    dice_mod: Annotated[int, _o(_A, "Attack Pool dice modifier (Guardian Shield -1).")] = 0,
    hit_mod: Annotated[int, _o(_A, "Hit roll modifier (+1 lowers the target number).")] = 0,
    armour_mod: Annotated[int, _o(_A, "Armour roll modifier.")] = 0,
    evade_mod: Annotated[int, _o(_A, "Evade roll modifier.")] = 0,
    bonus_precision: Annotated[int, _o(_A, "Extra PRECISION granted for this batch.")] = 0,
    bonus_critical_hit: Annotated[int, _o(_A, "Extra CRITICAL HIT granted for this batch.")] = 0,
    bonus_anti_evade: Annotated[int, _o(_A, "Extra ANTI-EVADE granted for this batch.")] = 0,
    dodge: Annotated[int, _o(_A, "DODGE (X) of the target.")] = 0,
    bonus_tough: Annotated[int, _o(_A, "Extra TOUGH granted for this batch.")] = 0,
    evade_eligible: Annotated[Optional[bool], _o(_A, "Whether the unit may Evade (default: when it has an Evade value).", "--evade-eligible/--no-evade-eligible")] = None,
    damage_set: Annotated[Optional[str], _o(_A, "Damage per die set by an ability: a number or 'size' (Aftershock).")] = None,
    damage_cap: Annotated[Optional[int], _o(_A, "Damage per die capped (Improved Barrier = 1).")] = None,
    td_reduction: Annotated[int, _o(_A, "Total Damage reduction (Transfusion 2).")] = 0,
    td_floor: Annotated[int, _o(_A, "Total Damage floor after the reduction.")] = 0,
    visible_models: Annotated[Optional[int], _o(_A, "Models visible to the attacker (caps casualties unless engaged).")] = None,
    engaged: Annotated[bool, _o(_A, "The target is engaged (no visible-model cap).", "--engaged/--no-engaged", " /--not-engaged")] = False,
    reaction: Annotated[Optional[str], _o(_A, "Reaction grants as key=value pairs: dodge, tough, damage_cap, td_reduction, td_floor.")] = None,
    critical_hit_rule: Annotated[Optional[str], _o(_R, "count (default: CRITICAL HIT moves X dice) or natural (dice showing X).")] = None,
    leftover: Annotated[Optional[str], _o(_R, "marker (default: leftover damage stays) or lost.")] = None,
    stacking: Annotated[Optional[str], _o(_R, "sum (default) or max: the same keyword from several sources.")] = None,
    variants: VariantsOption = None,
    method: MethodOption = Method.auto,
    samples: SamplesOption = DEFAULT_SAMPLES,
    seed: SeedOption = None,
    threads: ThreadsOption = None,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """One batch: every model firing one weapon at one unit; prints damage and casualty tables.

    One model fires unless --firing-models says how many, or --attacker names the unit that fires.

    Example: mathhammer starcraft attack --weapon quad_k12 --firing-models 2 --unit roach --dodge 1
    """
    shooter: Unit | None = None if attacker is None else _profile("unit", attacker, profiles)
    if shooter is not None:
        firing_models = _attacker_models(shooter, firing_models)
    the_weapon: Weapon | None = None
    if weapon is not None or shooter is not None or mode != "hits":  # HITS X (Y) needs no weapon
        weapon_name = weapon or (_attacker_weapon(attacker, shooter) if attacker and shooter else "c14_rifle")
        base_weapon: Weapon = _profile("weapon", weapon_name, profiles)
        fields = {f.name: getattr(base_weapon, f.name) for f in dataclasses.fields(Weapon)}
        if keywords is not None:
            fields.update(_KEYWORD_FIELDS, keywords=keywords)
        given = {"roa": roa, "hit": hit, "damage": damage, "template": template, "precision": precision,
                 "critical_hit": critical_hit, "anti_evade": anti_evade, "burst_fire": burst_fire,
                 "locked_in": locked_in, "long_range": long_range, "instant": instant}
        fields.update({k: v for k, v in given.items() if v is not None})
        if surge_tags is not None:
            fields["surge_tags"] = _none_or(surge_tags) or ()
            if not fields["surge_tags"]:  # no Surge line at all
                fields["surge_dice"] = None
        if surge_dice is not None:
            fields["surge_dice"] = _none_or(surge_dice)
        if pierce is not None:
            fields["pierce"] = _none_or(pierce)
        if concentrated_fire is not None:
            fields["concentrated_fire"] = concentrated_fire or None
        the_weapon = Weapon(**fields)

    base_unit: Unit = _profile("unit", unit, profiles)
    unit_fields = {f.name: getattr(base_unit, f.name) for f in dataclasses.fields(Unit)}
    unit_given = {"models": models, "hp": hp, "armour": armour, "shield": shield, "size": size, "tough": tough,
                  "marker": marker, "first_model_alive": first_model_alive}
    unit_fields.update({k: v for k, v in unit_given.items() if v is not None})
    if evade is not None:
        unit_fields["evade"] = _none_or(evade)
    if tags is not None:
        unit_fields["tags"] = _none_or(tags) or ()
    # Shielded follows the (possibly changed) Shield unless it is given.
    unit_fields["shielded"] = shielded
    the_unit = Unit(**unit_fields)

    options: dict[str, Any] = {
        "mode": mode, "firing_models": 1 if firing_models is None else firing_models, "long_range_models": long_range_models,
        "burst_models": burst_models, "target_stationary": target_stationary, "affected_models": affected_models,
        "hits": _hits(hits), "roa_mod": roa_mod, "dice_mod": dice_mod, "hit_mod": hit_mod, "armour_mod": armour_mod,
        "evade_mod": evade_mod, "anti_evade": bonus_anti_evade, "precision": bonus_precision,
        "critical_hit": bonus_critical_hit, "dodge": dodge, "tough": bonus_tough, "evade_eligible": evade_eligible,
        "damage_set": _damage_set(damage_set), "damage_cap": damage_cap, "td_reduction": td_reduction,
        "td_floor": td_floor, "visible_models": visible_models, "engaged": engaged,
        "reaction": _pairs("reaction", reaction, REACTION_KEYS) or None,
    }
    if the_weapon is None or the_weapon.template or mode != "weapon":
        options.pop("firing_models")  # only a non-template weapon batch counts firing models
    rules = cli_variants(Variants, variants, {"critical_hit": critical_hit_rule, "leftover": leftover, "stacking": stacking},
                         {"critical_hit": "--critical-hit-rule"})
    with progress_bar("StarCraft attack") as progress:
        result = attack(the_weapon, the_unit, variants=rules, method=method.value, samples=samples, seed=seed,
                        threads=threads, progress=progress, **options)
    # a profile's name, unless an option changed it: then its card, which says what was changed
    weapon_label = None if the_weapon is None else (
        the_weapon.name if the_weapon == base_weapon and the_weapon.name else str(the_weapon))
    unit_label = the_unit.name if the_unit == base_unit and the_unit.name else str(the_unit)
    _print(result, the_weapon, the_unit, options, rules, fmt, shooter, (weapon_label, unit_label))


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
        raise InputError("--attacker", f"{name!r} fires no weapon mathhammer knows; name it with --weapon "
                         f"(units that bring theirs: {armed})")
    return found


def _stages_table(result: AttackResult, prefix: str = "") -> Table:
    stages = result.stages.distributions()
    size = max(d.pmf.size for d in stages.values())
    rows = []
    for value in range(size):
        row: list[Any] = [value] + [d.prob(value) for d in stages.values()]
        if any(p > 0 for p in row[1:]):
            rows.append(row)
    return Table(f"{prefix}Stages: P(stage = value)", ["value", *[name.replace("_", " ") for name in stages]], rows)


def attack_heading(result: AttackResult, who: str | None = None, extras: Sequence[str] = (),
                   unit: str | None = None) -> str:
    """What a batch's heading names: who fired what (``who``, else the weapon the result records) at
    which unit (``unit``, else the one the result records), the options that depart from the
    defaults, the rule variants and the method."""
    shooter = who or (result.weapon or "HITS")
    target = unit or result.unit or "the unit"
    if who is None and result.weapon:  # the result does not record the models, but the dice they rolled
        shooter += f" ({result.stages.dice} dice)"
    return ", ".join([f"{shooter} at {target}", *extras, *run_conditions(result)])


def attack_tables(result: AttackResult, title: str = "", heading: str | None = None) -> tuple[list[Table], list[str]]:
    """A batch as tables (damage, casualties, the Damage Marker after it, every stage) and summary
    lines (dice and stage means, mean damage and casualties, P(destroyed), P(Shielded lost)).
    ``heading`` (default :func:`attack_heading`) titles the first table."""
    note_result(result)  # for --plot
    prefix = f"{title}: " if title else ""
    tables = [
        distribution_table(f"{prefix}Damage: {heading or attack_heading(result)}", result.damage, "damage"),
        distribution_table(f"{prefix}Casualties", result.casualties, "casualties"),
        distribution_table(f"{prefix}Damage Marker after the attack", result.marker, "marker", with_at_least=False),
        _stages_table(result, prefix),
    ]
    means = ", ".join(f"{name.replace('_', ' ')} {dist.mean:.3f}" for name, dist in result.stages.distributions().items())
    lines = [
        f"dice {result.stages.dice}; damage per die {result.damage_per_die}",  # two lines: each fits 80 columns
        f"means: {means}",
        f"mean damage {result.damage.mean:.4f}, mean casualties {result.casualties.mean:.4f}",
        f"P(destroyed) = {probability_text(result.destroyed)}",
    ]
    if result.shield_lost > 0 or result.state.shielded.any():  # the unit was Shielded before the attack
        lines.append(f"P(Shielded lost) = {probability_text(result.shield_lost)}")
    if result.reaction_ignored:
        lines.append("reaction ignored: the weapon is INSTANT")
    lines.append(method_line(result.method, result.samples, result.seed))
    return tables, [prefix + line for line in lines]


def batch_label(index: int, batch: Batch) -> str:
    """A batch as its row names it: "1: C-14 Rifle x6", "3: HITS 4 (1)"."""
    options = batch.kwargs
    if options.get("mode") == "hits" or batch.weapon is None:
        hits = options.get("hits")
        what = f"HITS {hits[0]} ({hits[1]})" if isinstance(hits, (tuple, list)) and len(hits) == 2 else "HITS"
    else:
        what = batch.weapon.name or str(batch.weapon)
        if not batch.weapon.template and options.get("mode", "weapon") == "weapon":
            what += f" x{options.get('firing_models', 1)}"
    return f"{index + 1}: {what}"


def sequence_tables(result: SequenceResult, title: str = "",
                    batches: Sequence[Batch] | None = None) -> tuple[list[Table], list[str]]:
    """A sequence as tables (total damage, casualties, the final Damage Marker, one row per batch,
    named by its weapon when ``batches`` are given) and summary lines (means, P(destroyed),
    P(Shielded lost) at the end)."""
    note_result(result)  # for --plot
    prefix = f"{title}: " if title else ""
    labels: list[Any] = ([batch_label(i, b) for i, b in enumerate(batches)] if batches is not None
                         and len(batches) == len(result.batches) else list(range(1, len(result.batches) + 1)))
    per_batch = Table(
        f"{prefix}Batches",
        ["batch", "mean damage", "mean casualties", "mean marker after", "P(destroyed after)", "P(Shielded lost in it)"],
        [[label, b.damage.mean, b.casualties.mean, b.marker.mean, b.destroyed, b.shield_lost]
         for label, b in zip(labels, result.batches)],
    )
    count = len(result.batches)
    heading = ", ".join([f"{count} batch{'es' if count != 1 else ''} at {result.unit or 'the unit'}",
                         *run_conditions(result)])
    tables = [
        distribution_table(f"{prefix}Total damage: {heading}", result.total_damage, "damage"),
        distribution_table(f"{prefix}Casualties", result.casualties, "casualties"),
        distribution_table(f"{prefix}Damage Marker at the end", result.marker, "marker", with_at_least=False),
        per_batch,
    ]
    lines = [
        f"mean total damage {result.total_damage.mean:.4f}, mean casualties {result.casualties.mean:.4f}",
        f"P(destroyed) = {probability_text(result.destroyed)}",
    ]
    if result.shield_lost > 0:
        lines.append(f"P(Shielded lost) = {probability_text(result.shield_lost)}")
    if any(b.reaction_ignored for b in result.batches):
        lines.append("reaction ignored in INSTANT batches")
    lines.append(method_line(result.method, result.samples, result.seed))
    return tables, [prefix + line for line in lines]


register_printer(AttackResult, attack_tables)
register_printer(SequenceResult, sequence_tables)


#: Attack options the heading leaves out: the mode and the firers are said first, HITS X (Y) is the mode.
_SAID_FIRST = ("mode", "firing_models", "hits")


def _who_fired(weapon: Weapon | None, options: dict[str, Any], shooter: Unit | None, label: str | None = None) -> str:
    """"1 model firing C-14 Rifle", "Marine (6 models) firing C-14 Rifle", "HITS 4 (1)", ..."""
    if label is None:
        label = (weapon.name or str(weapon)) if weapon is not None else ""
    mode = options["mode"]
    if mode == "hits":
        x, y = options["hits"]
        return f"HITS {x} ({y})" + (f" with {label}" if label else "")
    if mode == "spillover":
        return f"{label} (spillover)"
    if "firing_models" not in options:  # a template weapon: its models under the template count
        return f"{label} (template)"
    n = options["firing_models"]
    models = f"{n} model{'s' if n != 1 else ''}"
    if shooter is not None:
        whole = n == shooter.models
        return f"{shooter.name or 'attacker'} ({models}{'' if whole else f' of {shooter.models}'}) firing {label}"
    return f"{models} firing {label}"


def _departures(options: dict[str, Any]) -> list[str]:
    """The batch options given that change anything ("dodge 1", "engaged"), as the heading lists them."""
    out = []
    for key, value in options.items():
        if key in _SAID_FIRST or value is None or value is False or value == 0 or value == {}:
            continue
        name = key.replace("_", " ")
        out.append(name if value is True else f"{name} {value}")
    return out


def _print(result: AttackResult, weapon: Weapon | None, unit: Unit, options: dict[str, Any], rules: Rules,
           fmt: OutputFormat, shooter: Unit | None = None, labels: tuple[str | None, str] | None = None) -> None:
    from mathhammer.library import profile_to_dict

    weapon_label, unit_label = labels if labels is not None else (None, None)
    heading = attack_heading(result, _who_fired(weapon, options, shooter, weapon_label), _departures(options),
                             unit_label)
    tables, lines = attack_tables(result, heading=heading)
    if options["mode"] != "hits":
        inputs = [f"weapon: {weapon}"]
    else:
        inputs = [f"HITS {options['hits'][0]} ({options['hits'][1]})" + (f" with {weapon}" if weapon is not None else "")]
    inputs.append(f"unit: {unit}")
    if weapon is not None and not result.surge_applied and weapon.surge_tags and options["mode"] == "weapon":
        inputs.append("Surge does not apply: the unit has none of the weapon's Surge tags")
    if shooter is not None:
        inputs.insert(0, f"attacker: {shooter}")
    payload = {
        "weapon": profile_to_dict(weapon) if weapon is not None else None,
        "attacker": profile_to_dict(shooter) if shooter is not None else None,
        "unit": profile_to_dict(unit),
        "options": {k: v for k, v in options.items() if v is not None},
        "rules": dataclasses.asdict(rules),
        "result": result.to_dict(),
    }
    emit(fmt, tables, payload, inputs + lines)


# ---- several batches -------------------------------------------------------------------------------

#: What the bare ``sequence`` fires: 6 Marines' C-14 rifles, then 2 Marauders' Quad K12, into Zealots.
DEFAULT_BATCHES = ("c14_rifle firing_models=6", "quad_k12 firing_models=2")

SEQUENCE_EPILOG = """Examples:

  mathhammer starcraft sequence                  # 6 Marines, then 2 Marauders, into a Zealot squad

  mathhammer starcraft sequence --unit roach --batch "c14_rifle firing_models=6" --batch "quad_k12 firing_models=2 dodge=1"

  mathhammer starcraft sequence --batch "- mode=hits hits=4,1" --batch "shock_cannon affected_models=3"   # '-': no weapon

A batch is a weapon (a catalogue key or an entry of --profiles) and its sc.attack options as key=value;
a unit that brings its weapon (marine, marauder, stalker) may stand in the weapon's place: all its
models fire it ("marine" is "c14_rifle firing_models=6");
options that take a table (reaction) are written in a scenario file (mathhammer run).
"""


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
    field = f"--batch[{index}]"
    words = text.split()
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
            raise InputError(field, f"{option!r}: write options as key=value (keys: {', '.join(ATTACK_KWARGS)})")
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
    unit: Unit = resolve_profile("starcraft", "unit", name, library)
    weapon: Weapon = resolve_profile("starcraft", "weapon", key, library)
    return unit, weapon


@starcraft_app.command("sequence", epilog=SEQUENCE_EPILOG)
def sequence_command(
    unit: Annotated[str, _o(_U, "Target unit by name: a catalogue key or an entry of --profiles.")] = "zealot",
    batch: Annotated[Optional[list[str]], _o(_A, "A batch: 'WEAPON key=value ...' (sc.attack options). Repeat it, in firing order.")] = None,
    profiles: Annotated[Optional[Path], _o(_W, "Profile library (.toml/.json, game = \"starcraft\") to take weapons and --unit from.")] = None,
    critical_hit_rule: Annotated[Optional[str], _o(_R, "count (default: CRITICAL HIT moves X dice) or natural (dice showing X).")] = None,
    leftover: Annotated[Optional[str], _o(_R, "marker (default: leftover damage stays) or lost.")] = None,
    stacking: Annotated[Optional[str], _o(_R, "sum (default) or max: the same keyword from several sources.")] = None,
    variants: VariantsOption = None,
    method: MethodOption = Method.auto,
    samples: SamplesOption = DEFAULT_SAMPLES,
    seed: SeedOption = None,
    threads: ThreadsOption = None,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """Several batches against one unit in order, its models, Damage Marker and Shielded carried over."""
    from mathhammer.library import profile_to_dict

    library = load_game_library(profiles, "starcraft") if profiles is not None else default_library("starcraft")
    the_unit: Unit = resolve_profile("starcraft", "unit", unit, library)
    batches = [parse_batch(text, i, library) for i, text in enumerate(batch or DEFAULT_BATCHES)]
    rules = cli_variants(Variants, variants, {"critical_hit": critical_hit_rule, "leftover": leftover, "stacking": stacking},
                         {"critical_hit": "--critical-hit-rule"})
    with progress_bar("StarCraft sequence") as progress:
        result = sequence(the_unit, batches, variants=rules, method=method.value, samples=samples, seed=seed,
                          threads=threads, progress=progress)
    tables, lines = sequence_tables(result, batches=batches)
    payload = {
        "unit": profile_to_dict(the_unit),
        "batches": [b.to_dict() for b in batches],
        "rules": dataclasses.asdict(rules),
        "result": result.to_dict(),
    }
    emit(fmt, tables, payload, [f"unit: {the_unit}"] + lines)


def _register_compare() -> None:
    from mathhammer.starcraft import cli_compare

    cli_compare.register(starcraft_app)


_register_compare()

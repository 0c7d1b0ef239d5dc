"""The ``mathhammer force-melee`` commands: ``melee`` (one exchange between two sides, or a scenario
file) and ``melee-many`` (several engaged units). ``mathhammer force-melee [OPTIONS]`` with no action
is ``melee``.

Every profile field has an option per side (``--a-dice``, ``--b-force``, ...). A side starts from an
example profile (``--a-profile``, default Line Trooper squad for A and Militia squad for B) and the
options given replace its fields.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from mathhammer._cli_common import (
    note_result,
    FormatOption,
    Method,
    MethodOption,
    OutputFormat,
    ProfilesOption,
    ProgressGroup,
    SamplesOption,
    SeedOption,
    Table,
    ThreadsOption,
    VariantsOption,
    cli_variants,
    distribution_table,
    Section,
    emit,
    emit_sections,
    method_line,
    progress_bar,
    register_printer,
    probability_text,
    register_profiles_command,
    run_conditions,
)
from mathhammer._validate import InputError
from mathhammer.force_melee import engine
from mathhammer.force_melee.profiles import EXAMPLES, Side, example, field_prefix
from mathhammer.force_melee.variants import Variants
from mathhammer.force_melee.results import MeleeManyResult, MeleeResult
from mathhammer.library import Library, default_library, load_game_library, resolve_profile

_EXAMPLE_NAMES = ", ".join(EXAMPLES)


def _opt(side: str, name: str, help: str, flag: bool = False) -> Any:
    decl = f"--{side}-{name}/--{side}-no-{name}" if flag else f"--{side}-{name}"
    return typer.Option(decl, help=help, rich_help_panel=f"Side {side.upper()}")


def _side_options(side: str) -> dict[str, Any]:
    """The options of one side, as typer Option objects keyed by parameter name."""
    return {
        "profile": _opt(side, "profile", f"Start from a side of --profiles or an example: {_EXAMPLE_NAMES}."),
        "name": _opt(side, "name", "Unit name."),
        "dice": _opt(side, "dice", "Dice this unit rolls (0..40)."),
        "hit_mod": _opt(side, "hit-mod", "Hit modifier (-5..5; +1 turns 4+ into 3+)."),
        "hit": _opt(side, "hit", "Hit target (2..6, '4' or '4+')."),
        "force": _opt(side, "force", "Weapon Force (damage value, 0..20)."),
        "crit": _opt(side, "crit", "Natural face from which a hit is critical (2..6)."),
        "kind": _opt(side, "kind", "melee, or ranged (an Assault ranged weapon in close combat)."),
        "assault": _opt(side, "assault", "The weapon is an Assault weapon.", flag=True),
        "sustained": _opt(side, "sustained", "Sustained Damage X (0..10)."),
        "critical_damage": _opt(side, "critical-damage", "Critical Damage X (0..10)."),
        "bonus_flat": _opt(side, "bonus-flat", "Flat bonus damage (0..10)."),
        "reroll": _opt(side, "reroll", "Hit rerolls: none, fails or ones."),
        "weapon": _opt(side, "weapon", "Weapon name."),
        "models": _opt(side, "models", "Models in the unit (1..30)."),
        "hp": _opt(side, "hp", "HP per model (1..30)."),
        "current": _opt(side, "current", "Current HP per model, comma-separated, in allocation order (e.g. 1,2,2)."),
        "vehicle": _opt(side, "vehicle", "The unit is a vehicle (same engine).", flag=True),
    }


_A = _side_options("a")
_B = _side_options("b")


def _parse_current(text: str, field: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.replace(" ", "").split(",") if part)
    except ValueError:
        raise InputError(field, f"{text!r} is not a comma-separated list of HP such as 1,2,2") from None


def build_side(label: str, default: str, fields: dict[str, Any], library: Library | None = None) -> Side:
    """A side from a profile (a ``[side.*]`` entry of ``library``, else an example) and the options
    given (None = keep the profile's value)."""
    name = fields.pop("profile") or default
    sides = (library or {}).get("side", {})
    side = sides[name] if name in sides else example(name)
    unit_keys = {"models", "hp", "current", "vehicle", "name"}
    weapon_keys = {"hit", "force", "crit", "kind", "assault", "sustained", "critical_damage", "bonus_flat", "reroll"}
    unit: dict[str, Any] = {}
    weapon: dict[str, Any] = {}
    top: dict[str, Any] = {}
    for key, value in fields.items():
        if value is None:
            continue
        if key == "current":
            value = _parse_current(value, f"{label}.unit.current")
        if key == "weapon":
            weapon["name"] = value
        elif key in unit_keys:
            unit[key] = value
        elif key in weapon_keys:
            weapon[key] = value
        else:
            top[key] = value
    # A unit resized without a new current list starts unwounded.
    if ("models" in unit or "hp" in unit) and "current" not in unit:
        unit["current"] = None

    with field_prefix(label):
        return side.replace(unit=unit or None, weapon=weapon or None, **top)


# --- output -------------------------------------------------------------------------------------


def side_heading(side: Side) -> str:
    """A side as a heading names it: "Line Trooper squad (5x1 HP, 3 dice at 4+, Force 4)"."""
    unit, weapon = side.unit, side.weapon
    hit = f"{weapon.hit}+" + (f" {side.hit_mod:+d}" if side.hit_mod else "")
    text = f"{unit.models}x{unit.hp} HP, {side.dice} dice at {hit}, Force {weapon.force}"
    return f"{unit.name} ({text})" if unit.name else text


def melee_heading(result: MeleeResult, sides: tuple[Side, Side] | None = None) -> str:
    """What an exchange's heading names: sides A and B (their profiles when known), the rule
    variants and the method."""
    name_a, name_b = (side_heading(s) for s in sides) if sides is not None else result.names
    return ", ".join([f"A {name_a} vs B {name_b}", *run_conditions(result)])


def _with_errors(table: Table, errors: list[list[Any]] | None) -> list[Table]:
    """The table, then (Monte Carlo) the standard errors of its figures laid out the same way, so
    that each stays 80 columns wide and every probability prints as a percentage."""
    if errors is None:
        return [table]
    return [table, Table(f"{table.title}: standard errors", table.columns, errors)]


def melee_tables(result: MeleeResult, title: str = "",
                 sides: tuple[Side, Side] | None = None) -> tuple[list[Table], list[str]]:
    """Tables for one exchange: a summary per side under a heading naming the sides (their profiles
    with ``sides``) and the method, damage, casualties, hits and likeliest outcomes."""
    note_result(result)  # for --plot
    prefix = f"{title}: " if title else ""
    name_a, name_b = result.names
    summary = result.summary()
    errors = result.stderr
    quantities = [
        ("P(more hits)", "p_more_hits"),
        ("mean damage taken", "mean_damage"),
        ("P(damaged)", "p_damaged"),
        ("mean casualties", "mean_casualties"),
        ("P(destroyed)", "p_destroyed"),
    ]
    columns = ["", f"A: {name_a}", f"B: {name_b}"]
    rows = [[label] + [summary[f"{side}_{key}"] for side in ("a", "b")] for label, key in quantities]
    error_rows = None if errors is None else [[label] + [errors[f"{side}_{key}"] for side in ("a", "b")]
                                              for label, key in quantities]
    tables = _with_errors(Table(f"{prefix}{melee_heading(result, sides)}", columns, rows), error_rows)
    tables.append(distribution_table(f"{prefix}damage to A ({name_a})", result.damage_a, "damage"))
    tables.append(distribution_table(f"{prefix}damage to B ({name_b})", result.damage_b, "damage"))
    tables.append(distribution_table(f"{prefix}casualties of A ({name_a})", result.casualties_a, "models"))
    tables.append(distribution_table(f"{prefix}casualties of B ({name_b})", result.casualties_b, "models"))
    tables.append(distribution_table(f"{prefix}hits compared, A", result.hits_a, "hits"))
    tables.append(distribution_table(f"{prefix}hits compared, B", result.hits_b, "hits"))
    pmf = result.joint.pmf
    cells = sorted(((float(pmf[i, j]), i, j) for i, j in zip(*pmf.nonzero())), reverse=True)[:15]
    tables.append(
        Table(
            f"{prefix}likeliest outcomes (damage to A, damage to B)",
            ["damage to A", "damage to B", "P"],
            [[i, j, p] for p, i, j in cells],
        )
    )
    how = method_line(result.method, result.samples, result.seed)
    tie = probability_text(result.p_tie)
    error = result.stderr_of(result.p_tie)
    lines = [f"{prefix}P(tie on hits) = {tie}{'' if error is None else f' ± {probability_text(error)}'}; {how}"]
    return tables, lines


def melee_many_tables(result: MeleeManyResult, title: str = "") -> tuple[list[Table], list[str]]:
    """Tables for a melee of several units: per unit, per engaged pair, damage and casualties; the
    heading names the units, the pairs and the method."""
    note_result(result)  # for --plot
    prefix = f"{title}: " if title else ""
    exact = result.samples is None
    rows, unit_errors = [], []
    for name, unit in result.units.items():
        rows.append([name, unit.models, unit.damage.mean, unit.damage.at_least(1), unit.casualties.mean, unit.wiped])
        unit_errors.append([name, unit.models, unit.damage.mean_stderr, result.stderr_of(unit.damage.at_least(1)),
                            unit.casualties.mean_stderr, result.stderr_of(unit.wiped)])
    pairs = len(result.pairs)
    how = ", ".join([f"{len(result.units)} units", f"{pairs} engaged pair{'s' if pairs != 1 else ''}",
                     *run_conditions(result)])
    units_table = Table(f"{prefix}units ({how})",
                        ["unit", "models", "mean damage taken", "P(damaged)", "mean casualties", "P(destroyed)"], rows)
    tables = _with_errors(units_table, None if exact else unit_errors)
    pair_rows, pair_errors = [], []
    for pair in result.pairs:
        label = [f"{pair.first} vs {pair.second}", f"{pair.dice[0]} / {pair.dice[1]}"]
        pair_rows.append(label + [pair.p_first_more, pair.p_tie, pair.p_second_more, pair.damage_second.mean,
                                  pair.damage_first.mean])
        pair_errors.append(label + [result.stderr_of(pair.p_first_more), result.stderr_of(pair.p_tie),
                                    result.stderr_of(pair.p_second_more), pair.damage_second.mean_stderr,
                                    pair.damage_first.mean_stderr])
    pairs_table = Table(
        f"{prefix}engaged pairs (first vs second)",
        ["pair", "dice", "P(first more hits)", "P(tie)", "P(second more hits)", "mean damage to second",
         "mean damage to first"],
        pair_rows,
    )
    tables += _with_errors(pairs_table, None if exact else pair_errors)
    for name, unit in result.units.items():
        tables.append(distribution_table(f"{prefix}damage to {name}", unit.damage, "damage"))
        tables.append(distribution_table(f"{prefix}casualties of {name}", unit.casualties, "models"))
    return tables, [prefix + method_line(result.method, result.samples, result.seed)]


register_printer(MeleeResult, melee_tables)
register_printer(MeleeManyResult, melee_many_tables)


# --- the commands ---------------------------------------------------------------------------------

WinnerDamageOption = Annotated[
    Optional[str], typer.Option(help="Damage of the side with more hits: once (default), excess, per_hit or pairing.")
]
AllocationOption = Annotated[Optional[str], typer.Option(help="spill (default) or no_spill.")]
SustainedModeOption = Annotated[
    Optional[str], typer.Option(help="Sustained Damage as bonus per hit (default) or extra_hits per crit.")
]
BonusAlwaysOption = Annotated[
    Optional[bool], typer.Option("--bonus-always/--no-bonus-always", help="Flat bonus even without base damage.")
]

MELEE_EPILOG = """Examples:

  mathhammer force-melee melee --b-profile walker --a-dice 6 --winner-damage excess --format json

  mathhammer force-melee melee --profiles examples/force_melee/profiles.toml --a-profile veterans --b-profile walker

  mathhammer force-melee melee --scenario examples/force_melee/scenario_walker.toml

The action may be left out: mathhammer force-melee --a-dice 6 is mathhammer force-melee melee --a-dice 6.
Several engaged units: mathhammer force-melee melee-many --help.
"""


def force_melee(
    a_profile: Annotated[Optional[str], _A["profile"]] = None,
    a_name: Annotated[Optional[str], _A["name"]] = None,
    a_dice: Annotated[Optional[int], _A["dice"]] = None,
    a_hit_mod: Annotated[Optional[int], _A["hit_mod"]] = None,
    a_hit: Annotated[Optional[str], _A["hit"]] = None,
    a_force: Annotated[Optional[int], _A["force"]] = None,
    a_crit: Annotated[Optional[int], _A["crit"]] = None,
    a_kind: Annotated[Optional[str], _A["kind"]] = None,
    a_assault: Annotated[Optional[bool], _A["assault"]] = None,
    a_sustained: Annotated[Optional[int], _A["sustained"]] = None,
    a_critical_damage: Annotated[Optional[int], _A["critical_damage"]] = None,
    a_bonus_flat: Annotated[Optional[int], _A["bonus_flat"]] = None,
    a_reroll: Annotated[Optional[str], _A["reroll"]] = None,
    a_weapon: Annotated[Optional[str], _A["weapon"]] = None,
    a_models: Annotated[Optional[int], _A["models"]] = None,
    a_hp: Annotated[Optional[int], _A["hp"]] = None,
    a_current: Annotated[Optional[str], _A["current"]] = None,
    a_vehicle: Annotated[Optional[bool], _A["vehicle"]] = None,
    b_profile: Annotated[Optional[str], _B["profile"]] = None,
    b_name: Annotated[Optional[str], _B["name"]] = None,
    b_dice: Annotated[Optional[int], _B["dice"]] = None,
    b_hit_mod: Annotated[Optional[int], _B["hit_mod"]] = None,
    b_hit: Annotated[Optional[str], _B["hit"]] = None,
    b_force: Annotated[Optional[int], _B["force"]] = None,
    b_crit: Annotated[Optional[int], _B["crit"]] = None,
    b_kind: Annotated[Optional[str], _B["kind"]] = None,
    b_assault: Annotated[Optional[bool], _B["assault"]] = None,
    b_sustained: Annotated[Optional[int], _B["sustained"]] = None,
    b_critical_damage: Annotated[Optional[int], _B["critical_damage"]] = None,
    b_bonus_flat: Annotated[Optional[int], _B["bonus_flat"]] = None,
    b_reroll: Annotated[Optional[str], _B["reroll"]] = None,
    b_weapon: Annotated[Optional[str], _B["weapon"]] = None,
    b_models: Annotated[Optional[int], _B["models"]] = None,
    b_hp: Annotated[Optional[int], _B["hp"]] = None,
    b_current: Annotated[Optional[str], _B["current"]] = None,
    b_vehicle: Annotated[Optional[bool], _B["vehicle"]] = None,
    winner_damage: WinnerDamageOption = None,
    allocation: AllocationOption = None,
    sustained_mode: SustainedModeOption = None,
    bonus_always: BonusAlwaysOption = None,
    variants: VariantsOption = None,
    profiles: ProfilesOption = None,
    scenario: Annotated[
        Optional[Path],
        typer.Option(help="Run the force_melee entries of a scenario file (TOML/JSON) instead of sides A and B."),
    ] = None,
    method: MethodOption = Method.auto,
    samples: SamplesOption = engine.DEFAULT_SAMPLES,
    seed: SeedOption = None,
    threads: ThreadsOption = None,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """One simultaneous melee exchange: hits compared, Force decides the damage.

    With no options: Line Trooper squad (A: 5 x 1 HP, 3 dice at 4+, Force 4) against Militia squad
    (B: 5 x 1 HP, 2 dice at 5+, Force 2).

    Example: mathhammer force-melee melee --b-profile walker --a-dice 6 --winner-damage excess --format json
    """
    given = {"winner_damage": winner_damage, "allocation": allocation, "sustained_mode": sustained_mode,
             "bonus_always": bonus_always}
    rules = cli_variants(Variants, variants, given)
    # The switches given on the command line override a scenario's entries (None: not given).
    switches: dict[str, Any] = {key: value for key, value in given.items() if value is not None}
    if variants is not None:
        switches["variants"] = variants
    local = locals()  # the per-side options, read back by name below
    if scenario is not None:
        overrides: dict[str, Any] = dict(switches)
        if method is not Method.auto:
            overrides["method"] = method.value
        if samples != engine.DEFAULT_SAMPLES:
            overrides["samples"] = samples
        if seed is not None:
            overrides["seed"] = seed
        if threads is not None:
            overrides["threads"] = threads
        _run_scenario(scenario, overrides, fmt)
        return

    library = load_game_library(profiles, "force_melee") if profiles is not None else default_library("force_melee")
    side_a = build_side("a", "line_troopers", {key: local[f"a_{key}"] for key in _A}, library)
    side_b = build_side("b", "militia", {key: local[f"b_{key}"] for key in _B}, library)
    with progress_bar("Force melee") as progress:
        result = engine.melee(
            side_a, side_b, method=method.value, samples=samples, seed=seed, threads=threads, progress=progress,
            variants=rules,
        )
    tables, lines = melee_tables(result, sides=(side_a, side_b))
    payload = {
        "a": side_a.to_dict(),
        "b": side_b.to_dict(),
        "switches": rules.to_dict(),
        "summary": result.summary(),
        "stderr": result.stderr,
        "result": result.to_dict(),
    }
    emit(fmt, tables, payload, lines)


def _run_scenario(path: Path, overrides: dict[str, Any], fmt: OutputFormat) -> None:
    from mathhammer import scenario
    from mathhammer.force_melee.scenario import force_melee_only

    data = force_melee_only(scenario.load_scenario(path), str(path))
    entries = scenario.prepare_entries(data, base=path.parent, source=str(path), overrides=overrides)
    with ProgressGroup() as bars:
        outcomes = [entry.run(bars.callback(entry.name)) for entry in entries]
    sections: list[Section] = []
    payload_entries = []
    for outcome in outcomes:
        result = outcome.result
        if isinstance(result, MeleeResult):
            sections.append(Section(outcome.name, *melee_tables(result)))
            summary: Any = result.summary()
        else:
            sections.append(Section(outcome.name, *melee_many_tables(result)))
            summary = _many_summary(result)
        payload_entries.append({"name": outcome.name, "action": outcome.action, "inputs": outcome.inputs,
                                "summary": summary, "result": result.to_dict()})
    emit_sections(fmt, sections, {"scenario": str(path), "overrides": overrides, "entries": payload_entries})


def _many_summary(result: MeleeManyResult) -> dict[str, Any]:
    return {name: {"damage_taken_mean": u.damage.mean, "casualties_mean": u.casualties.mean, "p_destroyed": u.wiped}
            for name, u in result.units.items()}


#: What the bare ``melee-many`` fights: two squads charge a Walker, which splits its dice 3 / 1.
DEFAULT_MANY_SIDES = ("troopers=line_troopers", "militia=militia", "walker=walker")
DEFAULT_MANY_ENGAGED = ("troopers:walker", "militia:walker")
DEFAULT_MANY_ASSIGN = ("walker=troopers:3,militia:1",)

MELEE_MANY_EPILOG = """Examples:

  mathhammer force-melee melee-many            # two squads charge a Walker, which splits its dice 3 / 1

  mathhammer force-melee melee-many --side troopers=line_troopers --side walker --engaged troopers:walker

  mathhammer force-melee melee-many --profiles examples/force_melee/profiles.toml --side vets=veterans --side walker --side militia --engaged vets:walker --engaged militia:walker --assign walker=vets:2,militia:2
"""


def _split(option: str, text: str, separator: str) -> tuple[str, str]:
    from mathhammer._guard import check_notation

    left, found, right = check_notation(option, text).partition(separator)
    if not found or not left.strip() or not right.strip():
        raise InputError(option, f"{text!r}: expected two parts separated by {separator!r}")
    return left.strip(), right.strip()


def parse_sides(texts: list[str], library: Library) -> dict[str, Side]:
    """``NAME=PROFILE`` (or ``PROFILE`` alone, named after it) -> {NAME: Side}; a profile is a side
    of the library or an example."""
    sides: dict[str, Side] = {}
    for text in texts:
        name, profile = _split("--side", text, "=") if "=" in text else (text.strip(), text.strip())
        if name in sides:
            raise InputError("--side", f"two sides named {name!r}")
        sides[name] = resolve_profile("force_melee", "side", profile, library, f"sides.{name}")
    return sides


def parse_engaged(texts: list[str]) -> list[tuple[str, str]]:
    """``A:B`` per pair in contact, in the order their damage is applied."""
    return [_split("--engaged", text, ":") for text in texts]


def parse_assignment(texts: list[str]) -> dict[str, dict[str, int]]:
    """``UNIT=ENEMY:DICE[,ENEMY:DICE...]`` -> {UNIT: {ENEMY: DICE}}."""
    assignment: dict[str, dict[str, int]] = {}
    for text in texts:
        unit, split = _split("--assign", text, "=")
        dice: dict[str, int] = {}
        for part in split.split(","):
            enemy, count = _split("--assign", part, ":")
            try:
                dice[enemy] = int(count)
            except ValueError:
                raise InputError("--assign", f"{part!r}: the dice must be a whole number") from None
        assignment[unit] = dice
    return assignment


def melee_many_command(
    side: Annotated[
        Optional[list[str]],
        typer.Option(help="A unit: NAME=PROFILE (a side of --profiles or an example), or PROFILE alone. Repeat it."),
    ] = None,
    engaged: Annotated[
        Optional[list[str]],
        typer.Option(help="A pair in contact, A:B, in the order their damage is applied. Repeat it."),
    ] = None,
    assign: Annotated[
        Optional[list[str]],
        typer.Option(help="How a unit with several enemies splits its dice: UNIT=ENEMY:DICE,ENEMY:DICE."),
    ] = None,
    winner_damage: WinnerDamageOption = None,
    allocation: AllocationOption = None,
    sustained_mode: SustainedModeOption = None,
    bonus_always: BonusAlwaysOption = None,
    variants: VariantsOption = None,
    profiles: ProfilesOption = None,
    method: MethodOption = Method.auto,
    samples: SamplesOption = engine.DEFAULT_SAMPLES,
    seed: SeedOption = None,
    threads: ThreadsOption = None,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """A melee of several engaged units: every pair in contact fights one exchange at once.

    With no options: Line Trooper and Militia squads both charge a Walker, which puts 3 dice on the
    troopers and 1 on the militia.
    """
    if not side and (engaged or assign):
        raise InputError("--side", "give the units (--side NAME=PROFILE) whose pairs --engaged and --assign name")
    if side and not engaged:
        raise InputError("--engaged", "give each pair in contact as --engaged A:B")
    library = load_game_library(profiles, "force_melee") if profiles is not None else default_library("force_melee")
    sides = parse_sides(list(side or DEFAULT_MANY_SIDES), library)
    pairs = parse_engaged(list(engaged or DEFAULT_MANY_ENGAGED))
    assignment = parse_assignment(list(assign or ([] if side else DEFAULT_MANY_ASSIGN)))
    rules = cli_variants(Variants, variants, {"winner_damage": winner_damage, "allocation": allocation,
                                              "sustained_mode": sustained_mode, "bonus_always": bonus_always})
    with progress_bar("Force melee") as progress:
        result = engine.melee_many(
            sides, pairs, assignment or None, method=method.value, samples=samples, seed=seed, threads=threads,
            progress=progress, variants=rules,
        )
    tables, lines = melee_many_tables(result)
    payload = {
        "sides": {name: s.to_dict() for name, s in sides.items()},
        "engaged": [list(pair) for pair in pairs],
        "assignment": assignment,
        "switches": rules.to_dict(),
        "summary": _many_summary(result),
        "result": result.to_dict(),
    }
    emit(fmt, tables, payload, lines)


class _MeleeByDefault(TyperGroup):
    """``mathhammer force-melee [OPTIONS]`` without an action runs ``melee``, as it did before the
    group had actions (``--help`` too: it lists the options of the command most runs use)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args or args[0] not in self.commands:
            args = ["melee", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    name="force-melee",
    help="Force melee: simultaneous close combat, hits compared, Force decides the damage.",
    cls=_MeleeByDefault,
)
app.command("melee", epilog=MELEE_EPILOG)(force_melee)
app.command("melee-many", epilog=MELEE_MANY_EPILOG)(melee_many_command)
register_profiles_command(app, "force_melee")


def register(parent: typer.Typer) -> None:
    """Add ``mathhammer force-melee melee | melee-many`` to the top-level app."""
    parent.add_typer(app, name="force-melee")

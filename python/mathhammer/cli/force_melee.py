"""``mathhammer force-melee melee|melee-many|profiles``: one exchange between two sides (or the
force_melee entries of a scenario file), and several engaged units. ``mathhammer force-melee
[OPTIONS]`` with no action is ``melee``.

Every profile field has an option per side (``--a-dice``, ``--b-force``, ...). A side starts from an
example profile (``--a-profile``, default Line Trooper squad for A and Militia squad for B) and the
options given replace its fields. Each command imports the Force melee engine when it runs, so this
module loads no game by itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from typer.core import TyperGroup

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
    side_options,
    take,
    with_parameters,
)
from mathhammer.cli.commands import epilog, group_help
from mathhammer.cli.output import add_profiles_command, emit, emit_sections, result_tables
from mathhammer.cli.progress import ProgressGroup, progress_bar
from mathhammer.core.options import DEFAULT_SAMPLES
from mathhammer.errors import InputError
from mathhammer.report.tables import Section
from mathhammer.core.guard import excerpt

if TYPE_CHECKING:
    from mathhammer.core.game import Library
    from mathhammer.force_melee import MeleeManyResult, Side

__all__ = ["app", "build_side", "parse_assignment", "parse_engaged", "parse_sides"]

_EXAMPLE_NAMES = "line_troopers, militia, walker, carbine_squad"  # fm.EXAMPLES (a test holds them equal)

SIDE_OPTIONS = (
    OptionSpec("profile", Optional[str], f"Start from a side of --profiles or an example: {_EXAMPLE_NAMES}."),
    OptionSpec("name", Optional[str], "Unit name."),
    OptionSpec("dice", Optional[int], "Dice this unit rolls (0..40)."),
    OptionSpec("hit_mod", Optional[int], "Hit modifier (-5..5; +1 turns 4+ into 3+)."),
    OptionSpec("hit", Optional[str], "Hit target (2..6, '4' or '4+')."),
    OptionSpec("force", Optional[int], "Weapon Force (damage value, 0..20)."),
    OptionSpec("crit", Optional[int], "Natural face from which a hit is critical (2..6)."),
    OptionSpec("kind", Optional[str], "melee, or ranged (an Assault ranged weapon in close combat)."),
    OptionSpec("assault", Optional[bool], "The weapon is an Assault weapon.", flag=True),
    OptionSpec("sustained", Optional[int], "Sustained Damage X (0..10)."),
    OptionSpec("critical_damage", Optional[int], "Critical Damage X (0..10)."),
    OptionSpec("bonus_flat", Optional[int], "Flat bonus damage (0..10)."),
    OptionSpec("reroll", Optional[str], "Hit rerolls: none, fails or ones."),
    OptionSpec("weapon", Optional[str], "Weapon name."),
    OptionSpec("models", Optional[int], "Models in the unit (1..30)."),
    OptionSpec("hp", Optional[int], "HP per model (1..30)."),
    OptionSpec("current", Optional[str], "Current HP per model, comma-separated, in allocation order (e.g. 1,2,2)."),
    OptionSpec("vehicle", Optional[bool], "The unit is a vehicle (same engine).", flag=True),
)
SIDES = [*side_options("a", SIDE_OPTIONS, "Side A"), *side_options("b", SIDE_OPTIONS, "Side B")]


def _library(profiles: Path | None) -> Any:
    from mathhammer.files.library import default_library, load_game_library

    return load_game_library(profiles, "force_melee") if profiles is not None else default_library("force_melee")


def _parse_current(text: str, field: str) -> tuple[int, ...]:
    from mathhammer.core.guard import check_notation

    try:
        return tuple(int(part) for part in check_notation(field, text).replace(" ", "").split(",") if part)
    except ValueError:
        raise InputError(field, f"{excerpt(text)} is not a comma-separated list of HP such as 1,2,2") from None


def build_side(label: str, default: str, fields: dict[str, Any], library: Library | None = None) -> Side:
    """A side from a profile (a ``[side.*]`` entry of ``library``, else an example) and the options
    given (None = keep the profile's value)."""
    from mathhammer.force_melee import example
    from mathhammer.force_melee.profiles import field_prefix

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

@with_parameters(before=SIDES, after=engine_parameters(Method.auto, DEFAULT_SAMPLES))
def melee_command(
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
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """One simultaneous melee exchange: hits compared, Force decides the damage.

    With no options: Line Trooper squad (A: 5 x 1 HP, 3 dice at 4+, Force 4) against Militia squad
    (B: 5 x 1 HP, 2 dice at 5+, Force 2).
    """
    from mathhammer.force_melee import Variants, melee

    engine = engine_options(options)
    given = {"winner_damage": winner_damage, "allocation": allocation, "sustained_mode": sustained_mode,
             "bonus_always": bonus_always}
    rules = cli_variants(Variants, variants, given)
    # The switches given on the command line override a scenario's entries (None: not given).
    switches: dict[str, Any] = {key: value for key, value in given.items() if value is not None}
    if variants is not None:
        switches["variants"] = variants
    if scenario is not None:
        overrides: dict[str, Any] = dict(switches)
        if engine.method != Method.auto.value:
            overrides["method"] = engine.method
        if engine.samples != DEFAULT_SAMPLES:
            overrides["samples"] = engine.samples
        if engine.seed is not None:
            overrides["seed"] = engine.seed
        if engine.threads is not None:
            overrides["threads"] = engine.threads
        _run_scenario(scenario, overrides, fmt)
        return

    library = _library(profiles)
    side_a = build_side("a", "line_troopers", take(options, SIDE_OPTIONS, "a"), library)
    side_b = build_side("b", "militia", take(options, SIDE_OPTIONS, "b"), library)
    with progress_bar("Force melee") as progress:
        result = melee(side_a, side_b, **engine.keywords(), progress=progress, variants=rules)
    tables, lines = result_tables("", result)
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
    from mathhammer.files import scenario
    from mathhammer.force_melee import MeleeResult
    from mathhammer.force_melee.scenario import force_melee_only

    data = force_melee_only(scenario.load_scenario(path), str(path))
    entries = scenario.prepare_entries(data, base=path.parent, source=str(path), overrides=overrides)
    with ProgressGroup() as bars:
        outcomes = [entry.run(bars.callback(entry.name)) for entry in entries]
    sections: list[Section] = []
    payload_entries = []
    for outcome in outcomes:
        result = outcome.result
        sections.append(Section(outcome.name, *result_tables("", result)))
        summary: Any = result.summary() if isinstance(result, MeleeResult) else _many_summary(result)
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

def _split(option: str, text: str, separator: str) -> tuple[str, str]:
    from mathhammer.core.guard import check_notation

    left, found, right = check_notation(option, text).partition(separator)
    if not found or not left.strip() or not right.strip():
        raise InputError(option, f"{excerpt(text)}: expected two parts separated by {excerpt(separator)}")
    return left.strip(), right.strip()


def parse_sides(texts: list[str], library: Library) -> dict[str, Side]:
    """``NAME=PROFILE`` (or ``PROFILE`` alone, named after it) -> {NAME: Side}; a profile is a side
    of the library or an example."""
    from mathhammer.core.guard import check_notation
    from mathhammer.files.library import resolve_profile

    sides: dict[str, Side] = {}
    for text in texts:
        name, profile = _split("--side", text, "=") if "=" in text else (check_notation("--side", text).strip(),) * 2
        if name in sides:
            raise InputError("--side", f"two sides named {excerpt(name)}")
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
                raise InputError("--assign", f"{excerpt(part)}: the dice must be a whole number") from None
        assignment[unit] = dice
    return assignment


@with_parameters(after=engine_parameters(Method.auto, DEFAULT_SAMPLES))
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
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """A melee of several engaged units: every pair in contact fights one exchange at once.

    With no options: Line Trooper and Militia squads both charge a Walker, which puts 3 dice on the
    troopers and 1 on the militia.
    """
    from mathhammer.force_melee import Variants, melee_many

    engine = engine_options(options)
    if not side and (engaged or assign):
        raise InputError("--side", "give the units (--side NAME=PROFILE) whose pairs --engaged and --assign name")
    if side and not engaged:
        raise InputError("--engaged", "give each pair in contact as --engaged A:B")
    library = _library(profiles)
    sides = parse_sides(list(side or DEFAULT_MANY_SIDES), library)
    pairs = parse_engaged(list(engaged or DEFAULT_MANY_ENGAGED))
    assignment = parse_assignment(list(assign or ([] if side else DEFAULT_MANY_ASSIGN)))
    rules = cli_variants(Variants, variants, {"winner_damage": winner_damage, "allocation": allocation,
                                              "sustained_mode": sustained_mode, "bonus_always": bonus_always})
    with progress_bar("Force melee") as progress:
        result = melee_many(sides, pairs, assignment or None, **engine.keywords(), progress=progress, variants=rules)
    tables, lines = result_tables("", result)
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
    help=group_help("force-melee"),
    epilog=epilog("force-melee"),
    cls=_MeleeByDefault,
)
app.command("melee", epilog=epilog("force-melee", "melee"))(melee_command)
app.command("melee-many", epilog=epilog("force-melee", "melee-many"))(melee_many_command)
add_profiles_command(app, "force_melee")

"""``mathhammer killteam fight|shoot|attack-dice|advise|compare|compare-fights|profiles``.

Each command imports the Kill Team engine when it runs, so this module loads no game by itself.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from mathhammer.cli.options import (
    FormatOption,
    Method,
    OutputFormat,
    SideOption,
    VariantsOption,
    WithOption,
    cli_variants,
    engine_options,
    engine_parameters,
    side_options,
    take,
    with_parameters,
)
from mathhammer.cli.commands import epilog, group_help
from mathhammer.cli.killteam_data import register as add_data_commands
from mathhammer.cli.output import emit, note_plot, note_result, profile_text, result_tables, shipped_profiles
from mathhammer.cli.progress import progress_bar
from mathhammer.core.options import DEFAULT_SAMPLES
from mathhammer.errors import InputError
from mathhammer.core.guard import excerpt
from mathhammer.report.tables import Table

if TYPE_CHECKING:
    from mathhammer.killteam import Fighter, ShootResult

__all__ = ["app", "parse_dice", "parse_range", "parse_saves"]

app = typer.Typer(name="killteam", help=group_help("killteam"), epilog=epilog("killteam"), no_args_is_help=True)


#: --profiles of the Kill Team commands: several libraries, and folders of them (a team per file).
ProfilesOption = Annotated[
    Optional[list[Path]],
    typer.Option("--profiles", help="A profile library (.toml/.json, see docs/scenarios.md), or a folder of them "
                 "(mathhammer killteam import --out); repeatable. Names resolve loosely: 'Meltagun' is "
                 "'Gunner/Meltagun' when no other entry ends so; a name two libraries share is <team>/<name>. "
                 "killteam-examples (the default) is the library shipped with mathhammer."),
]


def _library(profiles: Sequence[Path] | None, switches: list[str] | None = None) -> Any:
    """The library of --profiles (or the bundled examples), with the switches --with names on."""
    from mathhammer.files.library import default_library, load_game_libraries
    from mathhammer.killteam import GAME

    library = load_game_libraries(profiles, "killteam", "--profiles") if profiles else default_library("killteam")
    return GAME.with_switches(library, switches, "--with") if switches else library


def _note_set_aside(option: str, text: str | None, kind: str = "rules") -> None:
    """Say on stderr which tokens of a datacard text the command set aside, and why: they change
    nothing in one shot or one fight (``Range 8"``, Silent, ...; docs/killteam_shoot.md)."""
    from mathhammer.killteam.profiles import rule_notes

    for note in rule_notes(text, kind):
        sys.stderr.write(f"note: {option}: {note}\n")


# --- the options of a fighter, declared once (fight, advise) ----------------------------------------

_STRATEGY_HELP = ("strike, parry, max_damage (Max Dmg To Enemy), min_damage (Min Dmg To Self) or optimal "
                  "(best move for --X-objective).")
_OBJECTIVE_HELP = "with --X-strategy optimal: trade (default), net, kill or survive."

FIGHTER_OPTIONS = (
    SideOption("profile", Optional[str], "a fighter of --profiles to start from."),
    SideOption("attacks", Optional[int], "attack dice (1..12; default 4)."),
    SideOption("hit", Optional[str], "hit stat, 3 or 3+ (2..6; default 3+)."),
    SideOption("damage", Optional[str], "normal/critical damage (default 3/4)."),
    SideOption("wounds", Optional[int], "wounds (1..40; default 12)."),
    SideOption("rules", Optional[str], "weapon rules, e.g. 'Brutal, Lethal 5+'."),
    SideOption("abilities", Optional[str], "e.g. 'Storm Shield, Feel No Pain 5+'."),
    SideOption("strategy", Optional[str], _STRATEGY_HELP),
    SideOption("objective", Optional[str], _OBJECTIVE_HELP),
)
#: Fighter A's and fighter B's options (--a-attacks, ..., --b-objective).
FIGHTERS = [*side_options("a", FIGHTER_OPTIONS, "Fighter A", "Fighter A"),
            *side_options("b", FIGHTER_OPTIONS, "Fighter B", "Fighter B")]


def _fighter(side: str, options: dict[str, Any], library: Any) -> Fighter:
    """A side's fighter: the named profile (or the default) with the fields given on the command line
    (taken out of ``options``)."""
    from mathhammer.killteam.catalog import DEFAULT_FIGHTER
    from mathhammer.files.library import resolve_profile

    fields = take(options, FIGHTER_OPTIONS, side)
    profile = fields.pop("profile")
    base = DEFAULT_FIGHTER if profile is None else resolve_profile("killteam", "fighter", profile, library,
                                                                   f"{side}.profile")
    given = {k: v for k, v in fields.items() if v is not None}
    changed = [f"{side}-{k}" for k in given]
    # A heuristic strategy given without an objective drops an optimal profile's objective.
    if "strategy" in given and "objective" not in given and str(given["strategy"]).strip().lower() != "optimal":
        given["objective"] = None
    try:
        fighter = dataclasses.replace(base, **given, **_renamed(base, changed))
    except InputError as error:
        message = str(error).split(": ", 1)[1]
        raise type(error)(f"{side}.{error.field}", message) from None
    _note_set_aside(f"--{side}-profile", profile, "fighter")
    _note_set_aside(f"--{side}-rules", fields.get("rules"))
    return fighter


# --- fight ----------------------------------------------------------------------------------------

@app.command("fight", epilog=epilog("killteam", "fight"))
@with_parameters(before=FIGHTERS, after=engine_parameters(Method.auto, DEFAULT_SAMPLES))
def fight_command(
    profiles: ProfilesOption = None,
    switches: WithOption = None,
    first: Annotated[str, typer.Option(help="Who resolves first each round: a or b.")] = "a",
    rounds: Annotated[int, typer.Option(help="Fight rounds with fresh dice, wounds carried over (1..3).")] = 1,
    variants: VariantsOption = None,
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """A Kill Team 2024 fight: both fighters' remaining wounds, death chances and means.

    With no options: 4 attacks, 3+, 3/4 damage, 12 wounds, Max Dmg To Enemy on both sides.
    """
    from mathhammer.core.profiles import profile_to_dict
    from mathhammer.killteam import Variants, fight

    engine = engine_options(options)
    library = _library(profiles, switches)
    a = _fighter("a", options, library)
    b = _fighter("b", options, library)
    with progress_bar("Fighting") as progress:
        result = fight(a, b, first=first, rounds=rounds, **engine.keywords(), progress=progress,
                       variants=cli_variants(Variants, variants, {}))
    tables, lines = result_tables("", result)
    payload = {
        "a": str(a),
        "b": str(b),
        "first": result.first,
        "rounds": rounds,
        "method": result.method,
        "samples": result.samples,
        "death_chance": {"a": result.death_chance("a"), "b": result.death_chance("b")},
        "mean_wounds": {"a": result.wounds_a.mean, "b": result.wounds_b.mean},
        "mean_damage_taken": {"a": result.mean_damage_taken("a"), "b": result.mean_damage_taken("b")},
        "stderr": result.stderr,
        "profiles": {"a": profile_to_dict(a), "b": profile_to_dict(b)},
        **({"with": switches} if switches else {}),
        "result": result.to_dict(),
    }
    emit(fmt, tables, payload, lines)


# --- shoot ----------------------------------------------------------------------------------------

_W, _T = "Weapon", "Target"


def _o(panel: str, text: str) -> Any:
    return typer.Option(help=text, rich_help_panel=panel)


def parse_saves(text: str) -> list[int]:
    """'2-6', '3,4,5' or '4' → the save values (each 2..6, no repeats)."""
    from mathhammer.core.checks import check_stat
    from mathhammer.core.guard import check_notation

    values: list[int] = []
    for part in check_notation("saves", text).split(","):
        part = part.strip()
        match = re.fullmatch(r"(\d)\+?\s*-\s*(\d)\+?", part)
        if match:
            lo, hi = (check_stat("saves", match.group(i)) for i in (1, 2))
            if lo > hi:
                raise InputError("saves", f"{excerpt(part)} runs backwards; write the range low to high, e.g. 2-6")
            values += list(range(lo, hi + 1))
        elif part:
            values.append(check_stat("saves", part))
    if not values:
        raise InputError("saves", f"{excerpt(text)} names no save; write e.g. 2-6 or 3,4,5")
    if len(set(values)) != len(values):
        raise InputError("saves", f"{excerpt(text)} repeats a save value")
    return values


def _headline(r: ShootResult) -> dict[str, Any]:
    out = {"mean": r.damage.mean, "std": r.damage.std, "kill_chance": r.kill_chance, "kill_stderr": r.kill_stderr,
           "injury_chance": r.injury_chance, "injury_stderr": r.injury_stderr}
    if r.self_damage is not None:  # Hot: what the shooter takes (docs/rules/killteam.md §2.2)
        out.update(mean_self_damage=r.mean_self_damage, shooter_death_chance=r.shooter_death_chance)
    return out


_SHOOTER_WOUNDS_HELP = "The shooter's wounds (1..40): a Hot weapon's chance to incapacitate it."


def _renamed(base: Any, options: Sequence[str]) -> dict[str, Any]:
    """A named profile whose fields the command line changed is no longer that profile: its new
    name says which options changed it ("bolt_rifle with --attacks")."""
    name = getattr(base, "name", None)
    return {"name": f"{name} with {', '.join('--' + o for o in options)}"} if name and options else {}


def _with(base: Any, **changes: Any) -> Any:
    """The profile with the fields given on the command line (None: keep the profile's)."""
    given = {k: v for k, v in changes.items() if v is not None}
    return dataclasses.replace(base, **given, **_renamed(base, [k.replace("_", "-") for k in given]))


@app.command("shoot", epilog=epilog("killteam", "shoot"))
@with_parameters(after=engine_parameters(Method.exact, DEFAULT_SAMPLES))
def shoot_command(
    weapon: Annotated[Optional[str], _o(_W, "A weapon of --profiles, or datacard notation such as '4A 3+ 3/4 Lethal 5+'.")] = None,
    attacks: Annotated[Optional[int], _o(_W, "Attack dice (1..12; default 4).")] = None,
    hit: Annotated[Optional[str], _o(_W, "Hit stat, 3 or 3+ (2..6; default 3+).")] = None,
    damage: Annotated[Optional[str], _o(_W, "Normal/critical damage, e.g. 3/4 (0..12 each; default 3/4).")] = None,
    rules: Annotated[Optional[str], _o(_W, "Weapon rules, e.g. 'Lethal 5+, Piercing 1, Balanced'.")] = None,
    target: Annotated[Optional[str], _o(_T, "An operative of --profiles to shoot at.")] = None,
    save: Annotated[Optional[str], _o(_T, "Target's save, 3 or 3+ (2..6; default 3+).")] = None,
    saves: Annotated[Optional[str], _o(_T, "Compare saves side by side instead: 2-6, or 3,4,5.")] = None,
    wounds: Annotated[Optional[int], _o(_T, "Target's wounds (1..40; default 12).")] = None,
    abilities: Annotated[
        Optional[str], _o(_T, "Target's abilities, e.g. 'Feel No Pain 5+, Saintly Relics (2D6), Durable'.")
    ] = None,
    profiles: ProfilesOption = None,
    switches: WithOption = None,
    cover: Annotated[int, typer.Option(help="Cover saves retained without rolling (0..3; 1 = in cover).")] = 0,
    cover_crits: Annotated[
        int, typer.Option("--cover-crits", help="Crit saves retained without rolling (0..3), before --cover.")
    ] = 0,
    obscured: Annotated[bool, typer.Option("--obscured", help="The target is obscured.")] = False,
    rounds: Annotated[int, typer.Option(help="Shots in a row (1..9); damage adds up.")] = 1,
    shooter_wounds: Annotated[Optional[int], typer.Option("--shooter-wounds", help=_SHOOTER_WOUNDS_HELP)] = None,
    variants: VariantsOption = None,
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """Damage of a Kill Team shot: distribution, mean and kill chance (exact by default).

    With no options: 4 attacks, 3+, 3/4 damage against a 3+ save and 12 wounds.
    """
    from mathhammer.core.profiles import profile_to_dict
    from mathhammer.files.library import resolve_profile
    from mathhammer.killteam import Variants, shoot
    from mathhammer.killteam.catalog import DEFAULT_TARGET, DEFAULT_WEAPON
    from mathhammer.killteam.report import saves_side_by_side, shot_conditions, shot_summary

    engine = engine_options(options)
    if save is not None and saves is not None:
        raise InputError("--saves", "--saves sweeps the save; drop --save (give one or the other)")
    library = _library(profiles, switches)
    base_weapon = DEFAULT_WEAPON if weapon is None else resolve_profile("killteam", "weapon", weapon, library)
    the_weapon = _with(base_weapon, attacks=attacks, hit=hit, damage=damage, rules=rules)
    base_target = DEFAULT_TARGET if target is None else resolve_profile("killteam", "operative", target, library,
                                                                        "target")
    base_target = _with(base_target, save=save, wounds=wounds, abilities=abilities)
    save_values = parse_saves(saves) if saves is not None else [base_target.save]
    _note_set_aside("--weapon", weapon, "weapon")
    _note_set_aside("--rules", rules)
    shot_options = dict(cover=cover, cover_crits=cover_crits, obscured=obscured, rounds=rounds,
                        shooter_wounds=shooter_wounds, **engine.keywords(), variants=cli_variants(Variants, variants, {}))
    results: list[tuple[int, ShootResult]] = []
    for value in save_values:
        the_target = dataclasses.replace(base_target, save=value)
        with progress_bar(f"{value}+ save") as progress:
            results.append((value, shoot(the_weapon, the_target, **shot_options, progress=progress)))

    first = results[0][1]
    inputs = {"weapon": first.weapon, "target": first.target, "wounds": first.wounds, "cover": first.cover,
              "cover_crits": first.cover_crits,
              "obscured": first.obscured, "rounds": first.rounds, "method": first.method,
              "samples": first.samples,
              "profiles": {"weapon": profile_to_dict(the_weapon), "target": profile_to_dict(base_target)},
              **({"with": switches} if switches else {})}
    if shooter_wounds is not None:
        inputs["shooter_wounds"] = shooter_wounds
    if saves is None:
        tables, lines = result_tables("", first)
        emit(fmt, tables, {**inputs, **_headline(first), "result": first.to_dict()}, lines)
        return
    inputs["target"] = f"saves {', '.join(f'{v}+' for v in save_values)}; {base_target.wounds}W"
    payload = {**inputs, "saves": [{"save": value, **_headline(r), "result": r.to_dict()} for value, r in results]}
    summary = [line for value, r in results for line in shot_summary(f"{value}+: ", r)]
    for _, r in results:
        note_result(r)
    heading = f"{first.weapon} against {inputs['target']}" + "".join(f", {part}" for part in shot_conditions(first))
    tables = saves_side_by_side(results)
    for table in tables:  # every table says what was computed
        table.title = f"{table.title}: {heading}"
    note_plot(lambda: _saves_picture(results, heading))
    emit(fmt, tables, payload, summary if fmt is OutputFormat.markdown else [])


def _saves_picture(results: list[tuple[int, ShootResult]], heading: str) -> Any:
    """--plot of ``shoot --saves``: one series per save, titled with the weapon."""
    from mathhammer.core.plots import plot

    return plot([r for _, r in results], labels=[f"{save}+ save" for save, _ in results],
                title=f"Damage by save: {heading}")


# --- attack-dice -----------------------------------------------------------------------------------

@app.command("attack-dice", epilog=epilog("killteam", "attack-dice"))
@with_parameters(after=engine_parameters(Method.exact, DEFAULT_SAMPLES))
def attack_dice_command(
    weapon: Annotated[str, typer.Option(help="A weapon of --profiles, or datacard notation such as '4A 3+ 3/4 Lethal 5+'.")]
    = "4A 3+ 3/4",
    obscured: Annotated[bool, typer.Option("--obscured", help="The target is obscured.")] = False,
    profiles: ProfilesOption = None,
    variants: VariantsOption = None,
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """A Kill Team weapon's retained attack dice: the chance of each (crits, norms)."""
    from mathhammer.core.profiles import profile_to_dict
    from mathhammer.files.library import resolve_profile
    from mathhammer.killteam import Variants, attack_dice

    engine = engine_options(options)
    gun = resolve_profile("killteam", "weapon", weapon, _library(profiles))
    _note_set_aside("--weapon", weapon, "weapon")
    with progress_bar("Rolling") as progress:
        result = attack_dice(gun, obscured, **engine.keywords(), progress=progress,
                             variants=cli_variants(Variants, variants, {}))
    tables, lines = result_tables("", result)
    emit(fmt, tables, {"weapon": str(gun), "obscured": obscured, "profiles": {"weapon": profile_to_dict(gun)},
                       "summary": result.summary(), "result": result.to_dict()}, lines)


# --- advise ---------------------------------------------------------------------------------------

def parse_dice(field: str, text: str) -> tuple[int, int]:
    """Retained dice as '1c2n' (1 crit, 2 norms), '2n', '1c' or '1,2' → (crits, norms)."""
    from mathhammer.core.guard import check_notation

    cleaned = check_notation(field, text).strip().lower().replace(" ", "")
    match = re.fullmatch(r"(?:(\d+)c)?(?:(\d+)n)?", cleaned) if cleaned else None
    if match and (match.group(1) or match.group(2)):
        return int(match.group(1) or 0), int(match.group(2) or 0)
    match = re.fullmatch(r"(\d+),(\d+)", cleaned)
    if match:
        return int(match.group(1)), int(match.group(2))
    raise InputError(field, f"{excerpt(text)} is not retained dice; write crits and norms as 1c2n (or 1,2)")


@app.command("advise", epilog=epilog("killteam", "advise"))
@with_parameters(before=FIGHTERS)
def advise_command(
    dice_a: Annotated[str, typer.Option("--dice-a", help="A's retained dice, e.g. 1c2n (1 crit, 2 norms).")],
    dice_b: Annotated[str, typer.Option("--dice-b", help="B's retained dice, e.g. 0c2n.")],
    profiles: ProfilesOption = None,
    first: Annotated[str, typer.Option(help="Who resolves first: a or b.")] = "a",
    variants: VariantsOption = None,
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """Kill Team fight advice from the dice on the table: every legal move, its value, the best one.

    The fighter to move is valued as optimal with its objective (trade for a heuristic fighter);
    --X-wounds are the wounds each fighter has now.
    """
    from mathhammer.core.profiles import profile_to_dict
    from mathhammer.killteam import Variants, advise
    from mathhammer.killteam.report import advice_picture

    library = _library(profiles)
    a = _fighter("a", options, library)
    b = _fighter("b", options, library)
    result = advise(a, b, parse_dice("--dice-a", dice_a), parse_dice("--dice-b", dice_b), first=first,
                    variants=cli_variants(Variants, variants, {}))
    tables, lines = result_tables("", result)
    if result.moves:
        note_plot(lambda: advice_picture(result, f"Wounds left by move: {tables[0].title}"))
    payload: dict[str, Any] = {"a": str(a), "b": str(b), "mover": result.mover, "best": result.best,
                               "heuristic": result.heuristic,
                               "profiles": {"a": profile_to_dict(a), "b": profile_to_dict(b)},
                               "result": result.to_dict()}
    emit(fmt, tables, payload, lines)


# --- compare and compare-fights ---------------------------------------------------------------------

def parse_range(name: str, text: str, lo: int, hi: int) -> list[int]:
    """'1-25', '3,5,8' or '4' → the integers (each lo..hi, no repeats)."""
    from mathhammer.core.guard import check_notation

    values: list[int] = []
    for part in check_notation(name, text).split(","):
        part = part.strip()
        match = re.fullmatch(r"(\d+)\s*-\s*(\d+)", part)
        bounds = (int(match.group(1)), int(match.group(2))) if match else None
        if bounds is None and not part.isdigit():
            raise InputError(name, f"{excerpt(part)} is not a number or a range such as {lo}-{hi}")
        first, last = bounds or (int(part), int(part))
        if first > last:
            raise InputError(name, f"{excerpt(part)} runs backwards; write the range low to high")
        if first < lo or last > hi:
            raise InputError(name, f"{excerpt(part)} is out of range; allowed {lo}..{hi}")
        values += range(first, last + 1)
    if len(set(values)) != len(values):
        raise InputError(name, f"{excerpt(text)} repeats a value")
    return values


@app.command("compare", epilog=epilog("killteam", "compare"))
@with_parameters(after=engine_parameters(Method.exact, DEFAULT_SAMPLES))
def compare_command(
    weapon: Annotated[list[str], typer.Option(help="A weapon to compare (give two or more): datacard notation such "
                                                   "as '4A 3+ 3/4 Lethal 5+' or a weapon of --profiles.")],
    saves: Annotated[str, typer.Option(help="The saves to shoot at: 2-6, or 3,4,5.")] = "2-6",
    at_least: Annotated[str, typer.Option(help="The damage thresholds w of P(damage >= w): 1-25, or 4,8,12.")] = "1-25",
    target: Annotated[Optional[str], typer.Option(help="An operative of --profiles to shoot at (its save is replaced by each of --saves).")] = None,
    wounds: Annotated[Optional[int], typer.Option(help="Target's wounds (1..40; default 12).")] = None,
    abilities: Annotated[Optional[str], typer.Option(help="Target's abilities, e.g. 'Feel No Pain 5+'.")] = None,
    profiles: ProfilesOption = None,
    switches: WithOption = None,
    cover: Annotated[int, typer.Option(help="Cover saves retained without rolling (0..3; 1 = in cover).")] = 0,
    obscured: Annotated[bool, typer.Option("--obscured", help="The target is obscured.")] = False,
    rounds: Annotated[int, typer.Option(help="Shots in a row (1..9); damage adds up.")] = 1,
    shooter_wounds: Annotated[Optional[int], typer.Option("--shooter-wounds", help=_SHOOTER_WOUNDS_HELP)] = None,
    variants: VariantsOption = None,
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """Compare guns at every save: mean damage and P(damage >= w), then the first minus the second."""
    from mathhammer.files.library import resolve_profile
    from mathhammer.killteam import Operative, Variants, compare
    from mathhammer.killteam.report import shot_comparison_heading, shot_comparison_picture

    engine = engine_options(options)
    library = _library(profiles, switches)
    guns = [resolve_profile("killteam", "weapon", w, library, f"weapon[{i}]") for i, w in enumerate(weapon)]
    for w in weapon:
        _note_set_aside("--weapon", w, "weapon")
    save_values = parse_saves(saves)
    base = (resolve_profile("killteam", "operative", target, library, "target") if target is not None
            else Operative(save_values[0], wounds=12))
    base = dataclasses.replace(base, **{k: v for k, v in {"wounds": wounds, "abilities": abilities}.items()
                                        if v is not None})
    # a weapon of the library is labelled by its name there (short: columns stay narrow), else its notation
    known = library.get("weapon", {})
    situations = [{"weapon": gun, "label": name if name in known else str(gun)}
                  for gun, name in zip(guns, weapon)]
    comparison = compare(situations, saves=save_values, at_least=parse_range("at-least", at_least, 1, 1000),
                         target=base, cover=cover, obscured=obscured, rounds=rounds, shooter_wounds=shooter_wounds,
                         **engine.keywords(), variants=cli_variants(Variants, variants, {}))
    payload = {"weapons": list(comparison.labels), "target": str(base), "saves": list(comparison.saves),
               "cover": cover, "obscured": obscured, "rounds": rounds,
               **({} if shooter_wounds is None else {"shooter_wounds": shooter_wounds}),
               "rows": comparison.to_frame().to_dict(orient="records"), **({"with": switches} if switches else {}),
               "result": comparison.to_dict()}
    note_plot(lambda: shot_comparison_picture(comparison, f"Mean damage by save ({shot_comparison_heading(comparison)})"))
    tables, lines = result_tables("", comparison)
    emit(fmt, tables, payload, lines)


@app.command("compare-fights", epilog=epilog("killteam", "compare-fights"))
@with_parameters(after=engine_parameters(Method.auto, DEFAULT_SAMPLES))
def compare_fights_command(
    fighter: Annotated[list[str], typer.Option(help="A fighter (repeatable): a fighter of --profiles, or "
                                                    "'4A 3+ 3/4 Brutal; 12W; parry; Storm Shield'.")],
    opponent: Annotated[list[str], typer.Option(help="An opponent (repeatable), written the same way.")],
    strategies: Annotated[Optional[str], typer.Option(help="Fight each fighter with each of these strategies "
                                                           "instead: e.g. strike,parry,max_damage,min_damage.")] = None,
    profiles: ProfilesOption = None,
    first: Annotated[str, typer.Option(help="Who resolves first each round: a (the fighter) or b (the opponent).")] = "a",
    rounds: Annotated[int, typer.Option(help="Fight rounds with fresh dice, wounds carried over (1..3).")] = 1,
    variants: VariantsOption = None,
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """Each fighter (or strategy variant) against each opponent: kill and death chances, mean wounds left."""
    from mathhammer.core.checks import check_choice
    from mathhammer.files.library import resolve_profile
    from mathhammer.killteam import ALL_STRATEGIES, Variants, compare_fights
    from mathhammer.killteam.report import fight_comparison_heading, fight_comparison_picture

    engine = engine_options(options)
    library = _library(profiles)
    # a fighter of the library by its name, else its notation (kt.Fighter.parse)
    fighters = [resolve_profile("killteam", "fighter", f, library, f"fighter[{i}]") for i, f in enumerate(fighter)]
    opponents = [resolve_profile("killteam", "fighter", o, library, f"opponent[{i}]") for i, o in enumerate(opponent)]
    for option, texts in (("--fighter", fighter), ("--opponent", opponent)):
        for text in texts:
            _note_set_aside(option, text, "fighter")
    known = library.get("fighter", {})
    # a fighter of the library is labelled by its name there (short: columns stay narrow), else its profile
    rows: Any = [(name if name in known else str(f), f) for f, name in zip(fighters, fighter)]
    if strategies is not None:
        names = [check_choice("strategies", s.strip(), ALL_STRATEGIES) for s in strategies.split(",")]
        rows = [(str(variant) if label == str(f) else f"{label}: {s}", variant) for label, f in rows
                for s in names for variant in [dataclasses.replace(f, strategy=s, objective=None)]]
    columns = [(name if name in known else str(o), o) for o, name in zip(opponents, opponent)]
    comparison = compare_fights(_labelled(rows), _labelled(columns), first=first, rounds=rounds,
                                **engine.keywords(), variants=cli_variants(Variants, variants, {}))
    payload = {"fighters": list(comparison.fighters), "opponents": list(comparison.opponents),
               "first": first, "rounds": rounds, "rows": comparison.to_frame().to_dict(orient="records"),
               "result": comparison.to_dict()}
    note_plot(lambda: fight_comparison_picture(comparison, f"Kill chance ({fight_comparison_heading(comparison)})"))
    tables, lines = result_tables("", comparison)
    emit(fmt, tables, payload, lines)


def _labelled(pairs: list[tuple[str, Fighter]]) -> dict[str, Fighter] | list[Fighter]:
    """Fighters keyed by label for kt.compare_fights; a plain list when labels repeat (it numbers those)."""
    labels = [label for label, _ in pairs]
    if len(set(labels)) == len(labels):
        return dict(pairs)
    return [fighter for _, fighter in pairs]


# --- profiles ---------------------------------------------------------------------------------------

@app.command("profiles", epilog=epilog("killteam", "profiles"))
def profiles_command(profiles: ProfilesOption = None, fmt: FormatOption = OutputFormat.table) -> None:
    """List the profiles the commands take by name: those shipped with mathhammer, or with --profiles
    those of your libraries (each team's operatives with their statline, its weapons with theirs and
    their rules as the datacard writes them)."""
    if not profiles:
        shipped_profiles("killteam", fmt)
        return
    from mathhammer.core.profiles import profile_to_dict
    from mathhammer.files.teams import library_listing

    tables: list[Table] = []
    listed = library_listing(profiles, "--profiles")
    for one in listed:
        team = one.get("team")
        where = one["file"] if team is None else f"{team['name']} ({one['file']}"
        where += "" if team is None else f", from {team['source']}" + (
            f" revision {team['revision']})" if team.get("revision") is not None else ")")
        if team is not None:
            tables.append(Table(f"Operatives: {where}", ["operative", "APL", "move", "save", "wounds", "abilities"],
                                [[o["name"], _blank(o["apl"]), _blank(o["move"]), f"{o['profile'].save}+",
                                  o["profile"].wounds, str(o["profile"].abilities)] for o in team["operatives"]]))
            for kind in ("ranged", "melee"):
                rows = [[w["name"], str(w["profile"]), w["wr"]] for w in team["weapons"] if w["kind"] == kind]
                if rows:
                    tables.append(Table(f"{kind.capitalize()} weapons: {where}",
                                        ["weapon", "profile", "rules as written"], rows))
            continue
        rows = [[kind, name, profile_text(profile)] for kind, entries in one["profiles"].items()
                for name, profile in entries.items()]
        tables.append(Table(f"Profiles: {where}", ["kind", "name", "profile"], rows))
    payload = {"game": "killteam", "libraries": [_plain_listing(one, profile_to_dict) for one in listed]}
    emit(fmt, tables, payload)


def _blank(value: Any) -> Any:
    return "-" if value is None else value


def _plain_listing(one: dict[str, Any], to_dict: Any) -> dict[str, Any]:
    """A library's listing as JSON: profiles as their fields."""
    out: dict[str, Any] = {"file": one["file"]}
    team = one.get("team")
    if team is None:
        out["profiles"] = {kind: {name: to_dict(p) for name, p in entries.items()}
                           for kind, entries in one["profiles"].items()}
        return out
    out["team"] = {**{k: v for k, v in team.items() if k not in ("operatives", "weapons")},
                   "operatives": [{**o, "profile": to_dict(o["profile"])} for o in team["operatives"]],
                   "weapons": [{**w, "profile": to_dict(w["profile"])} for w in team["weapons"]]}
    return out


add_data_commands(app)  # import, teams

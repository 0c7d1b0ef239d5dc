"""``mathhammer deathburgh combat|round|profiles``.

Each command imports the Deathburgh engine when it runs, so this module loads no game by itself.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from mathhammer.cli.options import (
    FormatOption,
    Method,
    OptionSpec,
    OutputFormat,
    VariantsOption,
    cli_variants,
    engine_options,
    engine_parameters,
    side_options,
    take,
    with_parameters,
)
from mathhammer.cli.commands import epilog, group_help
from mathhammer.cli.output import emit, result_tables
from mathhammer.cli.progress import progress_bar
from mathhammer.core.options import DEFAULT_SAMPLES
from mathhammer.errors import InputError
from mathhammer.report.tables import Table

if TYPE_CHECKING:
    from mathhammer.deathburgh import Miniature, Side

__all__ = ["app"]

app = typer.Typer(name="deathburgh", help=group_help("deathburgh"), epilog=epilog("deathburgh"), no_args_is_help=True)

#: Who the bare combat puts against whom: two of the example profiles (mathhammer.deathburgh.catalog).
DEFAULT_ATTACKER = "Old Fellas Melee Warrior Follower"
DEFAULT_DEFENDER = "Bandit Melee Follower"

# The options every combat command offers for both sides: the profile's fields, then the side's.
PROFILE_OPTIONS = (
    OptionSpec("a", Optional[int], "A: dice in Aggressive mode (overrides the profile)"),
    OptionSpec("a_plus", Optional[int], "A+: target number in Aggressive mode, 2..6"),
    OptionSpec("d", Optional[int], "D: dice in Defensive mode"),
    OptionSpec("d_plus", Optional[int], "D+: target number in Defensive mode, 2..6"),
    OptionSpec("w", Optional[int], "W: wounds of the profile"),
    OptionSpec("role", Optional[str], "melee or ranged"),
)
SIDE_OPTIONS = (
    OptionSpec("mode", str, "aggressive (A dice) or defensive (D dice)", "aggressive"),
    OptionSpec("wounds", Optional[int], "current wounds (default W)"),
    OptionSpec("charge", bool, "Charge bonus: one 6! (attacker, melee)", False),
    OptionSpec("support", int, "supporting allies: one 6! each (melee)", 0),
    OptionSpec("full_visibility", bool, "Full Visibility: one 6! (ranged attack)", False),
    OptionSpec("steady_aim", bool, "Steady Aim: one 6! (ranged attack)", False),
    OptionSpec("take_cover", bool, "Take Cover: one 6! (dodging a ranged attack)", False),
    OptionSpec("get_down", bool, "Get down!: one 6! (dodging a ranged attack)", False),
    OptionSpec("zig_zag", bool, "Zig Zag!: one 6! (alpha, Defensive dodge of a ranged attack)", False),
    OptionSpec("instant6", int, "other instant 6! dice", 0),
    OptionSpec("instant1", int, "instant 1! dice (1! wins conflicts)", 0),
    OptionSpec("souls_dice", int, "Soul's Dice spent (each a 6!)", 0),
    OptionSpec("extra_dice", int, "extra rolled dice from skills", 0),
    OptionSpec("reroll", str, "reroll failed dice: none, all_fails or one_fail", "none"),
    OptionSpec("auto_hits", Optional[int], "automatic hits instead of a roll (attacker)"),
)


def _side_parameters(side: str, default_profile: str) -> list[inspect.Parameter]:
    """Keyword parameters ``<side>``, ``<side>_a``, … with their ``--<side>-…`` options."""
    panel = f"{side.capitalize()} options"
    profile = inspect.Parameter(
        side, inspect.Parameter.KEYWORD_ONLY, default=default_profile,
        annotation=Annotated[str, typer.Option(
            f"--{side}", help=f"{side.capitalize()}: an example name, a profile like 'A 4/4+ D 4/4+ W 3', "
            "or a name from --profiles.", rich_help_panel=panel)])
    return [profile, *side_options(side, (*PROFILE_OPTIONS, *SIDE_OPTIONS), panel)]


SIDES = [*_side_parameters("attacker", DEFAULT_ATTACKER), *_side_parameters("defender", DEFAULT_DEFENDER)]


def _build_side(side: str, options: dict[str, Any], profiles: dict[str, Miniature]) -> Side:
    from mathhammer.deathburgh import Miniature, Side
    from mathhammer.files.library import resolve_profile

    mini: Miniature = resolve_profile("deathburgh", "miniature", options.pop(side), {"miniature": profiles}, f"--{side}")
    fields = take(options, PROFILE_OPTIONS, side)
    changes = {field: fields[name] for name, field in (("a", "A"), ("a_plus", "A_plus"), ("d", "D"),
                                                        ("d_plus", "D_plus"), ("w", "W"), ("role", "role"))
               if fields[name] is not None}
    if changes:
        try:
            mini = Miniature(**{**mini.to_dict(), **changes})
        except InputError as error:
            raise InputError(f"--{side}-{error.field.lower().replace('_', '-')}", str(error).split(": ", 1)[1]) from None
    try:
        return Side(mini, **take(options, SIDE_OPTIONS, side))
    except InputError as error:
        raise InputError(f"--{side}-{error.field.replace('_', '-')}", str(error).split(": ", 1)[1]) from None


@app.command("combat", epilog=epilog("deathburgh", "combat"))
@with_parameters(after=[*engine_parameters(Method.auto, DEFAULT_SAMPLES), *SIDES])
def combat_command(
    reaction: Annotated[str, typer.Option(help="The defender's reaction: attack, dodge or none.")] = "attack",
    edition: Annotated[Optional[str], typer.Option(help="web (the rules site, default) or alpha (the alpha rulebook).")] = None,
    bonus_dice: Annotated[Optional[str], typer.Option(help="A bonus 6! replaces a die (replace, default) or adds one (add).")] = None,
    souls: Annotated[Optional[str], typer.Option(help="A Soul's Dice converts a die into a 6! (convert, default) or adds one (add).")] = None,
    souls_limit: Annotated[Optional[int], typer.Option(help="Soul's Dice per side per combat (default 1).")] = None,
    draw: Annotated[Optional[str], typer.Option(help="Alpha: a draw costs each 1 wound always (default; 0-0 too) or when scored (both >= 1).")] = None,
    draw_in_dodge: Annotated[bool, typer.Option("--draw-in-dodge", help="Alpha: a drawn dodge costs each 1 wound too.")] = False,
    cap_wounds_at_dice: Annotated[bool, typer.Option("--cap-wounds-at-dice", help="Cap the wounds a side inflicts at its dice count.")] = False,
    support_stacking: Annotated[Optional[str], typer.Option(help="Support: one 6! per_ally (default), or once however many allies.")] = None,
    variants: VariantsOption = None,
    stand_and_shoot: Annotated[bool, typer.Option("--stand-and-shoot", help="A charged ranged defender shoots back as in melee.")] = False,
    profiles: Annotated[Optional[Path], typer.Option(help="A deathburgh profile library (TOML/JSON) whose names --attacker/--defender may use.")] = None,
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """Resolve one combat and print the wounds each side takes.

    The bare command pits the Old Fellas Melee Warrior Follower against the Bandit Melee Follower,
    both Aggressive, in opposed attacks (web edition, exact).
    """
    from mathhammer.deathburgh import Variants, combat, load_profiles

    engine = engine_options(options)
    loaded = load_profiles(profiles) if profiles is not None else {}
    attacker = _build_side("attacker", options, loaded)
    defender = _build_side("defender", options, loaded)
    # A flag left off is "not given" (its default), so it may come from --variants instead.
    rules = cli_variants(Variants, variants, dict(
        edition=edition, bonus_dice=bonus_dice, souls=souls, souls_limit=souls_limit, draw=draw,
        draw_in_dodge=draw_in_dodge or None, cap_wounds_at_dice=cap_wounds_at_dice or None,
        support_stacking=support_stacking,
    ))
    switches = {**rules.to_dict(), "stand_and_shoot": stand_and_shoot}
    with progress_bar("Deathburgh combat") as progress:
        result = combat(attacker, defender, reaction, variants=rules, stand_and_shoot=stand_and_shoot,
                        **engine.keywords(), progress=progress)
    tables, lines = result_tables("", result)
    payload = {
        "attacker": attacker.to_dict(),
        "defender": defender.to_dict(),
        "reaction": result.reaction,
        "switches": switches,
        "result": result.to_dict(),
    }
    emit(fmt, tables, payload, lines)


#: The round played when no file is given (a file shipped inside the package).
EXAMPLE_ROUND = "examples/deathburgh/round_scenario.toml"


@app.command("round", epilog=epilog("deathburgh", "round"))
@with_parameters(after=engine_parameters(Method.auto, DEFAULT_SAMPLES))
def round_command(
    scenario: Annotated[Optional[Path], typer.Argument(
        help="A round scenario file (TOML or JSON); none plays the example round shipped with mathhammer.")] = None,
    variants: VariantsOption = None,
    fmt: FormatOption = OutputFormat.table,
    **options: Any,
) -> None:
    """Resolve a round of combats in order, wounds carried over, and print each miniature's fate.

    The scenario holds the rule switches, a table of miniatures and a list of combats; see
    examples/deathburgh/round_scenario.toml (the round played without a file).
    """
    from mathhammer.deathburgh import RoundResult, load_round
    from mathhammer.deathburgh import round as play_round

    if scenario is None:
        from importlib import resources

        with resources.as_file(resources.files("mathhammer").joinpath(EXAMPLE_ROUND)) as path:
            kwargs = load_round(path)
        scenario = Path(EXAMPLE_ROUND)
    else:
        kwargs = load_round(scenario)
    # The file may set method, samples, seed or threads; an option given on the command line wins.
    for name, value in engine_options(options).keywords().items():
        if name not in kwargs or _given(name):
            kwargs[name] = value
    if variants is not None:  # the file's own switches and --variants together are refused by the engine
        kwargs["variants"] = variants
    with progress_bar("Deathburgh round") as progress:
        result: RoundResult = play_round(**kwargs, progress=progress)
    tables, lines = result_tables("", result)
    inputs = {"scenario": str(scenario), "miniatures": {n: m.to_dict() for n, m in kwargs["miniatures"].items()},
              "wounds": kwargs["wounds"], "combats": kwargs["combats"]}
    emit(fmt, tables, {**inputs, "result": result.to_dict()}, lines)


def _given(name: str) -> bool:
    """Whether an option of the running command was given on the command line (or the environment),
    not left at its default (a sweep's cell: whether the sweep was given it)."""
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    source = None if ctx is None else ctx.get_parameter_source(name)
    return source is not None and source.name != "DEFAULT"


@app.command("profiles", epilog=epilog("deathburgh", "profiles"))
def profiles_command(fmt: FormatOption = OutputFormat.table) -> None:
    """List the example profiles (the alpha v0.1 sample warbands) usable as --attacker / --defender."""
    from mathhammer.deathburgh import EXAMPLES

    rows = [[name, m.notation, m.role] for name, m in EXAMPLES.items()]
    emit(fmt, [Table("Example profiles", ["name", "profile", "role"], rows)],
         {"profiles": [m.to_dict() for m in EXAMPLES.values()]})

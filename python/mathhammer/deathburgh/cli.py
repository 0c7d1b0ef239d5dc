"""The ``mathhammer deathburgh`` commands: ``combat``, ``round`` and ``profiles``."""

from __future__ import annotations

import inspect
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
    progress_bar,
    register_printer,
    run_conditions,
)
from mathhammer._validate import InputError
from mathhammer.library import resolve_profile
from mathhammer.deathburgh.engine import DEFAULT_SAMPLES, combat
from mathhammer.deathburgh.profiles import EXAMPLES, Miniature, Side, load_profiles
from mathhammer.deathburgh.results import CombatResult, RoundResult
from mathhammer.deathburgh.rounds import load_round
from mathhammer.deathburgh.rounds import round as play_round
from mathhammer.deathburgh.rules import Variants

app = typer.Typer(
    name="deathburgh",
    help="Deathburgh combat: opposed attacks, dodges, criticals worth 2, instant 6! / 1!, both editions.",
    epilog="Example: mathhammer deathburgh combat --attacker 'Old Fellas Leader' --defender 'Bandit Brute'",
    no_args_is_help=True,
)

DEFAULT_ATTACKER = "Old Fellas Melee Warrior Follower"
DEFAULT_DEFENDER = "Bandit Melee Follower"

# (field, type, default, help): the side options every combat command offers for both sides.
_PROFILE_FIELDS: list[tuple[str, Any, Any, str]] = [
    ("a", Optional[int], None, "A: dice in Aggressive mode (overrides the profile)"),
    ("a_plus", Optional[int], None, "A+: target number in Aggressive mode, 2..6"),
    ("d", Optional[int], None, "D: dice in Defensive mode"),
    ("d_plus", Optional[int], None, "D+: target number in Defensive mode, 2..6"),
    ("w", Optional[int], None, "W: wounds of the profile"),
    ("role", Optional[str], None, "melee or ranged"),
]
_SIDE_FIELDS: list[tuple[str, Any, Any, str]] = [
    ("mode", str, "aggressive", "aggressive (A dice) or defensive (D dice)"),
    ("wounds", Optional[int], None, "current wounds (default W)"),
    ("charge", bool, False, "Charge bonus: one 6! (attacker, melee)"),
    ("support", int, 0, "supporting allies: one 6! each (melee)"),
    ("full_visibility", bool, False, "Full Visibility: one 6! (ranged attack)"),
    ("steady_aim", bool, False, "Steady Aim: one 6! (ranged attack)"),
    ("take_cover", bool, False, "Take Cover: one 6! (dodging a ranged attack)"),
    ("get_down", bool, False, "Get down!: one 6! (dodging a ranged attack)"),
    ("zig_zag", bool, False, "Zig Zag!: one 6! (alpha, Defensive dodge of a ranged attack)"),
    ("instant6", int, 0, "other instant 6! dice"),
    ("instant1", int, 0, "instant 1! dice (1! wins conflicts)"),
    ("souls_dice", int, 0, "Soul's Dice spent (each a 6!)"),
    ("extra_dice", int, 0, "extra rolled dice from skills"),
    ("reroll", str, "none", "reroll failed dice: none, all_fails or one_fail"),
    ("auto_hits", Optional[int], None, "automatic hits instead of a roll (attacker)"),
]


def _side_parameters(side: str, default_profile: str) -> list[inspect.Parameter]:
    """Keyword parameters ``<side>``, ``<side>_a``, … with their ``--<side>-…`` options."""
    panel = f"{side.capitalize()} options"
    params = [
        inspect.Parameter(
            side, inspect.Parameter.KEYWORD_ONLY, default=default_profile,
            annotation=Annotated[str, typer.Option(
                f"--{side}", help=f"{side.capitalize()}: an example name, a profile like 'A 4/4+ D 4/4+ W 3', "
                "or a name from --profiles.", rich_help_panel=panel)],
        )
    ]
    for name, kind, default, help_text in _PROFILE_FIELDS + _SIDE_FIELDS:
        option = f"--{side}-{name.replace('_', '-')}"
        params.append(
            inspect.Parameter(
                f"{side}_{name}", inspect.Parameter.KEYWORD_ONLY, default=default,
                annotation=Annotated[kind, typer.Option(option, help=help_text, rich_help_panel=panel)],
            )
        )
    return params


def _with_side_options(function: Any) -> Any:
    """Add the attacker's and defender's options to a command's signature (Typer reads ``__signature__``)."""
    signature = inspect.signature(function, eval_str=True)
    own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    extra = _side_parameters("attacker", DEFAULT_ATTACKER) + _side_parameters("defender", DEFAULT_DEFENDER)
    function.__signature__ = signature.replace(parameters=own + extra)
    function.__annotations__ = {p.name: p.annotation for p in own + extra}
    return function


def _find_profile(field: str, text: str, profiles: dict[str, Miniature]) -> Miniature:
    """A miniature from --profiles, the examples, or notation like 'A 4/4+ D 4/4+ W 3'."""
    mini: Miniature = resolve_profile("deathburgh", "miniature", text, {"miniature": profiles}, field)
    return mini


def _build_side(side: str, options: dict[str, Any], profiles: dict[str, Miniature]) -> Side:
    mini = _find_profile(f"--{side}", options[side], profiles)
    changes = {}
    for name, field in (("a", "A"), ("a_plus", "A_plus"), ("d", "D"), ("d_plus", "D_plus"), ("w", "W"), ("role", "role")):
        value = options[f"{side}_{name}"]
        if value is not None:
            changes[field] = value
    if changes:
        try:
            mini = Miniature(**{**mini.to_dict(), **changes})
        except InputError as error:
            raise InputError(f"--{side}-{error.field.lower().replace('_', '-')}", str(error).split(": ", 1)[1]) from None
    side_kwargs = {name: options[f"{side}_{name}"] for name, *_ in _SIDE_FIELDS}
    try:
        return Side(mini, **side_kwargs)
    except InputError as error:
        raise InputError(f"--{side}-{error.field.replace('_', '-')}", str(error).split(": ", 1)[1]) from None


def side_heading(side: Side) -> str:
    """A side as a heading names it: the miniature's name (else its profile), its mode, and what it
    brings that departs from the defaults ("Old Fellas Leader (aggressive, charge, support 1)")."""
    defaults = Side(side.mini)
    extras = [side.mode]
    for name, *_ in _SIDE_FIELDS:
        value = getattr(side, name)
        if name == "mode" or value == getattr(defaults, name):
            continue
        label = name.replace("_", " ")
        extras.append(label if value is True else f"{label} {value}")
    return f"{side.mini.name or side.mini.notation} ({', '.join(extras)})"


def combat_heading(result: CombatResult, sides: tuple[Side, Side] | None = None, extras: tuple[str, ...] = ()) -> str:
    """What a combat's heading names: the two sides (when known), the reaction (and ``extras``, such
    as "stand and shoot"), the edition, the rule variants and the method."""
    who = [f"{side_heading(sides[0])} vs {side_heading(sides[1])}"] if sides is not None else []
    conditions = []
    for condition in run_conditions(result):  # the edition is said once, by itself
        if condition.startswith("variants ") and "=" in condition:
            switches = [part for part in condition[len("variants "):].split(",") if not part.startswith("edition=")]
            condition = "variants " + ",".join(switches) if switches else ""
        if condition:
            conditions.append(condition)
    return ", ".join([*who, f"reaction {result.reaction}", *extras, f"{result.edition} edition", *conditions])


def _side_label(side: Side) -> str:
    name = side.mini.name or "custom"
    return f"{name} [{side.mini.notation}, {side.mini.role}], {side.mode}, {side.current_wounds} wounds"


#: A joint table with more columns than this prints one row per outcome (6 percentages fit 80 columns).
JOINT_WIDE = 7


def _joint_table(result: CombatResult, prefix: str = "") -> Table:
    pmf = result.joint.pmf
    columns = ["to defender \\ to attacker"] + [str(j) for j in range(pmf.shape[1])]
    rows = [[i] + [float(p) for p in pmf[i]] for i in range(pmf.shape[0]) if pmf[i].any()]
    keep = [0] + [j + 1 for j in range(pmf.shape[1]) if pmf[:, j].any()]
    if len(keep) > JOINT_WIDE:  # too wide for 80 columns: one row per outcome instead
        return Table(f"{prefix}Joint P(wounds to defender, wounds to attacker)",
                     ["to defender", "to attacker", "P(both)"],
                     [[i, j, float(pmf[i, j])] for i in range(pmf.shape[0]) for j in range(pmf.shape[1]) if pmf[i, j] > 0])
    return Table(f"{prefix}Joint P(wounds to defender, wounds to attacker)", [columns[k] for k in keep],
                 [[row[k] for k in keep] for row in rows])


_SUMMARY_LABELS = {
    "p_wasted_defender": "P(defender Wasted)",
    "p_wasted_attacker": "P(attacker Wasted)",
    "p_wasted_both": "P(both Wasted)",
    "p_counter_wound": "P(attacker wounded)",
    "p_tie": "P(tie: equal successes)",
    "p_attacker_more": "P(attacker scores more)",
    "mean_wounds_defender": "mean wounds to defender",
    "mean_wounds_attacker": "mean wounds to attacker",
}


def _summary_table(result: CombatResult, prefix: str = "", heading: str = "") -> Table:
    columns = ["quantity", "value"] + (["stderr"] if result.stderr else [])
    rows = []
    for key, value in result.summary().items():
        row: list[Any] = [_SUMMARY_LABELS[key], value]
        if result.stderr:
            row.append(result.stderr[key])
        rows.append(row)
    return Table(f"{prefix}Outcome: {heading or combat_heading(result)}", columns, rows)


def combat_tables(result: CombatResult, title: str = "", sides: tuple[Side, Side] | None = None,
                  extras: tuple[str, ...] = ()) -> tuple[list[Table], list[str]]:
    """A combat as tables: the outcome summary (P(Wasted) of each side, ...) under a heading naming
    the sides (``sides``, when known), reaction, edition and method; the wounds to each side, their
    joint law and both rolls; and a summary line (reaction, edition, method)."""
    note_result(result)  # for --plot
    prefix = f"{title}: " if title else ""
    tables = [
        _summary_table(result, prefix, combat_heading(result, sides, extras)),
        distribution_table(f"{prefix}Wounds to the defender (has {result.defender_wounds})", result.wounds_defender,
                           "wounds"),
        distribution_table(f"{prefix}Wounds to the attacker (has {result.attacker_wounds})", result.wounds_attacker,
                           "wounds"),
        _joint_table(result, prefix),
        distribution_table(f"{prefix}Attacker successes", result.successes_attacker, "successes"),
        distribution_table(f"{prefix}Defender successes", result.successes_defender, "successes"),
    ]
    how = method_line(result.method, result.samples, result.seed)
    return tables, [f"{prefix}reaction {result.reaction}, edition {result.edition}; {how}"]


def round_tables(result: RoundResult, title: str = "") -> tuple[list[Table], list[str]]:
    """A round as tables: each miniature's mean wounds left and P(Wasted), P(wounds left = k), and each
    combat (who fought whom) with P(fought)."""
    note_result(result)  # for --plot
    prefix = f"{title}: " if title else ""
    top = max(result.start_wounds)
    count = len(result.p_fought)
    how = ", ".join([f"{len(result.names)} miniatures", f"{count} combat{'s' if count != 1 else ''}",
                     *run_conditions(result)])
    fate = Table(f"{prefix}Miniatures after the round ({how})", ["miniature", "start wounds", "mean wounds left", "P(Wasted)"],
                 [[n, w, result.wounds_left[n].mean, result.p_wasted[n]] for n, w in zip(result.names, result.start_wounds)])
    left = Table(f"{prefix}P(wounds left)", ["miniature"] + [str(k) for k in range(top + 1)],
                 [[n] + [result.wounds_left[n].prob(k) for k in range(top + 1)] for n in result.names])
    if result.combats:
        rows = [[k, attacker, defender, p] for k, ((attacker, defender), p) in enumerate(zip(result.combats, result.p_fought))]
        fought = Table(f"{prefix}Combats", ["#", "attacker", "defender", "P(fought)"], rows)
    else:  # a result saved before combats were recorded
        fought = Table(f"{prefix}Combats", ["#", "P(fought)"], [[k, p] for k, p in enumerate(result.p_fought)])
    return [fate, left, fought], [prefix + method_line(result.method, result.samples, result.seed)]


register_printer(CombatResult, combat_tables)
register_printer(RoundResult, round_tables)


@_with_side_options
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
    method: MethodOption = Method.auto,
    samples: SamplesOption = DEFAULT_SAMPLES,
    seed: SeedOption = None,
    threads: ThreadsOption = None,
    fmt: FormatOption = OutputFormat.table,
    **sides: Any,
) -> None:
    """Resolve one combat and print the wounds each side takes.

    The bare command pits the Old Fellas Melee Warrior Follower against the Bandit Melee Follower,
    both Aggressive, in opposed attacks (web edition, exact).

    Example: mathhammer deathburgh combat --attacker "Old Fellas Leader" --attacker-charge
    --defender "Bandit Brute" --defender-mode defensive --reaction dodge --format json
    """
    loaded = load_profiles(profiles) if profiles is not None else {}
    attacker = _build_side("attacker", sides, loaded)
    defender = _build_side("defender", sides, loaded)
    # A flag left off is "not given" (its default), so it may come from --variants instead.
    rules = cli_variants(Variants, variants, dict(
        edition=edition, bonus_dice=bonus_dice, souls=souls, souls_limit=souls_limit, draw=draw,
        draw_in_dodge=draw_in_dodge or None, cap_wounds_at_dice=cap_wounds_at_dice or None,
        support_stacking=support_stacking,
    ))
    switches = {**rules.to_dict(), "stand_and_shoot": stand_and_shoot}
    method_name = method.value
    with progress_bar("Deathburgh combat") as progress:
        result = combat(attacker, defender, reaction, variants=rules, stand_and_shoot=stand_and_shoot,
                        method=method_name, samples=samples, seed=seed, threads=threads, progress=progress)
    tables, lines = combat_tables(result, sides=(attacker, defender),
                                  extras=("stand and shoot",) if stand_and_shoot else ())
    inputs = [f"attacker: {_side_label(attacker)}", f"defender: {_side_label(defender)}"]
    payload = {
        "attacker": attacker.to_dict(),
        "defender": defender.to_dict(),
        "reaction": result.reaction,
        "switches": switches,
        "result": result.to_dict(),
    }
    emit(fmt, tables, payload, inputs + lines)


def round_command(
    ctx: typer.Context,
    scenario: Annotated[Path, typer.Argument(help="A round scenario file (TOML or JSON).")],
    method: MethodOption = Method.auto,
    samples: SamplesOption = DEFAULT_SAMPLES,
    seed: SeedOption = None,
    threads: ThreadsOption = None,
    variants: VariantsOption = None,
    fmt: FormatOption = OutputFormat.table,
) -> None:
    """Resolve a round of combats in order, wounds carried over, and print each miniature's fate.

    The scenario holds the rule switches, a table of miniatures and a list of combats; see
    examples/deathburgh/round_scenario.toml. Example: mathhammer deathburgh round round_scenario.toml --format json
    """
    kwargs = load_round(scenario)
    # The file may set method, samples, seed or threads; an option given on the command line wins.
    options = {"method": method.value, "samples": samples, "seed": seed, "threads": threads}
    for name, value in options.items():
        if name not in kwargs or _given(ctx, name):
            kwargs[name] = value
    if variants is not None:  # the file's own switches and --variants together are refused by the engine
        kwargs["variants"] = variants
    with progress_bar("Deathburgh round") as progress:
        result: RoundResult = play_round(**kwargs, progress=progress)
    tables, lines = round_tables(result)
    inputs = {"scenario": str(scenario), "miniatures": {n: m.to_dict() for n, m in kwargs["miniatures"].items()},
              "wounds": kwargs["wounds"], "combats": kwargs["combats"]}
    emit(fmt, tables, {**inputs, "result": result.to_dict()}, lines)


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether an option was given on the command line (or the environment), not left at its default."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name != "DEFAULT"


def profiles_command(fmt: FormatOption = OutputFormat.table) -> None:
    """List the example profiles (the alpha v0.1 sample warbands) usable as --attacker / --defender.

    Example: mathhammer deathburgh profiles --format csv
    """
    rows = [[name, m.notation, m.role] for name, m in EXAMPLES.items()]
    emit(fmt, [Table("Example profiles", ["name", "profile", "role"], rows)],
         {"profiles": [m.to_dict() for m in EXAMPLES.values()]})


app.command("combat")(combat_command)
app.command("round")(round_command)
app.command("profiles")(profiles_command)


def register(parent: typer.Typer) -> None:
    """Add ``mathhammer deathburgh …`` to the top-level app."""
    parent.add_typer(app, name="deathburgh")

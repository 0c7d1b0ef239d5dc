"""`mathhammer killteam fight`: two fighters, every profile field an option, both wounds tables out."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Optional

import typer

from mathhammer._cli_common import (
    note_result,
    FormatOption,
    Method,
    MethodOption,
    OutputFormat,
    ProfilesOption,
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
from mathhammer.killteam.variants import Variants
from mathhammer._validate import InputError, InputTypeError
from mathhammer.killteam.fight import FightResult, fight
from mathhammer.killteam.profiles import Fighter
from mathhammer.library import default_library, load_game_library, profile_to_dict, resolve_profile

_STRATEGY_HELP = ("strike, parry, max_damage (Max Dmg To Enemy), min_damage (Min Dmg To Self) or optimal "
                  "(best move for --X-objective).")
_OBJECTIVE_HELP = "with --X-strategy optimal: trade (default), net, kill or survive."


def _option(side: str, name: str, help_text: str) -> Any:
    return typer.Option(f"--{side}-{name}", help=f"Fighter {side.upper()}: {help_text}",
                        rich_help_panel=f"Fighter {side.upper()}")


#: The fighter each side starts from unless --a-profile / --b-profile names another.
DEFAULT_FIGHTER = Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12, strategy="max_damage")


def _fighter(side: str, profile: str | None, library: Any, **changes: Any) -> Fighter:
    """A side's fighter: the named profile (or the default) with the fields given on the command line."""
    base = DEFAULT_FIGHTER if profile is None else resolve_profile("killteam", "fighter", profile, library,
                                                                    f"{side}.profile")
    given = {k: v for k, v in changes.items() if v is not None}
    # A heuristic strategy given without an objective drops an optimal profile's objective.
    if "strategy" in given and "objective" not in given and str(given["strategy"]).strip().lower() != "optimal":
        given["objective"] = None
    try:
        return dataclasses.replace(base, **given)
    except (InputError, InputTypeError) as error:
        message = str(error).split(": ", 1)[1]
        raise type(error)(f"{side}.{error.field}", message) from None


def fight_tables(result: FightResult, title: str = "", fighters: tuple[Any, Any] | None = None) -> tuple[list[Table], list[str]]:
    """A fight as tables: a summary per fighter (death chance, mean wounds left, mean damage taken, and
    standard errors for Monte Carlo), then each fighter's wounds left; ``fighters`` adds their profiles."""
    note_result(result)  # for --plot
    prefix = f"{title}: " if title else ""
    errors = result.stderr or {}
    columns = ["fighter"] + (["profile"] if fighters else []) + ["death chance", "mean wounds left",
                                                                 "mean damage taken"]
    if errors:
        columns.append("stderr (death chance)")
    rounds = f"{result.rounds} round{'s' if result.rounds > 1 else ''}"
    how = ", ".join([*run_conditions(result), rounds, f"{result.first.upper()} first"])
    who = f": A {result.fighters[0]} vs B {result.fighters[1]}" if all(result.fighters) else ""
    summary = Table(f"{prefix}Fight{who} ({how})", columns)  # profiles and strategies, and how it ran
    for index, side in enumerate(("a", "b")):
        row: list[Any] = [side.upper()] + ([str(fighters[index])] if fighters else [])
        row += [result.death_chance(side), result.wounds(side).mean, result.mean_damage_taken(side)]
        if errors:
            row.append(errors[f"death_chance_{side}"])
        summary.rows.append(row)
    tables = [
        summary,
        distribution_table(f"{prefix}Fighter A: wounds left", result.wounds_a, "wounds"),
        distribution_table(f"{prefix}Fighter B: wounds left", result.wounds_b, "wounds"),
    ]
    return tables, [prefix + method_line(result.method, result.samples)]


register_printer(FightResult, fight_tables)

EPILOG = """Examples:

  mathhammer killteam fight --a-attacks 5 --a-damage 4/5 --a-rules "Brutal, Shock" --b-abilities "Storm Shield, Dueller" --b-strategy min_damage --rounds 3
  mathhammer killteam fight --a-strategy optimal --a-objective trade --b-strategy strike

  mathhammer killteam fight --profiles examples/killteam/profiles.toml --a-profile assault_intercessor_sergeant --b-profile ork_boy --format json
"""


def register(app: typer.Typer) -> None:
    """Add the fight command to the killteam group."""

    @app.command("fight", epilog=EPILOG)
    def fight_command(
        a_profile: Annotated[Optional[str], _option("a", "profile", "a fighter of --profiles to start from.")] = None,
        a_attacks: Annotated[Optional[int], _option("a", "attacks", "attack dice (1..12; default 4).")] = None,
        a_hit: Annotated[Optional[str], _option("a", "hit", "hit stat, 3 or 3+ (2..6; default 3+).")] = None,
        a_damage: Annotated[Optional[str], _option("a", "damage", "normal/critical damage (default 3/4).")] = None,
        a_wounds: Annotated[Optional[int], _option("a", "wounds", "wounds (1..40; default 12).")] = None,
        a_rules: Annotated[Optional[str], _option("a", "rules", "weapon rules, e.g. 'Brutal, Lethal 5+'.")] = None,
        a_abilities: Annotated[Optional[str], _option("a", "abilities", "e.g. 'Storm Shield, Feel No Pain 5+'.")] = None,
        a_strategy: Annotated[Optional[str], _option("a", "strategy", _STRATEGY_HELP)] = None,
        a_objective: Annotated[Optional[str], _option("a", "objective", _OBJECTIVE_HELP)] = None,
        b_profile: Annotated[Optional[str], _option("b", "profile", "a fighter of --profiles to start from.")] = None,
        b_attacks: Annotated[Optional[int], _option("b", "attacks", "attack dice (1..12; default 4).")] = None,
        b_hit: Annotated[Optional[str], _option("b", "hit", "hit stat, 3 or 3+ (2..6; default 3+).")] = None,
        b_damage: Annotated[Optional[str], _option("b", "damage", "normal/critical damage (default 3/4).")] = None,
        b_wounds: Annotated[Optional[int], _option("b", "wounds", "wounds (1..40; default 12).")] = None,
        b_rules: Annotated[Optional[str], _option("b", "rules", "weapon rules, e.g. 'Brutal, Lethal 5+'.")] = None,
        b_abilities: Annotated[Optional[str], _option("b", "abilities", "e.g. 'Storm Shield, Feel No Pain 5+'.")] = None,
        b_strategy: Annotated[Optional[str], _option("b", "strategy", _STRATEGY_HELP)] = None,
        b_objective: Annotated[Optional[str], _option("b", "objective", _OBJECTIVE_HELP)] = None,
        profiles: ProfilesOption = None,
        first: Annotated[str, typer.Option(help="Who resolves first each round: a or b.")] = "a",
        rounds: Annotated[int, typer.Option(help="Fight rounds with fresh dice, wounds carried over (1..3).")] = 1,
        method: MethodOption = Method.auto,
        samples: SamplesOption = 1_000_000,
        seed: SeedOption = None,
        threads: ThreadsOption = None,
        variants: VariantsOption = None,
        fmt: FormatOption = OutputFormat.table,
    ) -> None:
        """A Kill Team 2024 fight: both fighters' remaining wounds, death chances and means.

        With no options: 4 attacks, 3+, 3/4 damage, 12 wounds, Max Dmg To Enemy on both sides.
        """
        library = load_game_library(profiles, "killteam") if profiles is not None else default_library("killteam")
        a = _fighter("a", a_profile, library, attacks=a_attacks, hit=a_hit, damage=a_damage, wounds=a_wounds,
                     rules=a_rules, abilities=a_abilities, strategy=a_strategy,
                     objective=a_objective)
        b = _fighter("b", b_profile, library, attacks=b_attacks, hit=b_hit, damage=b_damage, wounds=b_wounds,
                     rules=b_rules, abilities=b_abilities, strategy=b_strategy,
                     objective=b_objective)
        with progress_bar("Fighting") as progress:
            result = fight(a, b, first=first, rounds=rounds, method=method.value, samples=samples, seed=seed,
                           threads=threads, progress=progress, variants=cli_variants(Variants, variants, {}))
        tables, lines = fight_tables(result, fighters=(a, b))
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
            "result": result.to_dict(),
        }
        emit(fmt, tables, payload, lines)

"""`mathhammer killteam fight`: two fighters, every profile field an option, both wounds tables out."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from mathhammer._cli_common import (
    FormatOption,
    Method,
    MethodOption,
    OutputFormat,
    SamplesOption,
    SeedOption,
    Table,
    ThreadsOption,
    distribution_table,
    emit,
    progress_bar,
)
from mathhammer._validate import InputError, InputTypeError
from mathhammer.killteam.fight import fight
from mathhammer.killteam.profiles import Fighter

_STRATEGY_HELP = "strike, parry, max_damage (Max Dmg To Enemy) or min_damage (Min Dmg To Self)."


def _option(side: str, name: str, help_text: str) -> Any:
    return typer.Option(f"--{side}-{name}", help=f"Fighter {side.upper()}: {help_text}")


def _fighter(side: str, **fields: Any) -> Fighter:
    try:
        return Fighter(**fields)
    except (InputError, InputTypeError) as error:
        message = str(error).split(": ", 1)[1]
        raise type(error)(f"{side}.{error.field}", message) from None


EPILOG = """Example:

  mathhammer killteam fight --a-attacks 5 --a-damage 4/5 --a-rules "Brutal, Shock" --b-abilities "Storm Shield, Dueller" --b-strategy min_damage --rounds 3
"""


def register(app: typer.Typer) -> None:
    """Add the fight command to the killteam group."""

    @app.command("fight", epilog=EPILOG)
    def fight_command(
        a_attacks: Annotated[int, _option("a", "attacks", "attack dice (1..12).")] = 4,
        a_hit: Annotated[str, _option("a", "hit", "hit stat, 3 or 3+ (2..6).")] = "3",
        a_damage: Annotated[str, _option("a", "damage", "normal/critical damage, e.g. 3/4.")] = "3/4",
        a_wounds: Annotated[int, _option("a", "wounds", "wounds (1..40).")] = 12,
        a_rules: Annotated[str, _option("a", "rules", "weapon rules, e.g. 'Brutal, Lethal 5+'.")] = "",
        a_abilities: Annotated[str, _option("a", "abilities", "abilities, e.g. 'Storm Shield, Feel No Pain 5+'.")] = "",
        a_strategy: Annotated[str, _option("a", "strategy", _STRATEGY_HELP)] = "max_damage",
        b_attacks: Annotated[int, _option("b", "attacks", "attack dice (1..12).")] = 4,
        b_hit: Annotated[str, _option("b", "hit", "hit stat, 3 or 3+ (2..6).")] = "3",
        b_damage: Annotated[str, _option("b", "damage", "normal/critical damage, e.g. 3/4.")] = "3/4",
        b_wounds: Annotated[int, _option("b", "wounds", "wounds (1..40).")] = 12,
        b_rules: Annotated[str, _option("b", "rules", "weapon rules, e.g. 'Brutal, Lethal 5+'.")] = "",
        b_abilities: Annotated[str, _option("b", "abilities", "abilities, e.g. 'Storm Shield, Feel No Pain 5+'.")] = "",
        b_strategy: Annotated[str, _option("b", "strategy", _STRATEGY_HELP)] = "max_damage",
        first: Annotated[str, typer.Option(help="Who resolves first each round: a or b.")] = "a",
        rounds: Annotated[int, typer.Option(help="Fight rounds with fresh dice, wounds carried over (1..3).")] = 1,
        method: MethodOption = Method.auto,
        samples: SamplesOption = 1_000_000,
        seed: SeedOption = None,
        threads: ThreadsOption = None,
        fmt: FormatOption = OutputFormat.table,
    ) -> None:
        """A Kill Team 2024 fight: both fighters' remaining wounds, death chances and means.

        With no options: 4 attacks, 3+, 3/4 damage, 12 wounds, Max Dmg To Enemy on both sides.
        """
        a = _fighter("a", attacks=a_attacks, hit=a_hit, damage=a_damage, wounds=a_wounds, rules=a_rules,
                     abilities=a_abilities, strategy=a_strategy)
        b = _fighter("b", attacks=b_attacks, hit=b_hit, damage=b_damage, wounds=b_wounds, rules=b_rules,
                     abilities=b_abilities, strategy=b_strategy)
        with progress_bar("Fighting", enabled=fmt is OutputFormat.table) as progress:
            result = fight(a, b, first=first, rounds=rounds, method=method.value, samples=samples, seed=seed,
                           threads=threads, progress=progress)

        errors = result.stderr or {}
        summary_columns = ["fighter", "profile", "death chance", "mean wounds left", "mean damage taken"]
        if errors:
            summary_columns.append("stderr (death chance)")
        summary = Table(f"Fight ({result.method}, {rounds} round{'s' if rounds > 1 else ''}, {first.upper()} first)",
                        summary_columns)
        for side, fighter in (("a", a), ("b", b)):
            row: list[Any] = [side.upper(), str(fighter), result.death_chance(side), result.wounds(side).mean,
                              result.mean_damage_taken(side)]
            if errors:
                row.append(errors[f"death_chance_{side}"])
            summary.rows.append(row)
        tables = [
            summary,
            distribution_table("Fighter A: wounds left", result.wounds_a, "wounds"),
            distribution_table("Fighter B: wounds left", result.wounds_b, "wounds"),
        ]
        lines = [f"method: {result.method}" + (f", {result.samples:,} samples" if result.samples else "")]
        payload = {
            "a": str(a),
            "b": str(b),
            "first": first,
            "rounds": rounds,
            "method": result.method,
            "samples": result.samples,
            "death_chance": {"a": result.death_chance("a"), "b": result.death_chance("b")},
            "mean_wounds": {"a": result.wounds_a.mean, "b": result.wounds_b.mean},
            "mean_damage_taken": {"a": result.mean_damage_taken("a"), "b": result.mean_damage_taken("b")},
            "stderr": result.stderr,
            "result": result.to_dict(),
        }
        emit(fmt, tables, payload, lines)


"""`mathhammer killteam advise`: every legal move from the dice on the table, its value, the best one."""

from __future__ import annotations

import re
from typing import Annotated, Any, Optional

import typer

from mathhammer._cli_common import (
    FormatOption,
    OutputFormat,
    ProfilesOption,
    Table,
    VariantsOption,
    cli_variants,
    emit,
    note_plot,
    note_result,
    register_printer,
)
from mathhammer._validate import InputError
from mathhammer.killteam.advise import Advice, advise
from mathhammer.killteam.cli_fight import _OBJECTIVE_HELP, _STRATEGY_HELP, _fighter, _option
from mathhammer.killteam.variants import Variants
from mathhammer.library import default_library, load_game_library, profile_to_dict

EPILOG = """Examples:

  mathhammer killteam advise --dice-a 1c2n --dice-b 0c2n

  mathhammer killteam advise --dice-a 1c1n --dice-b 1c1n --a-strategy optimal --a-objective kill --b-wounds 4
"""


def parse_dice(field: str, text: str) -> tuple[int, int]:
    """Retained dice as '1c2n' (1 crit, 2 norms), '2n', '1c' or '1,2' → (crits, norms)."""
    cleaned = text.strip().lower().replace(" ", "")
    match = re.fullmatch(r"(?:(\d+)c)?(?:(\d+)n)?", cleaned) if cleaned else None
    if match and (match.group(1) or match.group(2)):
        return int(match.group(1) or 0), int(match.group(2) or 0)
    match = re.fullmatch(r"(\d+),(\d+)", cleaned)
    if match:
        return int(match.group(1)), int(match.group(2))
    raise InputError(field, f"{text!r} is not retained dice; write crits and norms as 1c2n (or 1,2)")


def _value(value: tuple[float, ...]) -> str:
    return "; ".join(f"{v + 0.0:.3g}" for v in value)  # + 0.0: no "-0"


def advice_tables(result: Advice, title: str = "") -> tuple[list[Table], list[str]]:
    """The moves of the fighter to move (value, resulting wounds and death chances, the best marked)
    and what each heuristic strategy would play: the table a player reads at the table."""
    note_result(result)
    prefix = f"{title}: " if title else ""
    dice = (f"A {result.dice_a[0]}c{result.dice_a[1]}n ({result.start_wounds[0]}W), "
            f"B {result.dice_b[0]}c{result.dice_b[1]}n ({result.start_wounds[1]}W), {result.first.upper()} first")
    if result.mover is None:
        return [], [f"{prefix}{dice}: the round is over before anyone moves"]
    moves = Table(f"{prefix}{result.mover.upper()} to move ({result.objective}): {dice}",
                  ["move", "value", "A wounds", "B wounds", "P(A dies)", "P(B dies)", "best"],
                  [[m.move, _value(m.value), round(m.wounds_a, 4), round(m.wounds_b, 4), m.death_chance_a,
                    m.death_chance_b, "*" if m.best else ""] for m in result.moves])
    heuristics = Table(f"{prefix}What each strategy would play", ["strategy", "move"],
                       [[name, move] for name, move in result.heuristic.items()])
    return [moves, heuristics], [f"{prefix}best: {result.best} (value: {result.objective}, higher is better)"]


register_printer(Advice, advice_tables)


def register(app: typer.Typer) -> None:
    """Add the advise command to the killteam group."""

    @app.command("advise", epilog=EPILOG)
    def advise_command(
        dice_a: Annotated[str, typer.Option("--dice-a", help="A's retained dice, e.g. 1c2n (1 crit, 2 norms).")],
        dice_b: Annotated[str, typer.Option("--dice-b", help="B's retained dice, e.g. 0c2n.")],
        a_profile: Annotated[Optional[str], _option("a", "profile", "a fighter of --profiles to start from.")] = None,
        a_attacks: Annotated[Optional[int], _option("a", "attacks", "attack dice (1..12; default 4).")] = None,
        a_hit: Annotated[Optional[str], _option("a", "hit", "hit stat, 3 or 3+ (2..6; default 3+).")] = None,
        a_damage: Annotated[Optional[str], _option("a", "damage", "normal/critical damage (default 3/4).")] = None,
        a_wounds: Annotated[Optional[int], _option("a", "wounds", "wounds now (1..40; default 12).")] = None,
        a_rules: Annotated[Optional[str], _option("a", "rules", "weapon rules, e.g. 'Brutal, Lethal 5+'.")] = None,
        a_abilities: Annotated[Optional[str], _option("a", "abilities", "e.g. 'Storm Shield, Feel No Pain 5+'.")] = None,
        a_strategy: Annotated[Optional[str], _option("a", "strategy", _STRATEGY_HELP)] = None,
        a_objective: Annotated[Optional[str], _option("a", "objective", _OBJECTIVE_HELP)] = None,
        b_profile: Annotated[Optional[str], _option("b", "profile", "a fighter of --profiles to start from.")] = None,
        b_attacks: Annotated[Optional[int], _option("b", "attacks", "attack dice (1..12; default 4).")] = None,
        b_hit: Annotated[Optional[str], _option("b", "hit", "hit stat, 3 or 3+ (2..6; default 3+).")] = None,
        b_damage: Annotated[Optional[str], _option("b", "damage", "normal/critical damage (default 3/4).")] = None,
        b_wounds: Annotated[Optional[int], _option("b", "wounds", "wounds now (1..40; default 12).")] = None,
        b_rules: Annotated[Optional[str], _option("b", "rules", "weapon rules, e.g. 'Brutal, Lethal 5+'.")] = None,
        b_abilities: Annotated[Optional[str], _option("b", "abilities", "e.g. 'Storm Shield, Feel No Pain 5+'.")] = None,
        b_strategy: Annotated[Optional[str], _option("b", "strategy", _STRATEGY_HELP)] = None,
        b_objective: Annotated[Optional[str], _option("b", "objective", _OBJECTIVE_HELP)] = None,
        profiles: ProfilesOption = None,
        first: Annotated[str, typer.Option(help="Who resolves first: a or b.")] = "a",
        variants: VariantsOption = None,
        fmt: FormatOption = OutputFormat.table,
    ) -> None:
        """Kill Team fight advice from the dice on the table: every legal move, its value, the best one.

        The fighter to move is valued as optimal with its objective (trade for a heuristic fighter).
        """
        library = load_game_library(profiles, "killteam") if profiles is not None else default_library("killteam")
        a = _fighter("a", a_profile, library, attacks=a_attacks, hit=a_hit, damage=a_damage, wounds=a_wounds,
                     rules=a_rules, abilities=a_abilities, strategy=a_strategy, objective=a_objective)
        b = _fighter("b", b_profile, library, attacks=b_attacks, hit=b_hit, damage=b_damage, wounds=b_wounds,
                     rules=b_rules, abilities=b_abilities, strategy=b_strategy, objective=b_objective)
        result = advise(a, b, parse_dice("--dice-a", dice_a), parse_dice("--dice-b", dice_b), first=first,
                        variants=cli_variants(Variants, variants, {}))
        tables, lines = advice_tables(result)
        if result.moves:
            from mathhammer import _cli_plots

            note_plot(lambda: _cli_plots.advice(result, f"Wounds left by move: {tables[0].title}"))
        payload: dict[str, Any] = {"a": str(a), "b": str(b), "mover": result.mover, "best": result.best,
                                   "heuristic": result.heuristic,
                                   "profiles": {"a": profile_to_dict(a), "b": profile_to_dict(b)},
                                   "result": result.to_dict()}
        emit(fmt, tables, payload, lines)

"""`mathhammer killteam compare` (guns against every save) and `compare-fights` (fighter matrix)."""

from __future__ import annotations

import dataclasses
import re
from typing import Annotated, Any, Optional

import typer

from mathhammer._cli_common import (
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
    Probabilities,
    cli_variants,
    current_display,
    emit,
    note_plot,
    run_conditions,
)
from mathhammer._validate import InputError, InputTypeError, check_choice
from mathhammer.killteam.cli_shoot import parse_saves, shot_conditions
from mathhammer.killteam.compare import compare, compare_fights
from mathhammer.killteam.profiles import ALL_STRATEGIES, Fighter, Operative, Weapon
from mathhammer.killteam.shoot import DEFAULT_SAMPLES
from mathhammer.killteam.variants import Variants
from mathhammer.library import default_library, load_game_library, resolve_profile

COMPARE_EPILOG = """Examples:

  mathhammer killteam compare --weapon '4A 3+ 3/4 Lethal 5+' --weapon '4A 3+ 3/4 Piercing 1'

  mathhammer killteam compare --weapon '5A 3+ 4/5' --weapon '4A 2+ 4/5' --saves 3-5 --cover 1 --at-least 1-12

  mathhammer killteam compare --profiles examples/killteam/profiles.toml --weapon meltagun --weapon bolt_rifle
"""

FIGHTS_EPILOG = """Examples:

  mathhammer killteam compare-fights --fighter '4A 3+ 3/4; 12W' --strategies strike,parry,max_damage --opponent '5A 4+ 4/5; 10W'

  mathhammer killteam compare-fights --profiles examples/killteam/profiles.toml --fighter assault_intercessor_sergeant --opponent ork_boy
"""


def parse_range(name: str, text: str, lo: int, hi: int) -> list[int]:
    """'1-25', '3,5,8' or '4' → the integers (each lo..hi, no repeats)."""
    values: list[int] = []
    for part in text.split(","):
        part = part.strip()
        match = re.fullmatch(r"(\d+)\s*-\s*(\d+)", part)
        bounds = (int(match.group(1)), int(match.group(2))) if match else None
        if bounds is None and not part.isdigit():
            raise InputError(name, f"{part!r} is not a number or a range such as {lo}-{hi}")
        first, last = bounds or (int(part), int(part))
        if first > last:
            raise InputError(name, f"{part!r} runs backwards; write the range low to high")
        if first < lo or last > hi:
            raise InputError(name, f"{part!r} is out of range; allowed {lo}..{hi}")
        values += range(first, last + 1)
    if len(set(values)) != len(values):
        raise InputError(name, f"{text!r} repeats a value")
    return values


def parse_fighter(text: str, library: Any, field: str) -> Fighter:
    """A fighter of the library, or the way fighters print: '4A 3+ 3/4 Brutal; 12W; parry; Storm Shield'
    (the weapon card, then in any order wounds 'NW', a strategy ('optimal (kill)' too) and abilities)."""
    if ";" not in text and not re.match(r"\s*\d+\s*A\s", text, re.IGNORECASE):
        return resolve_profile("killteam", "fighter", text, library, field)  # type: ignore[no-any-return]
    card, *parts = [part.strip() for part in text.split(";")]
    try:
        weapon = Weapon.parse(card)
    except (InputError, InputTypeError) as error:
        raise InputError(field, str(error).split(": ", 1)[1]) from None
    fields: dict[str, Any] = {"attacks": weapon.attacks, "hit": weapon.hit, "damage": weapon.damage,
                              "rules": weapon.rules}
    for part in parts:
        wounds = re.fullmatch(r"(\d+)\s*W", part, re.IGNORECASE)
        strategy = re.fullmatch(r"(\w+)(?:\s*\((\w+)\))?", part)
        if wounds:
            fields["wounds"] = int(wounds.group(1))
        elif strategy and strategy.group(1).lower() in ALL_STRATEGIES:
            fields["strategy"] = strategy.group(1).lower()
            if strategy.group(2):
                fields["objective"] = strategy.group(2).lower()
        elif part:
            fields["abilities"] = part
    try:
        return Fighter(**fields)
    except (InputError, InputTypeError) as error:
        raise type(error)(f"{field}.{error.field}", str(error).split(": ", 1)[1]) from None


def _signed(value: float) -> str:
    """A difference of probabilities as the table shows probabilities (--digits, --probabilities)."""
    display = current_display()
    if display.probabilities is Probabilities.percent:
        return f"{100 * value:+.{display.digits}f}%"
    return f"{value:+.{display.digits + 2}f}"


def shot_comparison_tables(comparison: Any, heading: str) -> list[Table]:
    """kt.compare as tables that fit 80 columns: the mean damage (a row per weapon, a column per
    save), then per weapon P(damage >= w) with a row per threshold w (up to the last one any weapon
    can reach) and a column per save, then the first weapon's minus the second's. The cells are
    numbers, so the probabilities print like every other table's."""
    saves = [f"{save}+" for save in comparison.saves]
    mean_rows: list[list[Any]] = [[label, *map(float, comparison.mean[i])] for i, label in enumerate(comparison.labels)]
    if comparison.delta_mean is not None:
        mean_rows.append([f"{comparison.labels[0]} minus {comparison.labels[1]}", *map(float, comparison.delta_mean)])
    tables = [Table(f"Mean damage: {heading}", ["weapon", *saves], mean_rows)]
    reached = [k for k in range(len(comparison.thresholds)) if comparison.at_least[:, :, k].any()]
    last = reached[-1] + 1 if reached else 1
    for i, label in enumerate(comparison.labels):
        rows = [[f">={w}", *map(float, comparison.at_least[i, :, k])]
                for k, w in enumerate(comparison.thresholds[:last])]
        tables.append(Table(f"P(damage >= w): {label}", ["w", *saves], rows))
    delta = comparison.delta_at_least
    if delta is not None:
        rows = [[f">={w}", *[_signed(float(v)) for v in delta[:, k]]] for k, w in enumerate(comparison.thresholds[:last])]
        tables.append(Table(f"P(damage >= w): {comparison.labels[0]} minus {comparison.labels[1]}", ["w", *saves],
                            rows))
    return tables


def fight_comparison_tables(comparison: Any, heading: str) -> list[Table]:
    """kt.compare_fights as tables (a row per fighter, a column per opponent) of numbers: the
    chances print as percentages like every other table's."""
    header = ["fighter \\ opponent", *comparison.opponents]
    figures = (("kill", f"Kill chance P(opponent dies): {heading}"), ("death", "Death chance P(fighter dies)"),
               ("wounds", "Mean wounds left"), ("opponent_wounds", "Opponent's mean wounds left"))
    return [Table(title, header, [[name, *map(float, getattr(comparison, attribute)[i])]
                                  for i, name in enumerate(comparison.fighters)])
            for attribute, title in figures]


def register(app: typer.Typer) -> None:
    """Add compare and compare-fights to the killteam group."""

    @app.command("compare", epilog=COMPARE_EPILOG)
    def compare_command(
        weapon: Annotated[list[str], typer.Option(help="A weapon to compare (give two or more): datacard notation such "
                                                       "as '4A 3+ 3/4 Lethal 5+' or a weapon of --profiles.")],
        saves: Annotated[str, typer.Option(help="The saves to shoot at: 2-6, or 3,4,5.")] = "2-6",
        at_least: Annotated[str, typer.Option(help="The damage thresholds w of P(damage >= w): 1-25, or 4,8,12.")] = "1-25",
        target: Annotated[Optional[str], typer.Option(help="An operative of --profiles to shoot at (its save is replaced by each of --saves).")] = None,
        wounds: Annotated[Optional[int], typer.Option(help="Target's wounds (1..40; default 12).")] = None,
        abilities: Annotated[Optional[str], typer.Option(help="Target's abilities, e.g. 'Feel No Pain 5+'.")] = None,
        profiles: ProfilesOption = None,
        cover: Annotated[int, typer.Option(help="Cover saves retained without rolling (0..3; 1 = in cover).")] = 0,
        obscured: Annotated[bool, typer.Option("--obscured", help="The target is obscured.")] = False,
        rounds: Annotated[int, typer.Option(help="Shots in a row (1..9); damage adds up.")] = 1,
        method: MethodOption = Method.exact,
        samples: SamplesOption = DEFAULT_SAMPLES,
        seed: SeedOption = None,
        threads: ThreadsOption = None,
        variants: VariantsOption = None,
        fmt: FormatOption = OutputFormat.table,
    ) -> None:
        """Compare guns at every save: mean damage and P(damage >= w), then the first minus the second."""
        library = load_game_library(profiles, "killteam") if profiles is not None else default_library("killteam")
        guns = [resolve_profile("killteam", "weapon", w, library, f"weapon[{i}]") for i, w in enumerate(weapon)]
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
                             target=base, cover=cover, obscured=obscured, rounds=rounds, method=method.value,
                             samples=samples, seed=seed, threads=threads,
                             variants=cli_variants(Variants, variants, {}))
        payload = {"weapons": list(comparison.labels), "target": str(base), "saves": list(comparison.saves),
                   "cover": cover, "obscured": obscured, "rounds": rounds,
                   "rows": comparison.to_frame().to_dict(orient="records")}
        first = comparison.results[0][0]
        count = len(comparison.labels)
        heading = ", ".join([f"{count} weapon{'s' if count != 1 else ''} at saves {saves}", f"{first.wounds}W",
                             *shot_conditions(first)])
        note_plot(lambda: _cli_plots().killteam_comparison(comparison, f"Mean damage by save ({heading})"))
        emit(fmt, shot_comparison_tables(comparison, heading), payload,
             [f"target: {base} (save replaced by each of {saves})"])

    @app.command("compare-fights", epilog=FIGHTS_EPILOG)
    def compare_fights_command(
        fighter: Annotated[list[str], typer.Option(help="A fighter (repeatable): a fighter of --profiles, or "
                                                        "'4A 3+ 3/4 Brutal; 12W; parry; Storm Shield'.")],
        opponent: Annotated[list[str], typer.Option(help="An opponent (repeatable), written the same way.")],
        strategies: Annotated[Optional[str], typer.Option(help="Fight each fighter with each of these strategies "
                                                               "instead: e.g. strike,parry,max_damage,min_damage.")] = None,
        profiles: ProfilesOption = None,
        first: Annotated[str, typer.Option(help="Who resolves first each round: a (the fighter) or b (the opponent).")] = "a",
        rounds: Annotated[int, typer.Option(help="Fight rounds with fresh dice, wounds carried over (1..3).")] = 1,
        method: MethodOption = Method.auto,
        variants: VariantsOption = None,
        fmt: FormatOption = OutputFormat.table,
    ) -> None:
        """Each fighter (or strategy variant) against each opponent: kill and death chances, mean wounds left."""
        library = load_game_library(profiles, "killteam") if profiles is not None else default_library("killteam")
        fighters = [parse_fighter(f, library, f"fighter[{i}]") for i, f in enumerate(fighter)]
        opponents = [parse_fighter(o, library, f"opponent[{i}]") for i, o in enumerate(opponent)]
        known = library.get("fighter", {})
        # a fighter of the library is labelled by its name there (short: columns stay narrow), else its profile
        rows: Any = [(name if name in known else str(f), f) for f, name in zip(fighters, fighter)]
        if strategies is not None:
            names = [check_choice("strategies", s.strip(), ALL_STRATEGIES) for s in strategies.split(",")]
            rows = [(str(variant) if label == str(f) else f"{label}: {s}", variant) for label, f in rows
                    for s in names for variant in [dataclasses.replace(f, strategy=s, objective=None)]]
        columns = [(name if name in known else str(o), o) for o, name in zip(opponents, opponent)]
        comparison = compare_fights(_labelled(rows), _labelled(columns), first=first, rounds=rounds, method=method.value,
                                    variants=cli_variants(Variants, variants, {}))
        payload = {"fighters": list(comparison.fighters), "opponents": list(comparison.opponents),
                   "first": first, "rounds": rounds, "rows": comparison.to_frame().to_dict(orient="records")}
        result = comparison.results[0][0]
        counts = [len(comparison.fighters), len(comparison.opponents)]
        heading = ", ".join([f"{counts[0]} fighter{'s' if counts[0] != 1 else ''} vs {counts[1]} "
                             f"opponent{'s' if counts[1] != 1 else ''}",
                             f"{result.rounds} round{'s' if result.rounds > 1 else ''}", f"{first.upper()} first",
                             *run_conditions(result)])
        note_plot(lambda: _cli_plots().fight_comparison(comparison, f"Kill chance ({heading})"))
        emit(fmt, fight_comparison_tables(comparison, heading), payload, [])


def _labelled(pairs: list[tuple[str, Fighter]]) -> dict[str, Fighter] | list[Fighter]:
    """Fighters keyed by label for kt.compare_fights; a plain list when labels repeat (it numbers those)."""
    labels = [label for label, _ in pairs]
    if len(set(labels)) == len(labels):
        return dict(pairs)
    return [fighter for _, fighter in pairs]


def _cli_plots() -> Any:
    from mathhammer import _cli_plots

    return _cli_plots

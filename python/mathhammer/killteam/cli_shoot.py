"""`mathhammer killteam shoot`: the damage distribution of a shot, or of one gun against several saves."""

from __future__ import annotations

import re
from typing import Annotated, Optional

import typer

from mathhammer._cli_common import (
    FormatOption,
    Method,
    MethodOption,
    OutputFormat,
    SamplesOption,
    SeedOption,
    ThreadsOption,
    Table,
    distribution_table,
    emit,
    progress_bar,
)
from mathhammer._validate import InputError, check_stat
from mathhammer.killteam.profiles import Operative, Weapon
from mathhammer.killteam.shoot import DEFAULT_SAMPLES, ShootResult, shoot

EXAMPLE = """
Examples:

  mathhammer killteam shoot --attacks 4 --hit 3 --damage 3/4 --rules "Lethal 5+, Piercing 1" --save 3 --cover 1

  mathhammer killteam shoot --rules "Devastating 2" --abilities "Feel No Pain 5+, Durable" --saves 2-6

  mathhammer killteam shoot --rounds 3 --abilities "Saintly Relics (2D6)" --format json
"""


def parse_saves(text: str) -> list[int]:
    """'2-6', '3,4,5' or '4' → the save values (each 2..6, no repeats)."""
    values: list[int] = []
    for part in text.split(","):
        part = part.strip()
        match = re.fullmatch(r"(\d)\+?\s*-\s*(\d)\+?", part)
        if match:
            lo, hi = (check_stat("saves", match.group(i)) for i in (1, 2))
            if lo > hi:
                raise InputError("saves", f"{part!r} runs backwards; write the range low to high, e.g. 2-6")
            values += list(range(lo, hi + 1))
        elif part:
            values.append(check_stat("saves", part))
    if not values:
        raise InputError("saves", f"{text!r} names no save; write e.g. 2-6 or 3,4,5")
    if len(set(values)) != len(values):
        raise InputError("saves", f"{text!r} repeats a save value")
    return values


def _summary(label: str, r: ShootResult) -> list[str]:
    lines = [
        f"{label}mean damage {r.damage.mean:.4f} (std {r.damage.std:.4f}); "
        f"kill chance {r.kill_chance:.4%} against {r.wounds} wounds"
    ]
    if r.samples is not None:
        lines.append(
            f"{label}Monte Carlo, {r.samples} samples: stderr of the mean {r.damage.mean_stderr:.4f}, "
            f"of the kill chance {r.kill_stderr:.4%}"
        )
    return lines


def _side_by_side(results: list[tuple[int, ShootResult]]) -> list[Table]:
    """Two tables with one column per save (P(damage = x), then P(damage >= x)) and a summary."""
    top = max(r.damage.max for _, r in results)
    values = [v for v in range(top + 1) if any(r.damage.prob(v) > 0.0 for _, r in results)]
    header = ["damage"] + [f"{save}+" for save, _ in results]
    exactly = Table("P(damage = x) by save", header, [[v] + [r.damage.prob(v) for _, r in results] for v in values])
    at_least = Table("P(damage >= x) by save", header,
                     [[v] + [r.damage.at_least(v) for _, r in results] for v in values])
    summary = Table("Summary", ["save", "mean", "std", "kill chance"],
                    [[f"{save}+", r.damage.mean, r.damage.std, r.kill_chance] for save, r in results])
    return [exactly, at_least, summary]


def register(app: typer.Typer) -> None:
    """Add the shoot command to the killteam group."""

    @app.command("shoot", epilog=EXAMPLE)
    def shoot_command(
        attacks: Annotated[int, typer.Option(help="Attack dice (1..12).")] = 4,
        hit: Annotated[str, typer.Option(help="Hit stat, 3 or 3+ (2..6).")] = "3",
        damage: Annotated[str, typer.Option(help="Normal/critical damage, e.g. 3/4 (0..12 each).")] = "3/4",
        rules: Annotated[str, typer.Option(help="Weapon rules, e.g. 'Lethal 5+, Piercing 1, Balanced'.")] = "",
        save: Annotated[Optional[str], typer.Option(help="Target's save, 3 or 3+ (default 3+).")] = None,
        saves: Annotated[
            Optional[str], typer.Option(help="Compare saves side by side instead: 2-6, or 3,4,5.")
        ] = None,
        wounds: Annotated[int, typer.Option(help="Target's wounds (1..40).")] = 12,
        abilities: Annotated[
            str, typer.Option(help="Target's abilities, e.g. 'Feel No Pain 5+, Saintly Relics (2D6), Durable'.")
        ] = "",
        cover: Annotated[int, typer.Option(help="Cover saves retained without rolling (0..3; 1 = in cover).")] = 0,
        obscured: Annotated[bool, typer.Option("--obscured", help="The target is obscured.")] = False,
        rounds: Annotated[int, typer.Option(help="Shots in a row (1..9); damage adds up.")] = 1,
        method: MethodOption = Method.exact,
        samples: SamplesOption = DEFAULT_SAMPLES,
        seed: SeedOption = None,
        threads: ThreadsOption = None,
        fmt: FormatOption = OutputFormat.table,
    ) -> None:
        """Damage of a Kill Team shot: distribution, mean and kill chance (exact by default)."""
        if save is not None and saves is not None:
            raise InputError("saves", "give either --save or --saves, not both")
        weapon = Weapon(attacks, hit, damage, rules)
        save_values = parse_saves(saves) if saves is not None else [check_stat("save", save if save is not None else 3)]
        options = dict(cover=cover, obscured=obscured, rounds=rounds, method=method.value, samples=samples, seed=seed,
                       threads=threads)
        results: list[tuple[int, ShootResult]] = []
        for value in save_values:
            target = Operative(value, wounds, abilities)
            with progress_bar(f"{value}+ save", enabled=fmt is OutputFormat.table) as progress:
                results.append((value, shoot(weapon, target, **options, progress=progress)))

        if saves is None:
            r = results[0][1]
            payload = {"mean": r.damage.mean, "std": r.damage.std, **r.to_dict()}
            title = f"Damage: {r.weapon} against {r.target}" + (f", {r.rounds} rounds" if r.rounds > 1 else "")
            emit(fmt, [distribution_table(title, r.damage, "damage")], payload, _summary("", r))
            return
        payload = {
            "saves": [{"save": value, "mean": r.damage.mean, "std": r.damage.std, **r.to_dict()} for value, r in results]
        }
        summary = [line for value, r in results for line in _summary(f"{value}+: ", r)]
        emit(fmt, _side_by_side(results), payload, summary if fmt is OutputFormat.markdown else [])

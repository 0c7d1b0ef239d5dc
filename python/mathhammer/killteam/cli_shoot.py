"""`mathhammer killteam shoot`: the damage distribution of a shot, or of one gun against several saves."""

from __future__ import annotations

import dataclasses
import re
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
    ThreadsOption,
    VariantsOption,
    cli_variants,
    Table,
    distribution_table,
    emit,
    method_line,
    probability_text,
    progress_bar,
    register_printer,
    run_conditions,
)
from mathhammer.killteam.variants import Variants
from mathhammer._validate import InputError, check_stat
from mathhammer.killteam.profiles import Operative, Weapon
from mathhammer.killteam.shoot import DEFAULT_SAMPLES, ShootResult, shoot
from mathhammer.library import default_library, load_game_library, profile_to_dict, resolve_profile

#: What the bare command shoots with and at.
DEFAULT_WEAPON = Weapon(attacks=4, hit=3, damage=(3, 4))
DEFAULT_TARGET = Operative(save=3, wounds=12)

_W, _T = "Weapon", "Target"


def _o(panel: str, text: str) -> Any:
    return typer.Option(help=text, rich_help_panel=panel)


EXAMPLE = """
Examples:

  mathhammer killteam shoot --attacks 4 --hit 3 --damage 3/4 --rules "Lethal 5+, Piercing 1" --save 3 --cover 1

  mathhammer killteam shoot --rules "Devastating 2" --abilities "Feel No Pain 5+, Durable" --saves 2-6

  mathhammer killteam shoot --rounds 3 --abilities "Saintly Relics (2D6)" --format json

  mathhammer killteam shoot --profiles examples/killteam/profiles.toml --weapon meltagun --target plague_marine
"""


def parse_saves(text: str) -> list[int]:
    """'2-6', '3,4,5' or '4' → the save values (each 2..6, no repeats)."""
    from mathhammer._guard import check_notation

    values: list[int] = []
    for part in check_notation("saves", text).split(","):
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
    lines = [  # one figure group a line, so that each fits 80 columns
        f"{label}mean damage {r.damage.mean:.4f} (std {r.damage.std:.4f})",
        f"{label}kill chance {probability_text(r.kill_chance)} against {r.wounds} wounds; "
        f"injury chance {probability_text(r.injury_chance)}",
    ]
    if r.samples is not None and r.kill_stderr is not None:  # Monte Carlo: both are set
        lines.append(
            f"{label}{method_line(r.method, r.samples)}: stderr of the mean {r.damage.mean_stderr:.4f}, "
            f"of the kill chance {probability_text(r.kill_stderr)}"
        )
    else:
        lines.append(label + method_line(r.method))
    return lines


def shot_conditions(result: ShootResult) -> list[str]:
    """What a shot's heading names besides the profiles: cover, obscured, rounds, variants, method."""
    parts = []
    if result.cover_crits:
        parts.append(f"cover crits {result.cover_crits}")
    if result.cover:
        parts.append(f"cover {result.cover}")
    if result.obscured:
        parts.append("obscured")
    if result.rounds > 1:
        parts.append(f"{result.rounds} rounds")
    return parts + run_conditions(result)


def _named(notation: str, name: str | None) -> str:
    """A profile as the heading names it: the library name the user typed, then its notation."""
    return f"{name} ({notation})" if name and name != notation else notation


def shoot_tables(result: ShootResult, title: str = "") -> tuple[list[Table], list[str]]:
    """A shot as a table of P(damage = x) and P(damage >= x), and summary lines (mean, std, kill
    chance, and standard errors for Monte Carlo)."""
    note_result(result)  # for --plot
    prefix = f"{title}: " if title else ""
    heading = f"{prefix}Damage: {result.weapon} against {result.target}"
    heading += "".join(f", {part}" for part in shot_conditions(result))
    return [distribution_table(heading, result.damage, "damage")], _summary(prefix, result)


register_printer(ShootResult, shoot_tables)


def _headline(r: ShootResult) -> dict[str, Any]:
    return {"mean": r.damage.mean, "std": r.damage.std, "kill_chance": r.kill_chance, "kill_stderr": r.kill_stderr,
            "injury_chance": r.injury_chance, "injury_stderr": r.injury_stderr}


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


def _with(base: Any, **changes: Any) -> Any:
    """The profile with the fields given on the command line (None: keep the profile's)."""
    return dataclasses.replace(base, **{k: v for k, v in changes.items() if v is not None})


def register(app: typer.Typer) -> None:
    """Add the shoot command to the killteam group."""

    @app.command("shoot", epilog=EXAMPLE)
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
        cover: Annotated[int, typer.Option(help="Cover saves retained without rolling (0..3; 1 = in cover).")] = 0,
        cover_crits: Annotated[
            int, typer.Option("--cover-crits", help="Crit saves retained without rolling (0..3), before --cover.")
        ] = 0,
        obscured: Annotated[bool, typer.Option("--obscured", help="The target is obscured.")] = False,
        rounds: Annotated[int, typer.Option(help="Shots in a row (1..9); damage adds up.")] = 1,
        method: MethodOption = Method.exact,
        samples: SamplesOption = DEFAULT_SAMPLES,
        seed: SeedOption = None,
        threads: ThreadsOption = None,
        variants: VariantsOption = None,
        fmt: FormatOption = OutputFormat.table,
    ) -> None:
        """Damage of a Kill Team shot: distribution, mean and kill chance (exact by default).

        With no options: 4 attacks, 3+, 3/4 damage against a 3+ save and 12 wounds.
        """
        if save is not None and saves is not None:
            raise InputError("--saves", "--saves sweeps the save; drop --save (give one or the other)")
        library = load_game_library(profiles, "killteam") if profiles is not None else default_library("killteam")
        base_weapon = DEFAULT_WEAPON if weapon is None else resolve_profile("killteam", "weapon", weapon, library)
        the_weapon = _with(base_weapon, attacks=attacks, hit=hit, damage=damage, rules=rules)
        base_target = DEFAULT_TARGET if target is None else resolve_profile("killteam", "operative", target, library,
                                                                             "target")
        base_target = _with(base_target, save=save, wounds=wounds, abilities=abilities)
        save_values = parse_saves(saves) if saves is not None else [base_target.save]
        options = dict(cover=cover, cover_crits=cover_crits, obscured=obscured, rounds=rounds, method=method.value, samples=samples, seed=seed,
                       threads=threads, variants=cli_variants(Variants, variants, {}))
        results: list[tuple[int, ShootResult]] = []
        for value in save_values:
            the_target = dataclasses.replace(base_target, save=value)
            with progress_bar(f"{value}+ save") as progress:
                results.append((value, shoot(the_weapon, the_target, **options, progress=progress)))

        first = results[0][1]
        inputs = {"weapon": first.weapon, "target": first.target, "wounds": first.wounds, "cover": first.cover,
                  "cover_crits": first.cover_crits,
                  "obscured": first.obscured, "rounds": first.rounds, "method": first.method,
                  "samples": first.samples,
                  "profiles": {"weapon": profile_to_dict(the_weapon), "target": profile_to_dict(base_target)}}
        if saves is None:
            tables, lines = shoot_tables(first)
            if weapon is not None or target is not None:  # name the library profiles the user chose
                tables[0].title = tables[0].title.replace(
                    f"Damage: {first.weapon} against {first.target}",
                    f"Damage: {_named(first.weapon, weapon)} against {_named(first.target, target)}", 1)
            emit(fmt, tables, {**inputs, **_headline(first), "result": first.to_dict()}, lines)
            return
        inputs["target"] = f"saves {', '.join(f'{v}+' for v in save_values)}; {base_target.wounds}W"
        payload = {**inputs, "saves": [{"save": value, **_headline(r), "result": r.to_dict()} for value, r in results]}
        summary = [line for value, r in results for line in _summary(f"{value}+: ", r)]
        for _, r in results:
            note_result(r)
        emit(fmt, _side_by_side(results), payload, summary if fmt is OutputFormat.markdown else [])

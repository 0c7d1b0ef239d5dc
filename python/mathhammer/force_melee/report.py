"""How Force melee results print: an exchange's and a melee of several units' tables and summary
lines (registered through the game's descriptor)."""

from __future__ import annotations

from typing import Any

from mathhammer.core.present import distribution_table, method_line, run_conditions
from mathhammer.force_melee.profiles import Side
from mathhammer.force_melee.results import MeleeManyResult, MeleeResult
from mathhammer.report.tables import Table, probability_text

__all__ = ["melee_heading", "melee_many_tables", "melee_tables", "side_heading"]


def side_heading(side: Side) -> str:
    """A side as a heading names it: "Line Trooper squad (5x1 HP, 3 dice at 4+, Force 4)"."""
    unit, weapon = side.unit, side.weapon
    hit = f"{weapon.hit}+" + (f" {side.hit_mod:+d}" if side.hit_mod else "")
    text = f"{unit.models}x{unit.hp} HP, {side.dice} dice at {hit}, Force {weapon.force}"
    return f"{unit.name} ({text})" if unit.name else text


def melee_heading(result: MeleeResult) -> str:
    """What an exchange's heading names: sides A and B (their profiles, when the result describes
    them), the rule variants and the method."""
    name_a, name_b = result.sides if all(result.sides) else result.names
    return ", ".join([f"A {name_a} vs B {name_b}", *run_conditions(result)])


def _with_errors(table: Table, errors: list[list[Any]] | None) -> list[Table]:
    """The table, then (Monte Carlo) the standard errors of its figures laid out the same way, so
    that each stays 80 columns wide and every probability prints as a percentage."""
    if errors is None:
        return [table]
    return [table, Table(f"{table.title}: standard errors", table.columns, errors)]


def melee_tables(result: MeleeResult, title: str = "") -> tuple[list[Table], list[str]]:
    """Tables for one exchange: a summary per side under a heading naming the sides (their profiles)
    and the method, damage, casualties, hits and likeliest outcomes."""
    prefix = f"{title}: " if title else ""
    name_a, name_b = result.names
    summary = result.summary()
    errors = result.stderr
    quantities = [
        ("P(more hits)", "p_more_hits"),
        ("mean damage taken", "mean_damage"),
        ("P(damaged)", "p_damaged"),
        ("mean casualties", "mean_casualties"),
        ("P(destroyed)", "p_destroyed"),
    ]
    columns = ["quantity", f"A: {name_a}", f"B: {name_b}"]
    rows = [[label] + [summary[f"{side}_{key}"] for side in ("a", "b")] for label, key in quantities]
    error_rows = None if errors is None else [[label] + [errors[f"{side}_{key}"] for side in ("a", "b")]
                                              for label, key in quantities]
    tables = _with_errors(Table(f"{prefix}{melee_heading(result)}", columns, rows), error_rows)
    tables.append(distribution_table(f"{prefix}damage to A ({name_a})", result.damage_a, "damage"))
    tables.append(distribution_table(f"{prefix}damage to B ({name_b})", result.damage_b, "damage"))
    tables.append(distribution_table(f"{prefix}casualties of A ({name_a})", result.casualties_a, "models"))
    tables.append(distribution_table(f"{prefix}casualties of B ({name_b})", result.casualties_b, "models"))
    tables.append(distribution_table(f"{prefix}hits compared, A", result.hits_a, "hits"))
    tables.append(distribution_table(f"{prefix}hits compared, B", result.hits_b, "hits"))
    pmf = result.joint.pmf
    cells = sorted(((float(pmf[i, j]), i, j) for i, j in zip(*pmf.nonzero())), reverse=True)[:15]
    tables.append(
        Table(
            f"{prefix}likeliest outcomes (damage to A, damage to B)",
            ["damage to A", "damage to B", "P"],
            [[i, j, p] for p, i, j in cells],
        )
    )
    how = method_line(result.method, result.samples, result.seed)
    tie = probability_text(result.p_tie)
    error = result.stderr_of(result.p_tie)
    lines = [f"{prefix}P(tie on hits) = {tie}{'' if error is None else f' ± {probability_text(error)}'}; {how}"]
    return tables, lines


def melee_many_tables(result: MeleeManyResult, title: str = "") -> tuple[list[Table], list[str]]:
    """Tables for a melee of several units: per unit, per engaged pair, damage and casualties; the
    heading names the units, the pairs and the method."""
    prefix = f"{title}: " if title else ""
    exact = result.samples is None
    rows, unit_errors = [], []
    for name, unit in result.units.items():
        rows.append([name, unit.models, unit.damage.mean, unit.damage.at_least(1), unit.casualties.mean, unit.wiped])
        unit_errors.append([name, unit.models, unit.damage.mean_stderr, result.stderr_of(unit.damage.at_least(1)),
                            unit.casualties.mean_stderr, result.stderr_of(unit.wiped)])
    pairs = len(result.pairs)
    how = ", ".join([f"{len(result.units)} units", f"{pairs} engaged pair{'s' if pairs != 1 else ''}",
                     *run_conditions(result)])
    units_table = Table(f"{prefix}units ({how})",
                        ["unit", "models", "mean damage taken", "P(damaged)", "mean casualties", "P(destroyed)"], rows)
    tables = _with_errors(units_table, None if exact else unit_errors)
    pair_rows, pair_errors = [], []
    for pair in result.pairs:
        label = [f"{pair.first} vs {pair.second}", f"{pair.dice[0]} / {pair.dice[1]}"]
        pair_rows.append(label + [pair.p_first_more, pair.p_tie, pair.p_second_more, pair.damage_second.mean,
                                  pair.damage_first.mean])
        pair_errors.append(label + [result.stderr_of(pair.p_first_more), result.stderr_of(pair.p_tie),
                                    result.stderr_of(pair.p_second_more), pair.damage_second.mean_stderr,
                                    pair.damage_first.mean_stderr])
    pairs_table = Table(
        f"{prefix}engaged pairs (first vs second)",
        ["pair", "dice", "P(first more hits)", "P(tie)", "P(second more hits)", "mean damage to second",
         "mean damage to first"],
        pair_rows,
    )
    tables += _with_errors(pairs_table, None if exact else pair_errors)
    for name, unit in result.units.items():
        tables.append(distribution_table(f"{prefix}damage to {name}", unit.damage, "damage"))
        tables.append(distribution_table(f"{prefix}casualties of {name}", unit.casualties, "models"))
    return tables, [prefix + method_line(result.method, result.samples, result.seed)]

"""How StarCraft results print: an attack's and a sequence's tables and summary lines, and the
comparison matrix's tables and picture (registered through the game's descriptor)."""

from __future__ import annotations

from typing import Any

from mathhammer.core.present import distribution_table, method_line, run_conditions
from mathhammer.report import plot as pictures
from mathhammer.report.tables import Table, probability_text
from mathhammer.starcraft.results import AttackResult, Comparison, SequenceResult

__all__ = ["attack_heading", "attack_tables", "comparison_heading", "comparison_picture", "comparison_tables",
           "sequence_tables"]


def _stages_table(result: AttackResult, prefix: str = "") -> Table:
    stages = result.stages.distributions()
    size = max(d.pmf.size for d in stages.values())
    rows = []
    for value in range(size):
        row: list[Any] = [value] + [d.prob(value) for d in stages.values()]
        if any(p > 0 for p in row[1:]):
            rows.append(row)
    return Table(f"{prefix}Stages: P(stage = value)", ["value", *[name.replace("_", " ") for name in stages]], rows)


def attack_heading(result: AttackResult) -> str:
    """What a batch's heading names: who fired what at which unit, the options that depart from the
    defaults, the rule variants and the method."""
    shooter = result.fired or (result.weapon or "HITS")
    if not result.fired and result.weapon:  # a result saved without what fired: the dice they rolled
        shooter += f" ({result.stages.dice} dice)"
    return ", ".join([f"{shooter} at {result.unit or 'the unit'}", *result.options, *run_conditions(result)])


def attack_tables(result: AttackResult, title: str = "") -> tuple[list[Table], list[str]]:
    """A batch as tables (damage, casualties, the Damage Marker after it, every stage) and summary
    lines (its inputs, dice and stage means, mean damage and casualties, P(destroyed), P(Shielded
    lost))."""
    prefix = f"{title}: " if title else ""
    tables = [
        distribution_table(f"{prefix}Damage: {attack_heading(result)}", result.damage, "damage"),
        distribution_table(f"{prefix}Casualties", result.casualties, "casualties"),
        distribution_table(f"{prefix}Damage Marker after the attack", result.marker, "marker", with_at_least=False),
        _stages_table(result, prefix),
    ]
    means = ", ".join(f"{name.replace('_', ' ')} {dist.mean:.3f}" for name, dist in result.stages.distributions().items())
    lines = [
        *result.inputs,
        f"dice {result.stages.dice}; damage per die {result.damage_per_die}",  # two lines: each fits 80 columns
        f"means: {means}",
        f"mean damage {result.damage.mean:.4f}, mean casualties {result.casualties.mean:.4f}",
        f"P(destroyed) = {probability_text(result.destroyed)}",
    ]
    if result.shield_lost > 0 or result.state.shielded.any():  # the unit was Shielded before the attack
        lines.append(f"P(Shielded lost) = {probability_text(result.shield_lost)}")
    if result.reaction_ignored:
        lines.append("reaction ignored: the weapon is INSTANT")
    lines.append(method_line(result.method, result.samples, result.seed))
    return tables, [prefix + line for line in lines]


def sequence_tables(result: SequenceResult, title: str = "") -> tuple[list[Table], list[str]]:
    """A sequence as tables (total damage, casualties, the final Damage Marker, one row per batch,
    named by its label) and summary lines (the unit, means, P(destroyed), P(Shielded lost) at the
    end)."""
    prefix = f"{title}: " if title else ""
    per_batch = Table(
        f"{prefix}Batches",
        ["batch", "mean damage", "mean casualties", "mean marker after", "P(destroyed after)", "P(Shielded lost in it)"],
        [[b.label or number, b.damage.mean, b.casualties.mean, b.marker.mean, b.destroyed, b.shield_lost]
         for number, b in enumerate(result.batches, 1)],
    )
    count = len(result.batches)
    heading = ", ".join([f"{count} batch{'es' if count != 1 else ''} at {result.unit or 'the unit'}",
                         *run_conditions(result)])
    tables = [
        distribution_table(f"{prefix}Total damage: {heading}", result.total_damage, "damage"),
        distribution_table(f"{prefix}Casualties", result.casualties, "casualties"),
        distribution_table(f"{prefix}Damage Marker at the end", result.marker, "marker", with_at_least=False),
        per_batch,
    ]
    lines = [
        *result.inputs,
        f"mean total damage {result.total_damage.mean:.4f}, mean casualties {result.casualties.mean:.4f}",
        f"P(destroyed) = {probability_text(result.destroyed)}",
    ]
    if result.shield_lost > 0:
        lines.append(f"P(Shielded lost) = {probability_text(result.shield_lost)}")
    if any(b.reaction_ignored for b in result.batches):
        lines.append("reaction ignored in INSTANT batches")
    lines.append(method_line(result.method, result.samples, result.seed))
    return tables, [prefix + line for line in lines]


def comparison_heading(comparison: Comparison) -> str:
    """What sc.compare's tables say was computed: the models firing each weapon, the rule variants and
    the method."""
    models = comparison.firing_models
    return ", ".join([f"{models} firing model{'s' if models != 1 else ''} per weapon", *run_conditions(comparison)])


def comparison_tables(comparison: Comparison, title: str = "") -> tuple[list[Table], list[str]]:
    """sc.compare as tables (a row per weapon, a column per unit) of numbers: the destroyed chance
    prints as a percentage like every other table's."""
    prefix = f"{title}: " if title else ""
    header = ["weapon \\ unit", *comparison.units]
    figures = (("damage", f"Mean damage: {comparison_heading(comparison)}"), ("casualties", "Mean casualties"),
               ("destroyed", "Destroyed chance P(unit destroyed)"))
    return [Table(prefix + heading, header, [[name, *map(float, getattr(comparison, attribute)[i])]
                                             for i, name in enumerate(comparison.weapons)])
            for attribute, heading in figures], []


def comparison_picture(comparison: Comparison, title: str, ax: Any = None) -> Any:
    """sc.compare: mean damage into each unit, one bar per weapon."""
    return pictures.grouped_bars(list(comparison.units),
                                 [(label, comparison.damage[i]) for i, label in enumerate(comparison.weapons)],
                                 xlabel="target unit", ylabel="mean damage", title=title, ax=ax)

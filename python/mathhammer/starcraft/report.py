"""How StarCraft results print: an attack's and a sequence's tables and summary lines, and the
comparison matrix's tables and picture (registered through the game's descriptor)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathhammer.core.present import distribution_table, method_line, run_conditions
from mathhammer.report import plot as pictures
from mathhammer.report.tables import Table, probability_text
from mathhammer.starcraft.profiles import Batch
from mathhammer.starcraft.results import AttackResult, Comparison, SequenceResult

__all__ = ["attack_heading", "attack_tables", "batch_label", "comparison_picture", "comparison_tables",
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


def attack_heading(result: AttackResult, who: str | None = None, extras: Sequence[str] = (),
                   unit: str | None = None) -> str:
    """What a batch's heading names: who fired what (``who``, else the weapon the result records) at
    which unit (``unit``, else the one the result records), the options that depart from the
    defaults, the rule variants and the method."""
    shooter = who or (result.weapon or "HITS")
    target = unit or result.unit or "the unit"
    if who is None and result.weapon:  # the result does not record the models, but the dice they rolled
        shooter += f" ({result.stages.dice} dice)"
    return ", ".join([f"{shooter} at {target}", *extras, *run_conditions(result)])


def attack_tables(result: AttackResult, title: str = "", heading: str | None = None) -> tuple[list[Table], list[str]]:
    """A batch as tables (damage, casualties, the Damage Marker after it, every stage) and summary
    lines (dice and stage means, mean damage and casualties, P(destroyed), P(Shielded lost)).
    ``heading`` (default :func:`attack_heading`) titles the first table."""
    prefix = f"{title}: " if title else ""
    tables = [
        distribution_table(f"{prefix}Damage: {heading or attack_heading(result)}", result.damage, "damage"),
        distribution_table(f"{prefix}Casualties", result.casualties, "casualties"),
        distribution_table(f"{prefix}Damage Marker after the attack", result.marker, "marker", with_at_least=False),
        _stages_table(result, prefix),
    ]
    means = ", ".join(f"{name.replace('_', ' ')} {dist.mean:.3f}" for name, dist in result.stages.distributions().items())
    lines = [
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


def batch_label(index: int, batch: Batch) -> str:
    """A batch as its row names it: "1: C-14 Rifle x6", "3: HITS 4 (1)"."""
    options = batch.kwargs
    if options.get("mode") == "hits" or batch.weapon is None:
        hits = options.get("hits")
        what = f"HITS {hits[0]} ({hits[1]})" if isinstance(hits, (tuple, list)) and len(hits) == 2 else "HITS"
    else:
        what = batch.weapon.name or str(batch.weapon)
        if not batch.weapon.template and options.get("mode", "weapon") == "weapon":
            what += f" x{options.get('firing_models', 1)}"
    return f"{index + 1}: {what}"


def sequence_tables(result: SequenceResult, title: str = "",
                    batches: Sequence[Batch] | None = None) -> tuple[list[Table], list[str]]:
    """A sequence as tables (total damage, casualties, the final Damage Marker, one row per batch,
    named by its weapon when ``batches`` are given) and summary lines (means, P(destroyed),
    P(Shielded lost) at the end)."""
    prefix = f"{title}: " if title else ""
    labels: list[Any] = ([batch_label(i, b) for i, b in enumerate(batches)] if batches is not None
                         and len(batches) == len(result.batches) else list(range(1, len(result.batches) + 1)))
    per_batch = Table(
        f"{prefix}Batches",
        ["batch", "mean damage", "mean casualties", "mean marker after", "P(destroyed after)", "P(Shielded lost in it)"],
        [[label, b.damage.mean, b.casualties.mean, b.marker.mean, b.destroyed, b.shield_lost]
         for label, b in zip(labels, result.batches)],
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
        f"mean total damage {result.total_damage.mean:.4f}, mean casualties {result.casualties.mean:.4f}",
        f"P(destroyed) = {probability_text(result.destroyed)}",
    ]
    if result.shield_lost > 0:
        lines.append(f"P(Shielded lost) = {probability_text(result.shield_lost)}")
    if any(b.reaction_ignored for b in result.batches):
        lines.append("reaction ignored in INSTANT batches")
    lines.append(method_line(result.method, result.samples, result.seed))
    return tables, [prefix + line for line in lines]


def comparison_tables(comparison: Comparison, heading: str) -> list[Table]:
    """sc.compare as tables (a row per weapon, a column per unit) of numbers: the destroyed chance
    prints as a percentage like every other table's."""
    header = ["weapon \\ unit", *comparison.units]
    figures = (("damage", f"Mean damage: {heading}"), ("casualties", "Mean casualties"),
               ("destroyed", "Destroyed chance P(unit destroyed)"))
    return [Table(title, header, [[name, *map(float, getattr(comparison, attribute)[i])]
                                  for i, name in enumerate(comparison.weapons)])
            for attribute, title in figures]


def comparison_picture(comparison: Comparison, title: str, ax: Any = None) -> Any:
    """sc.compare: mean damage into each unit, one bar per weapon."""
    return pictures.grouped_bars(list(comparison.units),
                                 [(label, comparison.damage[i]) for i, label in enumerate(comparison.weapons)],
                                 xlabel="target unit", ylabel="mean damage", title=title, ax=ax)

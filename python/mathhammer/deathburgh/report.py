"""How Deathburgh results print: a combat's and a round's tables and summary lines (registered
through the game's descriptor)."""

from __future__ import annotations

from typing import Any

from mathhammer.core.present import distribution_table, method_line, run_conditions
from mathhammer.deathburgh.profiles import SIDE_OPTIONS, Side
from mathhammer.deathburgh.results import CombatResult, RoundResult
from mathhammer.report.tables import Table

__all__ = ["JOINT_WIDE", "combat_heading", "combat_tables", "round_tables", "side_heading", "side_line"]


def side_heading(side: Side) -> str:
    """A side as a heading names it: the miniature's name (else its profile), its mode, and what it
    brings that departs from the defaults ("Old Fellas Leader (aggressive, charge, support 1)")."""
    defaults = Side(side.mini)
    extras = [side.mode]
    for name in ("wounds", *SIDE_OPTIONS):  # the order the command's options come in
        value = getattr(side, name)
        if name == "mode" or value == getattr(defaults, name):
            continue
        label = name.replace("_", " ")
        extras.append(label if value is True else f"{label} {value}")
    return f"{side.mini.name or side.mini.notation} ({', '.join(extras)})"


def side_line(side: Side) -> str:
    """A side as a summary line names it: "Bandit Brute [A 4/4+ D 4/5+ W 3, melee], aggressive, 3 wounds"."""
    return f"{side.mini.name or 'custom'} [{side.mini.notation}, {side.mini.role}], {side.mode}, {side.current_wounds} wounds"


def combat_heading(result: CombatResult) -> str:
    """What a combat's heading names: the two sides (when the result names them), the reaction (and
    "stand and shoot"), the edition, the rule variants and the method."""
    who = [f"{result.sides[0]} vs {result.sides[1]}"] if all(result.sides) else []
    extras = ["stand and shoot"] if result.stand_and_shoot else []
    conditions = []
    for condition in run_conditions(result):  # the edition is said once, by itself
        if condition.startswith("variants ") and "=" in condition:
            switches = [part for part in condition[len("variants "):].split(",") if not part.startswith("edition=")]
            condition = "variants " + ",".join(switches) if switches else ""
        if condition:
            conditions.append(condition)
    return ", ".join([*who, f"reaction {result.reaction}", *extras, f"{result.edition} edition", *conditions])


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


def combat_tables(result: CombatResult, title: str = "") -> tuple[list[Table], list[str]]:
    """A combat as tables: the outcome summary (P(Wasted) of each side, ...) under a heading naming
    the sides, reaction, edition and method; the wounds to each side, their joint law and both rolls;
    and summary lines (both sides' profiles; reaction, edition, method)."""
    prefix = f"{title}: " if title else ""
    tables = [
        _summary_table(result, prefix, combat_heading(result)),
        distribution_table(f"{prefix}Wounds to the defender (has {result.defender_wounds})", result.wounds_defender,
                           "wounds"),
        distribution_table(f"{prefix}Wounds to the attacker (has {result.attacker_wounds})", result.wounds_attacker,
                           "wounds"),
        _joint_table(result, prefix),
        distribution_table(f"{prefix}Attacker successes", result.successes_attacker, "successes"),
        distribution_table(f"{prefix}Defender successes", result.successes_defender, "successes"),
    ]
    how = method_line(result.method, result.samples, result.seed)
    profiles = [f"{role}: {text}" for role, text in zip(("attacker", "defender"), result.profiles) if text]
    return tables, [prefix + line for line in [*profiles, f"reaction {result.reaction}, edition {result.edition}; {how}"]]


def round_tables(result: RoundResult, title: str = "") -> tuple[list[Table], list[str]]:
    """A round as tables: each miniature's mean wounds left and P(Wasted), P(wounds left = k), and each
    combat (who fought whom) with P(fought)."""
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

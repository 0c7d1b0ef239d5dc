"""How Kill Team results print: their tables, summary lines and pictures.

One printer per result type (a shot, a fight, fight advice), registered through the game's
descriptor, so ``mathhammer killteam shoot``, ``mathhammer run``, ``result.to_markdown()`` and a
notebook print a result the same way; plus the tables and pictures of the comparison matrices
(``kt.compare``, ``kt.compare_fights``) and of several saves side by side.
"""

from __future__ import annotations

from typing import Any


from mathhammer.core.present import distribution_table, method_line, run_conditions
from mathhammer.errors import InputError
from mathhammer.killteam.results import (
    Advice,
    AttackDiceResult,
    Comparison,
    FightComparison,
    FightResult,
    Matchup,
    MatchupSummary,
    MetaRanking,
    ShootResult,
    VolleyResult,
)
from mathhammer.report import plot as pictures
from mathhammer.report.tables import CERTAIN, Probabilities, Table, current_display, probability_text
from mathhammer.report.text import signed_percent

__all__ = [
    "advice_picture", "advice_tables", "attack_dice_tables", "fight_comparison_heading", "fight_comparison_picture",
    "fight_comparison_tables", "fight_tables", "saves_side_by_side", "shoot_tables", "shot_comparison_heading",
    "shot_comparison_picture", "shot_comparison_tables", "shot_conditions",
    "matchup_all_tables", "matchup_picture", "matchup_summary_tables", "matchup_tables", "meta_ranking_tables",
    "shot_summary", "volley_tables",
]


# --- shots ------------------------------------------------------------------------------------------

def shot_summary(label: str, r: ShootResult) -> list[str]:
    """A shot's summary lines: mean and spread, kill and injury chances, with Hot the shooter's own
    damage, how it was computed."""
    lines = [  # one figure group a line, so that each fits 80 columns
        f"{label}mean damage {r.damage.mean:.4f} (std {r.damage.std:.4f})",
        f"{label}kill chance {probability_text(r.kill_chance)} against {r.wounds} wounds; "
        f"injury chance {probability_text(r.injury_chance)}",
    ]
    if r.self_damage is not None:  # Hot: what the shooter takes (docs/rules/killteam.md §2.2)
        death = r.shooter_death_chance
        lines.append(f"{label}Hot: the shooter takes {r.self_damage.mean:.4f} damage on average"
                     + ("" if death is None else f"; incapacitated {probability_text(death)} "
                                                 f"against {r.shooter_wounds} wounds"))
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
    return _situation(result) + run_conditions(result)


def _situation(result: ShootResult) -> list[str]:
    """A shot's cover, obscured and rounds, as its heading names them."""
    parts = []
    if result.cover_crits:
        parts.append(f"cover crits {result.cover_crits}")
    if result.cover:
        parts.append(f"cover {result.cover}")
    if result.obscured:
        parts.append("obscured")
    if result.rounds > 1:
        parts.append(f"{result.rounds} rounds")
    return parts


def shoot_tables(result: ShootResult, title: str = "") -> tuple[list[Table], list[str]]:
    """A shot as a table of P(damage = x) and P(damage >= x), and summary lines (mean, std, kill
    chance, and standard errors for Monte Carlo)."""
    prefix = f"{title}: " if title else ""
    heading = f"{prefix}Damage: {result.weapon} against {result.target}"
    heading += "".join(f", {part}" for part in shot_conditions(result))
    return [distribution_table(heading, result.damage, "damage")], shot_summary(prefix, result)


def saves_side_by_side(results: list[tuple[int, ShootResult]]) -> list[Table]:
    """Shots of one weapon at several saves: two tables with one column per save (P(damage = x), then
    P(damage >= x)) and a summary."""
    top = max(r.damage.max for _, r in results)
    values = [v for v in range(top + 1) if any(r.damage.prob(v) > 0.0 for _, r in results)]
    header = ["damage"] + [f"{save}+" for save, _ in results]
    exactly = Table("P(damage = x) by save", header, [[v] + [r.damage.prob(v) for _, r in results] for v in values])
    at_least = Table("P(damage >= x) by save", header,
                     [[v] + [r.damage.at_least(v) for _, r in results] for v in values])
    summary = Table("Summary", ["save", "mean", "std", "kill chance"],
                    [[f"{save}+", r.damage.mean, r.damage.std, r.kill_chance] for save, r in results])
    return [exactly, at_least, summary]


def attack_dice_tables(result: AttackDiceResult, title: str = "") -> tuple[list[Table], list[str]]:
    """Retained attack dice as tables: P(crits, norms) (a row per crits, a column per norms), then the
    crits, the norms and the successes alone; summary lines with their means and the method. The
    heading names the weapon (and an obscured target)."""
    prefix = f"{title}: " if title else ""
    pmf = result.joint.pmf
    weapon = result.weapon + (", obscured" if result.obscured else "")
    heading = ", ".join([f"Retained attack dice{f': {weapon}' if weapon else ''}", *run_conditions(result)])
    joint = Table(f"{prefix}{heading}: P(crits, norms)", ["crits \\ norms", *[str(n) for n in range(pmf.shape[1])]],
                  [[c, *[float(p) for p in pmf[c]]] for c in range(pmf.shape[0]) if pmf[c].any()])
    tables = [joint,
              distribution_table(f"{prefix}Crits", result.crits, "crits"),
              distribution_table(f"{prefix}Norms", result.norms, "norms"),
              distribution_table(f"{prefix}Successes (crits + norms)", result.successes, "successes")]
    means = result.summary()
    lines = [f"{prefix}mean crits {means['mean_crits']:.4f}, norms {means['mean_norms']:.4f}, "
             f"successes {means['mean_successes']:.4f}",
             prefix + method_line(result.method, result.samples, result.seed)]
    return tables, lines


# --- fights -----------------------------------------------------------------------------------------

def fight_tables(result: FightResult, title: str = "") -> tuple[list[Table], list[str]]:
    """A fight as tables: a summary per fighter (death chance, injured chance, mean wounds left, mean
    damage taken, and standard errors for Monte Carlo) under a heading naming both fighters, then each
    fighter's wounds left."""
    prefix = f"{title}: " if title else ""
    errors = result.stderr or {}
    columns = ["fighter", "death chance", "injured chance", "mean wounds left", "mean damage taken"]
    if errors:
        columns.append("stderr (death chance)")
    rounds = f"{result.rounds} round{'s' if result.rounds > 1 else ''}"
    how = ", ".join([*run_conditions(result), rounds, f"{result.first.upper()} first"])
    who = f": A {result.fighters[0]} vs B {result.fighters[1]}" if all(result.fighters) else ""
    summary = Table(f"{prefix}Fight{who} ({how})", columns)  # profiles and strategies, and how it ran
    for side in ("a", "b"):
        row: list[Any] = [side.upper(), result.death_chance(side), result.injured_chance(side),
                          result.wounds(side).mean, result.mean_damage_taken(side)]
        if errors:
            row.append(errors[f"death_chance_{side}"])
        summary.rows.append(row)
    tables = [
        summary,
        distribution_table(f"{prefix}Fighter A: wounds left", result.wounds_a, "wounds"),
        distribution_table(f"{prefix}Fighter B: wounds left", result.wounds_b, "wounds"),
    ]
    return tables, [prefix + method_line(result.method, result.samples)]


def _value(value: tuple[float, ...]) -> str:
    return "; ".join(f"{v + 0.0:.3g}" for v in value)  # + 0.0: no "-0"


def advice_tables(result: Advice, title: str = "") -> tuple[list[Table], list[str]]:
    """The moves of the fighter to move (value, resulting wounds and death chances, the best marked)
    and what each heuristic strategy would play: the table a player reads at the table."""
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
    lines = [f"{prefix}best: {result.best}"]
    if result.objective in _VALUE_WORDS:
        lines.append(f"{prefix}value: the {result.objective} objective's figures, {_VALUE_WORDS[result.objective]}; "
                     "compared first to last, higher is better")
    return [moves, heuristics], lines


def advice_picture(result: Advice, title: str, ax: Any = None) -> Any:
    """kt.Advice: the wounds each fighter is left on after each legal move (expected, when Feel No
    Pain or relics leave it to chance), the best move marked."""
    moves = [f"{m.move}{' (best)' if m.best else ''}" for m in result.moves]
    return pictures.grouped_bars(moves, [("A", [m.wounds_a for m in result.moves]),
                                         ("B", [m.wounds_b for m in result.moves])],
                                 xlabel=f"{(result.mover or '').upper()}'s move", ylabel="wounds left", title=title,
                                 ax=ax)


#: What the advise table's "value" holds for each objective (docs/rules/killteam.md §7), in order;
#: "dies" is the chance the fighter is incapacitated by the fight's end, "lost" its mean wounds lost.
_VALUE_WORDS = {
    "trade": "(enemy dies - mover dies; enemy lost - mover lost)",
    "net": "(enemy lost - mover lost; enemy dies - mover dies)",
    "kill": "(enemy dies; -mover lost; enemy lost)",
    "survive": "(-mover dies; enemy lost - mover lost)",
}


# --- comparison matrices ----------------------------------------------------------------------------

def _signed(value: float) -> str:
    """A difference of probabilities as the table shows probabilities (--digits, --probabilities)."""
    display = current_display()
    return signed_percent(value, display.decimals, display.probabilities is Probabilities.percent)


def _saves_text(saves: tuple[int, ...]) -> str:
    return "/".join(f"{save}+" for save in saves)


def _shared(parts: list[list[str]]) -> list[str]:
    """The parts every cell's heading names (a situation's own cover is in its label instead)."""
    return [part for part in parts[0] if all(part in other for other in parts[1:])]


def shot_comparison_heading(comparison: Comparison) -> str:
    """What kt.compare's tables say was computed: the weapons, the saves, the target's wounds, the
    conditions every cell shares, the rule variants and the method."""
    cells = [cell for row in comparison.results for cell in row]
    count = len(comparison.labels)
    parts = [f"{count} weapon{'s' if count != 1 else ''} at saves {_saves_text(comparison.saves)}"]
    parts += _shared([[f"{cell.wounds}W", *_situation(cell)] for cell in cells])
    return ", ".join([*parts, *run_conditions(comparison)])


def shot_comparison_tables(comparison: Comparison, title: str = "") -> tuple[list[Table], list[str]]:
    """kt.compare as tables that fit 80 columns: the mean damage (a row per weapon, a column per
    save, then the first weapon's minus each other's; with a Hot weapon the damage it does to its
    shooter beside it), then per weapon P(damage >= w) with a row per
    threshold w (up to the last one any weapon can reach) and a column per save, then the first
    weapon's minus each other's; a summary line names the target. The cells are numbers, so the
    probabilities print like every other table's."""
    prefix = f"{title}: " if title else ""
    saves = [f"{save}+" for save in comparison.saves]
    labels = comparison.labels
    mean = comparison.mean
    at_least = comparison.at_least
    mean_rows: list[list[Any]] = [[label, *map(float, mean[i])] for i, label in enumerate(labels)]
    mean_rows += [[f"{labels[0]} minus {labels[j]}", *map(float, mean[0] - mean[j])] for j in range(1, len(labels))]
    columns = ["weapon", *saves]
    hot, death = comparison.self_damage, comparison.shooter_death_chance
    if any(h is not None for h in hot):  # beside the damage dealt, what Hot does to the shooter (§2.2)
        columns.append("Hot self damage")
        with_death = any(d is not None for d in death)
        if with_death:
            columns.append("P(Hot kills self)")
        for i, row in enumerate(mean_rows):
            row.append(_or_dash(hot[i]) if i < len(labels) else "-")
            if with_death:
                row.append(_or_dash(death[i]) if i < len(labels) else "-")
    tables = [Table(f"{prefix}Mean damage: {shot_comparison_heading(comparison)}", columns, mean_rows)]
    # thresholds up to the last one some weapon reaches (a chance, not a rounding residue)
    reached = [k for k in range(len(comparison.thresholds)) if (at_least[:, :, k] > CERTAIN).any()]
    last = reached[-1] + 1 if reached else 1
    thresholds = comparison.thresholds[:last]
    for i, label in enumerate(labels):
        rows = [[f">={w}", *map(float, at_least[i, :, k])] for k, w in enumerate(thresholds)]
        tables.append(Table(f"{prefix}P(damage >= w): {label}", ["w", *saves], rows))
    for j in range(1, len(labels)):
        delta = at_least[0] - at_least[j]
        rows = [[f">={w}", *[_signed(float(v)) for v in delta[:, k]]] for k, w in enumerate(thresholds)]
        tables.append(Table(f"{prefix}P(damage >= w): {labels[0]} minus {labels[j]}", ["w", *saves], rows))
    targets = {cell.target.partition("; ")[2] for row in comparison.results for cell in row}
    lines = [f"{prefix}target: {targets.pop()}, its save replaced by each of {_saves_text(comparison.saves)}"
             ] if len(targets) == 1 else []
    return tables, lines


def fight_comparison_heading(comparison: FightComparison) -> str:
    """What kt.compare_fights's tables say was computed: how many fighters and opponents, the rounds,
    who resolves first, the rule variants and the method."""
    first = comparison.results[0][0]
    rows, columns = len(comparison.fighters), len(comparison.opponents)
    return ", ".join([f"{rows} fighter{'s' if rows != 1 else ''} vs {columns} opponent{'s' if columns != 1 else ''}",
                      f"{first.rounds} round{'s' if first.rounds > 1 else ''}", f"{first.first.upper()} first",
                      *run_conditions(comparison)])


def fight_comparison_tables(comparison: FightComparison, title: str = "") -> tuple[list[Table], list[str]]:
    """kt.compare_fights as tables (a row per fighter, a column per opponent) of numbers: the
    chances print as percentages like every other table's."""
    prefix = f"{title}: " if title else ""
    header = ["fighter \\ opponent", *comparison.opponents]
    figures = (("kill", f"Kill chance P(opponent dies): {fight_comparison_heading(comparison)}"),
               ("death", "Death chance P(fighter dies)"), ("wounds", "Mean wounds left"),
               ("opponent_wounds", "Opponent's mean wounds left"))
    return [Table(prefix + heading, header, [[name, *map(float, getattr(comparison, attribute)[i])]
                                             for i, name in enumerate(comparison.fighters)])
            for attribute, heading in figures], []


def shot_comparison_picture(comparison: Comparison, title: str, ax: Any = None) -> Any:
    """kt.compare: mean damage at each save, one bar per weapon."""
    return pictures.grouped_bars([f"{save}+" for save in comparison.saves],
                                 [(label, comparison.mean[i]) for i, label in enumerate(comparison.labels)],
                                 xlabel="save", ylabel="mean damage", title=title, ax=ax)


def fight_comparison_picture(comparison: FightComparison, title: str, ax: Any = None) -> Any:
    """kt.compare_fights: the chance to kill each opponent, one bar per fighter."""
    return pictures.grouped_bars(list(comparison.opponents),
                                 [(label, comparison.kill[i]) for i, label in enumerate(comparison.fighters)],
                                 xlabel="opponent", ylabel="kill chance", title=title, percent=True, ax=ax)


# --- volleys (kt.volley) ----------------------------------------------------------------------------

def volley_tables(result: VolleyResult, title: str = "") -> tuple[list[Table], list[str]]:
    """A volley: one row per target shot, the distribution of targets incapacitated, and summary lines."""
    prefix = f"{title}: " if title else ""
    rows = [[i + 1, s.target, ", ".join(_situation(s)) or "-",
             s.damage.mean, s.kill_chance] for i, s in enumerate(result.shots)]
    shots = Table(f"{prefix}Volley: {result.weapon}", ["#", "target", "conditions", "mean damage", "kill chance"],
                  rows, keys=1)
    count = distribution_table("Targets incapacitated", result.incapacitated, "targets")
    figures = result.summary()
    lines = [f"{prefix}mean targets incapacitated {figures['mean_incapacitated']:.4f}; at least one "
             f"{probability_text(figures['any_incapacitated'])}",
             f"{prefix}mean wounds lost in all {figures['mean_total_damage']:.4f}",
             prefix + method_line(result.method, result.samples)]
    if result.self_damage is not None:  # Hot: one roll for the volley (docs/rules/killteam.md §2.2)
        death = result.shooter_death_chance
        lines.insert(2, f"{prefix}Hot: the shooter takes {result.self_damage.mean:.4f} damage on average"
                        + ("" if death is None else f"; incapacitated {probability_text(death)} against "
                                                    f"{result.shooter_wounds} wounds"))
    return [shots, count], lines


# --- matchups (kt.matchup) --------------------------------------------------------------------------

def matchup_summary_tables(summary: MatchupSummary, title: str = "") -> tuple[list[Table], list[str]]:
    """The matchup summary: for each enemy operative, one row naming it in full with my best weapon
    (mean shots to kill, one shot's kill chance and mean damage), then one with my best melee
    pairing (the chances to win, to draw: neither falls, and to lose): compact tables of a line a row where the names fit 80
    columns (the first column is never wrapped), and a line saying what the figures are."""
    prefix = f"{title}: " if title else ""
    tables = []
    if summary.shots:
        rows: list[list[Any]] = [[s.defender, s.best, s.shots_to_kill, s.kill_chance, s.mean_damage]
                                 if s.best is not None else [s.defender, "nothing damages it", "-", "-", "-"]
                                 for s in summary.shots]
        tables.append(Table(f"{prefix}{summary.team_a} shooting at {summary.team_b}, cover {summary.cover}",
                            ["their operative", "best weapon", "shots", "kill", "damage"], rows, compact=True,
                            chances=(3,)))
    if summary.fights:
        rows = [[f.defender, f.best, f.kill_chance, f.both_survive, f.death_chance] if f.best is not None
                else [f.defender, "no melee weapon", "-", "-", "-"] for f in summary.fights]
        first = "striking first" if summary.first == "a" else "they strike first"
        tables.append(Table(f"{prefix}{summary.team_a} fighting {summary.team_b}, {first}",
                            ["their operative", "best fighter", "win", "draw", "lose"], rows, compact=True,
                            chances=(2, 3, 4)))
    lines = []
    if summary.shots:
        lines.append(f"{prefix}shots: the weapon's mean shots to incapacitate it; kill, damage: one shot's")
    if summary.fights:
        lines.append(f"{prefix}fights: each of mine met by their weapon worst for it; draw: both stand")
    lines += [prefix + note for note in summary.notes]
    lines.append(prefix + method_line(summary.method))
    return tables, lines


def matchup_tables(result: Matchup, title: str = "") -> tuple[list[Table], list[str]]:
    """A matchup prints as its summary (:meth:`Matchup.summary`, :func:`matchup_summary_tables`)."""
    return matchup_summary_tables(result.summary(), title)


def matchup_all_tables(result: Matchup, title: str = "") -> tuple[list[Table], list[str]]:
    """A matchup's every pairing: one table of shooting pairings and one of fights (the pairing's
    names as the row keys, so that the terminal splits a wide table into parts repeating them), and
    summary lines (``mathhammer killteam matchup --all``)."""
    prefix = f"{title}: " if title else ""
    tables = []
    hot = any(s.self_damage is not None for s in result.shots)
    if result.shots:
        # with a Hot weapon, what it does to its own operative beside what it deals (docs/rules/killteam.md §2.2)
        rows = [[s.attacker, s.weapon, s.defender, s.cover, s.mean_damage]
                + ([_or_dash(s.self_damage), _or_dash(s.shooter_death_chance)] if hot else [])
                + [s.kill_chance, s.half_chance, s.shots_to_kill] for s in result.shots]
        tables.append(Table(f"{prefix}Shooting: {result.team_a} at {result.team_b}",
                            ["attacker", "weapon", "defender", "cover", "mean damage"]
                            + (["Hot self damage", "P(Hot kills self)"] if hot else [])
                            + ["kill chance", "half chance", "shots to kill"], rows, keys=4))
    if result.fights:
        rows = [[f.attacker, f.weapon, f.defender, f.first, f"{f.strategy_a} / {f.strategy_b}", f.kill_chance,
                 f.death_chance, f.both_survive, f.mean_wounds_a, f.mean_wounds_b] for f in result.fights]
        tables.append(Table(f"{prefix}Fighting: {result.team_a} against {result.team_b}",
                            ["attacker", "weapon", "defender", "first", "strategies", "kill chance", "death chance",
                             "both survive chance", "wounds A", "wounds B"], rows, keys=5))
    lines = [f"{prefix}{len(result.shots)} shooting and {len(result.fights)} fighting pairings; kill: the "
             f"defender incapacitated, half: P(damage >= half its wounds), death: the attacker incapacitated",
             prefix + method_line(result.method)]
    if hot:
        lines.insert(1, f"{prefix}Hot self damage: the mean damage a Hot weapon does to its own operative; Hot kills "
                        f"self: the chance it incapacitates it")
    return tables, lines


def _or_dash(value: float | None) -> Any:
    """A figure only some rows have: "-" where a row has none."""
    return "-" if value is None else value


def matchup_picture(result: Matchup) -> Any:
    """A matchup's heat maps: my weapons x their operatives, the mean damage as a share of each
    one's wounds (at the summary's cover), over my melee weapons x their operatives' melee weapons,
    the chance to incapacitate it (striking first as the summary does); labels whole, wrapped."""
    summary = result.summary()
    panels = []
    if result.shots:
        weapons, defenders, table = result.matrix("damage_share", "shoot", cover=summary.cover)
        panels.append((table, weapons, defenders, f"Shooting at {result.team_b}, cover {summary.cover}: mean damage "
                       "as a share of the target's wounds", "mean damage / wounds"))
    if result.fights:
        weapons, defenders, table = result.matrix("kill_chance", "fight", first=summary.first)
        first = "I strike first" if summary.first == "a" else "they strike first"
        panels.append((table, weapons, defenders, f"Fighting {result.team_b}, {first}: chance to win",
                       "chance to incapacitate it"))
    if not panels:
        raise InputError("plot", "the matchup has no pairings to draw")
    return pictures.heat_map_panels(panels, title=f"{result.team_a} against {result.team_b}")


# --- the meta's ranking ---------------------------------------------------------------------------------

def meta_ranking_tables(ranking: MetaRanking, title: str = "") -> tuple[list[Table], list[str]]:
    """A meta's teams ranked by their edge, with offence, defence and fights won (chances), then
    each team's best and worst matchup: compact tables, one line a team."""
    prefix = f"{title}: " if title else ""
    how = ", ".join(part for part in (f"cover {ranking.cover}" if ranking.cover is not None else "",
                                      "striking first" if ranking.first == "a" else
                                      "they strike first" if ranking.first == "b" else "") if part)
    rows: list[list[Any]] = [[i + 1, t.team, t.offence, t.defence, t.fights, _signed(t.edge)]
                             for i, t in enumerate(ranking.teams)]
    count = len(ranking.teams)
    tables = [Table(f"{prefix}The meta's {count} team{'s' if count != 1 else ''}" + (f", {how}" if how else ""),
                    ["#", "team", "offence", "defence", "fights won", "edge"], rows, compact=True, chances=(2, 3, 4)),
              Table(f"{prefix}Best and worst matchups", ["team", "best against", "edge", "worst against", "edge"],
                    [[t.team, t.best, _signed(t.best_edge), t.worst, _signed(t.worst_edge)] for t in ranking.teams],
                    compact=True)]
    lines = [f"{prefix}offence: my best gun's kill chance; defence: theirs at mine (lower is better)",
             f"{prefix}fights won: my best fight's chance to win; each a mean over enemy operatives",
             f"{prefix}edge: offence and fights won minus theirs, halved; ranked by its mean",
             prefix + method_line(ranking.method)]
    return tables, lines

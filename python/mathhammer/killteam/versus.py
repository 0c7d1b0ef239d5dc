"""Team against team (docs/matchup.md): one weapon at several targets (``kt.volley``, Blast and
Torrent), and every weapon of one team against every operative of another (``kt.matchup``).

>>> from mathhammer import killteam as kt
>>> blast = kt.Weapon(4, 3, (3, 4), "Lethal 5+")
>>> v = kt.volley(blast, [kt.Operative(3, 8), kt.Operative(4, 8)], cover=[1, 0])
>>> round(v.incapacitated.mean, 4) == round(v.shots[0].kill_chance + v.shots[1].kill_chance, 4)
True
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

import numpy as np

from mathhammer.core.batches import is_sequence
from mathhammer.core.checks import check_bool, check_choice, check_int
from mathhammer.core.distributions import Distribution
from mathhammer.core.game import TEAMS, Library, find_profile
from mathhammer.core.guard import closest, did_you_mean, excerpt
from mathhammer.core.options import DEFAULT_SAMPLES, EXACT_FIRST, METHODS, Progress, engine_options
from mathhammer.core.profiles import field_inside, profile_from_table
from mathhammer.core.sampling import cell_seed
from mathhammer.errors import InputError, InputTypeError
from mathhammer.killteam.fighting import fight_batch
from mathhammer.killteam.plan import MAX_COVER
from mathhammer.killteam.profiles import ALL_STRATEGIES, Fighter, Operative, Weapon
from mathhammer.killteam.results import SIDES, Matchup, MatchupFight, MatchupShot, ShootResult, VolleyResult
from mathhammer.killteam.shooting import shoot_batch
from mathhammer.killteam.variants import Variants

if TYPE_CHECKING:
    from mathhammer.killteam.data.team import Team, TeamOperative, TeamWeapon

__all__ = ["Matchup", "VolleyResult", "matchup", "matchup_rows", "served_teams", "shots_to_kill", "volley"]

_sum = np.add.reduce


def _weapon_of(value: Any) -> Any:
    # a team's weapon (killteam.data.TeamWeapon) shoots as its profile
    inner = getattr(value, "weapon", None)
    return inner if isinstance(inner, Weapon) and not isinstance(value, Weapon) else value


def _target_of(value: Any) -> Any:
    # a team's operative (killteam.data.TeamOperative) is shot as its profile
    inner = getattr(value, "operative", None)
    return inner if isinstance(inner, Operative) else value


def volley(
    weapon: Weapon | Mapping[str, Any] | Any,
    targets: Sequence[Operative | Mapping[str, Any] | Any],
    cover: int | Sequence[int] = 0,
    obscured: bool | Sequence[bool] = False,
    *,
    cover_crits: int | Sequence[int] = 0,
    shooter_wounds: int | None = None,
    method: str = "exact",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> VolleyResult:
    """``weapon`` shooting every one of ``targets`` (a Blast or Torrent attack), each shot on its own
    with its own attack and defence dice: ``cover``, ``obscured`` and ``cover_crits`` are one value
    or one per target. ``shots[i]`` is ``kt.shoot(weapon, targets[i], ...)``; ``incapacitated`` the
    exact distribution of how many targets are incapacitated, ``total_damage`` of the wounds they
    lose in all (docs/rules/killteam.md §2.1). The options are ``kt.shoot``'s; with Monte Carlo,
    target i's shot is seeded ``cell_seed(seed, i)`` (``seed`` drawn when None). A Hot weapon rolls
    once for the whole volley (§2.2): ``self_damage`` is that one roll's damage to the shooter, and
    ``shooter_death_chance`` its chance to incapacitate a shooter of ``shooter_wounds``.

    ``weapon`` may be a ``kt.Weapon``, a table of its fields or a team's weapon
    (``kt.data.TeamWeapon``); a target a ``kt.Operative``, a table or a team's operative.
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=EXACT_FIRST)
    if not is_sequence(targets) or isinstance(targets, np.ndarray):
        raise InputTypeError("targets", f"expected a list of targets, got {type(targets).__name__}")
    if len(targets) == 0:
        raise InputError("targets", "no targets; give at least one")
    shot_list = [_target_of(t) for t in targets]
    try:  # checked here, so that an error names volley's own argument (weapon.hit), not the batch's
        shooter = profile_from_table(Weapon, _weapon_of(weapon), "weapon", "a kt.")
    except InputError as error:
        raise field_inside("weapon", error) from None
    seeds: int | None | list[int] = None
    if options.method == "monte_carlo":
        base = options.draw_seed()
        seeds = [cell_seed(base, i) for i in range(len(shot_list))]
    else:
        base = None
    batch = shoot_batch(shooter, shot_list, cover, obscured, 1, cover_crits=cover_crits,
                        shooter_wounds=shooter_wounds, method=options.method, samples=options.samples, seed=seeds,
                        threads=options.threads, progress=progress, executor=executor, variants=variants)
    shots = tuple(batch)
    sampled = options.method == "monte_carlo"
    return VolleyResult(
        shots=shots,
        incapacitated=Distribution(incapacitated_pmf(shots), estimated=sampled),
        total_damage=Distribution(total_damage_pmf(shots), estimated=sampled),
        method=shots[0].method,
        samples=shots[0].samples,
        weapon=shots[0].weapon,
        seed=base,
        variants=shots[0].variants,
        # one Hot roll for the volley: the first shot's (each shot of a volley is one round)
        self_damage=shots[0].self_damage,
        shooter_wounds=shots[0].shooter_wounds,
    )


def incapacitated_pmf(shots: Sequence[ShootResult]) -> np.ndarray:
    """P(k of the shots' targets are incapacitated), k = 0..len(shots): independent shots, so the
    convolution of one two-point distribution (alive, incapacitated) per shot."""
    pmf = np.ones(1)
    for s in shots:
        p = min(1.0, max(0.0, s.kill_chance))
        pmf = np.convolve(pmf, np.array([1.0 - p, p]))
    return pmf


def total_damage_pmf(shots: Sequence[ShootResult]) -> np.ndarray:
    """P(the targets lose d wounds in all): each shot's damage capped at its target's wounds (the
    wounds it loses), convolved over the independent shots."""
    pmf = np.ones(1)
    for s in shots:
        lost = s.wounds_left.pmf[::-1]  # wounds_left over 0..wounds: reversed, the wounds lost
        pmf = np.convolve(pmf, lost)
    return np.trim_zeros(pmf, "b") if pmf[-1] == 0.0 and pmf.any() else pmf


# --- team against team ---------------------------------------------------------------------------

def shots_to_kill(pmf: np.ndarray, wounds: int) -> float:
    """The expected number of independent shots, each dealing damage d with probability ``pmf[d]``,
    until ``wounds`` damage is dealt in all; inf when a shot can never deal any. Exact: e(s), the
    shots still needed from s damage dealt, is 1 + sum_d pmf[d] e(s + d) with e = 0 from ``wounds``
    on, solved from s = wounds - 1 down to 0 (the d = 0 term moved to the left side)."""
    stay = float(pmf[0])
    if stay >= 1.0:
        return math.inf
    return _shots_to_kill(pmf.tobytes(), wounds)


@functools.lru_cache(maxsize=8192)
def _shots_to_kill(pmf_bytes: bytes, wounds: int) -> float:
    # by value: a meta meets the same gun against the same wounds many times
    pmf = np.frombuffer(pmf_bytes)
    hits = pmf[1:]
    e = np.zeros(wounds + hits.size)  # e[s] for s >= wounds stays 0
    scale = 1.0 / (1.0 - float(pmf[0]))
    for s in range(wounds - 1, -1, -1):
        e[s] = (1.0 + float(hits @ e[s + 1 : s + 1 + hits.size])) * scale
    return float(e[0])


def _team(value: Any, field: str) -> Team:
    from mathhammer.killteam.data.load import load_team  # the importer's reading, only when a path is given
    from mathhammer.killteam.data.team import Team

    if isinstance(value, Team):
        return value
    if isinstance(value, (str, os.PathLike)):
        return load_team(value)
    raise InputTypeError(field, f"expected a kt.data.Team or the path of a team library, got {type(value).__name__}")


def _switched(a: Team, b: Team, names: Any) -> tuple[Team, Team]:
    """Both teams with the named switches on: each name is a switch of A, of B, or of both."""
    if isinstance(names, str) or not is_sequence(names):
        raise InputTypeError("switches", f"expected a list of switch names, got {excerpt(names)}")
    on: dict[int, list[str]] = {0: [], 1: []}
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise InputTypeError(f"switches[{i}]", f"expected a switch's name, got {excerpt(name)}")
        key = " ".join(name.split()).lower()
        holders = [side for side, team in enumerate((a, b)) if any(s.name.lower() == key for s in team.switches)]
        if not holders:
            known = sorted({s.name for team in (a, b) for s in team.switches})
            where = a.name if a.name == b.name else f"{a.name} or {b.name}"
            raise InputError(f"switches[{i}]", f"no switch {excerpt(name)} in {where}"
                             f"{did_you_mean(name, known)}; switches: {closest(name, known)}")
        for side in holders:
            on[side].append(name)
    return (a.with_switches(on[0]) if on[0] else a), (b.with_switches(on[1]) if on[1] else b)


def _values(field: str, value: Any) -> tuple[Any, ...]:
    values = tuple(value) if is_sequence(value) else (value,)
    if not values:
        raise InputError(field, "no values; give at least one")
    return values


def matchup(
    team_a: Team | str | os.PathLike[str],
    team_b: Team | str | os.PathLike[str],
    *,
    shoot: bool = True,
    fight: bool = True,
    cover: int | Sequence[int] = (0, 1),
    obscured: bool = False,
    first: str | Sequence[str] = ("a", "b"),
    strategies: Sequence[tuple[str, str]] = (("max_damage", "max_damage"),),
    method: str = "auto",
    seed: int | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
    switches: Sequence[str] = (),
) -> Matchup:
    """Every weapon of ``team_a`` against every operative of ``team_b`` (docs/matchup.md).

    Shooting: each ranged weapon of each A operative at each B operative, for each ``cover`` value
    (``obscured`` for all), through one ``kt.shoot_batch``; a Hot weapon's row gives the damage it
    does to its own operative and the chance it incapacitates it (docs/rules/killteam.md §2.2). Fighting: each melee weapon of each A
    operative against each (operative, melee weapon) of B, each side ``first``, for each
    (strategy A, strategy B) of ``strategies``, through one ``kt.fight_batch`` (fighters as
    ``TeamOperative.fighter`` makes them: the operative's wounds, the weapon's rules). ``method``
    applies to both ("auto": shots exact, fights exact when cheap); Monte Carlo items take seeds
    derived from ``seed``. ``progress(done, total)`` counts pairings; ``executor`` runs Monte Carlo
    batches. Teams are ``kt.data.Team`` objects or paths of team libraries. ``switches``: the names
    of the teams' switches to turn on (docs/data.md, "Switches"); a name turns on the switch of
    that name of each team that has one.
    """
    options = engine_options(method, DEFAULT_SAMPLES, seed, None, progress, executor, methods=METHODS)
    a, b = _switched(_team(team_a, "team_a"), _team(team_b, "team_b"), switches)
    shoot, fight, obscured = check_bool("shoot", shoot), check_bool("fight", fight), check_bool("obscured", obscured)
    covers = tuple(check_int(f"cover[{i}]", c, 0, MAX_COVER) for i, c in enumerate(_values("cover", cover)))
    firsts = tuple(check_choice(f"first[{i}]", f, SIDES) for i, f in enumerate(_values("first", first)))
    if not is_sequence(strategies) or not strategies:
        raise InputTypeError("strategies", "expected a list of (strategy A, strategy B) pairs")
    pairs = []
    for i, pair in enumerate(strategies):
        if not is_sequence(pair) or len(pair) != 2:
            raise InputTypeError(f"strategies[{i}]", f"expected a (strategy A, strategy B) pair, got {excerpt(pair)}")
        pairs.append((check_choice(f"strategies[{i}][0]", pair[0], ALL_STRATEGIES),
                      check_choice(f"strategies[{i}][1]", pair[1], ALL_STRATEGIES)))
    ranged = [(op, w) for op in a for w in op.weapons if w.kind == "ranged"] if shoot else []
    melee_a = [(op, w) for op in a for w in op.weapons if w.kind == "melee"] if fight else []
    melee_b = [(op, w) for op in b for w in op.weapons if w.kind == "melee"] if fight else []
    shot_cells = [(op, w, target, c) for op, w in ranged for target in b for c in covers]
    fight_cells = [(op, w, other, ow, f, sa, sb) for op, w in melee_a for other, ow in melee_b for f in firsts
                   for sa, sb in pairs]
    total = len(shot_cells) + len(fight_cells)
    sampled = options.method == "monte_carlo"
    shot_seeds = None if not sampled or options.seed is None else [cell_seed(options.seed, i)
                                                                   for i in range(len(shot_cells))]
    shots: list[MatchupShot] = []
    if shot_cells:
        # the attacker's wounds: a Hot weapon's chance to incapacitate it (docs/rules/killteam.md §2.2)
        batch = shoot_batch([w.weapon for _, w, _, _ in shot_cells], [t.operative for _, _, t, _ in shot_cells],
                            [c for *_, c in shot_cells], obscured,
                            shooter_wounds=[op.operative.wounds for op, *_ in shot_cells],
                            method="exact" if not sampled else "monte_carlo", seed=shot_seeds, executor=executor)
        for i, (op, w, target, c) in enumerate(shot_cells):
            r = batch[i]
            pmf = r.damage.pmf
            wounds = target.operative.wounds
            hot = r.self_damage is not None
            shots.append(MatchupShot(op.name, w.name, target.name, c, float(r.damage.mean), float(r.kill_chance),
                                     float(r.damage.at_least(-(-wounds // 2))), shots_to_kill(pmf, wounds),
                                     w.blast, w.torrent, r.mean_self_damage if hot else None,
                                     r.shooter_death_chance if hot else None))
        if progress is not None:
            progress(len(shot_cells), total)
    fights: list[MatchupFight] = []
    if fight_cells:
        fighters: dict[tuple[int, int, str], Fighter] = {}

        def fighter(op: TeamOperative, w: TeamWeapon, strategy: str) -> Fighter:
            key = (id(op), id(w), strategy)
            if key not in fighters:
                fighters[key] = op.fighter(w.name, strategy=strategy)
            return fighters[key]

        fights_a = [fighter(op, w, sa) for op, w, _, _, _, sa, _ in fight_cells]
        fights_b = [fighter(other, ow, sb) for _, _, other, ow, _, _, sb in fight_cells]
        # the matchup's seed gives the fights a stream of their own, after the shots'
        fight_seed = None if options.seed is None else cell_seed(options.seed, len(shot_cells))
        results = fight_batch(fights_a, fights_b, [cell[4] for cell in fight_cells], method=options.method,
                              seed=fight_seed, executor=executor)
        for i, (op, w, other, ow, f, sa, sb) in enumerate(fight_cells):
            fought = results[i]
            joint = fought.joint.pmf
            fights.append(MatchupFight(op.name, w.name, f"{other.name}/{ow.name}", f, sa, sb,
                                       float(fought.death_chance("b")), float(fought.death_chance("a")),
                                       float(_sum(joint[1:, 1:], axis=None)), float(fought.wounds_a.mean),
                                       float(fought.wounds_b.mean)))
        if progress is not None:
            progress(total, total)
    methods = {"exact"} if not (shots or fights) else {"monte_carlo" if sampled else "exact"}
    notes = []  # what a team lacks, for the summary to say
    for team, what in ((a, "ranged"), (a, "melee"), (b, "melee")):
        if (what == "ranged" and shoot or what == "melee" and fight) and not any(
                w.kind == what for op in team for w in op.weapons):
            notes.append(f"{team.name} has no {what} weapons" + (": no fights" if what == "melee" else ""))
    if not len(b):
        notes.append(f"{b.name} has no operatives")
    return Matchup(a.name, b.name, tuple(shots), tuple(fights), methods.pop(), options.seed,
                   defenders=tuple(op.name for op in b), defender_wounds=tuple(op.operative.wounds for op in b),
                   shoot=shoot, fight=fight, notes=tuple(dict.fromkeys(notes)))


# --- teams named by a server (docs/web.md, "Teams") -----------------------------------------------

#: The arguments of kt.matchup that name a team.
TEAM_ARGUMENTS = ("team_a", "team_b")


def _served_team(value: Any, teams: Mapping[str, Any], field: str) -> Team:
    from mathhammer.killteam.data.team import Team

    if isinstance(value, Team):
        return value
    if not isinstance(value, str):
        raise InputTypeError(field, f"expected the name of a team the server loaded, got {excerpt(value)}")
    found = find_profile(value, teams)  # its name as served, or written loosely ("ember wardens")
    if isinstance(found, Team):
        return found
    names = list(teams)
    if not names:
        raise InputError(field, f"unknown team {excerpt(value)}; no teams are loaded (give the server a folder of "
                         "team libraries: mathhammer killteam import --out DIR, then serve --profiles DIR)")
    raise InputError(field, f"unknown team {excerpt(value)}{did_you_mean(value, names)}; teams: "
                     f"{closest(value, names)}")


def served_teams(kwargs: dict[str, Any], library: Library) -> dict[str, Any]:
    """kt.matchup's keywords with ``team_a`` / ``team_b`` found by name among the teams of the
    loaded libraries (``library[TEAMS]``: {name: kt.data.Team}): what a web request gives. Only
    those teams are found: a request never names a file."""
    teams = library.get(TEAMS, {})
    for field in TEAM_ARGUMENTS:
        if field in kwargs:
            kwargs[field] = _served_team(kwargs[field], teams, field)
    return kwargs


def _count(value: Any) -> int:
    # how many values an option gives: a list's length, else one (the engine checks the values)
    return len(value) if is_sequence(value) else 1


def matchup_rows(kwargs: Mapping[str, Any], library: Library) -> tuple[int, str, str]:
    """How many rows kt.matchup's long table will hold for these keywords (teams named as
    :func:`served_teams` finds them), worked out before any work: each ranged weapon of A at each
    operative of B per cover value, each melee weapon of A against each of B per first striker and
    strategy pair. Returns (rows, the team argument they grow with most, how they add up)."""
    found = served_teams({k: kwargs[k] for k in TEAM_ARGUMENTS if k in kwargs}, library)
    if len(found) < 2:  # a team left out: the engine says so
        return 0, "team_a", ""
    a, b = found["team_a"], found["team_b"]
    shoot, fight = kwargs.get("shoot", True) is not False, kwargs.get("fight", True) is not False
    covers = _count(kwargs.get("cover", (0, 1)))
    firsts = _count(kwargs.get("first", ("a", "b")))
    pairs = _count(kwargs.get("strategies", ((),)))
    ranged = sum(w.kind == "ranged" for op in a for w in op.weapons) if shoot else 0
    melee_a = sum(w.kind == "melee" for op in a for w in op.weapons) if fight else 0
    melee_b = sum(w.kind == "melee" for op in b for w in op.weapons) if fight else 0
    shots, fights = ranged * len(b) * covers, melee_a * melee_b * firsts * pairs
    why = (f"{shots:,} shots ({ranged} ranged weapons of {a.name} x {len(b)} operatives of {b.name} x {covers} "
           f"cover values) and {fights:,} fights ({melee_a} melee weapons of {a.name} x {melee_b} of {b.name} x "
           f"{firsts} first strikers x {pairs} strategy pairs)")
    field = "team_a" if len(a) > len(b) else "team_b"
    return shots + fights, field, why

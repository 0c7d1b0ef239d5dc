"""What the exact fight keeps or skips to be fast changes no number.

- Decisions kept between calls (a heuristic fight's decision cache, reused by the next fight of the
  same rules at any wounds, Feel No Pain and relic fights included): bit-for-bit the joint a fresh
  cache gives, and the engine gives up under a work limit exactly where a fresh cache does.
- The result's marginals are summed from the joint when first read: equal to the eager ones, and
  the result compares, copies, pickles and round-trips as before.
- The optimal solver values a last-round state whose fighter cannot be brought to 0 at the least
  such wounds: checked against a plain minimax written from docs/rules/killteam.md §7 over the
  independent transcription of the resolution in fight_reference.py.
- Feel No Pain / relic rounds worked out once per canonical state (wounds out of reach lowered,
  relics as "an ignore left this round") and once per round start (later rounds reuse the first
  one's): against the plain Python expansion over dice and rolls.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import itertools
import math
import pickle
import random

import numpy as np
import pytest

from mathhammer import _core
from mathhammer import killteam as kt

from .fight_reference import Guy, do

fight_module = importlib.import_module("mathhammer.killteam.fighting")
from mathhammer.killteam import plan as plan_module  # noqa: E402


def fresh_joint(a: kt.Fighter, b: kt.Fighter, first: str, rounds: int) -> tuple[np.ndarray, dict[str, float]]:
    """The exact joint with a decision cache of its own (nothing kept from other calls)."""
    plan = plan_module.fight_plan(a, b, first, rounds, kt.Variants())
    pmf, work = _core.killteam.fight_exact(plan.spec, plan.dice_a, plan.dice_b, rounds, injured_a=plan.injured_a,
                                           injured_b=plan.injured_b)
    return pmf, work


HEURISTIC = [
    (kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12), kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12)),
    (kt.Fighter(attacks=5, hit=3, damage=(3, 5), wounds=12, rules="Shock", abilities="Storm Shield, Hammerhand"),
     kt.Fighter(attacks=5, hit=3, damage=(4, 5), wounds=11, rules="Brutal", abilities="Dueller, Durable",
                strategy="min_damage")),
    (kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=9, abilities="Duelist, Hammerhand", strategy="parry"),
     kt.Fighter(attacks=3, hit=3, damage=(4, 6), wounds=12,
                abilities="Just a Scratch (normals), Half Damage First Strike", strategy="strike")),
]


@pytest.mark.parametrize("index", range(len(HEURISTIC)))
def test_kept_decisions_give_the_joint_of_a_fresh_cache(index: int) -> None:
    a, b = HEURISTIC[index]
    # the same rules at other wounds, the other fighter first, more rounds: one kept cache serves all
    for wounds_a, wounds_b, first, rounds in ((a.wounds, b.wounds, "a", 1), (5, 14, "b", 2), (a.wounds, b.wounds, "a", 1),
                                              (12, 3, "a", 3), (20, 20, "b", 1)):
        fa, fb = dataclasses.replace(a, wounds=wounds_a), dataclasses.replace(b, wounds=wounds_b)
        fresh, _ = fresh_joint(fa, fb, first, rounds)
        kept = kt.fight(fa, fb, first=first, rounds=rounds, method="exact")
        assert kept.joint.pmf.shape == fresh.shape
        assert np.array_equal(kept.joint.pmf, fresh), (wounds_a, wounds_b, first, rounds)


def test_a_kept_cache_is_reused_and_only_where_no_limit_can_tell() -> None:
    a, b = HEURISTIC[1]
    spec = plan_module.fight_spec(a, b, "a")
    dice = plan_module.fighter_dice(a), plan_module.fighter_dice(b)
    fresh, cold = _core.killteam.fight_exact(spec, *dice, 1)
    _core.killteam.fight_exact(spec, *dice, 1, reuse_decisions=True)
    pmf, warm = _core.killteam.fight_exact(spec, *dice, 1, reuse_decisions=True)
    assert np.array_equal(pmf, fresh)
    assert cold["decisions"] > 0 and warm["decisions"] == 0  # every decision came from the kept cache
    # Under a work limit a cold cache could pass, the engine gives up exactly as a fresh one does:
    # the kept cache is not used, and the decisions are all worked out again.
    limit = cold["units"] - 1
    none_fresh, limited_fresh = _core.killteam.fight_exact(spec, *dice, 1, limit)
    none_kept, limited_kept = _core.killteam.fight_exact(spec, *dice, 1, limit, reuse_decisions=True)
    assert none_fresh is None and none_kept is None
    assert limited_kept["decisions"] == limited_fresh["decisions"] > 0
    # Just above what a fresh cache needs, the kept cache cannot tell whether a fresh one would pass
    # the limit (only a bound on its decisions is known): the fight starts over with a fresh cache
    # and finishes as that one does.
    limit = cold["units"] + 1
    pmf_kept, started_over = _core.killteam.fight_exact(spec, *dice, 1, limit, reuse_decisions=True)
    assert np.array_equal(pmf_kept, fresh)
    assert started_over["decisions"] == cold["decisions"]


@pytest.mark.parametrize("rounds", [1, 3])
def test_a_chance_fight_keeps_decisions_too(rounds: int) -> None:
    # Feel No Pain and relic fights keep their decisions as well: their chance states are the same
    # work whatever the decision cache holds, so the limit is judged as for any fight.
    a = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=10, abilities="Hammerhand")
    b = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=11, abilities="Feel No Pain 5+, Saintly Relics",
                   strategy="min_damage")
    spec = plan_module.fight_spec(a, b, "b")
    dice = plan_module.fighter_dice(a), plan_module.fighter_dice(b)
    fresh, cold = _core.killteam.fight_exact(spec, *dice, rounds)
    _core.killteam.fight_exact(spec, *dice, rounds, reuse_decisions=True)
    pmf, warm = _core.killteam.fight_exact(spec, *dice, rounds, reuse_decisions=True)
    assert np.array_equal(pmf, fresh)
    assert cold["decisions"] > 0 and warm["decisions"] == 0
    assert warm["chance_states"] == cold["chance_states"] and warm["resolutions"] == cold["resolutions"]
    for limit in (cold["units"] - 1, cold["units"] + 1):  # gives up / finishes exactly as a fresh cache
        limited_fresh, _ = _core.killteam.fight_exact(spec, *dice, rounds, limit)
        limited_kept, _ = _core.killteam.fight_exact(spec, *dice, rounds, limit, reuse_decisions=True)
        assert (limited_fresh is None) == (limited_kept is None) == (limit < cold["units"])
        if limited_kept is not None:
            assert np.array_equal(limited_kept, fresh)
    # other wounds of the same rules, through kt.fight: the joint a fresh cache gives
    for wounds_a, wounds_b in ((6, 14), (10, 11), (3, 3)):
        fa, fb = dataclasses.replace(a, wounds=wounds_a), dataclasses.replace(b, wounds=wounds_b)
        want, _ = fresh_joint(fa, fb, "b", rounds)
        assert np.array_equal(kt.fight(fa, fb, first="b", rounds=rounds, method="exact").joint.pmf, want)


def test_lazy_marginals_match_the_joint_and_the_result_behaves_as_before() -> None:
    a, b = HEURISTIC[0]
    r = kt.fight(a, b, method="exact")
    joint = r.joint.pmf
    assert np.array_equal(r.wounds_b.pmf, joint.sum(axis=0))
    assert np.array_equal(r.wounds_a.pmf, joint.sum(axis=1))
    eager = kt.FightResult(wounds_a=r.joint.marginal(0), wounds_b=r.joint.marginal(1), joint=r.joint, method="exact",
                           samples=None, start_wounds=r.start_wounds, rounds=r.rounds, first=r.first,
                           variants=r.variants, fighters=r.fighters)
    lazy = kt.fight(a, b, method="exact")
    assert lazy.to_json() == eager.to_json()
    back = pickle.loads(pickle.dumps(kt.fight(a, b, method="exact")))
    assert back.to_json() == eager.to_json()
    assert copy.deepcopy(kt.fight(a, b, method="exact")).summary() == eager.summary()
    assert dataclasses.replace(kt.fight(a, b, method="exact"), first="b").first == "b"
    assert kt.FightResult.from_json(lazy.to_json()).to_json() == eager.to_json()
    with pytest.raises(AttributeError):
        _ = kt.fight(a, b, method="exact").no_such_field  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        lazy.rounds = 2  # type: ignore[misc]


# --- the optimal solver against a plain minimax -------------------------------------------------

MOVES = ("crit_strike", "norm_strike", "crit_parry", "norm_parry")


def legal(me: Guy, enemy: Guy) -> list[str]:
    out = []
    if me.crits:
        out.append("crit_strike")
    if me.norms:
        out.append("norm_strike")
    if me.crits and enemy.successes():
        out.append("crit_parry")
    if me.norms and enemy.norms:
        out.append("norm_parry")
    return out


def trade(outlook: tuple[float, float, float, float], side: int) -> tuple[float, float]:
    """§7's "trade" from `side`'s point of view: outlook = (dead A, dead B, lost A, lost B)."""
    dead, lost = outlook[:2], outlook[2:]
    return dead[1 - side] - dead[side], lost[1 - side] - lost[side]


def minimax(guys: tuple[Guy, Guy], mover: int, start: tuple[int, int]) -> tuple[tuple[float, ...], str | None]:
    """Both fighters play "trade" (zero-sum), one round, ties to the earlier move; (outlook, move)."""
    a, b = guys
    if a.wounds == 0 or b.wounds == 0 or a.successes() + b.successes() == 0:
        return (float(a.wounds == 0), float(b.wounds == 0), float(start[0] - a.wounds), float(start[1] - b.wounds)), None
    best: tuple[tuple[float, ...], str] | None = None
    for move in legal(guys[mover], guys[1 - mover]):
        nxt = copy.deepcopy(guys)
        do(move, nxt[mover], nxt[1 - mover])
        after = 1 - mover
        if nxt[after].successes() == 0:
            after = mover
        value, _ = minimax(nxt, after, start)
        if best is None or better(trade(value, mover), trade(best[0], mover)):  # type: ignore[arg-type]
            best = (value, move)
    assert best is not None
    return best


def better(x: tuple[float, float], y: tuple[float, float]) -> bool:
    for u, v in zip(x, y):
        if abs(u - v) > 1e-9:
            return u > v
    return False


def retained(dice: int, crit: float, norm: float) -> dict[tuple[int, int], float]:
    """P(crits, norms) of `dice` independent dice (no rerolls): a multinomial."""
    fail = 1.0 - crit - norm
    out = {}
    for c in range(dice + 1):
        for n in range(dice + 1 - c):
            f = dice - c - n
            out[(c, n)] = math.factorial(dice) / (math.factorial(c) * math.factorial(n) * math.factorial(f)) * (
                crit ** c * norm ** n * fail ** f)
    return out


@pytest.mark.parametrize(("wounds_a", "wounds_b"), [(40, 40), (30, 7), (6, 5)])
def test_optimal_one_round_matches_a_plain_minimax(wounds_a: int, wounds_b: int) -> None:
    # 3 dice at 3+ each (crit on 6: 1/6, norm on 3-5: 1/2), damage 3/4: at 40 wounds nobody can be
    # brought to 0 (every state is valued at the least such wounds), at 6 and 5 both can.
    a = kt.Fighter(attacks=3, hit=3, damage=(3, 4), wounds=wounds_a, strategy="optimal")
    b = kt.Fighter(attacks=3, hit=3, damage=(3, 4), wounds=wounds_b, strategy="optimal")
    start = (wounds_a, wounds_b)
    expected = np.zeros((wounds_a + 1, wounds_b + 1))
    probs = retained(3, 1 / 6, 1 / 2)
    for (da, pa), (db, pb) in itertools.product(probs.items(), probs.items()):
        guys = (Guy(da[0], da[1], wounds_a), Guy(db[0], db[1], wounds_b))
        mover = 0 if guys[0].successes() else 1
        outlook, move = minimax(guys, mover, start)
        expected[wounds_a - int(outlook[2]), wounds_b - int(outlook[3])] += pa * pb
        if move is None:
            continue
        advice = kt.advise(a, b, da, db)
        best = next(m for m in advice.moves if m.best)
        assert best.move == move, (da, db)
        assert (best.wounds_a, best.wounds_b) == (wounds_a - outlook[2], wounds_b - outlook[3])
        assert (best.death_chance_a, best.death_chance_b) == (outlook[0], outlook[1])
    got = kt.fight(a, b, method="exact").joint.pmf
    assert got == pytest.approx(expected, abs=1e-14)


# --- relic and Feel No Pain fights: replayed resolutions ----------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_memoised_chance_rounds_match_the_plain_expansion(seed: int) -> None:
    # States with wounds out of the enemy's reach share the entry of the least such wounds, and later
    # rounds reuse the rounds worked out before: high wounds, few dice, several rounds, and every
    # fight ability at random, against the plain Python expansion over dice and rolls.
    from .test_fight_reference import _python_exact_with_chance, chance_fighter

    rng = random.Random(1400 + seed)
    rounds = 2 + seed % 2
    a, names_a, fnp_a, relics_a = chance_fighter(rng, rng.randint(1, 2), 10)
    b, names_b, fnp_b, relics_b = chance_fighter(rng, rng.randint(1, 2), 10)
    a, b = dataclasses.replace(a, wounds=rng.randint(12, 20)), dataclasses.replace(b, wounds=rng.randint(12, 20))
    first = "ab"[seed % 2]
    result = kt.fight(a, b, first=first, rounds=rounds, method="exact")
    want = _python_exact_with_chance(a, names_a, fnp_a, relics_a, b, names_b, fnp_b, relics_b, first, rounds)
    np.testing.assert_allclose(result.joint.pmf, want, atol=1e-12, rtol=0)


def _fight_in_child() -> np.ndarray:
    a, b = HEURISTIC[0]
    return kt.fight(a, b, method="exact").joint.pmf


def test_a_forked_child_keeps_decisions_of_its_own() -> None:
    import multiprocessing

    want = _fight_in_child()  # the parent holds a kept cache for these rules
    with multiprocessing.get_context("fork").Pool(1) as pool:
        got = pool.apply(_fight_in_child)
    assert np.array_equal(got, want)

"""Optimal play (docs/rules/killteam.md §7): the spec's figure, hand-worked positions, dominance over the
heuristics, exact against Monte Carlo, tie-breaks, advise, the CLI and input errors."""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pytest

from mathhammer import cli
from mathhammer import killteam as kt
from mathhammer.errors import InputError

from .test_fight_engines import assert_agrees, random_fighter


def F(strategy: str = "optimal", objective: str | None = None, **kw) -> kt.Fighter:
    base = dict(attacks=4, hit=3, damage=(3, 4), wounds=12)
    base.update(kw)
    return kt.Fighter(strategy=strategy, objective=objective, **base)


def outcome_tuple(objective: str, r: kt.FightResult, side: str) -> tuple[float, ...]:
    """The objective of §7 from `side`'s point of view, written out from the spec's table."""
    other = "b" if side == "a" else "a"
    me_dead, enemy_dead = r.death_chance(side), r.death_chance(other)
    own_lost, enemy_lost = r.mean_damage_taken(side), r.mean_damage_taken(other)
    return {
        "trade": (enemy_dead - me_dead, enemy_lost - own_lost),
        "net": (enemy_lost - own_lost, enemy_dead - me_dead),
        "kill": (enemy_dead, -own_lost, enemy_lost),
        "survive": (-me_dead, enemy_lost - own_lost),
    }[objective]


def lex_at_least(x: tuple[float, ...], y: tuple[float, ...], tol: float = 1e-9) -> bool:
    for u, v in zip(x, y):
        if abs(u - v) > tol:
            return u > v
    return True


# --- the figure of §7 -------------------------------------------------------------------------

def test_the_spec_figure_default_fight_against_strike():
    b = F("strike")
    opt = kt.fight(F("optimal"), b, method="exact")
    assert opt.method == "exact"
    assert round(100 * opt.death_chance("b"), 1) == 20.1
    assert round(100 * opt.death_chance("a"), 1) == 1.0
    heuristics = {s: kt.fight(F(s), b, method="exact") for s in kt.STRATEGIES}
    # the best heuristic for "trade": 20.1 % kill / 16.5 % death
    best = max(heuristics.values(), key=lambda r: outcome_tuple("trade", r, "a"))
    assert round(100 * best.death_chance("b"), 1) == 20.1
    assert round(100 * best.death_chance("a"), 1) == 16.5
    for r in heuristics.values():
        assert lex_at_least(outcome_tuple("trade", opt, "a"), outcome_tuple("trade", r, "a"))


def test_default_objective_is_trade_and_fighter_text():
    f = F("optimal")
    assert f.objective == "trade"
    assert "optimal (trade)" in str(f)
    assert F("strike").objective is None


# --- hand-worked positions --------------------------------------------------------------------

def test_parry_the_killing_blow():
    # A (3 wounds, one norm) against B (one norm of 3 damage): striking lets B kill A; parrying
    # cancels B's only success and nobody loses anything.
    a = F(wounds=3)
    b = F("strike")
    adv = kt.advise(a, b, (0, 1), (0, 1))
    assert adv.mover == "a" and adv.best == "norm_parry"
    assert [m.move for m in adv.moves] == ["norm_strike", "norm_parry"]
    strike, parry = adv.moves
    assert strike.value == pytest.approx((-1.0, 3 - 3))  # B loses 3, A loses its 3 and dies
    assert (strike.wounds_a, strike.wounds_b, strike.death_chance_a) == (0.0, 9.0, 1.0)
    assert parry.value == pytest.approx((0.0, 0.0))
    assert (parry.wounds_a, parry.wounds_b) == (12 - 9, 12)
    assert adv.heuristic["strike"] == "norm_strike" and adv.heuristic["parry"] == "norm_parry"
    log = kt.resolve_fight(a, b, (0, 1), (0, 1))
    assert log.actions == (("a", "norm_parry", 1),)


def test_strike_when_the_strike_kills():
    # B on 3 wounds, A's norm deals 3: strike at once (worth [B dies] = 1); a parry only delays.
    adv = kt.advise(F(), F("strike"), (0, 1), (0, 2), wounds_b=3)
    assert adv.best == "norm_strike"
    assert adv.moves[0].value == pytest.approx((1.0, 3.0))
    assert adv.moves[0].death_chance_b == 1.0


def test_crits_only_can_parry_brutal_and_a_parry_must_cancel_something():
    # Against Brutal a norm parry is illegal; against an enemy without successes no parry is legal.
    brutal = F("strike", rules="Brutal")
    adv = kt.advise(F(), brutal, (1, 1), (0, 1))
    assert [m.move for m in adv.moves] == ["crit_strike", "norm_strike", "crit_parry"]
    adv = kt.advise(F(), F("strike"), (1, 1), (0, 0))
    assert [m.move for m in adv.moves] == ["crit_strike", "norm_strike"]


def test_no_move_when_the_round_is_over():
    adv = kt.advise(F(), F("strike"), (0, 0), (0, 0))
    assert adv.mover is None and adv.moves == () and adv.best is None


def test_duelist_parries_before_the_optimal_choice():
    # B's Duelist crit-parries A's crit before A moves: A is left with its norm.
    adv = kt.advise(F(), F("strike", abilities="Duelist"), (1, 1), (1, 0))
    assert adv.mover == "a"
    assert [m.move for m in adv.moves] == ["norm_strike"]


def test_shock_crit_strike_worked_by_hand():
    # A (Shock, 12 wounds) holds a crit and a norm; B holds three norms of 6 damage. Worked by hand:
    #   crit strike: B 12->8, Shock discards a norm; B strikes (A 6); A norm-parries B's last: (0, 4-6)
    #   norm strike: B 9; B strikes (A 6); whatever A does then, B's last norm kills A: (-1, ...)
    #   crit parry:  B strikes (A 6); A norm-parries B's last norm: (0, 0-6)
    #   norm parry:  B strikes (A 6); A crit-strikes (B 8), Shock discards B's last norm: (0, 4-6)
    # crit strike ties norm parry and comes first.
    a = F(rules="Shock")
    b = F("strike", damage=(6, 6))
    adv = kt.advise(a, b, (1, 1), (0, 3))
    values = {m.move: m.value for m in adv.moves}
    assert values["crit_strike"] == pytest.approx((0.0, -2.0))
    assert values["norm_strike"][0] == -1.0
    assert values["crit_parry"] == pytest.approx((0.0, -6.0))
    assert values["norm_parry"] == pytest.approx((0.0, -2.0))
    assert adv.best == "crit_strike"
    log = kt.resolve_fight(a, b, (1, 1), (0, 3))
    assert log.actions == (("a", "crit_strike", 4), ("a", "shock_discard_norm", 1), ("b", "norm_strike", 6),
                           ("a", "norm_parry", 1))


# --- tie-breaks -------------------------------------------------------------------------------

def test_ties_take_crit_strike_then_norm_strike():
    # Nothing to parry and equal damage: both strikes are worth the same; crit strike first.
    adv = kt.advise(F(damage=(3, 3)), F("strike"), (1, 1), (0, 0))
    assert adv.moves[0].value == pytest.approx(adv.moves[1].value)
    assert adv.best == "crit_strike"


def test_ties_take_crit_parry_before_norm_parry():
    # A on 1 wound deals no damage; B's one norm would kill it. Both parries save A equally.
    a = F(wounds=1, damage=(0, 0))
    adv = kt.advise(a, F("strike"), (1, 1), (0, 1))
    values = {m.move: m.value for m in adv.moves}
    assert values["crit_parry"] == pytest.approx(values["norm_parry"])
    assert values["crit_strike"][0] == -1.0
    assert adv.best == "crit_parry"


def test_norm_parry_when_the_crit_is_worth_more():
    # The same, but A's crit deals damage: parry with the norm, keep the crit for the strike.
    a = F(wounds=1, damage=(0, 5))
    adv = kt.advise(a, F("strike"), (1, 1), (0, 1))
    assert adv.best == "norm_parry"


# --- optimal is never worse than a heuristic --------------------------------------------------

@pytest.mark.parametrize("seed", range(40))
def test_optimal_never_worse_than_any_heuristic_against_strike(seed):
    # Against a Strike opponent the opponent's play does not depend on what it thinks of A beyond
    # "A plays Strike" (which is how it sees an optimal A); so optimal must dominate every
    # heuristic A for its own objective.
    rng = random.Random(5000 + seed)
    a = random_fighter(rng, chance=seed % 4 == 0, max_attacks=4, max_wounds=12)
    b = dataclasses.replace(random_fighter(rng, max_attacks=4, max_wounds=12), strategy="strike")
    objective = kt.OBJECTIVES[seed % 4]
    rounds = 1 + seed % 2
    first = rng.choice("ab")
    opt = kt.fight(dataclasses.replace(a, strategy="optimal", objective=objective), b, first=first, rounds=rounds,
                   method="exact")
    mine = outcome_tuple(objective, opt, "a")
    for s in kt.STRATEGIES:
        heur = kt.fight(dataclasses.replace(a, strategy=s), b, first=first, rounds=rounds, method="exact")
        assert lex_at_least(mine, outcome_tuple(objective, heur, "a")), (s, objective, str(a), str(b))


@pytest.mark.parametrize("seed", range(20))
def test_optimal_b_against_any_heuristic_a_beats_strike_b(seed):
    # B optimal against a heuristic A is at least as good for B as B playing Strike (A then sees the
    # same opponent: an optimal B looks like Strike to A's lookaheads).
    rng = random.Random(6000 + seed)
    a = random_fighter(rng, max_attacks=4, max_wounds=12)
    b = random_fighter(rng, chance=seed % 5 == 0, max_attacks=4, max_wounds=12)
    objective = kt.OBJECTIVES[seed % 4]
    rounds = 1 + seed % 3
    opt = kt.fight(a, dataclasses.replace(b, strategy="optimal", objective=objective), rounds=rounds, method="exact")
    strike = kt.fight(a, dataclasses.replace(b, strategy="strike"), rounds=rounds, method="exact")
    assert lex_at_least(outcome_tuple(objective, opt, "b"), outcome_tuple(objective, strike, "b"))


@pytest.mark.parametrize("seed", range(15))
def test_both_optimal_is_a_saddle_point(seed):
    # Zero-sum: A optimal against optimal B gets no more than A optimal against Strike B (B's best
    # response does at least as well as Strike), and B likewise.
    rng = random.Random(7000 + seed)
    objective = ("trade", "net")[seed % 2]
    a = dataclasses.replace(random_fighter(rng, max_attacks=4, max_wounds=12), strategy="optimal", objective=objective)
    b = dataclasses.replace(random_fighter(rng, max_attacks=4, max_wounds=12), strategy="optimal", objective=objective)
    rounds = 1 + seed % 2
    both = kt.fight(a, b, rounds=rounds, method="exact")
    vs_strike_b = kt.fight(a, dataclasses.replace(b, strategy="strike", objective=None), rounds=rounds, method="exact")
    vs_strike_a = kt.fight(dataclasses.replace(a, strategy="strike", objective=None), b, rounds=rounds, method="exact")
    assert lex_at_least(outcome_tuple(objective, vs_strike_b, "a"), outcome_tuple(objective, both, "a"))
    assert lex_at_least(outcome_tuple(objective, vs_strike_a, "b"), outcome_tuple(objective, both, "b"))
    # zero-sum: B's objective is exactly minus A's
    assert np.allclose(outcome_tuple(objective, both, "a"), [-x for x in outcome_tuple(objective, both, "b")])


# --- exact against Monte Carlo ----------------------------------------------------------------

@pytest.mark.parametrize("block", range(3))
def test_exact_agrees_with_monte_carlo_with_optimal_fighters(block):
    for seed in range(900 + block * 10, 900 + block * 10 + 10):  # 30 random fights
        rng = random.Random(seed)
        chance = seed % 3 == 0
        a = random_fighter(rng, chance=chance, max_attacks=4, max_wounds=12)
        b = random_fighter(rng, max_attacks=4, max_wounds=12)
        objective = kt.OBJECTIVES[seed % 4]
        a = dataclasses.replace(a, strategy="optimal", objective=objective)
        if seed % 2 == 0:
            b = dataclasses.replace(b, strategy="optimal", objective="trade")
            a = dataclasses.replace(a, objective="trade")
        rounds = 1 + seed % 3
        first = rng.choice("ab")
        exact = kt.fight(a, b, first=first, rounds=rounds, method="exact")
        mc = kt.fight(a, b, first=first, rounds=rounds, method="monte_carlo", samples=100_000, seed=seed, threads=2)
        assert abs(exact.joint.pmf.sum() - 1) < 1e-9
        assert_agrees(exact, mc, f"{a} | {b} | first {first} | rounds {rounds}")


def test_monte_carlo_with_optimal_is_deterministic_across_threads():
    a = F(abilities="Feel No Pain 5+")
    runs = [kt.fight(a, F("strike"), rounds=2, method="monte_carlo", samples=50_000, seed=3, threads=t).joint.pmf
            for t in (1, 2)]
    assert np.array_equal(runs[0], runs[1])


def test_optimal_plays_for_the_rounds_to_come():
    # Over three rounds optimal A beats its one-round play against Strike (by backward induction
    # it is a best response over the whole fight), and stays a distribution.
    b = F("strike")
    three = kt.fight(F(), b, rounds=3, method="exact")
    assert three.joint.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    for s in kt.STRATEGIES:
        heur = kt.fight(F(s), b, rounds=3, method="exact")
        assert lex_at_least(outcome_tuple("trade", three, "a"), outcome_tuple("trade", heur, "a"))


# --- advise result, CLI, errors ---------------------------------------------------------------

def test_advice_round_trips_and_frames():
    adv = kt.advise(F(), F("max_damage"), (1, 2), (2, 1), first="b", wounds_a=9)
    assert adv.mover == "b"  # B moves first: valued as optimal "trade"
    assert adv.objective == "trade"
    assert sum(m.best for m in adv.moves) == 1
    assert kt.Advice.from_json(adv.to_json()) == adv
    frame = adv.to_frame()
    assert list(frame["move"]) == [m.move for m in adv.moves]
    assert set(adv.heuristic) == set(kt.STRATEGIES)


def test_cli_optimal(capsys):
    code = cli.main(["killteam", "fight", "--a-strategy", "optimal", "--a-objective", "trade", "--b-strategy", "strike",
                     "--format", "json"])
    assert code in (0, None)
    out = json.loads(capsys.readouterr().out)
    assert round(100 * out["death_chance"]["a"], 1) == 1.0
    assert round(100 * out["death_chance"]["b"], 1) == 20.1
    assert "optimal (trade)" in out["a"]


def test_cli_objective_without_optimal_is_an_error(capsys):
    assert cli.main(["killteam", "fight", "--a-objective", "kill"]) == 2
    assert "objective" in capsys.readouterr().err


@pytest.mark.parametrize("kwargs", [
    dict(strategy="strike", objective="trade"),
    dict(strategy="max_damage", objective="kill"),
    dict(strategy="optimal", objective="win"),
])
def test_objective_errors(kwargs):
    with pytest.raises(InputError, match="^objective"):
        kt.Fighter(attacks=4, hit=3, **kwargs)


@pytest.mark.parametrize("objectives", [("trade", "net"), ("kill", "kill"), ("survive", "survive"), ("net", "kill")])
def test_two_optimal_fighters_must_share_trade_or_net(objectives):
    a, b = F(objective=objectives[0]), F(objective=objectives[1])
    with pytest.raises(InputError, match="^objective"):
        kt.fight(a, b)
    with pytest.raises(InputError, match="^objective"):
        kt.advise(a, b, (1, 1), (1, 1))


def test_advise_input_errors():
    with pytest.raises(InputError, match="^dice_a"):
        kt.advise(F(), F(), (3, 3), (1, 1))
    with pytest.raises(InputError, match="^first"):
        kt.advise(F(), F(), (1, 1), (1, 1), first="c")
    with pytest.raises(InputError, match="^wounds_b"):
        kt.advise(F(), F(), (1, 1), (1, 1), wounds_b=0)
    # a heuristic mover is valued as optimal "trade": against an optimal "kill" enemy that is not zero-sum
    with pytest.raises(InputError, match="^objective"):
        kt.advise(F("strike"), F("optimal", "kill"), (1, 1), (1, 1))

"""db.round: exact vs a plain enumeration, exact vs Monte Carlo, and the round's own rules."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import db_reference as ref
import numpy as np
import pytest
from mathhammer import deathburgh as db
from mathhammer.errors import InputError, InputTypeError
from stats import assert_pmf_close

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples" / "deathburgh"


def random_round(rng: random.Random, n_minis: int, max_dice: int, max_w: int, n_combats: int) -> dict[str, Any]:
    """A valid round of melee miniatures (every combat legal whatever the modes turn out to be)."""
    names = [f"m{i}" for i in range(n_minis)]
    minis = {
        n: {"A": rng.randint(0, max_dice), "A_plus": rng.randint(2, 6), "D": rng.randint(0, max_dice),
            "D_plus": rng.randint(2, 6), "W": rng.randint(1, max_w), "role": "melee"}
        for n in names
    }
    edition = rng.choice(ref.EDITIONS)
    switches: dict[str, Any] = {"edition": edition, "bonus_dice": rng.choice(["replace", "add"]),
                                "cap_wounds_at_dice": rng.random() < 0.3, "souls_limit": 1}
    if edition == "alpha":
        switches["draw"] = rng.choice(["always", "scored"])
        switches["draw_in_dodge"] = rng.random() < 0.5
    combats = []
    for _ in range(n_combats):
        a, d = rng.sample(names, 2)
        reaction = rng.choice(["attack", "dodge", "none"])
        options: list[dict[str, Any]] = [{}, {}]
        for k, side in enumerate(options):
            if k == 1 and reaction == "none":
                break
            if rng.random() < 0.25:
                side["mode"] = rng.choice(ref.MODES)
            if rng.random() < 0.3:
                side["instant6"] = 1
            if rng.random() < 0.2:
                side["souls_dice"] = 1
            if rng.random() < 0.3:
                side["reroll"] = rng.choice(ref.REROLLS)
        if rng.random() < 0.3:
            options[0]["charge"] = True
        combats.append({"attacker": a, "defender": d, "reaction": reaction,
                        "attacker_options": options[0], "defender_options": options[1]})
    start = {n: rng.randint(0, minis[n]["W"]) if rng.random() < 0.2 else minis[n]["W"] for n in names}
    return {"minis": minis, "start": start, "combats": combats, "switches": switches}


def reference_round(r: dict[str, Any]) -> dict[str, dict[int, Fraction]]:
    """Every combat in order by full enumeration; Wasted participants skip; modes from who has fought."""
    out: dict[str, dict[int, Fraction]] = {n: {} for n in r["minis"]}

    def side(name: str, options: dict[str, Any], fought: frozenset[str]) -> dict[str, Any]:
        mode = options.get("mode", "defensive" if name in fought else "aggressive")
        return {"mini": r["minis"][name], **options, "mode": mode}

    def play(k: int, wounds: dict[str, int], fought: frozenset[str], weight: Fraction) -> None:
        if k == len(r["combats"]):
            for name, w in wounds.items():
                out[name][w] = out[name].get(w, Fraction(0)) + weight
            return
        c = r["combats"][k]
        a, d = c["attacker"], c["defender"]
        if wounds[a] == 0 or wounds[d] == 0:
            play(k + 1, wounds, fought, weight)
            return
        scenario = {"attacker": side(a, c["attacker_options"], fought), "defender": side(d, c["defender_options"], fought),
                    "reaction": c["reaction"], "switches": r["switches"]}
        for (to_d, to_a), p in ref.combat(scenario)["wounds"].items():
            after = dict(wounds)
            after[d] = max(0, after[d] - to_d)
            after[a] = max(0, after[a] - to_a)
            play(k + 1, after, fought | {a, d}, weight * p)

    play(0, dict(r["start"]), frozenset(), Fraction(1))
    return out


def run(r: dict[str, Any], **kwargs: Any) -> db.RoundResult:
    minis = {n: db.Miniature(**m) for n, m in r["minis"].items()}
    return db.round(minis, r["combats"], wounds=r["start"], **r["switches"], **kwargs)


SMALL_ROUNDS = [random_round(random.Random(700 + k), n_minis=3, max_dice=2, max_w=3, n_combats=4) for k in range(40)]
BIG_ROUNDS = [random_round(random.Random(900 + k), n_minis=5, max_dice=5, max_w=5, n_combats=8) for k in range(12)]


@pytest.mark.parametrize("index", range(len(SMALL_ROUNDS)))
def test_exact_round_matches_enumeration(index: int) -> None:
    r = SMALL_ROUNDS[index]
    expected = reference_round(r)
    result = run(r, method="exact")
    assert result.method == "exact"
    for name, law in expected.items():
        pmf = result.wounds_left[name].pmf
        assert pmf.size == r["start"][name] + 1
        for w in range(pmf.size):
            assert pmf[w] == pytest.approx(float(law.get(w, 0)), abs=1e-12), (name, w)
        assert result.wasted(name) == pytest.approx(float(law.get(0, 0)), abs=1e-12)


@pytest.mark.parametrize("index", range(len(BIG_ROUNDS)))
def test_monte_carlo_round_agrees_with_exact(index: int) -> None:
    r = BIG_ROUNDS[index]
    exact = run(r, method="exact")
    samples = 200_000
    mc = run(r, method="monte_carlo", samples=samples, seed=index, threads=1)
    for name in exact.names:
        assert_pmf_close(exact.wounds_left[name].pmf, mc.wounds_left[name].pmf, samples, name)
    for p_exact, p_mc in zip(exact.p_fought, mc.p_fought):
        assert abs(p_exact - p_mc) <= 5 * np.sqrt(max(p_exact * (1 - p_exact), 0) / samples) + 3 / samples


def test_random_rounds_exercise_skips_and_modes() -> None:
    fought = [p for r in SMALL_ROUNDS + BIG_ROUNDS for p in run(r, method="exact").p_fought]
    assert any(p == 0 for p in fought) and any(0 < p < 1 for p in fought) and any(p == 1 for p in fought)


def _fixed(name: str, a: int, d: int, w: int = 5) -> db.Miniature:
    # With as many 6! as dice, a pool scores exactly 2 per die: a round of these is deterministic.
    return db.Miniature(A=a, A_plus=4, D=d, D_plus=4, W=w, name=name)


def test_modes_follow_who_has_fought() -> None:
    """Aggressive (0 dice) in the first combat, Defensive (2 dice, both 6!) after it: 4 wounds."""
    minis = {"x": _fixed("x", 0, 2), "y": _fixed("y", 1, 1)}
    hit = {"attacker": "x", "defender": "y", "reaction": "none", "attacker_options": {"instant6": 2}}
    once = db.round(minis, [hit])
    assert once.wounds_left["y"].prob(5) == 1.0  # Aggressive x has no dice
    twice = db.round(minis, [hit, hit])
    assert twice.wounds_left["y"].prob(1) == 1.0  # now Defensive: 2 dice, both 6!
    forced = db.round(minis, [hit, {**hit, "attacker_options": {"instant6": 2, "mode": "aggressive"}}])
    assert forced.wounds_left["y"].prob(5) == 1.0
    # Being the defender counts as taking part in a combat too.
    hit_back = {"attacker": "y", "defender": "x", "reaction": "none"}
    after_defending = db.round(minis, [hit_back, hit])
    assert after_defending.wounds_left["y"].prob(1) == 1.0


def test_a_combat_with_a_wasted_miniature_is_skipped_and_changes_nothing() -> None:
    minis = {"x": _fixed("x", 0, 2), "y": _fixed("y", 1, 1), "z": _fixed("z", 1, 1)}
    hit_z = {"attacker": "x", "defender": "z", "reaction": "none", "attacker_options": {"instant6": 2}}
    hit_y = {"attacker": "x", "defender": "y", "reaction": "none", "attacker_options": {"instant6": 2}}
    result = db.round(minis, [hit_z, hit_y], wounds={"z": 0})
    assert result.p_fought == (0.0, 1.0)
    assert result.wounds_left["y"].prob(5) == 1.0  # x was still Aggressive: the skipped combat did not count
    assert result.wasted("z") == 1.0 and result.wounds_left["z"].pmf.tolist() == [1.0]


def test_one_combat_round_equals_the_combat() -> None:
    leader, brute = db.example("Old Fellas Leader"), db.example("Bandit Brute")
    single = db.combat(db.Side(leader, charge=True), db.Side(brute, "defensive"), "dodge")
    r = db.round({"leader": leader, "brute": brute}, [
        {"attacker": "leader", "defender": "brute", "reaction": "dodge",
         "attacker_options": {"charge": True}, "defender_options": {"mode": "defensive"}},
    ])
    for name, dist, w in (("brute", single.wounds_defender, 5), ("leader", single.wounds_attacker, 4)):
        expected = np.zeros(w + 1)
        for k, p in enumerate(dist.pmf):
            expected[max(0, w - k)] += p
        np.testing.assert_allclose(r.wounds_left[name].pmf, expected, atol=1e-12, rtol=0)
    assert r.wasted("brute") == pytest.approx(single.wasted("defender"), abs=1e-12)
    assert r.mean_wounds_lost("leader") == pytest.approx(
        sum(min(k, 4) * p for k, p in enumerate(single.wounds_attacker.pmf)), abs=1e-12)


def test_list_of_miniatures_named_by_name_or_position() -> None:
    minis = [db.example("Bandit Brute"), db.Miniature(3, 4, 3, 4, 3)]
    r = db.round(minis, [db.Engagement(attacker="Bandit Brute", defender=1, reaction="dodge")])
    assert r.names == ("Bandit Brute", "1")
    assert r.p_fought == (1.0,)


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_round_monte_carlo_is_deterministic(threads: int) -> None:
    r = BIG_ROUNDS[0]
    a = run(r, method="monte_carlo", samples=300_000, seed=11, threads=1)
    b = run(r, method="monte_carlo", samples=300_000, seed=11, threads=threads)
    assert a.to_dict() == b.to_dict()


def test_auto_switches_to_monte_carlo_on_a_big_wound_space() -> None:
    minis = {f"b{i}": db.example("Bandit Brute") for i in range(9)}  # 6^9 > 10^6 wound states
    combats = [{"attacker": f"b{i}", "defender": f"b{i + 1}", "reaction": "dodge"} for i in range(8)]
    r = db.round(minis, combats, samples=50_000, seed=1)
    assert r.method == "monte_carlo" and r.samples == 50_000
    with pytest.raises(InputError, match="^method: exact needs"):
        db.round(minis, combats, method="exact")
    small = db.round(dict(list(minis.items())[:3]), combats[:2])
    assert small.method == "exact"


def test_example_scenario_file() -> None:
    kwargs = db.load_round(EXAMPLES_DIR / "round_scenario.toml")
    assert kwargs["wounds"] == {"Bandit Brute": 4}
    exact = db.round(**kwargs)
    assert exact.method == "exact" and exact.start_wounds[exact.names.index("Bandit Brute")] == 4
    again = db.RoundResult.from_json(exact.to_json())
    assert again == exact
    frame = exact.to_frame()
    assert set(frame["miniature"]) == set(exact.names)
    assert frame.groupby("miniature")["p"].sum().to_numpy() == pytest.approx(1.0)


@pytest.mark.parametrize(
    "change, field",
    [
        ({"combats": [{"attacker": "nobody", "defender": "y"}]}, "combats[0].attacker"),
        ({"combats": [{"attacker": "x", "defender": "x"}]}, "combats[0].defender"),
        ({"combats": [{"attacker": "x", "defender": "y", "attacker_options": {"chrage": True}}]},
         "combats[0].attacker_options"),
        ({"combats": [{"attacker": "x", "defender": "y", "attacker_options": {"support": -1}}]},
         "combats[0].attacker_options.support"),
        ({"combats": [{"attacker": "x", "defender": "y", "reaction": "flee"}]}, "combats[0].reaction"),
        ({"combats": [{"attacker": "x", "defender": "y", "defender_options": {"charge": True}}]},
         "combats[0].defender.charge"),
        ({"combats": [{"attacker": "x", "defender": "y", "colour": "red"}]}, "combats[0]"),
        ({"combats": [{"attacker": "x", "defender": "y"}] * 51}, "combats"),
        ({"combats": "x attacks y"}, "combats"),
        ({"wounds": {"x": 9}}, "wounds['x']"),
        ({"wounds": {"q": 1}}, "wounds"),
        ({"method": "guess"}, "method"),
        ({"edition": "beta"}, "edition"),
        ({"samples": 0, "method": "monte_carlo"}, "samples"),
    ],
)
def test_round_input_errors_name_the_field(change: dict[str, Any], field: str) -> None:
    kwargs: dict[str, Any] = {"miniatures": {"x": _fixed("x", 2, 2), "y": _fixed("y", 2, 2)},
                              "combats": [{"attacker": "x", "defender": "y"}], **change}
    with pytest.raises((InputError, InputTypeError)) as error:
        db.round(**kwargs)
    assert str(error.value).startswith(field + ":"), str(error.value)


def test_too_many_miniatures() -> None:
    with pytest.raises(InputError, match="^miniatures:"):
        db.round([db.Miniature(1, 4, 1, 4, 1, name=f"m{i}") for i in range(21)], [])


@pytest.mark.parametrize("method", ["exact", "monte_carlo"])
def test_round_result_names_who_fought_whom(method: str) -> None:
    minis = {"x": db.Miniature(3, 4, 3, 4, 3), "y": db.Miniature(2, 5, 2, 5, 2), "z": db.Miniature(1, 6, 1, 6, 1)}
    combats = [{"attacker": "x", "defender": "y"}, {"attacker": "z", "defender": "x"}, {"attacker": "y", "defender": "z"}]
    result = db.round(minis, combats, method=method, samples=10_000, seed=1)
    assert result.combats == (("x", "y"), ("z", "x"), ("y", "z"))
    assert len(result.p_fought) == 3
    assert db.RoundResult.from_json(result.to_json()) == result

"""kt.fight keeps its Monte Carlo engine between calls of the same fight (the workspaces and the Feel
No Pain / relic chance graph it builds): a warm call gives the cold call's numbers, an optimal fight
is never kept (its solver's budget is checked as it solves), and a forked child never uses its
parent's engines."""

from __future__ import annotations

import importlib

import pytest

from mathhammer import killteam as kt

fight_module = importlib.import_module("mathhammer.killteam.fighting")  # kt.fight is the function

PLAIN = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12)
RELICS = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12, abilities="Feel No Pain 5+, Saintly Relics")


def _json(a: kt.Fighter, b: kt.Fighter, threads: int = 1) -> str:
    return kt.fight(a, b, rounds=3, method="monte_carlo", samples=60_000, seed=7, threads=threads).to_json()


@pytest.mark.parametrize("b", [PLAIN, RELICS], ids=["plain", "relics"])
def test_a_warm_engine_gives_the_cold_numbers(b: kt.Fighter) -> None:
    fight_module._ENGINES.clear()
    cold = _json(PLAIN, b)
    assert len(fight_module._ENGINES) == 1
    assert _json(PLAIN, b) == cold and _json(PLAIN, b, threads=2) == cold
    fight_module._ENGINES.clear()
    assert _json(PLAIN, b, threads=2) == cold


def test_engines_are_kept_per_process_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    fight_module._ENGINES.clear()
    _json(PLAIN, RELICS)
    (key, (_, engine)), = fight_module._ENGINES.items()
    monkeypatch.setattr(fight_module.os, "getpid", lambda: key[1] + 1)  # as in a forked child
    _json(PLAIN, RELICS)
    assert len(fight_module._ENGINES) == 2
    assert all(kept is not engine for k, (_, kept) in fight_module._ENGINES.items() if k != key)
    for wounds in range(2, 12):
        _json(PLAIN, kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=wounds))
    assert len(fight_module._ENGINES) == fight_module._KEPT_ENGINES


def test_an_optimal_fight_keeps_no_engine() -> None:
    fight_module._ENGINES.clear()
    optimal = kt.Fighter(attacks=2, hit=3, damage=(3, 4), wounds=6, strategy="optimal")
    kt.fight(optimal, PLAIN, method="monte_carlo", samples=10_000, seed=1)
    assert not fight_module._ENGINES

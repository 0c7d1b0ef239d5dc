"""Kill Team team against team: one matchup of two synthetic 14-operative teams (3 weapons each:
two ranged, one melee), shooting at two cover values and fighting with one strategy pair, both
first (issue 23 asks <= 2 s).

Run: PYTHONPATH=python python -m pytest benchmarks/bench_killteam_matchup.py --benchmark-enable
"""

from __future__ import annotations

from synthetic_teams import synthetic_team

from mathhammer import killteam as kt
from mathhammer.killteam import plan

TEAM_A = synthetic_team(1)
TEAM_B = synthetic_team(2)


def _cold():
    # no shot or fight plan kept from the round before
    plan.clear_shot_caches()
    plan.fight_plan.cache_clear()


def test_matchup_two_14_operative_teams(benchmark):
    result = benchmark.pedantic(kt.matchup, args=(TEAM_A, TEAM_B), setup=_cold, rounds=3)
    assert len(result.shots) == 14 * 2 * 14 * 2 and len(result.fights) == 14 * 14 * 2
    benchmark.extra_info["matchup_seconds"] = benchmark.stats.stats.mean
    benchmark.extra_info["pairings_per_second"] = (len(result.shots) + len(result.fights)) / benchmark.stats.stats.mean

"""The JSON API (docs/web.md) against the Python calls it wraps: every endpoint answers the same
numbers as calling the engine function directly, and every limit answers its own status."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from casedata import KILLTEAM_DATA, KILLTEAM_TEAMS
from mathhammer import deathburgh as db, force_melee as fm, games, killteam as kt, starcraft as sc
from mathhammer.core.results import MatrixResult
from mathhammer.files.teams import save_team, save_teams
from mathhammer.killteam.data import Team, TeamOperative, TeamWeapon, load_team
from mathhammer.web import Limits, create_app
from timing import LOAD_SLACK, assert_deadline

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "killteam"))
from synthetic_teams import synthetic_team  # noqa: E402

EXAMPLES = "python/mathhammer/examples"


@pytest.fixture(scope="module")
def client() -> TestClient:
    # the invented team libraries besides the built-in and bundled profiles: the matchup's teams
    return TestClient(create_app(profiles=[KILLTEAM_TEAMS]))


def plain(value: Any) -> Any:
    """A Python value as it comes back from JSON."""
    return json.loads(json.dumps(value))


def expected(result: Any, notes: tuple[str, ...] = ()) -> dict[str, Any]:
    summary = result.summary() if hasattr(result, "summary") else None
    if summary is not None and not isinstance(summary, dict):  # a matchup's summary: a result of its own
        summary = summary.to_dict()
    # a comparison: the rows of its to_frame(), one per cell, not every cell's whole result
    rows = {"rows": result.to_frame().to_dict(orient="records")} if isinstance(result, MatrixResult) else result.to_dict()
    return plain({"result": rows, "summary": summary, "notes": [*notes, *getattr(result, "notes", ())]})


GUN = {"attacks": 4, "hit": 3, "damage": [3, 4], "rules": "Lethal 5+"}
TARGET = {"save": 3, "wounds": 12}
FIGHTER_A = {"attacks": 4, "hit": 3, "damage": [3, 4], "wounds": 12, "rules": "Brutal, Lethal 5+", "strategy": "max_damage"}
FIGHTER_B = {"attacks": 4, "hit": 3, "damage": [4, 5], "wounds": 14, "abilities": "Storm Shield", "strategy": "parry"}

# (path, body, the same call in Python): one per action of every game
CASES: list[tuple[str, dict[str, Any], Any]] = [
    ("killteam/shoot", {"weapon": GUN, "target": TARGET, "cover": 1, "method": "exact"},
     lambda: kt.shoot(kt.Weapon(4, 3, (3, 4), "Lethal 5+"), kt.Operative(save=3, wounds=12), cover=1, method="exact")),
    ("killteam/shoot", {"weapon": "bolt_rifle", "target": "plague_marine", "method": "monte_carlo", "samples": 20000,
                        "seed": 7},
     lambda: kt.shoot(kt.GAME.default_library()["weapon"]["bolt_rifle"], kt.GAME.default_library()["operative"]
                      ["plague_marine"], method="monte_carlo", samples=20000, seed=7)),
    ("killteam/fight", {"a": FIGHTER_A, "b": FIGHTER_B, "rounds": 1},
     lambda: kt.fight(kt.Fighter(4, 3, (3, 4), 12, "Brutal, Lethal 5+", strategy="max_damage"),
                      kt.Fighter(4, 3, (4, 5), 14, abilities="Storm Shield", strategy="parry"), rounds=1)),
    ("killteam/fight", {"a": "5A 3+ 4/5 Brutal; 10W; parry", "b": FIGHTER_B},  # a fighter by its notation
     lambda: kt.fight(kt.Fighter.parse("5A 3+ 4/5 Brutal; 10W; parry"), kt.Fighter.from_dict(FIGHTER_B))),
    ("killteam/attack-dice", {"source": "4A 3+ 3/4 Balanced", "obscured": True},
     lambda: kt.attack_dice(kt.Weapon.parse("4A 3+ 3/4 Balanced"), obscured=True)),
    ("killteam/advise", {"a": FIGHTER_A, "b": FIGHTER_B, "dice_a": [1, 1], "dice_b": [0, 2]},
     lambda: kt.advise(kt.Fighter.from_dict(FIGHTER_A), kt.Fighter.from_dict(FIGHTER_B), (1, 1), (0, 2))),
    ("killteam/compare", {"situations": [{"weapon": GUN, "cover": 1},
                                         {"weapon": {"attacks": 4, "hit": 3, "damage": [3, 4], "rules": "Piercing 1"}}],
                          "saves": [3, 4], "at_least": [1, 6, 12]},
     # the same tables: kt.compare labels a situation by what it was given
     lambda: kt.compare([{"weapon": GUN, "cover": 1},
                         {"weapon": {"attacks": 4, "hit": 3, "damage": [3, 4], "rules": "Piercing 1"}}], saves=[3, 4],
                        at_least=[1, 6, 12])),
    ("killteam/compare-fights", {"fighters": [FIGHTER_A], "opponents": [FIGHTER_B]},
     lambda: kt.compare_fights([kt.Fighter.from_dict(FIGHTER_A)], [kt.Fighter.from_dict(FIGHTER_B)])),
    ("killteam/matchup", {"team_a": "Ember Wardens", "team_b": "gloam pact", "cover": [1],
                          "strategies": [["parry", "max_damage"]], "method": "exact"},  # teams named loosely too
     lambda: kt.matchup(load_team(KILLTEAM_TEAMS / "Ember Wardens.toml"), load_team(KILLTEAM_TEAMS / "Gloam Pact.toml"),
                        cover=[1], strategies=[("parry", "max_damage")], method="exact")),
    ("starcraft/attack", {"weapon": "c14_rifle", "unit": "zergling", "firing_models": 6, "method": "exact"},
     lambda: sc.attack(sc.catalog.weapon("c14_rifle"), sc.catalog.unit("zergling"), firing_models=6, method="exact")),
    ("starcraft/attack", {"weapon": {"roa": 2, "hit": 3, "damage": 1, "surge_tags": ["Light"], "surge_dice": "D3"},
                          "unit": {"models": 12, "hp": 1, "armour": 6, "evade": 4, "tags": ["Biological", "Light"]},
                          "firing_models": 3, "method": "monte_carlo", "samples": 10000, "seed": 3},
     lambda: sc.attack(sc.Weapon(roa=2, hit=3, damage=1, surge_tags=("Light",), surge_dice="D3"),
                       sc.Unit(models=12, hp=1, armour=6, evade=4, tags=("Biological", "Light")), firing_models=3,
                       method="monte_carlo", samples=10000, seed=3)),
    ("starcraft/sequence", {"unit": "zealot", "batches": [{"weapon": "c14_rifle", "firing_models": 6},
                                                          {"weapon": "quad_k12", "firing_models": 2}]},
     lambda: sc.sequence(sc.catalog.unit("zealot"), [sc.Batch(sc.catalog.weapon("c14_rifle"), firing_models=6),
                                                     sc.Batch(sc.catalog.weapon("quad_k12"), firing_models=2)])),
    ("starcraft/compare", {"weapons": ["c14_rifle", "quad_k12"], "units": ["zergling", "roach"], "firing_models": 2},
     lambda: sc.compare([sc.catalog.weapon("c14_rifle"), sc.catalog.weapon("quad_k12")],
                        [sc.catalog.unit("zergling"), sc.catalog.unit("roach")], firing_models=2)),
    ("deathburgh/combat", {"attacker": {"mini": "Old Fellas Leader", "charge": True}, "defender": "Bandit Brute",
                           "reaction": "dodge", "method": "exact"},
     lambda: db.combat(db.Side(db.example("Old Fellas Leader"), charge=True), db.example("Bandit Brute"),
                       reaction="dodge", method="exact")),
    ("deathburgh/round", {"miniatures": {"leader": "Old Fellas Leader", "bandit": "Bandit Leader"},
                          "combats": [{"attacker": "leader", "defender": "bandit", "reaction": "attack"}],
                          "method": "monte_carlo", "samples": 5000, "seed": 11},
     lambda: db.round({"leader": db.example("Old Fellas Leader"), "bandit": db.example("Bandit Leader")},
                      [{"attacker": "leader", "defender": "bandit", "reaction": "attack"}], method="monte_carlo",
                      samples=5000, seed=11)),
    ("force-melee/melee", {"a": "line_troopers", "b": "walker", "winner_damage": "excess"},
     lambda: fm.melee(fm.example("line_troopers"), fm.example("walker"), winner_damage="excess")),
    ("force-melee/melee-many", {"sides": {"troopers": "line_troopers", "walker": "walker"},
                                "engaged": [["troopers", "walker"]]},
     lambda: fm.melee_many({"troopers": fm.example("line_troopers"), "walker": fm.example("walker")},
                           [("troopers", "walker")])),
]


@pytest.mark.parametrize(("path", "body", "call"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_every_action_answers_the_python_call(client: TestClient, path: str, body: dict[str, Any], call: Any) -> None:
    response = client.post(f"/api/v1/{path}", json=body)
    assert response.status_code == 200, response.text
    assert response.json() == expected(call())


def test_every_action_of_the_registry_has_an_endpoint_and_a_case(client: TestClient) -> None:
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    actions = {f"/api/v1/{g.cli}/{a.cli}" for g, a in games.actions()}
    assert actions <= set(paths)
    assert {f"/api/v1/{path}" for path, _, _ in CASES} == actions


def test_health(client: TestClient) -> None:
    body = client.get("/api/v1/health").json()
    assert body["status"] == "ok" and body["max_samples"] == 10**7 and body["running"] == 0


def test_profiles_lists_the_builtin_and_bundled_profiles_by_game(client: TestClient) -> None:
    body = client.get("/api/v1/profiles").json()
    assert set(body) == set(games.names())
    assert body["killteam"]["weapon"]["bolt_rifle"] == kt.GAME.default_library()["weapon"]["bolt_rifle"].to_dict()
    assert body["starcraft"]["unit"]["zergling"] == plain(sc.catalog.unit("zergling").to_dict())
    assert "Bandit Brute" in body["deathburgh"]["miniature"]


def test_profiles_given_to_the_server_are_named_in_requests(tmp_path: Any) -> None:
    (tmp_path / "mine.toml").write_text('game = "killteam"\n[weapon.my_gun]\nattacks = 5\nhit = 2\ndamage = [4, 6]\n'
                                        'rules = "Piercing 1"\n', encoding="utf-8")
    local = TestClient(create_app(profiles=[tmp_path]))
    assert local.get("/api/v1/profiles").json()["killteam"]["weapon"]["my_gun"]["attacks"] == 5
    response = local.post("/api/v1/killteam/shoot", json={"weapon": "my_gun", "target": TARGET})
    assert response.json() == expected(kt.shoot(kt.Weapon(5, 2, (4, 6), "Piercing 1", name="my_gun"),
                                                kt.Operative(3, 12)))


def test_imported_teams_are_served_from_their_folder(tmp_path: Any) -> None:
    # the folder `mathhammer killteam import` writes: one library per team, an import report beside it
    from mathhammer.cli import main
    from mathhammer.files.library import load_library

    data = KILLTEAM_DATA
    assert main(["killteam", "import", str(data), "--out", str(tmp_path)]) == 0
    assert sorted(p.suffixes[-1] for p in tmp_path.iterdir()) == [".json", ".json", ".toml", ".toml"]
    team = load_library(tmp_path / "Ember Wardens.toml")
    name, weapon = next(iter(team["weapon"].items()))
    local = TestClient(create_app(profiles=[tmp_path]))
    assert local.get("/api/v1/profiles").json()["killteam"]["weapon"][name] == plain(weapon.to_dict())
    response = local.post("/api/v1/killteam/shoot", json={"weapon": name, "target": TARGET})
    assert response.status_code == 200 and response.json() == expected(kt.shoot(weapon, kt.Operative(3, 12)))
    # a request turns the teams' switches on by name: the Sergeant's Ember Ward, once per battle
    body = {"weapon": name, "target": "Warden Sergeant"}
    response = local.post("/api/v1/killteam/shoot", json={**body, "with": ["Ember Ward"]})
    sergeant = "Warden Sergeant"  # (library profiles carry their names, which results repeat)
    ward = kt.Operative(3, 14, "Just a Scratch (normals)", name=sergeant)
    assert response.status_code == 200 and response.json() == expected(kt.shoot(weapon, ward))
    plain_sergeant = kt.Operative(3, 14, name=sergeant)
    assert local.post("/api/v1/killteam/shoot", json=body).json() == expected(kt.shoot(weapon, plain_sergeant))
    response = local.post("/api/v1/killteam/shoot", json={**body, "with": ["Ember Wart"]})
    assert response.status_code == 422 and "no switch 'Ember Wart'" in response.text


def test_openapi_has_a_model_per_profile_kind_and_no_docs_page_loading_a_cdn(client: TestClient) -> None:
    schemas = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    assert {"KillteamWeapon", "KillteamOperative", "KillteamFighter", "StarcraftUnit", "ForceMeleeSide"} <= set(schemas)
    assert schemas["KillteamWeapon"]["required"] == ["attacks", "hit"]
    assert client.get("/docs").status_code == 404 and client.get("/redoc").status_code == 404


@pytest.mark.parametrize(("body", "field"), [
    ({"weapon": {**GUN, "rules": "Lethal 7+"}, "target": TARGET}, "weapon.rules.lethal"),  # the engine's field
    ({"weapon": {**GUN, "hit": 9}, "target": TARGET}, "weapon.hit"),
    ({"weapon": GUN, "target": TARGET, "cover": 7}, "cover"),
    ({"weapon": GUN, "target": "no_such_operative"}, "target"),
    ({"weapon": {"attacks": "four", "hit": 3}, "target": TARGET}, "weapon.attacks"),  # the model's type check
    ({"weapon": GUN, "target": TARGET, "covr": 1}, "covr"),
    ({"weapon": GUN}, "target"),
    ({"weapon": GUN, "target": TARGET, "samples": 10**7 + 1}, "samples"),
    ({"weapon": GUN, "target": TARGET, "threads": 64}, "threads"),  # the server chooses the threads
])
def test_bad_input_is_422_naming_the_field(client: TestClient, body: dict[str, Any], field: str) -> None:
    response = client.post("/api/v1/killteam/shoot", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == field
    assert response.json()["message"].startswith(field + ":")


@pytest.mark.parametrize(("path", "body", "field"), [
    ("killteam/compare", {"situations": [{"weapon": GUN, "samples": 10**9, "method": "monte_carlo"}]},
     "situations[0].samples"),
    ("killteam/compare", {"situations": [{"weapon": GUN}], "samples": 10**8}, "samples"),
    ("killteam/compare", {"situations": [{"weapon": GUN, "threads": 64}]}, "situations[0].threads"),
    ("starcraft/compare", {"weapons": ["c14_rifle"], "units": ["zergling"], "threads": 8}, "threads"),
])
def test_the_limits_hold_inside_a_request_too(client: TestClient, path: str, body: dict[str, Any], field: str) -> None:
    # kt.compare's situations and the **kwargs options of the comparisons carry engine options of their own
    response = client.post(f"/api/v1/{path}", json=body)
    assert response.status_code == 422 and response.json()["field"] == field, response.text


def test_no_file_path_is_read_from_a_request(client: TestClient) -> None:
    # a profile is a name the server loaded, notation or a table; a path is none of them
    response = client.post("/api/v1/killteam/shoot", json={"weapon": f"{EXAMPLES}/killteam/profiles.toml",
                                                           "target": TARGET})
    assert response.status_code == 422 and response.json()["field"] == "weapon"
    assert "profiles" not in client.get("/api/v1/openapi.json").json()["components"]["schemas"]["KillteamShootRequest"][
        "properties"]


def test_a_body_over_64_kib_is_413(client: TestClient) -> None:
    body = json.dumps({"weapon": GUN, "target": TARGET, "pad": "x" * 70_000})
    response = client.post("/api/v1/killteam/shoot", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 413 and "64 KiB" in response.json()["message"]

    def chunks() -> Any:  # no Content-Length: counted as it arrives
        for _ in range(70):
            yield b" " * 1024

    response = client.post("/api/v1/killteam/shoot", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_malformed_json_is_422_not_500(client: TestClient) -> None:
    response = client.post("/api/v1/killteam/shoot", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["error"] == "invalid input"


def test_an_internal_failure_is_500_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from mathhammer.web import app as web

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret detail /home/user/file.py")

    monkeypatch.setattr(web.entries, "resolve_keywords", broken)
    local = TestClient(create_app(), raise_server_exceptions=False)
    response = local.post("/api/v1/killteam/shoot", json={"weapon": GUN, "target": TARGET})
    assert response.status_code == 500
    assert response.json()["error"] == "internal error"
    assert "secret" not in response.text and "Traceback" not in response.text


# A long Monte Carlo request: 8 dice with Ceaseless Balanced at Saintly Relics, three rounds, 10^7
# samples, which takes seconds on one core.
SLOW = {"weapon": {"attacks": 8, "hit": 3, "damage": [3, 4], "rules": "Ceaseless Balanced"},
        "target": {"save": 3, "wounds": 12, "abilities": "Saintly Relics 2D6"}, "rounds": 3,
        "method": "monte_carlo", "samples": 10**7, "seed": 1}


async def _post_all(app: Any, requests: list[tuple[str, dict[str, Any]]]) -> list[tuple[httpx.Response, float]]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=30) as http:
        async def one(path: str, body: dict[str, Any], delay: float) -> tuple[httpx.Response, float]:
            await asyncio.sleep(delay)
            start = time.perf_counter()
            response = await http.post(path, json=body)
            return response, time.perf_counter() - start

        return list(await asyncio.gather(*(one(p, b, 0.2 * i) for i, (p, b) in enumerate(requests))))


def test_the_time_limit_stops_a_long_monte_carlo_request_within_a_second_and_that_request_only() -> None:
    app = create_app(limits=Limits(concurrency=2, time_limit=1.0))
    quick = {"weapon": GUN, "target": TARGET, "method": "monte_carlo", "samples": 100_000, "seed": 2}
    (slow, slow_seconds), (fast, _) = asyncio.run(_post_all(app, [("/api/v1/killteam/shoot", SLOW),
                                                                 ("/api/v1/killteam/shoot", quick)]))
    assert slow.status_code == 504, slow.text
    assert slow.json()["message"] == "stopped at this server's time limit of 1 s per request"
    assert_deadline(slow_seconds, 1.0, earliest=1.0)
    assert fast.status_code == 200
    assert fast.json() == expected(kt.shoot(kt.Weapon(4, 3, (3, 4), "Lethal 5+"), kt.Operative(3, 12),
                                            method="monte_carlo", samples=100_000, seed=2))


def test_a_full_server_answers_503_with_retry_after() -> None:
    app = create_app(limits=Limits(concurrency=1, queue=0, time_limit=1.0))
    (slow, _), (refused, seconds) = asyncio.run(_post_all(app, [("/api/v1/killteam/shoot", SLOW),
                                                                ("/api/v1/killteam/shoot", {"weapon": GUN, "target": TARGET})]))
    assert slow.status_code == 504
    assert refused.status_code == 503 and refused.headers["retry-after"] == "5"
    assert_deadline(seconds, 0.0)  # at once: no queue to wait in


def test_a_request_waits_in_the_queue_at_most_its_wait() -> None:
    app = create_app(limits=Limits(concurrency=1, queue=4, wait=0.3, time_limit=1.0))
    (_, _), (waited, seconds) = asyncio.run(_post_all(app, [("/api/v1/killteam/shoot", SLOW),
                                                            ("/api/v1/killteam/shoot", {"weapon": GUN, "target": TARGET})]))
    assert waited.status_code == 503
    assert_deadline(seconds, 0.3, earliest=0.3)
    assert waited.headers["retry-after"] == "1"


def test_a_queued_request_runs_when_a_slot_frees() -> None:
    app = create_app(limits=Limits(concurrency=1, queue=4, wait=5.0, time_limit=1.0))
    (_, _), (queued, seconds) = asyncio.run(_post_all(app, [("/api/v1/killteam/shoot", SLOW),
                                                            ("/api/v1/killteam/shoot", {"weapon": GUN, "target": TARGET})]))
    assert queued.status_code == 200 and seconds > 0.5
    assert queued.json() == expected(kt.shoot(kt.Weapon(4, 3, (3, 4), "Lethal 5+"), kt.Operative(3, 12)))


def test_an_app_serves_again_on_another_event_loop() -> None:
    # a test client (or a server restarted in the same process) runs the app on a new loop each time;
    # the gate's waiting requests must work on each
    app = create_app(limits=Limits(concurrency=1, queue=4, wait=5.0, time_limit=0.3))
    for _ in range(2):
        answers = asyncio.run(_post_all(app, [("/api/v1/killteam/shoot", SLOW), ("/api/v1/killteam/shoot", SLOW)]))
        assert [response.status_code for response, _ in answers] == [504, 504]
        assert answers[1][1] > 0.3  # the second waited for the first's slot


def test_a_computation_that_never_checks_its_token_is_answered_a_second_after_the_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from mathhammer.web import app as web

    resolve = web.entries.resolve_keywords
    release = threading.Event()

    def deaf(*args: Any, **kwargs: Any) -> Any:  # work that reaches no check of the stop token
        release.wait(60)  # until the answer is in (a minute at most)
        return resolve(*args, **kwargs)

    async def answered_then_released() -> tuple[httpx.Response, float, int]:
        [(response, seconds)] = await _post_all(app, [("/api/v1/killteam/shoot", {"weapon": GUN, "target": TARGET})])
        running = app.state.gate.running
        release.set()
        return response, seconds, running

    monkeypatch.setattr(web.entries, "resolve_keywords", deaf)
    app = create_app(limits=Limits(concurrency=1, time_limit=0.5))
    response, seconds, running = asyncio.run(answered_then_released())
    assert response.status_code == 504
    assert_deadline(seconds, 0.5 + 1.0, earliest=1.4)
    assert running == 1  # its slot stays taken until the thread returns


# --- the server under hostile clients: what a request may ask for, and errors that tell the truth ----------------

def test_a_grid_over_the_limit_is_refused_before_it_runs_naming_its_longest_list(client: TestClient) -> None:
    # kt.compare: situations x saves x thresholds; 2 x 5 x 1,001 = 10,010 cells, over the 10,000 of the default limits
    body = {"situations": [{"weapon": GUN}, {"weapon": GUN, "cover": 1}], "at_least": list(range(1, 1002))}
    response = client.post("/api/v1/killteam/compare", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "too large" and response.json()["field"] == "at_least"
    assert response.json()["message"] == ("at_least: the request's lists make a grid of 10,010 cells (2 situations x "
                                          "1,001 at_least x 5 saves), over this server's limit of 10,000 per request; "
                                          "ask for fewer")
    assert client.get("/api/v1/health").json()["running"] == 0  # it never took a slot
    # exactly at the limit it runs: 2 x 5 x 1,000
    response = client.post("/api/v1/killteam/compare", json={**body, "at_least": list(range(1, 1001))})
    assert response.status_code == 200 and len(response.json()["result"]["rows"]) == 3 * 5


@pytest.mark.parametrize(("path", "body", "field", "cells"), [
    ("starcraft/compare", {"weapons": ["c14_rifle"] * 101, "units": ["roach"] * 100}, "weapons", 10_100),
    ("killteam/compare-fights", {"fighters": {f"f{i}": "wyche" for i in range(20)}, "opponents": ["ork_boy"] * 501},
     "opponents", 10_020),
    ("killteam/compare", {"situations": [{"weapon": GUN}], "saves": [2, 3, 4, 5, 6] * 21, "at_least": list(range(1, 101))},
     "saves", 10_500),
])
def test_every_comparison_grid_is_bounded(client: TestClient, path: str, body: dict[str, Any], field: str,
                                          cells: int) -> None:
    response = client.post(f"/api/v1/{path}", json=body)
    assert response.status_code == 422 and response.json()["field"] == field, response.text
    assert f"a grid of {cells:,} cells" in response.json()["message"]


def test_a_request_of_too_many_headers_is_431(client: TestClient) -> None:
    # their bytes are bounded by the server (mathhammer.web.protocol), their count by the app
    response = client.get("/api/v1/health", headers={f"x-header-{i}": "1" for i in range(101)})
    assert response.status_code == 431 and response.json()["error"] == "too many headers"
    assert client.get("/api/v1/health", headers={f"x-header-{i}": "1" for i in range(90)}).status_code == 200


def test_the_samples_limit_holds_for_the_request_not_for_each_place(client: TestClient) -> None:
    # docs/web.md: at most 10^7 samples per request, added up over every place that names them
    body = {"situations": [{"weapon": GUN, "samples": 6_000_000}, {"weapon": GUN, "samples": 5_000_000}],
            "method": "exact"}
    response = client.post("/api/v1/killteam/compare", json=body)
    assert response.status_code == 422 and response.json()["field"] == "situations[1].samples", response.text
    assert "add up to 11,000,000" in response.json()["message"]
    body["situations"][1]["samples"] = 4_000_000  # 10^7 in all: allowed
    assert client.post("/api/v1/killteam/compare", json=body).status_code == 200


def test_a_malformed_body_names_its_position_as_a_character_offset(client: TestClient) -> None:
    text = '{"weapon": "é€", "target": oops}'  # two characters of 2 and 3 bytes before the error
    response = client.post("/api/v1/killteam/shoot", content=text.encode(), headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["field"] == "body", response.text
    offset = text.index("oops")  # 27 characters; 30 bytes
    assert response.json()["message"] == f"body: not valid JSON at character {offset} (line 1, column {offset + 1}): Expecting value"


def test_the_solver_budget_error_says_what_this_server_accepts(client: TestClient) -> None:
    optimal = {"attacks": 4, "hit": 3, "damage": [3, 4], "wounds": 12, "strategy": "optimal"}
    response = client.post("/api/v1/killteam/fight", json={"a": optimal, "b": optimal, "max_states": 10})
    assert response.status_code == 422 and response.json()["field"] == "max_states", response.text
    message = response.json()["message"]
    assert message.startswith("max_states: the optimal solver needs more than 10 game states for this fight; ")
    assert "this server accepts max_states up to 2,000,000" in message and "raise" not in message
    # a request cannot raise it: the model says so with the same number
    response = client.post("/api/v1/killteam/fight", json={"a": optimal, "b": optimal, "max_states": 2_000_001})
    assert response.status_code == 422 and "2000000" in response.json()["message"]


def test_a_body_that_does_not_arrive_in_time_is_408() -> None:
    app = create_app(limits=Limits(body_seconds=0.3))

    async def trickle() -> Any:  # the start of a body, then silence past the limit and its slack
        yield b'{"weapon": '
        await asyncio.sleep(0.3 + LOAD_SLACK + 0.5)
        yield b'"bolt_rifle", "target": "kommando"}'

    async def post() -> tuple[httpx.Response, float]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            start = time.perf_counter()
            response = await http.post("/api/v1/killteam/shoot", content=trickle(),
                                       headers={"content-type": "application/json"})
            return response, time.perf_counter() - start

    response, seconds = asyncio.run(post())
    assert response.status_code == 408, response.text
    assert response.json() == {"error": "request timeout", "field": None,
                               "message": "the request body did not arrive within this server's limit of 0.3 s"}
    assert response.headers["connection"] == "close"
    assert_deadline(seconds, 0.3, earliest=0.3)


def test_building_the_answer_checks_the_requests_stop_token(monkeypatch: pytest.MonkeyPatch) -> None:
    # the time limit holds to the last byte: a token stopped while the answer is built stops the
    # request there (504), and its slot is free as soon as it is answered
    from mathhammer.core import stop
    from mathhammer.web import app as web

    built = web.result_dict

    def slow_to_build(result: Any) -> dict[str, Any]:
        rows = built(result)
        token = stop.current()
        assert token is not None  # built under the request's token
        token.stop()  # the time limit passes while the answer is being built
        return rows

    monkeypatch.setattr(web, "result_dict", slow_to_build)
    app = create_app(limits=Limits(concurrency=1, time_limit=5.0))
    [(response, seconds)] = asyncio.run(_post_all(app, [("/api/v1/killteam/shoot", {"weapon": GUN, "target": TARGET})]))
    assert response.status_code == 504
    assert_deadline(seconds, 0.0)  # at once, not at the time limit of 5 s
    assert app.state.gate.running == 0


def test_no_future_is_left_unretrieved_when_a_request_is_answered_before_its_computation_stops(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import gc

    from mathhammer.web import app as web

    resolve = web.entries.resolve_keywords

    def deaf(*args: Any, **kwargs: Any) -> Any:  # reaches its first check after the grace (1.1 s): then Stopped
        time.sleep(1.6)
        return resolve(*args, **kwargs)

    monkeypatch.setattr(web.entries, "resolve_keywords", deaf)
    app = create_app(limits=Limits(concurrency=1, time_limit=0.1))

    async def scenario() -> int:
        [(response, _)] = await _post_all(app, [("/api/v1/killteam/shoot", {"weapon": GUN, "target": TARGET})])
        while app.state.gate.running:  # the loop lives on until the computation has stopped
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.05)
        return response.status_code

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        assert asyncio.run(scenario()) == 504
        gc.collect()
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]


# --- teams (docs/web.md, "Teams") -------------------------------------------------------------------------------

def _gunner_team(name: str, save: int, wounds: int, gun: kt.Weapon, fists: kt.Weapon) -> Team:
    """An invented team whose operative "Gunner" another team has too, with another statline."""
    gunner = TeamOperative("Gunner", kt.Operative(save, wounds), 2, 6,
                           (TeamWeapon.read("Meltagun", "ranged", gun, f"Range 6\", {gun.rules}"),
                            TeamWeapon.read("Fists", "melee", fists, "")))
    leader = TeamOperative(f"{name} Leader", kt.Operative(3, 13), 3, 6, (TeamWeapon.read("Fists", "melee", fists, ""),))
    return Team(name, f"{name}.cat", 1, "0" * 64, (gunner, leader))


def test_teams_sharing_an_operative_name_are_served_apart(tmp_path: Path) -> None:
    alpha = _gunner_team("Alpha Squad", 3, 12, kt.Weapon(4, 4, (6, 3), "Piercing 2"), kt.Weapon(3, 4, (2, 3)))
    beta = _gunner_team("Beta Cell", 5, 8, kt.Weapon(5, 3, (4, 5), "Lethal 5+"), kt.Weapon(4, 3, (3, 4), "Brutal"))
    save_teams([alpha, beta], tmp_path)
    local = TestClient(create_app(profiles=[tmp_path]))
    body = local.get("/api/v1/profiles").json()["killteam"]
    # every operative of both teams is served, the clashing ones by "<team>/<name>" and the bare name by neither
    assert {"Alpha Squad/Gunner", "Beta Cell/Gunner", "Alpha Squad Leader", "Beta Cell Leader"} <= set(body["operative"])
    assert "Gunner" not in body["operative"]
    assert body["operative"]["Alpha Squad/Gunner"] | {"name": None} == {"save": 3, "wounds": 12, "abilities": "",
                                                                         "name": None}
    assert (body["operative"]["Beta Cell/Gunner"]["save"], body["operative"]["Beta Cell/Gunner"]["wounds"]) == (5, 8)
    # the same weapon key in both teams ("Gunner/Meltagun"): qualified too, each with its own statline
    assert body["weapon"]["Alpha Squad/Gunner/Meltagun"]["damage"] == [6, 3]
    assert body["weapon"]["Beta Cell/Gunner/Meltagun"]["rules"] == "Lethal 5+"
    # the teams section: each team's operatives and weapons by the names requests give them
    teams = body["teams"]
    assert set(teams) == {"Alpha Squad", "Beta Cell"}
    beta_team = teams["Beta Cell"]
    assert set(beta_team["operatives"]) == {"Beta Cell/Gunner", "Beta Cell Leader"}
    gunner = beta_team["operatives"]["Beta Cell/Gunner"]
    assert gunner["name"] == "Gunner" and gunner["fields"]["wounds"] == 8
    assert gunner["weapons"] == ["Beta Cell/Gunner/Meltagun", "Beta Cell/Gunner/Fists"]
    melta = beta_team["weapons"]["Beta Cell/Gunner/Meltagun"]
    assert (melta["name"], melta["operative"], melta["kind"], melta["served_as"]) == ("Meltagun", "Gunner", "ranged",
                                                                                       "weapon")
    assert melta["wr"] == 'Range 6", Lethal 5+' and melta["fields"]["attacks"] == 5
    fists = beta_team["weapons"]["Beta Cell/Gunner/Fists"]
    assert fists["served_as"] == "fighter" and fists["fields"]["wounds"] == 8 and fists["fields"]["rules"] == "Brutal"
    # requests name them the same way: qualified, or a unique name as it is
    target = local.post("/api/v1/killteam/shoot", json={"weapon": "Alpha Squad/Gunner/Meltagun",
                                                        "target": "Beta Cell/Gunner"})
    assert target.status_code == 200, target.text
    shot = target.json()["summary"]
    assert shot == plain(kt.shoot(kt.Weapon(4, 4, (6, 3), "Piercing 2"), kt.Operative(5, 8)).summary())
    leader = local.post("/api/v1/killteam/shoot", json={"weapon": GUN, "target": "Beta Cell Leader"})
    assert leader.json()["summary"] == plain(kt.shoot(kt.Weapon.from_dict(GUN), kt.Operative(3, 13)).summary())
    ambiguous = local.post("/api/v1/killteam/shoot", json={"weapon": GUN, "target": "Gunner"})
    assert ambiguous.status_code == 422 and ambiguous.json()["field"] == "target"
    assert "'Alpha Squad/Gunner'" in ambiguous.json()["message"] and "'Beta Cell/Gunner'" in ambiguous.json()["message"]


def test_the_matchup_summary_is_the_one_kt_matchup_gives(client: TestClient) -> None:
    response = client.post("/api/v1/killteam/matchup", json={"team_a": "Gloam Pact", "team_b": "Ember Wardens"})
    assert response.status_code == 200, response.text
    body = response.json()
    m = kt.matchup(load_team(KILLTEAM_TEAMS / "Gloam Pact.toml"), load_team(KILLTEAM_TEAMS / "Ember Wardens.toml"))
    # one row per enemy operative, in their order: the summary at cover 1, striking first
    assert [row["defender"] for row in body["summary"]["shots"]] == list(m.defenders)
    assert (body["summary"]["cover"], body["summary"]["first"]) == (1, "a")
    best = min((s for s in m.shots if s.defender == "Warden Captain" and s.cover == 1),
               key=lambda s: (s.shots_to_kill, -s.mean_damage))
    first = body["summary"]["shots"][0]
    assert (first["attacker"], first["weapon"]) == (best.attacker, best.weapon)
    assert first["shots_to_kill"] == pytest.approx(best.shots_to_kill, rel=1e-12)
    assert len(body["result"]["shots"]) == len(m.shots) == 1 * 8 * 2  # its one ranged weapon x 8 operatives x 2 covers
    assert body["notes"] == plain(list(m.notes))


@pytest.mark.parametrize(("body", "field", "says"), [
    ({"team_a": "Ember Wardens", "team_b": "Gloam Packt"}, "team_b", "unknown team 'Gloam Packt' (did you mean 'Gloam Pact'?)"),
    ({"team_a": "examples/killteam/teams/Ember Wardens.toml", "team_b": "Gloam Pact"}, "team_a", "unknown team"),
    ({"team_a": "Ember Wardens", "team_b": ["Gloam Pact"]}, "team_b", "str"),
    ({"team_a": "Ember Wardens", "team_b": "Gloam Pact", "cover": [1, 9]}, "cover[1]", "9"),
    ({"team_a": "Ember Wardens", "team_b": "Gloam Pact", "strategies": [["parry", "charge"]]}, "strategies[0][1]",
     "charge"),
    ({"team_b": "Gloam Pact"}, "team_a", "Field required"),
])
def test_a_bad_matchup_request_is_422_naming_the_field(client: TestClient, body: dict[str, Any], field: str,
                                                       says: str) -> None:
    response = client.post("/api/v1/killteam/matchup", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == field and says in response.json()["message"], response.json()


def test_a_server_without_teams_says_how_to_load_them() -> None:
    response = TestClient(create_app()).post("/api/v1/killteam/matchup", json={"team_a": "A", "team_b": "B"})
    assert response.status_code == 422
    assert "no teams are loaded" in response.json()["message"] and "serve --profiles DIR" in response.json()["message"]


def test_a_matchup_of_two_60_operative_teams_is_within_limits_and_a_bigger_one_is_refused(tmp_path: Path) -> None:
    # four weapons each (three ranged, one melee): 180 x 60 x 2 covers + 60 x 60 x 2 first strikers = 28,800 rows
    for team in (synthetic_team(1, operatives=60, weapons=4, name="Sixty A"),
                 synthetic_team(2, operatives=60, weapons=4, name="Sixty B"),
                 synthetic_team(3, operatives=110, weapons=4, name="Hundred and ten")):
        save_team(team, tmp_path)
    local = TestClient(create_app(profiles=[tmp_path], limits=Limits(time_limit=0.5)))
    big = local.post("/api/v1/killteam/matchup", json={"team_a": "Sixty A", "team_b": "Hundred and ten"})
    assert big.status_code == 422 and big.json()["error"] == "too large" and big.json()["field"] == "team_b"
    shots, fights = 180 * 110 * 2, 60 * 110 * 2
    assert big.json()["message"] == (
        f"team_b: the answer would hold {shots + fights:,} rows: {shots:,} shots (180 ranged weapons of Sixty A x 110 "
        f"operatives of Hundred and ten x 2 cover values) and {fights:,} fights (60 melee weapons of Sixty A x 110 of "
        "Hundred and ten x 2 first strikers x 1 strategy pairs), over this server's limit of 50,000 per request; ask "
        "for fewer (smaller teams, one kind of attack, fewer options)")
    assert local.get("/api/v1/health").json()["running"] == 0  # refused before it took a slot
    # the two 60-operative teams pass the bound; at a 0.5 s time limit the request's stop token stops the work
    start = time.perf_counter()
    within = local.post("/api/v1/killteam/matchup", json={"team_a": "Sixty A", "team_b": "Sixty B"})
    assert within.status_code == 504, within.text
    assert_deadline(time.perf_counter() - start, 0.5, earliest=0.5)
    # fewer options fit again: one cover value, 180 x 110 shots + 60 x 110 fights striking first
    fewer = local.post("/api/v1/killteam/matchup", json={"team_a": "Sixty A", "team_b": "Hundred and ten", "cover": 1,
                                                         "first": "a"})
    assert fewer.status_code == 504, fewer.text


def test_a_weapon_that_can_never_kill_answers_null_shots_to_kill(tmp_path: Path) -> None:
    harmless = TeamWeapon.read("Pea shooter", "ranged", kt.Weapon(1, 6, (0, 0)), "")
    save_team(Team("Harmless", "harmless.cat", 1, "0" * 64,
                   (TeamOperative("Clerk", kt.Operative(6, 7), 1, 5, (harmless,)),)), tmp_path)
    save_team(synthetic_team(4, operatives=2, weapons=2, name="Targets"), tmp_path)
    local = TestClient(create_app(profiles=[tmp_path]))
    response = local.post("/api/v1/killteam/matchup", json={"team_a": "Harmless", "team_b": "Targets", "cover": [0]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert [s["shots_to_kill"] for s in body["result"]["shots"]] == [None, None]  # JSON has no infinity
    assert [s["attacker"] for s in body["summary"]["shots"]] == [None, None]
    assert body["notes"] == ["Harmless has no melee weapons: no fights"]
    assert math.isinf(kt.matchup(load_team(tmp_path / "Harmless.toml"), load_team(tmp_path / "Targets.toml"),
                                 cover=[0]).shots[0].shots_to_kill)


def test_pasted_datacard_rules_are_taken_and_their_notes_answered(client: TestClient) -> None:
    pasted = {**GUN, "rules": 'Range 8", Lethal 5+, Silent'}
    response = client.post("/api/v1/killteam/shoot", json={"weapon": pasted, "target": TARGET})
    assert response.status_code == 200, response.text
    # the shot without the tokens that change nothing in one shot, and a note on each
    assert response.json() == expected(kt.shoot(kt.Weapon(4, 3, (3, 4), "Lethal 5+"), kt.Operative(3, 12)), (
        'weapon.rules: Range 8": targeting and position: the shot assumes the target is within range',
        "weapon.rules: Silent: orders: shooting while concealed, not what the shot does"))
    fought = client.post("/api/v1/killteam/fight", json={"a": "4A 3+ 3/4 Brutal, Stun; 12W", "b": FIGHTER_B})
    assert fought.status_code == 200 and len(fought.json()["notes"]) == 1 and fought.json()["notes"][0].startswith("a: Stun")


def test_the_matchup_turns_on_the_teams_switches_it_names(client: TestClient) -> None:
    wardens = client.get("/api/v1/profiles").json()["killteam"]["teams"]["Ember Wardens"]
    assert "Cinder Oath" in wardens["switches"]  # the switches a request may name, with what they change
    body = {"team_a": "Ember Wardens", "team_b": "Gloam Pact", "cover": [1], "fight": False}
    plain_answer = client.post("/api/v1/killteam/matchup", json=body).json()
    switched = client.post("/api/v1/killteam/matchup", json={**body, "switches": ["cinder oath"]})
    assert switched.status_code == 200, switched.text
    a, b = load_team(KILLTEAM_TEAMS / "Ember Wardens.toml"), load_team(KILLTEAM_TEAMS / "Gloam Pact.toml")
    assert switched.json() == expected(kt.matchup(a, b, cover=[1], fight=False, switches=["cinder oath"]))
    assert switched.json()["result"]["shots"] != plain_answer["result"]["shots"]  # the switch changes the shots
    unknown = client.post("/api/v1/killteam/matchup", json={**body, "switches": ["Cinder Oat"]})
    assert unknown.status_code == 422 and unknown.json()["field"] == "switches[0]", unknown.text
    # the libraries' switches ("with") change profiles a request names; a matchup names none
    refused = client.post("/api/v1/killteam/matchup", json={**body, "with": ["Cinder Oath"]})
    assert refused.status_code == 422 and refused.json()["field"] == "with", refused.text

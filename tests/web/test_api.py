"""The JSON API (docs/web.md) against the Python calls it wraps: every endpoint answers the same
numbers as calling the engine function directly, and every limit answers its own status."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from casedata import KILLTEAM_DATA
from mathhammer import deathburgh as db, force_melee as fm, games, killteam as kt, starcraft as sc
from mathhammer.core.results import MatrixResult
from mathhammer.web import Limits, create_app
from timing import LOAD_SLACK, assert_deadline

EXAMPLES = "python/mathhammer/examples"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def plain(value: Any) -> Any:
    """A Python value as it comes back from JSON."""
    return json.loads(json.dumps(value))


def expected(result: Any) -> dict[str, Any]:
    summary = result.summary() if hasattr(result, "summary") else None
    # a comparison: the rows of its to_frame(), one per cell, not every cell's whole result
    rows = {"rows": result.to_frame().to_dict(orient="records")} if isinstance(result, MatrixResult) else result.to_dict()
    return plain({"result": rows, "summary": summary})


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

"""The web app under way: the websocket a browser plays and watches through, bots that think
for long without holding up other tables, games dropped after inactivity, the cap on games,
and the policies a server offers with --policy."""

from __future__ import annotations

import json
import random
import threading
import time

import numpy as np
import pytest

import eights
from web_helpers import live_server, requires_web, ws_url

requires_web()

import httpx  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402


@pytest.fixture(scope="module")
def server():
    policies = {"first": "web_helpers:first_legal", "broken": "web_helpers:illegal_policy"}
    with live_server(policies=policies, max_search=300_000) as base:  # a search of seconds, below
        yield base


@pytest.fixture(scope="module")
def client():
    with httpx.Client(timeout=120) as c:
        yield c


def _create(client, server, **body):
    response = client.post(f"{server}/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def _receive(ws):
    return json.loads(ws.recv(timeout=60))


def _until_your_turn(ws):
    """Messages until a state where the person is to act or the game is over."""
    seen = []
    while True:
        message = _receive(ws)
        seen.append(message)
        if message["type"] == "state" and message["state"]["waiting_for"] != "bot":
            return message["state"], seen


def test_play_a_game_over_the_websocket(client, server):
    state = _create(client, server, preset="switch_blackjack", players=3, seat=2, bots="heuristic", seed=5)
    with connect(ws_url(server, state["id"])) as ws:
        state, seen = _until_your_turn(ws)
        assert seen[0]["type"] == "state" and seen[0]["move"] is None  # the table first
        bot_moves = [m["move"] for m in seen[1:]]
        assert all(m["seat"] != 2 for m in bot_moves) and state["decision"] == len(bot_moves)
        while not state["over"]:
            ws.send(json.dumps({"op": "act", "action": state["legal"][-1]["id"], "decision": state["decision"]}))
            before = state["decision"]
            state, seen = _until_your_turn(ws)
            assert seen[0]["move"]["seat"] == 2 and seen[0]["move"]["decision"] == before + 1
            decisions = [m["state"]["decision"] for m in seen if m["type"] == "state"]
            assert decisions == list(range(before + 1, state["decision"] + 1))  # one message per move
        ws.send(json.dumps({"op": "deal", "swap": True}))
        state, _ = _until_your_turn(ws)
        assert state["deal"] == 2 and state["you"] == 0
    record = client.get(f"{server}/api/games/{state['id']}/record")
    assert record.status_code in (200, 409)


def test_bad_messages_are_answered_and_the_socket_stays_open(client, server):
    state = _create(client, server, preset="crazy_eights", players=2, seat=0, bots="heuristic", seed=8)
    with connect(ws_url(server, state["id"])) as ws:
        state, _ = _until_your_turn(ws)
        for text, status, words in [
            ("not json", 400, "JSON object"),
            ("[1]", 400, "JSON object"),
            ('{"op": "fly"}', 400, "unknown op 'fly'"),
            ('{"op": "act"}', 400, "'action' is missing"),
            ('{"op": "act", "action": "play ZZ"}', 400, "not a move"),
            ('{"op": "act", "action": 500}', 400, "'action' must be in"),
            (json.dumps({"op": "act", "action": state["legal"][0]["id"], "decision": 999}), 409, "moved on"),
            ('{"op": "advance", "steps": -2}', 400, "'steps'"),
            ('{"op": "deal", "swap": 1}', 400, "'swap'"),
            ('{"op": "state", "pad": "' + "x" * 20000 + '"}', 413, "limit"),
        ]:
            ws.send(text)
            message = _receive(ws)
            assert message["type"] == "error" and message["status"] == status, (text[:40], message)
            assert words in message["error"], (text[:40], message)
        ws.send(b"\x00binary")
        assert _receive(ws)["status"] == 400
        ws.send('{"op": "state"}')
        again = _receive(ws)
        assert again["type"] == "state" and again["state"]["decision"] == state["decision"]
        ws.send("x" * 100_000)  # over the server's websocket frame limit: the server closes
        with pytest.raises(ConnectionClosed):
            _receive(ws)
            _receive(ws)


def test_an_unknown_game_is_refused_on_the_websocket(server):
    with connect(ws_url(server, "nope")) as ws:
        message = _receive(ws)
        assert message == {"type": "error", "status": 404, "error": message["error"]}
        assert "no game 'nope'" in message["error"]
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 4404


def test_watch_step_by_step(client, server):
    state = _create(
        client, server, mode="watch", preset="crazy_eights", players=4, bots=["heuristic", "random"] * 2, seed=3
    )
    assert state["you"] is None and all(s["cards"] is not None for s in state["seats"])
    game = eights.Game("crazy_eights", 4, seed=3)
    with connect(ws_url(server, state["id"])) as ws:
        assert _receive(ws)["state"]["decision"] == 0  # nothing moves until asked
        for k in range(1, 6):
            ws.send('{"op": "advance"}')
            message = _receive(ws)
            game.step(message["move"]["action"])
            assert message["state"]["decision"] == k == game.decision_count
            assert [s["cards"] for s in message["state"]["seats"]] == [game.hand(p) for p in range(4)]


def test_a_thinking_bot_does_not_hold_up_other_tables(client, server):
    # One move of ismcts:300000 takes seconds; it thinks on a worker thread (the Rust bots
    # release the GIL), so another table plays meanwhile.
    slow = _create(client, server, preset="crazy_eights", players=2, seat=1, bots="ismcts:300000", seed=1)
    quick = _create(client, server, mode="watch", preset="crazy_eights", players=2, bots="heuristic", seed=1)
    done = threading.Event()

    def think():
        client_slow = httpx.Client(timeout=300)
        client_slow.post(f"{server}/api/games/{slow['id']}/advance", json={})
        done.set()

    thinker = threading.Thread(target=think, daemon=True)
    thinker.start()
    time.sleep(0.3)  # the slow move has started
    thinking = client.get(f"{server}/api/games/{slow['id']}").json()
    moves = client.post(f"{server}/api/games/{quick['id']}/advance", json={"steps": 20}).json()["moves"]
    assert len(moves) > 0 and client.get(f"{server}/api/health").json()["ok"]
    assert not done.is_set(), "the other table had to wait for the thinking bot"
    assert thinking["thinking"] == 0
    thinker.join(timeout=300)
    assert done.is_set() and client.get(f"{server}/api/games/{slow['id']}").json()["thinking"] is None


def test_policies_offered_by_the_server(client, server):
    meta = client.get(f"{server}/api/meta").json()
    assert meta["policies"] == ["first", "broken"]
    state = _create(client, server, mode="watch", preset="crazy_eights", players=2, bots=["first", "heuristic"], seed=2)
    assert state["seats"][0]["agent"] == "first"
    game = eights.Game("crazy_eights", 2, seed=2)
    moves = client.post(f"{server}/api/games/{state['id']}/advance", json={"steps": 6}).json()["moves"]
    for move in moves:
        if move["seat"] == 0:  # the policy plays the first legal action
            assert move["action"] == game.legal_actions()[0]
        game.step(move["action"])
    broken = _create(client, server, mode="watch", preset="crazy_eights", players=2, bots="broken", seed=2)
    response = client.post(f"{server}/api/games/{broken['id']}/advance", json={})
    assert (
        response.status_code == 500 and "'broken'" in response.json()["error"] and "illegal" in response.json()["error"]
    )
    assert client.get(f"{server}/api/games/{broken['id']}").json()["decision"] == 0


def test_bad_policy_settings_fail_at_start():
    from eights.web import create_app

    with pytest.raises(ValueError, match="built-in bot name"):
        create_app(policies={"heuristic": "web_helpers:first_legal"})
    with pytest.raises(ValueError, match="names the person"):
        create_app(policies={"You": "web_helpers:first_legal"})
    with pytest.raises(ValueError, match="no_such_module"):
        create_app(policies={"x": "no_such_module:f"})
    with pytest.raises(ValueError, match="no such model file"):
        create_app(policies={"x": "missing.zip"})
    with pytest.raises(ValueError, match="records folder"):
        create_app(records_dir="/no/such/folder")


def test_idle_games_expire_and_the_cap_holds():
    with live_server(idle_timeout=0.5, max_games=3) as base, httpx.Client(timeout=30) as c:
        ids = [c.post(f"{base}/api/games", json={"bots": "random"}).json()["id"] for _ in range(3)]
        response = c.post(f"{base}/api/games", json={"bots": "random"})
        assert response.status_code == 429 and "3 games" in response.json()["error"]
        assert c.get(f"{base}/api/health").json()["games"] == 3
        deadline = time.monotonic() + 20
        while c.get(f"{base}/api/health").json()["games"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert c.get(f"{base}/api/health").json()["games"] == 0
        for gid in ids:
            response = c.get(f"{base}/api/games/{gid}")
            assert response.status_code == 404 and "without a move" in response.json()["error"]
        assert c.post(f"{base}/api/games", json={"bots": "random"}).status_code == 201


def test_random_messages_are_answered_without_a_server_error(client, server):
    rng = random.Random(1)
    values = [None, True, 0, -1, 1, 5, 10**20, 1.5, "", "draw", "play 8H", "suit H", [], {}, [1], {"a": 1}]
    state = _create(client, server, preset="crazy_eights", players=3, seat=0, bots="random", seed=6)
    with connect(ws_url(server, state["id"])) as ws:
        _until_your_turn(ws)
        for _ in range(300):
            message = {"op": rng.choice(["act", "advance", "deal", "state", "x", None])}
            for key in rng.sample(["action", "decision", "steps", "swap", "seed"], rng.randint(0, 3)):
                message[key] = rng.choice(values)
            ws.send(json.dumps(message))
            while True:  # the answers to this message: an error, or states up to a settled one
                answer = _receive(ws)
                if answer["type"] == "error":
                    assert 400 <= answer["status"] < 500 and answer["error"], (message, answer)
                    break
                if answer["type"] == "state" and answer["state"]["waiting_for"] != "bot":
                    break


def test_a_saved_sb3_model_offered_with_policy_plays_on_its_scaled_observation(tmp_path):
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from eights.web.requests import _agent

    torch.set_num_threads(1)
    env = eights.make("crazy_eights", seed=0, scale_obs=True)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, n_epochs=1, seed=0, device="cpu")
    path = tmp_path / "scaled.zip"
    model.save(str(path))
    with live_server(policies={"ppo": str(path)}) as base, httpx.Client(timeout=120) as c:
        body = {
            "mode": "watch",
            "preset": "switch_blackjack",
            "players": 3,
            "bots": ["ppo", "heuristic", "ppo"],
            "seed": 3,
        }
        state = c.post(f"{base}/api/games", json=body).json()
        assert [s["agent"] for s in state["seats"]] == ["ppo", "heuristic", "ppo"]
        moves = c.post(f"{base}/api/games/{state['id']}/advance", json={"steps": 12}).json()["moves"]
        assert len(moves) == 12 and {m["seat"] for m in moves} >= {0, 1}
    # Each table gets the model with the scale of its own rules and player count.
    from eights.web.config import load_policies

    policies = load_policies({"ppo": str(path)})
    agent = _agent("ppo", eights.Rules("switch_blackjack"), 3, policies)
    policy = agent.batch_policy.__self__
    assert policy.model is policies["ppo"].model and policies["ppo"].scale is None
    bounds = eights.observation.ObservationBounds("switch_blackjack", 3)
    obs = eights.Game("switch_blackjack", 3, seed=0).observation(0)
    assert np.array_equal(policy.scale.scale(obs), bounds.scale(obs))


def test_another_sites_page_can_neither_post_nor_open_a_websocket(client, server):
    # Any page a browser showed could create games and open replays here: a form's content
    # type needs no permission across sites, and no Origin was looked at.
    evil = {"Origin": "http://evil.example"}
    body = '{"mode": "watch", "players": 2}'
    form = {"content-type": "application/x-www-form-urlencoded"}
    for headers, status, words in [
        ({**evil, "content-type": "application/json"}, 403, "from another site (http://evil.example)"),
        ({**evil, **form}, 403, "from another site"),
        ({"Origin": "null", "content-type": "application/json"}, 403, "from another site (null)"),
        (form, 415, "the API takes JSON (or TOML for rules), not application/x-www-form-urlencoded"),
    ]:
        response = client.post(f"{server}/api/games", content=body, headers=headers)
        assert response.status_code == status and words in response.json()["error"], response.text
    # The page's own origin, and a script that names none, are served.
    own = {"Origin": server, "content-type": "application/json"}
    assert client.post(f"{server}/api/games", content=body, headers=own).status_code == 201
    state = _create(client, server, mode="watch", players=2)
    assert client.get(f"{server}/api/games/{state['id']}", headers=evil).status_code == 200  # reads are the page's
    with pytest.raises(Exception, match="403"):
        with connect(ws_url(server, state["id"]), additional_headers=evil):
            pass
    with connect(ws_url(server, state["id"]), additional_headers={"Origin": server}) as ws:
        assert _receive(ws)["type"] == "state"

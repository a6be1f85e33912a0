"""The web app's HTTP API against a live server: a whole game played over HTTP and checked
against the engine, hidden hands, new deals and rematches, the rules endpoint, and every
kind of bad request answered with a 4xx and a message that says what is wrong."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import eights
from web_helpers import live_server, requires_web, state_of

requires_web()

HOUSE_RULES = Path(__file__).resolve().parents[3] / "examples" / "house_rules.toml"

import httpx  # noqa: E402


@pytest.fixture(scope="module")
def server():
    with live_server() as base:
        yield base


@pytest.fixture(scope="module")
def client():
    with httpx.Client(timeout=60) as c:
        yield c


def _create(client, server, **body):
    response = client.post(f"{server}/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def _play_to_the_end(client, server, state, rng):
    """Answer the person's turns with random legal moves (over HTTP) until the game ends;
    returns the final state and the person's actions."""
    gid = state["id"]
    if state["waiting_for"] == "bot":
        state = client.post(f"{server}/api/games/{gid}/advance", json={}).json()["state"]
    mine = []
    while not state["over"]:
        assert state["waiting_for"] == "you" and state["legal"], state
        move = rng.choice(state["legal"])
        response = client.post(
            f"{server}/api/games/{gid}/actions", json={"action": move["id"], "decision": state["decision"]}
        )
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["moves"][0]["action"] == move["id"] and body["moves"][0]["seat"] == state["you"]
        mine.append(move["id"])
        state = body["state"]
    return state, mine


def test_meta_lists_the_presets_bots_and_limits(client, server):
    meta = client.get(f"{server}/api/meta").json()
    assert [p["name"] for p in meta["presets"]] == eights.presets()
    switch = next(p for p in meta["presets"] if p["name"] == "switch_blackjack")
    assert switch["variants"] == eights.Rules("switch_blackjack").variants
    assert (switch["players"]["min"], switch["players"]["max"]) == (2, 7)
    assert "heuristic" in meta["bots"] and any(b.startswith("ismcts:") for b in meta["bots"])
    assert meta["version"] == eights.__version__
    assert meta["records"] is False and meta["policies"] == []


def test_a_whole_game_over_http_matches_the_engine(client, server):
    rng = random.Random(1)
    state = _create(client, server, preset="switch_blackjack", players=3, seat=1, bots=["heuristic", "random"], seed=7)
    assert state["you"] == 1 and state["seats"][1]["name"] == "You"
    assert [s["agent"] for s in state["seats"]] == ["heuristic", None, "random"]
    final, mine = _play_to_the_end(client, server, state, rng)
    record = client.get(f"{server}/api/games/{state['id']}/record").json()
    assert record["seed"] == 7 and record["players"] == 3
    # The person's moves are in the record at their seat, in order.
    assert [a for seat, a in record["actions"] if seat == 1] == mine
    # The engine, stepped through the record on its own, ends where the server says.
    game = eights.Game("switch_blackjack", 3, seed=7)
    for seat, action in record["actions"]:
        assert game.current_player == seat
        game.step(action)
    assert final["over"] and (game.is_terminal or game.is_truncated)
    assert final["result"]["winner"] == game.winner
    assert final["result"]["scores"] == game.scores == [s["score"] for s in final["seats"]]
    assert final["decision"] == game.decision_count
    # The game is over: every hand is shown, and the tally counted the deal once.
    assert all(s["cards"] == game.hand(p) for p, s in enumerate(final["seats"]))
    assert [t["deals"] for t in final["tally"]] == [1, 1, 1]
    assert sum(t["wins"] for t in final["tally"]) == (1 if game.winner is not None else 0)


def test_only_the_persons_hand_is_shown_while_playing(client, server):
    state = _create(client, server, preset="crazy_eights", players=4, seat=2, bots="heuristic", seed=3)
    game = eights.Game("crazy_eights", 4, seed=3)
    for p, seat in enumerate(state["seats"]):
        assert seat["count"] == len(game.hand(p))
        assert seat["cards"] == (game.hand(2) if p == 2 else None)
    assert state["seed"] is None  # the seed would give the deck away
    assert state["legal"] == [] or state["waiting_for"] == "you"


def test_legal_moves_are_the_engines_with_labels(client, server):
    state = _create(client, server, preset="crazy_eights", players=2, seat=0, bots="heuristic", seed=11)
    state = client.post(f"{server}/api/games/{state['id']}/advance", json={}).json()["state"]
    record = client.get(f"{server}/api/games/{state['id']}/record")
    assert record.status_code == 409 and "over" in record.json()["error"]
    # The same position in the engine: replay the server's moves so far.
    game = eights.Game("crazy_eights", 2, seed=11)
    for move in state["history"]:
        game.step(move["action"])
    assert game.decision_count == state["decision"]
    assert [m["id"] for m in state["legal"]] == game.legal_actions()
    assert [m["text"] for m in state["legal"]] == game.legal_action_strings()
    for move in state["legal"]:
        if move["kind"] == "play":
            assert move["card"] in game.hand(0) and move["label"].startswith("Play ")
        if move["kind"] == "draw":
            assert move["label"] == "Draw a card"


def test_new_deal_and_rematch_with_seats_swapped(client, server):
    rng = random.Random(2)
    state = _create(client, server, preset="crazy_eights", players=2, seat=0, bots="heuristic", seed=21)
    gid = state["id"]
    state, _ = _play_to_the_end(client, server, state, rng)
    first = client.get(f"{server}/api/games/{gid}/record").json()
    # Rematch: the same deal, the person now at seat 1 with the cards seat 1 was dealt.
    state = client.post(f"{server}/api/games/{gid}/deal", json={"swap": True}).json()
    assert state["deal"] == 2 and state["you"] == 1 and state["decision"] == 0
    assert state["seats"][1]["cards"] == eights.Game.from_record(first, upto=0).hand(1)
    assert {t["name"]: t["seat"] for t in state["tally"]} == {"You": 1, "heuristic": 0}
    state, _ = _play_to_the_end(client, server, state, rng)
    assert [t["deals"] for t in state["tally"]] == [2, 2]
    second = client.get(f"{server}/api/games/{gid}/record").json()
    assert second["seed"] == first["seed"] == 21
    # A new deal: a fresh seed (or the one asked for), the seats kept.
    state = client.post(f"{server}/api/games/{gid}/deal", json={"seed": 5}).json()
    assert state["deal"] == 3 and state["you"] == 1
    assert state["seats"][1]["cards"] == eights.Game("crazy_eights", 2, seed=5).hand(1)


def test_a_match_lists_each_hands_points(client, server):
    rng = random.Random(4)
    state = _create(
        client, server, preset="crazy_eights", variants=["match_to_100"], players=3, bots="heuristic", seed=9
    )
    assert state["rules"]["match"] is True
    final, _ = _play_to_the_end(client, server, state, rng)
    record = client.get(f"{server}/api/games/{state['id']}/record").json()
    game = eights.Game.from_record(record)
    assert len(final["hands"]) == game.hands_played >= 1
    assert final["hands"][-1]["scores"] == game.scores
    totals = [sum(h["points"][p] for h in final["hands"]) for p in range(3)]
    assert totals == game.scores


def test_rules_endpoint_describes_presets_variants_and_uploads(client, server):
    body = client.post(f"{server}/api/rules", json={"preset": "crazy_eights", "variants": ["aces_wild"]}).json()
    expected = eights.Rules("crazy_eights", variants=["aces_wild"])
    assert body["describe"] == expected.describe() and body["active_variants"] == ["aces_wild"]
    assert {v["name"] for v in body["variants"]} == set(expected.variants)
    with open(HOUSE_RULES, encoding="utf-8") as f:
        text = f.read()
    body = client.post(f"{server}/api/rules", json={"toml": text}).json()
    assert body["name"] == "house_eights" and body["describe"] == eights.Rules.from_toml(text).describe()
    raw = client.post(f"{server}/api/rules", content=text.encode(), headers={"content-type": "application/toml"})
    assert raw.status_code == 200 and raw.json()["name"] == "house_eights"
    game = _create(client, server, toml=text, players=3, bots="heuristic", seed=1)
    assert game["rules"]["name"] == "house_eights"
    assert (
        client.get(f"{server}/api/games/{game['id']}/rules").json()["describe"]
        == eights.Rules.from_toml(text).describe()
    )


def test_a_table_of_changed_rules_is_not_titled_as_the_preset(client, server):
    # The page's title was the preset's ("Crazy Eights") over a preset with variants or an
    # uploaded file of changes to it; a house-rules file of its own name keeps its own title.
    plain = _create(client, server, preset="crazy_eights", players=2, bots="random", seed=1)
    assert plain["rules"]["title"] == "Crazy Eights"
    game = _create(client, server, preset="crazy_eights", variants=["aces_wild"], players=2, bots="random", seed=1)
    assert game["rules"]["title"] == "Crazy Eights (changed: variants=aces_wild)"
    assert client.get(f"{server}/api/games/{game['id']}/rules").json()["title"] == game["rules"]["title"]
    six = "inherits = 'crazy_eights'\n[deal]\nhand_size = 6\n"
    body = client.post(f"{server}/api/rules", json={"toml": six}).json()
    assert body["title"] == "Crazy Eights (changed: deal.hand_size=6)" and body["name"] == "crazy_eights"
    game = _create(client, server, toml=six, players=2, bots="random", seed=1)
    assert game["rules"]["title"] == "Crazy Eights (changed: deal.hand_size=6)"
    with open(HOUSE_RULES, encoding="utf-8") as f:
        text = f.read()
    assert client.post(f"{server}/api/rules", json={"toml": text}).json()["title"] == "House Eights"
    assert _create(client, server, toml=text, players=3, bots="random", seed=1)["rules"]["title"] == "House Eights"
    own = "inherits = 'crazy_eights'\nname = 'mine'\ntitle = 'My Eights'\n[deal]\nhand_size = 6\n"
    assert client.post(f"{server}/api/rules", json={"toml": own}).json()["title"] == "My Eights"
    # Changed on top, a house-rules file's own title says so.
    body = client.post(f"{server}/api/rules", json={"toml": own, "variants": ["aces_wild"]}).json()
    assert body["title"] == "My Eights (changed: variants=aces_wild)"


@pytest.mark.parametrize(
    "body,status,words",
    [
        ({"toml": "inherits = 'crazy_eights\n"}, 400, "invalid TOML"),
        ({"toml": "inherits = 'crazy_eights'\n[deal]\nhand_sise = 3\n"}, 400, "deal.hand_sise"),
        ({"toml": "inherits = 'no_such_preset'\n"}, 400, "no_such_preset"),
        ({"toml": "[deal]\nhand_size = -3\n"}, 400, "hand_size"),
        # A path is TOML text here, never a file the server would read.
        ({"toml": "examples/house_rules.toml"}, 400, "invalid TOML"),
        ({"toml": "x = " + "[" * 5000 + "]" * 5000}, 400, "nested"),
        ({"toml": "# " + "x" * 70000}, 413, "limit"),
        # No cap, or a vast one: bots that circle held the whole server within one request.
        (
            {"toml": "inherits = 'kings_reverse'\nvariants = ['joker_bluff']\n[limits]\nmax_decisions = 0\n"},
            400,
            "limits.max_decisions must be in [1, 100,000] for a table on the server",
        ),
        ({"toml": "inherits = 'crazy_eights'\n[limits]\nmax_decisions = 100001\n"}, 400, "got 100,001"),
        ({"preset": "crazy_eights", "variants": ["no_such_variant"]}, 400, "no_such_variant"),
        ({"preset": "crazy_eights", "variants": ["no_nomination", "eight_must_match"]}, 400, "cards.8.wild.nominate"),
        ({"preset": "no_such_preset"}, 400, "crazy_eights"),
        ({"preset": "crazy_eights", "toml": "inherits = 'crazy_eights'"}, 400, "not both"),
        ({"preset": 7}, 400, "'preset' must be a string"),
        ({"variants": "aces_wild"}, 400, "'variants' must be a list"),
    ],
)
def test_bad_rules_are_refused_with_the_reason(client, server, body, status, words):
    response = client.post(f"{server}/api/rules", json=body)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


@pytest.mark.parametrize(
    "body,words",
    [
        ({"preset": "one_left", "players": 3}, "one_left is for exactly 2 players, got 3"),
        # Changed rules are named with their changes, not as the preset they change.
        (
            {"toml": "inherits = 'crazy_eights'\n[players]\nmax = 3\n", "players": 4},
            "'players': crazy_eights + players.max=3 allows 2 to 3 players, got 4",
        ),
        ({"players": 11}, "'players' must be in [2, 10]"),
        ({"players": "two"}, "'players' must be an integer"),
        ({"seat": 2, "players": 2}, "'seat' must be in [0, 1]"),
        ({"bots": "genius"}, "heuristic"),
        ({"bots": ["heuristic", "random"], "players": 2}, "one per bot seat (1)"),
        ({"bots": 3}, "'bots' must be a bot name or a list"),
        ({"bots": "ismcts:0"}, "ismcts"),
        ({"preset": "stalin", "players": 4, "bots": "net1"}, "net1"),
        ({"seed": -1}, "'seed' must be in [0, 2**64)"),
        ({"seed": 2**64}, "'seed' must be in [0, 2**64)"),
        ({"mode": "spectate"}, "'mode' must be 'play' or 'watch'"),
    ],
)
def test_bad_tables_are_refused_with_the_reason(client, server, body, words):
    response = client.post(f"{server}/api/games", json=body)
    assert response.status_code == 400, response.text
    assert words in response.json()["error"]


def test_malformed_and_oversized_bodies(client, server):
    response = client.post(f"{server}/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 400 and "not valid JSON" in response.json()["error"]
    response = client.post(f"{server}/api/games", json=[1, 2])
    assert response.status_code == 400 and "JSON object" in response.json()["error"]
    response = client.post(f"{server}/api/games", content=b"[" * 100000, headers={"content-type": "application/json"})
    assert response.status_code in (400, 413) and response.json()["error"]
    response = client.post(f"{server}/api/games", content=b" " * 200000, headers={"content-type": "application/json"})
    assert response.status_code == 413 and "limit" in response.json()["error"]


def test_bad_moves_are_refused_and_change_nothing(client, server):
    state = _create(client, server, preset="crazy_eights", players=2, seat=0, bots="heuristic", seed=4)
    gid = state["id"]
    state = client.post(f"{server}/api/games/{gid}/advance", json={}).json()["state"]
    legal = {m["id"] for m in state["legal"]}
    illegal = next(a for a in range(eights.NUM_ACTIONS) if a not in legal)
    cases = [
        ({"action": "play ZZ"}, 400, "not a move"),
        ({"action": 999}, 400, "'action' must be in [0, 196]"),
        ({"action": -1}, 400, "'action' must be in [0, 196]"),
        ({"action": True}, 400, "'action' must be an integer"),
        ({"action": 1.5}, 400, "'action' must be an integer"),
        ({"action": None}, 400, "'action' must be an integer"),
        ({"action": [1]}, 400, "'action' must be an integer"),
        ({}, 400, "'action' is missing"),
        ({"action": illegal}, 400, "illegal move"),
        ({"action": state["legal"][0]["id"], "decision": state["decision"] + 5}, 409, "moved on"),
        ({"action": state["legal"][0]["id"], "decision": "x"}, 400, "'decision' must be an integer"),
    ]
    for body, status, words in cases:
        response = client.post(f"{server}/api/games/{gid}/actions", json=body)
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["error"], (body, response.json())
    # A lone surrogate (JSON's "\udcff": no character) reached the engine as a TypeError, a 500.
    response = client.post(
        f"{server}/api/games/{gid}/actions",
        content=b'{"action": "\\udcff"}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400 and "not a move" in response.json()["error"], response.text
    after = state_of(client, server, gid)
    assert after["decision"] == state["decision"] and after["legal"] == state["legal"]
    assert after["seats"] == state["seats"]
    # The move's text works as well as its id.
    text = state["legal"][0]["text"]
    assert client.post(f"{server}/api/games/{gid}/actions", json={"action": text}).status_code == 200


def test_moves_out_of_turn_and_at_watched_or_finished_tables(client, server):
    watched = _create(client, server, mode="watch", preset="crazy_eights", players=3, bots="heuristic", seed=2)
    response = client.post(f"{server}/api/games/{watched['id']}/actions", json={"action": "draw"})
    assert response.status_code == 409 and "watched" in response.json()["error"]
    steps = client.post(f"{server}/api/games/{watched['id']}/advance", json={"steps": 3}).json()
    assert len(steps["moves"]) == 3 and steps["state"]["decision"] == 3
    for bad in ({"steps": 0}, {"steps": 10**6}, {"steps": "1"}):
        response = client.post(f"{server}/api/games/{watched['id']}/advance", json=bad)
        assert response.status_code == 400 and "'steps'" in response.json()["error"]
    # A bot is to act: the person must wait (the table is not advanced).
    state = _create(client, server, preset="crazy_eights", players=2, seat=1, bots="heuristic", seed=3)
    if state["waiting_for"] == "bot":
        response = client.post(f"{server}/api/games/{state['id']}/actions", json={"action": "draw"})
        assert response.status_code == 409 and "not your turn" in response.json()["error"]
    state, _ = _play_to_the_end(client, server, state, random.Random(0))
    response = client.post(f"{server}/api/games/{state['id']}/actions", json={"action": "draw"})
    assert response.status_code == 409 and "over" in response.json()["error"]
    response = client.post(f"{server}/api/games/{state['id']}/advance", json={})
    assert response.status_code == 409
    response = client.post(f"{server}/api/games/{state['id']}/deal", json={"swap": True, "seed": 3})
    assert response.status_code == 400 and "not both" in response.json()["error"]
    response = client.post(f"{server}/api/games/{state['id']}/deal", json={"swap": "yes"})
    assert response.status_code == 400 and "'swap' must be true or false" in response.json()["error"]


def test_unknown_games_routes_and_methods(client, server):
    for method, path in [
        ("GET", "/api/games/nope"),
        ("POST", "/api/games/nope/actions"),
        ("POST", "/api/games/nope/advance"),
        ("POST", "/api/games/nope/deal"),
        ("GET", "/api/games/nope/record"),
        ("GET", "/api/games/nope/rules"),
        ("DELETE", "/api/games/nope"),
        ("GET", "/api/replays/nope"),
    ]:
        response = client.request(method, f"{server}{path}", json={"action": 1} if method == "POST" else None)
        assert response.status_code == 404, (method, path, response.text)
        assert "no game 'nope'" in response.json()["error"] or "no replay 'nope'" in response.json()["error"]
    response = client.get(f"{server}/api/nothing")
    assert response.status_code == 404 and "/api/nothing" in response.json()["error"]
    response = client.put(f"{server}/api/games", json={})
    assert response.status_code == 405 and response.json()["error"]


def test_a_deleted_game_is_gone(client, server):
    state = _create(client, server, players=2, bots="random", seed=1)
    assert client.delete(f"{server}/api/games/{state['id']}").status_code == 204
    assert client.get(f"{server}/api/games/{state['id']}").status_code == 404


def test_the_page_and_its_headers(client, server):
    page = client.get(f"{server}/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "/static/js/app.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    cards = client.get(f"{server}/api/cards").json()
    assert cards["cards"]["8H"] == eights.render.card_svg("8H") and len(cards["cards"]) == 54
    assert client.get(f"{server}/static/js/app.js").status_code == 200
    # A page on another host name (DNS rebinding) does not reach a loopback server.
    response = client.get(f"{server}/api/meta", headers={"host": "evil.example"})
    assert response.status_code == 400


_ATOMS = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    3,
    7,
    2**64,
    1e308,
    -0.5,
    "",
    "x",
    "crazy_eights",
    "heuristic",
    "ismcts:5",
    "net",
    "draw",
    "play 8H",
    "watch",
    "play",
    [],
    {},
    ["heuristic"],
    ["aces_wild"],
    {"a": 1},
    [[0, 1]],
    "inherits = 'crazy_eights'\n[deal]\nhand_size = 99\n",
    "inherits='crazy_eights'\n[cards.8.wild]\nenabled = 'x'\n",
    "[[x]]\n" * 3,
    "a" * 100,
]
_KEYS = [
    "mode",
    "preset",
    "variants",
    "toml",
    "players",
    "seat",
    "bots",
    "seed",
    "action",
    "decision",
    "steps",
    "swap",
    "path",
    "record",
    "op",
]


def test_random_bodies_never_get_a_500(client, server):
    # Random JSON bodies of the right and wrong keys and types, on every route that takes
    # one: each answer is a success or a 4xx with a message, never a server error.
    rng = random.Random(0)
    play = _create(client, server, seed=1)["id"]
    watch = _create(client, server, mode="watch", players=3, seed=1)["id"]
    paths = ["/api/rules", "/api/games", "/api/replays"] + [
        f"/api/games/{gid}/{what}" for gid in (play, watch) for what in ("actions", "advance", "deal")
    ]
    for _ in range(1500):
        path = rng.choice(paths)
        body = {rng.choice(_KEYS): rng.choice(_ATOMS) for _ in range(rng.randint(0, 5))}
        response = client.post(server + path, json=body)
        assert response.status_code < 500, (path, body, response.text)
        if response.status_code >= 400:
            assert response.json()["error"], (path, body)


def test_a_client_names_no_path_on_the_server(client, server, tmp_path):
    """A bot name is a built-in bot's or a policy's the server offers: a run's folder on the
    server's disk is neither (the engine plays one by path), and the answer says nothing of
    what is at the path."""
    import pathlib
    import shutil

    shipped = pathlib.Path(__file__).resolve().parents[3] / "src" / "bots" / "weights" / "net.safetensors"
    run = tmp_path / "run"
    run.mkdir()
    shutil.copy(shipped, run / "final.safetensors")
    (tmp_path / "empty").mkdir()
    for name in (str(run), str(tmp_path / "empty"), str(tmp_path / "nothing")):
        response = client.post(f"{server}/api/games", json={"mode": "watch", "bots": name, "players": 2})
        assert response.status_code == 400, response.text
        error = response.json()["error"]
        assert "unknown bot; allowed bots" in error and "folder" not in error and "file" not in error.split(";")[0]


def test_a_client_asks_no_bot_for_more_search_than_the_server_allows(client, server, capsys):
    """``ismcts:1000000`` from a page thought about 9 s a decision at 10 players, every seat
    of a watched table in turn, on the server's threads: ``--max-search`` (20,000 by default)
    bounds what a client may ask; the bots the page offers are all within it."""
    from eights.web.config import DEFAULT_MAX_SEARCH, ServerConfig
    from eights.web.service import OFFERED_BOTS

    for bot in ("ismcts:1000000", "ismcts_net:20001", "pimc:50000", "oracle:1000000"):
        response = client.post(f"{server}/api/games", json={"mode": "watch", "bots": bot, "players": 2})
        assert response.status_code == 400, (bot, response.text)
        assert f"at most {bot.split(':')[0]}:20,000 on this server" in response.json()["error"]
    for bot in OFFERED_BOTS + ["ismcts:20000"]:
        response = client.post(f"{server}/api/games", json={"mode": "watch", "bots": bot, "players": 2})
        assert response.status_code == 201, (bot, response.text)
    assert ServerConfig().max_search == DEFAULT_MAX_SEARCH == 20_000
    with pytest.raises(ValueError, match=r"max_search must be in \[1, 1000000\], got 0"):
        ServerConfig(max_search=0)
    from eights.__main__ import main

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert f"(default: {DEFAULT_MAX_SEARCH:,}," in " ".join(capsys.readouterr().out.split())

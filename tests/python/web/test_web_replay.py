"""Replays in the web app: records uploaded or read from the records folder (env and arena
recordings included), any position by its step, and the refusals: a record that does not
replay, a step out of range, a path that leaves the records folder."""

from __future__ import annotations

import json
import os
import random

import pytest

import eights
from eights.records import EpisodeRecorder
from web_helpers import live_server, requires_web

requires_web()

import httpx  # noqa: E402


def _finished_game(preset="switch_blackjack", n=3, seed=0):
    game = eights.Game(preset, n, seed=seed)
    rng = random.Random(seed)
    while not (game.is_terminal or game.is_truncated):
        game.step(rng.choice(game.legal_actions()))
    return game


def _nested(depth):
    value = [1]
    for _ in range(depth):
        value = [value]
    return value


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    root = tmp_path_factory.mktemp("records")
    EpisodeRecorder(root / "env").save(_finished_game(seed=1))
    # What an EightsEnv with record_dir writes, and what the arena's record_dir writes.
    env = eights.make("crazy_eights", num_players=2, seed=0, record_dir=str(root / "env"))
    env.reset(seed=0)
    done = False
    while not done:
        mask = env.unwrapped.game.action_mask()
        _, _, terminated, truncated, _ = env.step(int(mask.nonzero()[0][0]))
        done = terminated or truncated
    eights.arena.tournament(
        ["random", "heuristic"], preset="crazy_eights", games=2, seed=0, record_dir=str(root / "arena")
    )
    (root / "notes.txt").write_text("not a record")
    (root / "broken.json").write_text("{ nope")
    (root / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (root / "big.json").write_text(" " * (3 * 1024 * 1024))
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.json").write_text(json.dumps(_finished_game(seed=2).record()))
    os.symlink(outside / "secret.json", root / "link.json")
    return root, outside


@pytest.fixture(scope="module")
def server(records):
    with live_server(records_dir=str(records[0])) as base:
        yield base


@pytest.fixture(scope="module")
def client():
    with httpx.Client(timeout=60) as c:
        yield c


def _open(client, server, **body):
    response = client.post(f"{server}/api/replays", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_the_records_folder_is_listed_without_what_leaves_it(client, server):
    listing = client.get(f"{server}/api/records").json()
    paths = {r["path"] for r in listing["records"]}
    assert listing["enabled"] is True
    assert {"env/episode_0.json", "env/episode_1.json", "arena/episode_0.json"} <= paths
    assert "link.json" not in paths and "notes.txt" not in paths


def test_reading_and_listing_records_run_off_the_event_loop(client, server, monkeypatch):
    # A record's file and its replay, and the folder's listing, take a worker thread: on the
    # event loop they would hold every table's moves and sockets meanwhile.
    import asyncio

    from eights.web.service import Service

    on_loop = []

    def spy(name):
        original = getattr(Service, name)

        def call(self, *args):
            try:
                asyncio.get_running_loop()
                on_loop.append(name)
            except RuntimeError:
                pass
            return original(self, *args)

        return call

    monkeypatch.setattr(Service, "load_replay", spy("load_replay"))
    monkeypatch.setattr(Service, "records", spy("records"))
    assert client.get(f"{server}/api/records").status_code == 200
    _open(client, server, path="env/episode_0.json")
    _open(client, server, record=_finished_game(seed=4).record())
    assert on_loop == []


def test_every_position_of_an_uploaded_record(client, server):
    game = _finished_game(seed=3)
    record = game.record()
    summary = _open(client, server, record=record)
    assert summary["steps"] == len(record["actions"]) and summary["players"] == 3
    assert summary["names"] == ["P0", "P1", "P2"] and summary["source"] == "upload"
    for step in [0, 1, 2, len(record["actions"]) // 2, len(record["actions"])]:
        view = client.get(f"{server}/api/replays/{summary['id']}", params={"step": step}).json()
        expected = eights.Game.from_record(record, upto=step)
        assert view["step"] == step and view["top"] == expected.top_card
        assert [s["cards"] for s in view["seats"]] == [expected.hand(p) for p in range(3)]
        assert view["to_act"] == expected.current_player and view["decision"] == expected.decision_count
        if step:
            seat, action = record["actions"][step - 1]
            assert view["last"]["seat"] == seat and view["last"]["action"] == action
    assert view["over"] and view["result"]["winner"] == game.winner
    # One seat's view hides the others' hands.
    view = client.get(f"{server}/api/replays/{summary['id']}", params={"step": 5, "viewer": 1}).json()
    assert view["seats"][1]["cards"] is not None and view["seats"][0]["cards"] is None
    # The same record opens under the same id (so a link keeps working).
    assert _open(client, server, record=record)["id"] == summary["id"]


def test_a_replay_of_changed_rules_is_not_titled_as_the_preset(client, server):
    # The replay's title was the record's rules' title: the preset's, over changed rules.
    title = eights.Rules("switch_blackjack").title
    assert _open(client, server, record=_finished_game(seed=5).record())["rules"]["title"] == title
    rules = eights.Rules("switch_blackjack", {"deal": {"hand_size": 6}})
    summary = _open(client, server, record=_finished_game(rules, seed=5).record())
    assert summary["rules"]["name"] == "switch_blackjack"
    assert summary["rules"]["title"].startswith(f"{title} (changed: deal.hand_size=6"), summary["rules"]


def test_an_uploads_other_fields_are_not_held(client, server):
    # Every field of an upload was kept for the replay's life: 2 MB of padding held about
    # 50 MB, 256 replays at a time.
    from eights.web.replays import Replay

    record = _finished_game(seed=4).record()
    padded = dict(record, junk=[{}] * 100_000, web={"names": ["a", "b", "c"], "extra": "x" * 1000})
    summary = _open(client, server, record=padded)
    assert summary["names"] == ["a", "b", "c"] and summary["steps"] == len(record["actions"])
    replay = Replay(padded, "upload")
    held = replay.record  # its actions held apart, 8 bytes each
    assert set(held) == set(record) - {"actions"} | {"web"} and held["web"] == {"names": ["a", "b", "c"]}
    assert replay._actions.tolist() == [list(a) for a in record["actions"]]
    assert replay._actions.nbytes == 8 * len(record["actions"])
    # Without the padding and with the same names, the same replay (the same id).
    assert _open(client, server, record=dict(record, web={"names": ["a", "b", "c"]}))["id"] == summary["id"]


def test_an_upload_past_the_servers_decision_cap_is_refused_before_it_is_replayed(client, server):
    # A legal record filling the 2 MB limit held 260,000 actions, took 5 s to check and held
    # about 50 MB; the server's own tables stop at MAX_TABLE_DECISIONS.
    from eights.web.config import MAX_TABLE_DECISIONS

    record = dict(_finished_game(seed=4).record(), actions=[[0, 0]] * (MAX_TABLE_DECISIONS + 1))
    response = client.post(f"{server}/api/replays", json={"record": record})
    assert response.status_code == 413, response.text
    assert f"{MAX_TABLE_DECISIONS + 1:,} actions" in response.json()["error"]


def test_env_and_arena_recordings_replay_from_the_folder(client, server, records):
    for path in ["env/episode_1.json", "arena/episode_1.json"]:
        summary = _open(client, server, path=path)
        with open(records[0] / path, encoding="utf-8") as f:
            record = json.load(f)
        assert summary["steps"] == len(record["actions"]) and summary["source"] == path
        end = client.get(f"{server}/api/replays/{summary['id']}", params={"step": summary["steps"]}).json()
        assert end["result"]["scores"] == eights.Game.from_record(record).scores
    arena = _open(client, server, path="arena/episode_0.json")
    assert [name.split(" · ")[1] for name in arena["names"]] == json.loads(
        (records[0] / "arena/episode_0.json").read_text()
    )["arena"]["agents"]


@pytest.mark.parametrize(
    "path,status,words",
    [
        ("../outside/secret.json", 403, "outside the records folder"),
        ("/etc/passwd", 403, "outside the records folder"),
        ("link.json", 403, "outside the records folder"),
        ("env/../../x.json", 403, "outside the records folder"),
        ("notes.txt", 400, "not a .json record"),
        ("missing.json", 404, "no record"),
        ("broken.json", 400, "cannot read"),
        ("deep.json", 400, "nested too deeply"),
        ("big.json", 413, "limit"),
        ("", 400, "'path'"),
        (7, 400, "'path'"),
        ("a\x00b.json", 400, "NUL"),
    ],
)
def test_paths_outside_the_folder_and_bad_files_are_refused(client, server, path, status, words):
    response = client.post(f"{server}/api/replays", json={"path": path})
    assert response.status_code == status, response.text
    assert words in response.json()["error"]


def test_bad_records_and_positions_are_refused(client, server):
    record = _finished_game(seed=4).record()
    cases = [
        ({"record": {**record, "actions": [[0, 999]]}}, "does not replay"),
        ({"record": {**record, "actions": [[0, 0]] * 3}}, "illegal action"),
        ({"record": {**record, "players": "x"}}, "'players'"),
        ({"record": {"actions": []}}, "players"),
        ({"record": [1, 2]}, "JSON object with 'actions'"),
        ({"record": {**record, "rules": {"a": _nested(40)}}}, "nested"),
        ({}, "one of them"),
        ({"record": record, "path": "x.json"}, "one of them"),
    ]
    for body, words in cases:
        response = client.post(f"{server}/api/replays", json=body)
        assert response.status_code == 400, (words, response.text)
        assert words in response.json()["error"], (words, response.json())
    summary = _open(client, server, record=record)
    url = f"{server}/api/replays/{summary['id']}"
    for params, words in [
        ({"step": -1}, "step must be in"),
        ({"step": summary["steps"] + 1}, "step must be in"),
        ({"step": "x"}, "step must be an integer"),
        ({"step": "9" * 40}, "step must be in"),
        ({"step": 0, "viewer": 3}, "viewer must be in"),
    ]:
        response = client.get(url, params=params)
        assert response.status_code == 400, (params, response.text)
        assert words in response.json()["error"], (params, response.json())


def test_a_server_without_records_folder_says_so():
    with live_server() as base, httpx.Client(timeout=30) as c:
        assert c.get(f"{base}/api/records").json() == {"enabled": False, "records": []}
        response = c.post(f"{base}/api/replays", json={"path": "episode_0.json"})
        assert response.status_code == 404 and "--records" in response.json()["error"]

"""Game records: Game.history/record/from_record, the envs' and the arena's record options,
the notebook viewer and python -m eights replay."""

import json
import os
import random
import re
import subprocess
import sys

import numpy as np
import pytest

import eights
from eights.__main__ import main
from eights.records import EpisodeRecorder, load_record
from eights.render import replay_html, replay_text


def _random_game(preset, n, seed, steps=None, deck=None):
    game = eights.Game(preset, n, seed=seed)
    if deck is not None:
        game.reset(seed=seed, deck=deck)
    rng = random.Random(seed)
    k = 0
    while not (game.is_terminal or game.is_truncated) and (steps is None or k < steps):
        game.step(rng.choice(game.legal_actions()))
        k += 1
    return game


@pytest.mark.parametrize(
    "preset,n", [("crazy_eights", 2), ("switch_blackjack", 4), ("crazy_eights_xtreme", 3), ("one_card", 3)]
)
def test_record_replays_to_the_identical_state(preset, n):
    game = _random_game(preset, n, seed=11)
    record = game.record()
    json.dumps(record)  # JSON-able
    assert record["preset"] == preset and record["players"] == n and record["seed"] == 11
    assert record["rules"] == game.rules_dict()
    assert [tuple(a) for a in record["actions"]] == game.history()
    assert len(record["actions"]) == game.decision_count
    again = eights.Game.from_record(json.loads(json.dumps(record)))
    assert again.to_dict() == game.to_dict()
    # A prefix replays to the state after that many actions.
    half = len(record["actions"]) // 2
    partial = _random_game(preset, n, seed=11, steps=half)
    assert eights.Game.from_record(record, upto=half).to_dict() == partial.to_dict()


def test_record_seats_strings_deck_reset_and_position():
    game = eights.Game("crazy_eights", 3, seed=2)
    seat = game.current_player
    game.step(game.legal_action_strings()[0])  # a string action is recorded by its id
    assert game.history() == [(seat, game.history()[0][1])]
    deck = ["8H", "2C", "3D", "4S"]
    game.reset(seed=5, deck=deck)
    assert game.history() == [] and game.record()["deck"] == deck and game.record()["seed"] == 5
    game.step(game.legal_actions()[0])
    assert eights.Game.from_record(game.record()).to_dict() == game.to_dict()
    # Games built from a position record their start state.
    pos = eights.Game.from_position("crazy_eights", 2, hands=[["8H", "2C"], ["3D"]], discard=["5C"], stock=["KD", "QS"])
    pos.step(pos.legal_actions()[0])
    rec = pos.record()
    assert rec["seed"] is None and rec["start"] is not None
    assert eights.Game.from_record(rec).to_dict() == pos.to_dict()
    # Clones carry the record; from_dict starts a new one.
    assert pos.clone().history() == pos.history()
    assert eights.Game.from_dict(pos.to_dict()).history() == []


def test_bad_records_are_explained():
    game = _random_game("crazy_eights", 2, seed=3, steps=6)
    rec = game.record()
    wrong_seat = dict(rec, actions=[[1 - a[0], a[1]] for a in rec["actions"]])
    with pytest.raises(ValueError, match="action 0 was taken by seat"):
        eights.Game.from_record(wrong_seat)
    with pytest.raises(ValueError, match="'players'"):
        eights.Game.from_record({k: v for k, v in rec.items() if k != "players"})
    with pytest.raises(ValueError, match="actions"):
        eights.Game.from_record(dict(rec, actions="draw"))
    with pytest.raises(ValueError, match="upto"):
        eights.Game.from_record(rec, upto=99)


def test_envs_and_arena_save_records(tmp_path):
    env = eights.make("crazy_eights", seed=0, opponents="heuristic", record_dir=str(tmp_path / "gym"))
    for _ in range(2):
        env.reset()
        done = False
        while not done:
            _, _, term, trunc, _ = env.step(env.action_space.sample())
            done = term or trunc
    files = sorted(os.listdir(tmp_path / "gym"))
    assert files == ["episode_0.json", "episode_1.json"]
    last = load_record(str(tmp_path / "gym" / "episode_1.json"))
    assert eights.Game.from_record(last).to_dict() == env.game.to_dict()
    assert eights.make("crazy_eights").recorder is None  # off by default

    pytest.importorskip("pettingzoo")
    from eights.envs.pettingzoo import raw_env

    pz = raw_env("crazy_eights", 2, record_dir=str(tmp_path / "pz"))
    pz.reset(seed=0)
    rng = np.random.default_rng(0)
    while not (pz.terminations[pz.agent_selection] or pz.truncations[pz.agent_selection]):
        mask = pz.observe(pz.agent_selection)["action_mask"]
        pz.step(int(rng.choice(np.flatnonzero(mask))))
    rec = load_record(str(tmp_path / "pz" / "episode_0.json"))
    assert eights.Game.from_record(rec).to_dict() == pz.game.to_dict()

    res = eights.arena.play(["random", "heuristic"], games=2, seed=4, record_dir=str(tmp_path / "arena"))
    plain = eights.arena.play(["random", "heuristic"], games=2, seed=4)
    assert np.array_equal(res["winner"], plain["winner"])  # recording changes no result
    recs = [load_record(str(tmp_path / "arena" / f"episode_{k}.json")) for k in range(4)]
    assert [r["arena"]["rotation"] for r in recs] == [0, 1, 0, 1]
    assert recs[1]["arena"]["agents"] == ["heuristic", "random"]
    for r, winner in zip(recs, res["winner"]):
        g = eights.Game.from_record(r)
        assert g.is_terminal or g.is_truncated
        assert (-1 if g.winner is None else g.winner) == winner


@pytest.mark.parametrize(
    "game, extra, error, message",
    [
        # TypeError after the file was opened: a truncated episode_0.json was left.
        (None, {"agent": object()}, TypeError, "extra must hold JSON values .*Object of type object"),
        # Written, and load_record refused the file ('actions' must be a list).
        (None, {"actions": 5, "seed": 1}, ValueError, r"extra cannot set the record's own fields: 'actions', 'seed'"),
        # NaN was written: not JSON.
        (None, {"x": float("nan")}, ValueError, "extra holds NaN or an infinity, which JSON cannot write"),
        (None, 5, TypeError, r"extra must be a dict of further fields .*got 5 \(type int\)"),  # not iterable
        (None, {3: "x"}, TypeError, "extra's field names must be str"),
        (5, None, TypeError, r"game must be an eights.Game .*got 5 \(type int\)"),  # AttributeError
    ],
    ids=["extra-object", "extra-own-field", "extra-nan", "extra-int", "extra-int-key", "game-int"],
)
def test_a_refused_save_writes_nothing_and_keeps_the_count(tmp_path, game, extra, error, message):
    recorder = EpisodeRecorder(tmp_path)
    g = eights.Game("crazy_eights", 2, seed=1)
    with pytest.raises(error, match=message):
        recorder.save(g if game is None else game, extra)
    assert os.listdir(tmp_path) == [] and recorder.count == 0
    path = recorder.save(g, {"agent": "me"})  # the next save is episode_0, and loads
    assert os.listdir(tmp_path) == ["episode_0.json"] and recorder.count == 1
    assert load_record(path)["agent"] == "me" and eights.Game.from_record(load_record(path)).to_dict() == g.to_dict()


def test_an_arena_record_replays_with_each_seats_agent(tmp_path):
    # A walk: `eights replay` of an arena's record said P0, P1, P2 though the record names
    # the agent at each seat.
    eights.arena.play(["random", "heuristic"], games=1, seed=4, record_dir=str(tmp_path))
    rec = load_record(str(tmp_path / "episode_1.json"))
    assert rec["arena"]["agents"] == ["heuristic", "random"]
    first_seat = rec["actions"][0][0]  # (seat, action) pairs
    text = replay_text(rec)
    assert "P0 heuristic" in text and "P1 random" in text, text[:400]
    assert f"   1. P{first_seat} {rec['arena']['agents'][first_seat]}: " in text
    # A record without an arena keeps the seat numbers alone.
    del rec["arena"]
    assert "P0 heuristic" not in replay_text(rec)


def test_viewer_and_terminal_replay(tmp_path, capsys):
    game = _random_game("switch_blackjack", 3, seed=8, steps=12)
    record = game.record()
    page = replay_html(record)
    assert page._repr_html_() == str(page)
    assert page.count('-frame"') == 13  # the deal and 12 states
    assert "<svg" in page and "<script>" in page and 'type="range"' in page
    text = replay_text(record, every=5)
    assert "  12. P" in text and "   1. P" in text and text.count("Top:") == 4  # deal, 5, 10, end
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "switch_blackjack" in out and "  12. P" in out
    assert main(["replay", str(tmp_path / "missing.json")]) == 2


def test_every_viewer_has_ids_of_its_own_across_sessions():
    # The ids counted up from 1 in every process: after a kernel restart the next viewer took the
    # id, frame class and function of one still on the page, and the buttons of either stepped both.
    code = (
        "import re, eights; from eights.render import replay_html; "
        "page = replay_html(eights.Game('crazy_eights', 2, seed=1).record()); "
        'print(re.search(r\'id="(eights-replay-[^"]+)"\', page)[1])'
    )
    ids = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout for _ in "ab"
    ]
    assert ids[0].startswith("eights-replay-") and ids[0] != ids[1]
    record = _random_game("crazy_eights", 2, seed=3, steps=4).record()
    first, second = replay_html(record), replay_html(record)
    uid = re.search(r'id="(eights-replay-[^"]+)"', first)[1]
    assert uid not in second
    function = uid.replace("-", "_")
    assert f"function {function}(d, to)" in first and first.count(f'"{function}(') == 3  # prev, slider, next
    assert first.count(f'class="{uid}-frame"') == 5


def test_record_upto_out_of_range_names_the_argument():
    # upto=-1 used to end in OverflowError ("can't convert negative int to unsigned").
    record = _random_game("crazy_eights", 2, seed=3).record()
    with pytest.raises(ValueError, match=r"upto must be in \[0, "):
        eights.Game.from_record(record, upto=-1)
    with pytest.raises(ValueError, match="upto=.* but the record has"):
        eights.Game.from_record(record, upto=len(record["actions"]) + 1)
    with pytest.raises(TypeError, match="upto must be an integer"):
        eights.Game.from_record(record, upto="3")
    assert eights.Game.from_record(record, upto=None).to_dict() == eights.Game.from_record(record).to_dict()

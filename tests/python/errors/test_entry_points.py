"""Bad input at the public entry points found by the audit of docs/robustness.md: each gets a
clear exception naming the argument (or record field) and what is allowed, and leaves the
object it was given as it was. The rows of the audit's table name these tests."""

from __future__ import annotations

import contextlib
import copy
import io
import json

import numpy as np
import pytest

import eights
from eights.agents.load import load_policy
from eights.cli import main
from eights.render import replay_text


def _cli(argv):
    """``(exit status, stderr)`` of the command line run in this process."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own errors
            code = exc.code
    return code, err.getvalue()


# --------------------------------------------------------------------------- the rule space


@pytest.mark.parametrize("weight", [True, False, "2", None, [1.0]])
def test_rule_space_refuses_a_weight_that_is_not_a_number(weight):
    with pytest.raises(TypeError, match=r"dims\['chain'\] must be a number"):
        eights.RuleSpace(dims={"chain": weight})


@pytest.mark.parametrize("weight, message", [(-1, ">= 0"), (float("nan"), ">= 0"), (float("inf"), ">= 0")])
def test_rule_space_refuses_a_weight_out_of_range(weight, message):
    with pytest.raises(eights.RulesError, match=f"dims.chain.*{message}"):
        eights.RuleSpace(dims={"chain": weight})


def test_rule_space_names_and_counts():
    with pytest.raises(TypeError, match="a dimension name must be a str, got 1"):
        eights.RuleSpace(dims={1: 1.0})
    with pytest.raises(TypeError, match="num_players must be an int or a list of ints, got 2.0"):
        eights.RuleSpace(num_players=2.0)
    space = eights.RuleSpace(dims={"chain": np.float64(2.0)}, num_players=np.int64(3))  # numpy numbers are numbers
    assert space.dims["chain"] == 2.0 and space.num_players == [3]
    with pytest.raises(ValueError, match=r"n must be in \[0, 1000000\], got -1"):
        space.samples(-1)
    with pytest.raises(TypeError, match="n must be an integer"):
        space.samples("3")


# --------------------------------------------------------------------------- states and records


def _blank_rules_cases():
    return [{}, [], {"name": "crazy_eights"}, None, 5]


@pytest.mark.parametrize("rules", _blank_rules_cases())
def test_from_dict_refuses_rules_that_are_not_complete(rules):
    state = eights.Game("crazy_eights", 2, seed=1).to_dict()
    state["rules"] = rules
    with pytest.raises(ValueError, match="invalid game state: 'rules' must be the complete rules"):
        eights.Game.from_dict(state)


@pytest.mark.parametrize("rules", _blank_rules_cases())
def test_from_record_refuses_rules_that_are_not_complete(rules):
    g = eights.Game.from_dict(eights.Game("crazy_eights", 2, seed=1).to_dict())  # a record with a start state
    g.step(g.legal_actions()[0])
    record = g.record()
    assert record["start"] is not None
    record["start"]["rules"] = rules
    with pytest.raises(ValueError, match="invalid game record: 'start': 'rules' must be the complete rules"):
        eights.Game.from_record(record)
    dealt = eights.Game("crazy_eights", 2, seed=1).record()  # a record of a deal
    dealt["rules"] = rules
    with pytest.raises(ValueError, match="'rules'"):
        eights.Game.from_record(dealt)


def test_complete_states_and_records_still_load():
    g = eights.Game("switch_blackjack", 3, seed=4)
    for _ in range(5):
        g.step(g.legal_actions()[0])
    assert eights.Game.from_dict(g.to_dict()).to_dict() == g.to_dict()
    assert eights.Game.from_record(g.record()).to_dict() == g.to_dict()


def test_rules_from_dict_refuses_a_table_with_neither_inherits_nor_a_name():
    for table in ({}, {"name": ""}, {"deal": {"hand_size": 5}}):
        with pytest.raises(eights.RulesError, match="'name': a rules table needs inherits"):
            eights.Rules.from_dict(table)
    house = eights.Rules.from_dict({"inherits": "crazy_eights", "deal": {"hand_size": 5}})
    assert house.to_dict()["deal"]["hand_size"] == 5


def test_replay_text_refuses_bad_records_and_arguments(tmp_path):
    g = eights.Game("crazy_eights", 2, seed=1)
    g.step(g.legal_actions()[0])
    record = g.record()
    kept = copy.deepcopy(record)
    bad = dict(record)
    bad.pop("actions")
    with pytest.raises(ValueError, match="'actions' is missing"):
        replay_text(bad)
    with pytest.raises(ValueError, match="viewer must be in \\[0, 1\\], got 2"):
        replay_text(record, viewer=2)
    with pytest.raises(ValueError, match="every must be >= 0"):
        replay_text(record, every=-1)
    with pytest.raises(TypeError, match="viewer must be an integer"):
        replay_text(record, viewer="0")
    wrong_seat = copy.deepcopy(record)
    wrong_seat["actions"][0] = [1, wrong_seat["actions"][0][1]]
    with pytest.raises(ValueError, match="action 0 was taken by seat 1"):
        replay_text(wrong_seat)
    assert record == kept  # the record given is untouched
    path = tmp_path / "not.json"
    path.write_text("x = [")
    with pytest.raises(ValueError, match="not.json' is not a game record: a record is a JSON object"):
        replay_text(str(path))


# --------------------------------------------------------------------------- agents and bots


@pytest.mark.parametrize("spec", ["ismcts:-1", "ismcts_net:abc", "pimc:0", "heuristic:3", "oracle:x"])
def test_a_bad_bot_parameter_is_the_bots_error_not_a_module(spec):
    with pytest.raises(ValueError) as err:
        load_policy(spec)
    message = str(err.value)
    assert f"bad bot {spec!r}" in message and "cannot import" not in message
    assert "[1, 1000000]" in message or "takes no parameter" in message
    code, stderr = _cli(["arena", "--agents", f"{spec},random", "--games", "1", "--no-progress"])
    assert code == 2 and "cannot import" not in stderr and f"bad bot {spec!r}" in stderr


def test_bot_and_pool_arguments():
    with pytest.raises(TypeError, match='Bot name must be a str such as "heuristic"'):
        eights.Bot(5)
    with pytest.raises(TypeError, match=r"Bot.act\(game\): game must be an eights.Game, got int"):
        eights.Bot("heuristic", seed=1).act(5)
    with pytest.raises(TypeError, match=r"RandomBot.act\(game\): game must be an eights.Game"):
        eights.RandomBot(seed=1).act("x")
    with pytest.raises(TypeError, match="snapshots must be a list"):
        eights.OpponentPool("random")
    with pytest.raises(TypeError, match="snapshot weight must be a number, got 'x'"):
        eights.OpponentPool(["random"], weights=["x"])
    with pytest.raises(ValueError, match="seed must be in \\[0, 2\\*\\*64\\)"):
        eights.OpponentPool(["random"], seed=-1)
    pool = eights.OpponentPool(["random"], seed=1)
    with pytest.raises(ValueError, match="snapshot weight must be a finite number"):
        pool.add("heuristic", float("nan"))
    assert len(pool) == 1  # unchanged by the refused add
    with pytest.raises(ValueError, match=r"size must be in \[0, 2147483647\], got -1"):
        pool.sample(-1)


# --------------------------------------------------------------------------- envs and the arena


@pytest.mark.parametrize("flag", ["self_play", "copy"])
@pytest.mark.parametrize("value", ["yes", 1, None])
def test_vec_env_flags_are_bools(flag, value):
    with pytest.raises(TypeError, match=f"{flag} must be True or False"):
        eights.VecEnv("crazy_eights", 2, **{flag: value})


@pytest.mark.parametrize("value, error", [(float("nan"), ValueError), (float("inf"), ValueError), ("x", TypeError)])
def test_make_refuses_an_illegal_reward_that_is_not_a_finite_number(value, error):
    with pytest.raises(error, match="illegal_reward must be a"):
        eights.make("crazy_eights", illegal_reward=value)


def test_arena_progress_is_a_bool():
    with pytest.raises(TypeError, match="progress must be True or False"):
        eights.arena.evaluate("random", games=1, bootstrap=100, progress="yes")


# --------------------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    "argv, message",
    [
        (["soak", "--seconds", "0"], "--seconds: must be a number of seconds in (0, 1e7), got 0"),
        (["soak", "--presets", ","], "--presets ',' names no preset"),
        (["soak", "--presets", " , ", "--decisions", "10"], "names no preset"),
        (["soak", "--decisions", "0"], "--decisions: must be in [1,"),
        (["play", "--bots", ","], "--bots needs at least one bot name"),
        (["arena", "--agents", "random,heuristic", "--bootstrap", "10"], "--bootstrap: must be in [100, 1000000]"),
    ],
)
def test_cli_refuses_empty_lists_and_zero_budgets(argv, message):
    code, stderr = _cli(argv)
    assert code == 2 and message in stderr, stderr
    assert "Traceback" not in stderr


def test_soak_api_refuses_no_time_and_an_empty_preset_list():
    from eights.diagnostics import soak

    with pytest.raises(ValueError, match="seconds must be a finite number > 0"):
        soak.soak(0)
    with pytest.raises(ValueError, match="presets is empty"):
        soak.soak(1, presets=[])
    with pytest.raises(ValueError, match="presets is empty"):
        soak.fast_soak(10, presets=[])
    with pytest.raises(ValueError, match="num_threads must be in \\[0, 1024\\]"):
        soak.fast_soak(10, presets=["crazy_eights"], num_threads=-1)


def test_soak_api_refuses_a_preset_listed_twice_before_any_table():
    # Each copy's tables were built and played: 5,000 copies used 2.2 GB.
    from eights.diagnostics import soak

    with pytest.raises(ValueError, match='^presets: preset "crazy_eights" is listed twice; list each preset once'):
        soak.table_sizes(["crazy_eights"] * 5000)
    with pytest.raises(ValueError, match='preset "zodiac" is listed twice'):
        soak.fast_soak(10, presets=["zodiac", "crazy_eights", "zodiac"])
    with pytest.raises(ValueError, match="a list of preset names holds at most 1,024, got 1,025"):
        soak.soak(1, presets=[f"p{i}" for i in range(1025)])
    with pytest.raises(TypeError, match=r"presets must be a list of preset names, got 5 \(type int\)"):
        soak.table_sizes(5)


def test_cli_record_errors_name_the_file(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"actions": [], "players": 2}))
    code, stderr = _cli(["replay", str(path)])
    assert code == 2 and "'rules' is missing" in stderr


def test_a_record_of_another_format_is_refused():
    # from_dict refused any format but 1; from_record replayed format 2 as if it were 1.
    record = eights.Game("crazy_eights", 2, seed=1).record()
    for bad in (2, "1", 0):
        with pytest.raises(ValueError, match=f"invalid game record: 'format' is {json.dumps(bad)}; this version reads"):
            eights.Game.from_record({**record, "format": bad})
    assert eights.Game.from_record({k: v for k, v in record.items() if k != "format"}).to_dict() is not None


def _position_record():
    """A record that starts from a `start` state: a game rebuilt from a position, then played on."""
    game = eights.Game.from_dict(eights.Game("crazy_eights", 3, seed=4).to_dict())
    game.step(game.legal_actions()[0])
    return game.record()


def test_a_record_whose_labels_contradict_its_game_is_refused():
    # The preset label, the seat count and the rules beside a start state were read by the
    # viewer and `replay` but never checked against the game the record builds.
    dealt, started = eights.Game("crazy_eights", 2, seed=1).record(), _position_record()
    assert started["start"] is not None and started["players"] == 3
    for record in (dealt, started):
        named = r"^invalid game record: 'preset' is \"uno\", but its rules are named \"crazy_eights\"$"
        with pytest.raises(ValueError, match=named):
            eights.Game.from_record({**record, "preset": "uno"})
        with pytest.raises(ValueError, match=r"'preset' is 5, but"):
            eights.Game.from_record({**record, "preset": 5})
        with pytest.raises(ValueError, match=r"'preset' is \"x{60}\"\.\.\. \(100,000 characters\), but"):
            eights.Game.from_record({**record, "preset": "x" * 100_000})
    with pytest.raises(ValueError, match=r"^invalid game record: 'players' must be 3, the seats of its 'start' state$"):
        eights.Game.from_record({**started, "players": 2})
    other = eights.Rules("crazy_eights", variants=["jacks_wild"]).to_dict()
    with pytest.raises(ValueError, match=r"^invalid game record: 'rules' differ from the rules of its 'start' state$"):
        eights.Game.from_record({**started, "rules": other})
    # A record without the labels, or with them as record() writes them, replays.
    for record in (dealt, started):
        assert eights.Game.from_record(record).to_dict() == eights.Game.from_record(record).to_dict()
    bare = {k: v for k, v in started.items() if k not in ("preset", "rules")}
    assert eights.Game.from_record(bare).history() == _recorded_actions(started)


def _recorded_actions(record):
    """The `(seat, action)` pairs a record lists, as `Game.history` gives them."""
    return [tuple(a) for a in record["actions"]]

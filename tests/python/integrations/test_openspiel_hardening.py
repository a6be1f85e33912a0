"""eights.integrations.openspiel on bad input: a state's serialization is plain JSON that
``deserialize_state`` checks (it never unpickles), and presets, game parameters and actions
are refused with a TypeError or ValueError naming the argument and what is allowed."""

import base64
import json
import math
import pickle
import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import eights  # noqa: E402
from eights.integrations import openspiel as osp  # noqa: E402

pytestmark = pytest.mark.integration


def _play(state, rng, decisions):
    """Deal, then take up to ``decisions`` random decisions."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _same(a, b):
    assert a.history() == b.history() and a.move_number() == b.move_number()
    assert str(a) == str(b) and a.serialize() == b.serialize()
    for p in range(a.num_players()):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.information_state_tensor(p) == b.information_state_tensor(p)
    if a.game is not None:
        assert a.game.to_dict() == b.game.to_dict()


class _WritesMarker:
    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_deserialize_state_refuses_a_pickle_payload(tmp_path):
    # Before: deserialize_state was OpenSpiel's default for Python games, which unpickles the
    # "__dict__=" line of its input: this payload ran open() and wrote the marker file.
    marker = tmp_path / "marker"
    payload = base64.b64encode(pickle.dumps({"x": _WritesMarker(marker)})).decode()
    game = pyspiel.load_game("eights_crazy_eights")
    for text in (f"history=\nmove_number=0\n__dict__={payload}", pyspiel.State.serialize(game.new_initial_state())):
        with pytest.raises(ValueError, match="not a serialized eights state"):
            game.deserialize_state(text)
    assert not marker.exists()


@pytest.mark.parametrize("decisions", [0, 5, 40, 10_000])
def test_serialize_round_trip(decisions):
    # Before: serialize() wrote OpenSpiel's pickled "__dict__=" form (no JSON).
    game = pyspiel.load_game("eights_crazy_eights", {"players": 3, "seed": 9})
    state = _play(game.new_initial_state(), np.random.default_rng(decisions), decisions)
    text = state.serialize()
    assert json.loads(text)["format"] == osp._STATE_FORMAT and "__dict__" not in text
    _same(state, game.deserialize_state(text))
    _same(state, pickle.loads(pickle.dumps(state)))  # OpenSpiel's own pickling still round trips


def test_serialize_round_trip_mid_deal_and_after_resampling():
    # Before: serialize() wrote OpenSpiel's pickled "__dict__=" form (no JSON).
    game = pyspiel.load_game("eights_crazy_eights", {"players": 3})
    state = game.new_initial_state()
    for _ in range(7):
        state.apply_action(state.chance_outcomes()[0][0])
    assert json.loads(state.serialize())["game"] is None
    _same(state, game.deserialize_state(state.serialize()))
    state = _play(game.new_initial_state(), np.random.default_rng(1), 3)
    other = state.resample_from_infostate(state.current_player(), np.random.default_rng(2).random)
    assert other.game.to_dict() != state.game.to_dict()
    _same(other, game.deserialize_state(other.serialize()))


def _serialized(**changes):
    state = _play(pyspiel.load_game("eights_crazy_eights").new_initial_state(), np.random.default_rng(0), 2)
    data = json.loads(state.serialize())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    "text,match",  # a text, or changes to the serialization of a real state
    [
        ("", "not a serialized eights state"),
        ("[" * 100_000, "not a serialized eights state"),
        ("[1, 2]", "not a serialized eights state"),
        ('{"format": "other", "actions": [], "game": null}', "not a serialized eights state"),
        ({"extra": 1}, "not a serialized eights state"),
        ({"actions": "0,1"}, "'actions' must be a list"),
        ({"game": [1]}, "'game' an object or null"),
        ({"actions": [True]}, "action 0 cannot be replayed"),
        ({"actions": [0, 1, 197]}, "action 2 cannot be replayed"),
        ({"actions": [0, 0]}, "action 1 cannot be replayed.*no copy"),
        ({"game": None}, "'game' must be null exactly while the deal"),
        ({"game": {"format": 1}}, "invalid game state"),
        ({"game": eights.Game("crazy_eights", 3).to_dict()}, "other rules or another table"),
    ],
)
def test_deserialize_state_refuses_bad_text(text, match):
    # Before: every one of these went to pickle (SpielError or a pickle error), or was accepted.
    text = text if isinstance(text, str) else _serialized(**text)
    with pytest.raises(ValueError, match=match):
        pyspiel.load_game("eights_crazy_eights").deserialize_state(text)


def test_deserialize_state_refuses_actions_after_the_end():
    # Before: deserialize_state read pickles only, never a list of actions.
    game = pyspiel.load_game("eights_one_card")
    state = _play(game.new_initial_state(), np.random.default_rng(0), 10_000)
    assert state.is_terminal()
    data = json.loads(state.serialize())
    data["actions"].append(0)
    with pytest.raises(ValueError, match=f"action {len(data['actions']) - 1} comes after the end"):
        game.deserialize_state(json.dumps(data))
    with pytest.raises(TypeError, match="deserialize_state takes the string"):
        game.deserialize_state(b"{}")


@pytest.mark.parametrize("preset", [0, None, ["crazy_eights"]])
def test_a_preset_that_is_no_preset_is_a_type_error(preset):
    # Before: AttributeError ('int' object has no attribute 'name' / 'to_dict').
    with pytest.raises(TypeError, match="preset must be a preset name"):
        osp.game_name(preset)
    with pytest.raises(TypeError, match="preset must be a preset name"):
        osp.EightsGame(preset)


@pytest.mark.parametrize("seed", [2**31, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -1])
def test_a_seed_openspiel_cannot_carry_is_a_value_error(seed):
    # Before: RuntimeError "Unable to cast Python instance of type <class 'int'>" for seeds of
    # 2**31 and up, as OpenSpiel's integer parameters are 32-bit.
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*31\) for OpenSpiel"):
        osp.EightsGame("crazy_eights", {"seed": seed})


def test_rules_without_a_decision_cap_are_refused():
    # max_game_length was the pack's size alone for them: a bound every game broke.
    uncapped = eights.Rules("crazy_eights", {"limits": {"max_decisions": 0}})
    with pytest.raises(ValueError, match=r"OpenSpiel needs a bound on a game's length: .*max_decisions = 0"):
        osp.EightsGame(uncapped)
    capped = osp.EightsGame(eights.Rules("crazy_eights", {"limits": {"max_decisions": 300}}))
    assert capped.max_game_length() == 52 + 300


def test_the_largest_seed_openspiel_carries_works():
    game = osp.EightsGame("crazy_eights", {"seed": 2**31 - 1})
    assert game.get_parameters()["seed"] == 2**31 - 1
    assert pyspiel.load_game(str(game)).seed == 2**31 - 1
    with pytest.raises(TypeError, match="seed must be an integer"):
        osp.EightsGame("crazy_eights", {"seed": "3"})


@pytest.mark.parametrize(
    "players,error",
    [("x", TypeError), (2.9, TypeError), (math.inf, TypeError), (True, TypeError), (1, ValueError), (11, ValueError)],
)
def test_players_must_be_an_integer_in_range(players, error):
    # Before: "x" gave "invalid literal for int()" (no argument named), 2.9 became 2, inf was an
    # OverflowError and True became 1.
    with pytest.raises(error, match=r"players for crazy_eights must be an integer in \[2, 10\]"):
        osp.EightsGame("crazy_eights", {"players": players})


def test_game_parameters_must_be_a_dict_of_known_names():
    # Before: an unknown name was ignored, and a list was handed to dict().
    with pytest.raises(ValueError, match=r"unknown game parameters \['seeed'\]"):
        osp.EightsGame("crazy_eights", {"seeed": 3})
    with pytest.raises(TypeError, match="params must be a dict"):
        osp.EightsGame("crazy_eights", [("players", 2)])


@pytest.mark.parametrize(
    "action,error",
    [(197, ValueError), (-1, ValueError), (2**70, ValueError), (True, TypeError), (1.0, TypeError), ("0", TypeError)],
)
@pytest.mark.parametrize("dealt", [False, True])
def test_actions_are_checked(action, error, dealt):
    # Before: 197 was an IndexError at a chance node (apply_action and action_to_string), -1 a
    # SpielError, 2**70 and 1.0 pybind11's "incompatible function arguments", and True was
    # applied as action 1.
    game = pyspiel.load_game("eights_crazy_eights")
    state = game.new_initial_state()
    if dealt:
        _play(state, np.random.default_rng(0), 0)
    high = 196 if dealt else 53
    before = state.serialize()
    with pytest.raises(error, match=rf"action.* must be an integer in \[0, {high}\]"):
        state.apply_action(action)
    with pytest.raises(error, match=rf"action.* must be an integer in \[0, {high}\]"):
        state.action_to_string(action)
    with pytest.raises(error, match=rf"action.* must be an integer in \[0, {high}\]"):
        state.action_to_string(state.current_player(), action)
    assert state.serialize() == before


def test_checked_actions_still_play():
    game = pyspiel.load_game("eights_crazy_eights")
    state = game.new_initial_state()
    assert state.action_to_string(np.int64(5)) == state.action_to_string(pyspiel.PlayerId.CHANCE, 5)
    state.apply_action(np.int64(state.chance_outcomes()[0][0]))
    assert len(state.history()) == 1
    with pytest.raises(TypeError, match=r"takes \(action\) or \(player, action\)"):
        state.action_to_string()


def test_a_game_that_failed_to_init_prints_without_crashing():
    # Before: str() or repr() of the half-made game (the `self` of the __init__ that raised,
    # which pytest and IPython print with a traceback's locals) was a segmentation fault.
    code = (
        "from eights.integrations import openspiel as osp\n"
        "try:\n    osp.EightsGame('crazy_eights', {'players': 'x'})\n"
        "except TypeError as err:\n    tb = err.__traceback__.tb_next\n"
        "    print(repr(tb.tb_frame.f_locals['self']), str(tb.tb_frame.f_locals['self']))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "not made" in done.stdout
    assert repr(pyspiel.load_game("eights_one_card")) == "eights_one_card(players=2,seed=0)"


@pytest.mark.parametrize("player,error", [(-1, ValueError), (5, ValueError), (True, TypeError), (1.0, TypeError)])
@pytest.mark.parametrize("perfect_recall", [False, True])
@pytest.mark.parametrize("dealt", [False, True])
def test_the_observer_checks_its_player(player, error, perfect_recall, dealt):
    # Before: -1 served seat 1's information state (and, while dealing, any player at all its
    # "p5 dealing"), 5 was a raw IndexError, True a numpy broadcast error or seat 1's string.
    game = pyspiel.load_game("eights_crazy_eights")
    state = _play(game.new_initial_state(), np.random.default_rng(0), 0) if dealt else game.new_initial_state()
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=perfect_recall))
    observer.set_from(state, 0)
    before = observer.tensor.copy()
    with pytest.raises(error, match=r"player must be (an integer|in \[0, 1\])"):
        observer.set_from(state, player)
    with pytest.raises(error, match=r"player must be (an integer|in \[0, 1\])"):
        observer.string_from(state, player)
    assert (observer.tensor == before).all()  # left as it was
    observer.set_from(state, np.int64(1))
    assert observer.string_from(state, np.int64(1)) == observer.string_from(state, 1)


def test_chance_outcomes_past_the_deal_is_a_spiel_error_as_in_openspiels_games():
    # Before: a bare AssertionError. OpenSpiel's own games raise a SpielError at a node that
    # is not of chance (kuhn_poker: CHECK_TRUE(IsChanceNode())).
    state = _play(pyspiel.load_game("eights_crazy_eights").new_initial_state(), np.random.default_rng(0), 0)
    with pytest.raises(pyspiel.SpielError, match=r"chance_outcomes\(\) is only for chance nodes.*player 0 to act"):
        state.chance_outcomes()
    _play(state, np.random.default_rng(0), 10**4)
    assert state.is_terminal()
    with pytest.raises(pyspiel.SpielError, match="at the end of the game"):
        state.chance_outcomes()


@pytest.mark.parametrize(
    "value,error",
    [
        (math.nan, ValueError),
        (5000.0, ValueError),
        (-0.5, ValueError),
        (2**2000, ValueError),
        ("x", TypeError),
        (None, TypeError),
        (True, TypeError),
        (np.array(math.nan), ValueError),
        (np.array(1.5), ValueError),
        (np.array("x"), TypeError),
        (np.array(True), TypeError),
        (np.array([0.5]), TypeError),
    ],
)
def test_resample_from_infostate_names_what_the_sampler_returned(value, error):
    # Before: NaN was "cannot convert float NaN to integer", 5000.0 "seed must be in [0, 2**64)".
    state = _play(pyspiel.load_game("eights_crazy_eights").new_initial_state(), np.random.default_rng(0), 0)
    with pytest.raises(error, match=r"probability_sampler must return a probability, a number in \[0, 1\]"):
        state.resample_from_infostate(0, lambda: value)
    for fine in (0.0, 1.0, np.float32(0.5), 0, np.array(0.3), np.array(1)):
        assert state.resample_from_infostate(0, lambda fine=fine: fine).game is not None
    # A 0-d array (a sampler that returns rng.random(size=())) was refused; it deals as its number.
    dealt = state.resample_from_infostate(0, lambda: np.array(0.3)).game.to_dict()
    assert dealt == state.resample_from_infostate(0, lambda: 0.3).game.to_dict()
    with pytest.raises(TypeError, match="probability_sampler must be a function"):
        state.resample_from_infostate(0, 0.5)
    with pytest.raises(TypeError, match="player_id must be an integer"):
        state.resample_from_infostate(True, lambda: 0.5)
    with pytest.raises(ValueError, match=r"player_id must be in \[0, 1\], got -1"):
        pyspiel.load_game("eights_crazy_eights").new_initial_state().resample_from_infostate(-1, lambda: 0.5)

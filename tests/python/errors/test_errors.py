"""Errors: the right exception type, a helpful message, and no side effects."""

from __future__ import annotations

import numpy as np
import pytest

import eights
from _helpers import PLAYER_RANGES, PRESETS, all_cards, finished_game, is_over, running_game


def test_error_classes_are_value_errors():
    assert issubclass(eights.IllegalActionError, ValueError)
    assert issubclass(eights.RulesError, ValueError)


@pytest.mark.parametrize("preset", PRESETS)
def test_illegal_int_action_leaves_game_unchanged(preset):
    g = running_game(preset, 3, steps=5)
    legal = set(g.legal_actions())
    illegal = [a for a in range(eights.NUM_ACTIONS) if a not in legal]
    assert illegal
    before = g.to_dict()
    decisions = g.decision_count
    for action in (illegal[0], illegal[len(illegal) // 2], illegal[-1]):
        with pytest.raises(eights.IllegalActionError):
            g.step(action)
        assert g.to_dict() == before
    g.step(sorted(legal)[0])  # the game is still usable
    assert g.decision_count == decisions + 1


@pytest.mark.parametrize("action", [eights.NUM_ACTIONS, 999, -1])
def test_out_of_range_action(action):
    g = running_game("crazy_eights", 2, steps=2)
    before = g.to_dict()
    with pytest.raises(eights.IllegalActionError):
        g.step(action)
    assert g.to_dict() == before


@pytest.mark.parametrize("text", ["fly away", "play ZZ", "suit X", "", "play", "ask 8X"])
def test_unknown_action_string(text):
    g = running_game("crazy_eights", 2, steps=2)
    before = g.to_dict()
    with pytest.raises(ValueError):
        g.step(text)
    assert g.to_dict() == before
    with pytest.raises(ValueError):
        g.string_to_action(text)


def test_well_formed_but_illegal_action_string():
    g = running_game("crazy_eights", 2, steps=2)
    me = g.current_player
    not_mine = g.hand(1 - me)[0]
    before = g.to_dict()
    for text in (f"play {not_mine}", not_mine):
        with pytest.raises(eights.IllegalActionError):
            g.step(text)
        assert g.to_dict() == before


@pytest.mark.parametrize("action", [1.5, None, [58], {"draw": 1}, b"draw"])
def test_wrong_action_type(action):
    g = running_game("crazy_eights", 2, steps=2)
    before = g.to_dict()
    with pytest.raises((TypeError, ValueError)):
        g.step(action)
    assert g.to_dict() == before


@pytest.mark.parametrize("preset", PRESETS)
def test_step_after_the_end(preset):
    g = finished_game(preset, 2, seed=3)
    assert is_over(g)
    assert g.legal_actions() == []
    assert not g.action_mask().any()
    assert g.current_player == -1
    before = g.to_dict()
    for action in (0, 58, 60, "draw", eights.NUM_ACTIONS - 1):
        with pytest.raises(eights.IllegalActionError):
            g.step(action)
        assert g.to_dict() == before


def test_unknown_preset_lists_the_presets():
    with pytest.raises(ValueError) as excinfo:
        eights.Game("crazy_nines", 2)
    for name in PRESETS:
        assert name in str(excinfo.value)
    with pytest.raises(ValueError):
        eights.random_selfplay("crazy_nines", games=1)
    with pytest.raises(ValueError):
        eights.Game.from_position("crazy_nines", 2, hands=[["5H"], ["6H"]], discard=["7H"])


@pytest.mark.parametrize("preset", PRESETS)
def test_num_players_out_of_range(preset):
    lo, hi = PLAYER_RANGES[preset]
    for n in (-1, 0, lo - 1, hi + 1, 100):
        with pytest.raises(ValueError) as excinfo:
            eights.Game(preset, n)
        assert "players" in str(excinfo.value)
        with pytest.raises(ValueError):
            eights.make(preset, num_players=n)
    # Just past the preset's maximum, the message says what the maximum is.
    with pytest.raises(ValueError) as excinfo:
        eights.Game(preset, hi + 1)
    assert str(hi) in str(excinfo.value)
    eights.Game(preset, hi)  # the maximum itself is fine


def test_num_players_wrong_type():
    with pytest.raises(TypeError):
        eights.Game("crazy_eights", "2")


@pytest.mark.parametrize("card", ["ZZ", "1H", "8X", "", "8HH", "11D", "H8"])
def test_bad_card_string(card):
    g = eights.Game("crazy_eights", 2, seed=0)
    before = g.to_dict()
    with pytest.raises(ValueError):
        g.reset(seed=1, deck=[card])
    assert g.to_dict() == before
    with pytest.raises(ValueError):
        eights.Game.from_position("crazy_eights", 2, hands=[[card, "3C"], ["4S", "5S"]], discard=["9D"])


def test_deck_with_more_copies_than_the_pack():
    g = eights.Game("crazy_eights", 2, seed=0)
    cards = all_cards(g)
    assert sum(cards.values()) == 52 and cards["8H"] == 1, "crazy_eights uses one 52-card pack"
    before = g.to_dict()
    with pytest.raises(ValueError):
        g.reset(seed=1, deck=["8H", "8H"])
    assert g.to_dict() == before
    with pytest.raises(ValueError):
        eights.Game.from_position("crazy_eights", 2, hands=[["8H", "3C"], ["8H", "5S"]], discard=["9D"])


def test_deck_with_a_card_not_in_the_pack():
    g = eights.Game("crazy_eights", 2, seed=0)
    assert "RJ" not in all_cards(g), "crazy_eights has no jokers"
    before = g.to_dict()
    with pytest.raises(ValueError):
        g.reset(seed=1, deck=["RJ"])
    assert g.to_dict() == before


def test_unknown_rules_field():
    with pytest.raises(eights.RulesError) as excinfo:
        eights.Game("crazy_eights", 2, rules={"deal": {"hand_sizes": 3}})
    assert "hand_sizes" in str(excinfo.value)
    with pytest.raises(eights.RulesError) as excinfo:
        eights.Game("crazy_eights", 2, rules={"dael": {"hand_size": 3}})
    assert "dael" in str(excinfo.value)


def test_rules_value_of_the_wrong_type():
    with pytest.raises(eights.RulesError) as excinfo:
        eights.Game("crazy_eights", 2, rules={"deal": {"hand_size": "x"}})
    assert "deal.hand_size" in str(excinfo.value)


def test_impossible_rules_combination():
    with pytest.raises(ValueError) as excinfo:
        eights.Game("crazy_eights", 6, rules={"deal": {"hand_size": 30}})
    assert "hand_size" in str(excinfo.value)


def test_rules_not_a_dict():
    with pytest.raises((TypeError, ValueError)):
        eights.Game("crazy_eights", 2, rules=5)


def test_rules_errors_surface_through_every_entry_point():
    bad = {"deal": {"hand_sizes": 3}}
    with pytest.raises(eights.RulesError):
        eights.random_selfplay("crazy_eights", games=1, rules=bad)
    with pytest.raises(eights.RulesError):
        eights.make("crazy_eights", rules=bad)
    with pytest.raises(eights.RulesError):
        eights.make("crazy_eights", deal__hand_sizes=3)


def test_observation_of_a_seat_that_does_not_exist():
    g = eights.Game("crazy_eights", 2, seed=0)
    with pytest.raises((ValueError, IndexError)):
        g.observation(2)
    with pytest.raises((ValueError, IndexError)):
        g.hand(2)


def test_returns_unknown_kind():
    g = eights.Game("crazy_eights", 2, seed=0)
    with pytest.raises(ValueError):
        g.returns("elo")
    assert isinstance(g.returns("win_loss"), np.ndarray)


def test_a_file_in_the_wrong_place_is_named_for_what_it_is(tmp_path):
    # A walk from the wheel: a trained agent given as rules said "not UTF-8 at byte 1369", or
    # (with --rules) a JSON error about the path; a rules file given as an agent, BadZipFile.
    import argparse
    import struct
    import zipfile

    from eights.cli._args import rules_value

    agent = tmp_path / "final.safetensors"
    header = b'{"__metadata__":{"format":"x"}}'
    agent.write_bytes(struct.pack("<Q", len(header)) + header + b"\xff" * 8)
    model = tmp_path / "model.zip"
    with zipfile.ZipFile(model, "w") as z:
        z.writestr("data", "{}")
    rules = tmp_path / "house.toml"
    rules.write_text('inherits = "crazy_eights"\n')
    for path in (agent, model):
        with pytest.raises(ValueError, match=r"not UTF-8 .*it is an agent's file .*agents go to --agents"):
            eights.Rules.from_toml(str(path))
        with pytest.raises(argparse.ArgumentTypeError, match=r"does not end in \.toml.*it is an agent's file"):
            rules_value(str(path))
    with pytest.raises(ValueError, match=r"not a model saved by stable-baselines3 .*it is a text file \(rules\?\)"):
        eights.agents.load_agent(str(rules))

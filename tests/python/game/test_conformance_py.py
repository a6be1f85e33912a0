"""Invariants checked after every step of seeded random games, through the Python API.

A smoke size: the Rust conformance suite (``tests/suite/conformance.rs``) checks the engine's
invariants on 2,000 games a configuration; this file checks that the Python surface (hands,
piles, masks, observations, pickling) reports the same state, on a few games.

For each preset and 2-4 players, 5 games are played through the Python API
with ``random.Random(seed).choice(game.legal_actions())``.  After every step:

* cards are conserved: the hands, the discard pile and the stock hold the same
  multiset of cards as right after the deal (one hand per episode, the
  default), so their sizes sum to a constant;
* the reported sizes match the listed cards;
* the action mask is non-empty exactly while the game is running, and
  ``legal_actions() == flatnonzero(action_mask())``;
* observations keep their shape and dtype;
* every 10th step, a pickled copy of the game is followed for a few steps with
  the same actions and must stay identical to the original.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

import eights
from _helpers import PHASES, PRESETS, all_cards, card_total, is_over

GAMES = 5
PICKLE_EVERY = 10
FOLLOW_STEPS = 3
MAX_STEPS = 100_000


def _check_state(game, initial_cards, initial_total, obs_size):
    n = game.num_players
    assert card_total(game) == initial_total, "sum of hand, stock and discard sizes changed"
    assert all_cards(game) == initial_cards, "the multiset of cards in play changed"
    for seat in range(n):
        assert len(game.hand(seat)) == game.hand_sizes[seat]
    assert len(game.stock()) == game.stock_size
    pile = game.discard_pile()
    assert len(pile) == game.discard_size
    assert pile and pile[-1] == game.top_card

    mask = game.action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (eights.NUM_ACTIONS,)
    legal = game.legal_actions()
    assert legal == np.flatnonzero(mask).tolist()
    assert game.phase in PHASES
    if game.is_terminal:
        assert game.phase == "game_over"
    elif not game.is_truncated:
        assert game.phase != "game_over"
    if is_over(game):
        assert not legal and game.current_player == -1
    else:
        assert legal, f"no legal action in phase {game.phase!r}"
        assert 0 <= game.current_player < n

    for seat in range(n):
        obs = game.observation(seat)
        assert obs.dtype == np.float32 and obs.shape == (obs_size,)


def _check_final(game, preset):
    n = game.num_players
    returns = game.returns("win_loss")
    if game.winner is not None:
        assert game.is_terminal and not game.is_truncated
        assert 0 <= game.winner < n
        if preset != "crazy_eights_xtreme":
            # In crazy_eights_xtreme a player who goes out on a 2 leaves the chain running
            # and may be handed cards before the round ends
            # (docs/rules_catalog.md#crazy_eights_xtreme-scenario-checks, CX-5).
            assert game.hand_sizes[game.winner] == 0, "the winner of a hand has gone out"
        assert returns[game.winner] == 1.0
        assert returns.sum() == pytest.approx(0.0)
    else:
        assert not returns.any()


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_conform(preset, num_players):
    winners = 0
    for index in range(GAMES):
        seed = 10_000 * num_players + index
        rng = random.Random(seed)
        game = eights.Game(preset, num_players, seed=seed)
        obs_size = game.observation_size
        initial_cards = all_cards(game)
        initial_total = card_total(game)
        assert sum(initial_cards.values()) == initial_total
        _check_state(game, initial_cards, initial_total, obs_size)

        followers = []  # [pickled copy, steps left to follow]
        steps = 0
        while not is_over(game):
            assert steps < MAX_STEPS, "game neither ended nor got truncated"
            if steps % PICKLE_EVERY == 0:
                copy = pickle.loads(pickle.dumps(game))
                assert copy.to_dict() == game.to_dict()
                followers.append([copy, FOLLOW_STEPS])

            action = rng.choice(game.legal_actions())
            game.step(action)
            steps += 1
            _check_state(game, initial_cards, initial_total, obs_size)

            for follower in followers:
                copy = follower[0]
                copy.step(action)
                follower[1] -= 1
                assert copy.legal_actions() == game.legal_actions()
                assert copy.hand_sizes == game.hand_sizes
                assert copy.to_dict() == game.to_dict()
            followers = [f for f in followers if f[1] > 0]

        assert game.decision_count == steps
        _check_final(game, preset)
        winners += game.winner is not None
    assert winners > 0, "no random game produced a winner"

"""The public Python API of ``eights`` (the Rust core seen from Python)."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

import eights
from _helpers import (
    CARD_RE,
    PHASES,
    PRESET_PLAYER_PAIRS,
    PRESETS,
    STANDARD_CARDS,
    card_index,
    is_over,
    mentions_card,
    play_to_end,
    running_game,
)


def test_presets_lists_the_four_presets():
    names = eights.presets()
    assert isinstance(names, list)
    assert all(isinstance(name, str) for name in names)
    assert len(names) == len(set(names))
    assert set(PRESETS) <= set(names)


def test_module_exports():
    assert eights.NUM_ACTIONS == 197
    assert isinstance(eights.__version__, str) and eights.__version__
    for name in [
        "Game",
        "presets",
        "NUM_ACTIONS",
        "IllegalActionError",
        "RulesError",
        "RandomBot",
        "random_selfplay",
        "make",
        "EightsEnv",
        "__version__",
    ]:
        assert name in eights.__all__
        assert hasattr(eights, name)


@pytest.mark.parametrize("preset,n", PRESET_PLAYER_PAIRS)
def test_construction_and_property_types(preset, n):
    g = eights.Game(preset, n, seed=0)
    assert g.num_players == n
    assert g.num_actions == eights.NUM_ACTIONS
    assert type(g.current_player) is int and 0 <= g.current_player < n
    assert g.phase in PHASES and g.phase != "game_over"
    assert isinstance(g.top_card, str) and CARD_RE.match(g.top_card)
    assert g.active_suit is None or g.active_suit in "CDHS" and len(g.active_suit) == 1
    assert g.nominated_suit is None or g.nominated_suit in ("C", "D", "H", "S")
    assert type(g.pending_draw) is int and g.pending_draw >= 0
    assert g.direction in (1, -1)
    assert type(g.stock_size) is int and g.stock_size >= 0
    assert type(g.discard_size) is int and g.discard_size >= 1
    assert isinstance(g.hand_sizes, list) and len(g.hand_sizes) == n
    assert all(type(size) is int and size > 0 for size in g.hand_sizes)
    assert g.is_terminal is False and g.is_truncated is False
    assert g.winner is None
    assert isinstance(g.scores, list) and len(g.scores) == n
    assert all(type(score) is int for score in g.scores)
    assert isinstance(g.hand_points, list) and len(g.hand_points) == n
    assert type(g.decision_count) is int and g.decision_count == 0
    assert type(g.dealer) is int and 0 <= g.dealer < n
    assert type(g.observation_size) is int and g.observation_size > 0
    assert isinstance(g.rules_dict(), dict)

    for seat in range(n):
        hand = g.hand(seat)
        assert len(hand) == g.hand_sizes[seat]
        assert all(CARD_RE.match(card) for card in hand)
        assert [card_index(c) for c in hand] == sorted(card_index(c) for c in hand)
    pile = g.discard_pile()
    assert len(pile) == g.discard_size and pile[-1] == g.top_card
    stock = g.stock()
    assert len(stock) == g.stock_size
    assert all(CARD_RE.match(card) for card in pile + stock)


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_actions_match_action_mask(preset):
    g = eights.Game(preset, 3, seed=1)
    bot = eights.RandomBot(1)
    checked = 0
    while not is_over(g) and checked < 300:
        mask = g.action_mask()
        assert isinstance(mask, np.ndarray)
        assert mask.dtype == np.bool_ and mask.shape == (eights.NUM_ACTIONS,)
        legal = g.legal_actions()
        assert all(type(a) is int for a in legal)
        assert legal == sorted(legal)
        assert legal == np.flatnonzero(mask).tolist()
        assert legal, "a running game must offer at least one action"
        g.step(bot.act(g))
        checked += 1
    assert checked > 0


def test_every_action_id_round_trips_through_its_string():
    g = eights.Game("crazy_eights", 2, seed=0)
    strings = [g.action_to_string(a) for a in range(eights.NUM_ACTIONS)]
    assert all(isinstance(s, str) and s for s in strings)
    assert len(set(strings)) == eights.NUM_ACTIONS
    for action, text in enumerate(strings):
        assert g.string_to_action(text) == action


@pytest.mark.parametrize(
    "action,text",
    [
        (0, "play AC"),
        (22, "play TD"),
        (33, "play 8H"),
        (51, "play KS"),
        (52, "play RJ"),
        (53, "play BJ"),
        (54, "suit C"),
        (56, "suit H"),
        (57, "suit S"),
        (58, "draw"),
        (59, "accept"),
        (60, "pass"),
        (61, "end"),
        (62, "give AC"),
        (65, "give 4C"),
        (116, "keep AC"),
        (119, "keep 4C"),
        (170, "target +1"),
        (178, "target +9"),
        (179, "ask A"),
        (191, "ask K"),
        (192, "ask QS"),
        (193, "ask joker"),
        (194, "challenge"),
        (195, "no_challenge"),
        (196, "announce"),
    ],
)
def test_documented_action_layout(action, text):
    g = eights.Game("crazy_eights", 2, seed=0)
    assert g.action_to_string(action) == text
    assert g.string_to_action(text) == action


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_action_strings_round_trip(preset):
    g = eights.Game(preset, 3, seed=2)
    bot = eights.RandomBot(2)
    for _ in range(60):
        if is_over(g):
            break
        legal = g.legal_actions()
        strings = g.legal_action_strings()
        assert strings == [g.action_to_string(a) for a in legal]
        assert [g.string_to_action(s) for s in strings] == legal
        g.step(bot.act(g))


@pytest.mark.parametrize("preset", PRESETS)
def test_step_by_string_equals_step_by_int(preset):
    g = eights.Game(preset, 2, seed=3)
    bot = eights.RandomBot(3)
    steps = 0
    while not is_over(g) and steps < 80:
        action = bot.act(g)
        by_string = g.clone()
        by_string.step(g.action_to_string(action))
        by_numpy_int = g.clone()
        by_numpy_int.step(np.int64(action))
        g.step(action)
        assert by_string.to_dict() == g.to_dict()
        assert by_numpy_int.to_dict() == g.to_dict()
        steps += 1
    assert steps > 0


def test_bare_card_and_nominate_aliases():
    g = eights.Game.from_position(
        "crazy_eights",
        2,
        hands=[["5H", "8C", "KS"], ["2D", "3S", "4C"]],
        discard=["9H"],
        current_player=0,
    )
    assert g.current_player == 0 and g.top_card == "9H"
    assert "play 5H" in g.legal_action_strings()

    bare, full = g.clone(), g.clone()
    bare.step("5H")
    full.step("play 5H")
    assert bare.to_dict() == full.to_dict()
    assert full.top_card == "5H"

    g.step("play 8C")
    assert g.phase == "nominate"
    assert g.current_player == 0
    assert g.legal_action_strings() == ["suit C", "suit D", "suit H", "suit S"]
    alias, canonical = g.clone(), g.clone()
    alias.step("nominate H")
    canonical.step("suit H")
    assert alias.to_dict() == canonical.to_dict()
    assert canonical.nominated_suit == "H" and canonical.active_suit == "H"
    assert canonical.current_player == 1


def test_ten_is_accepted_as_t():
    g = eights.Game.from_position("crazy_eights", 2, hands=[["10D", "3C"], ["4S", "5S"]], discard=["9D"])
    assert g.hand(0) == ["3C", "TD"]
    assert g.hand(1) == ["4S", "5S"]

    g = eights.Game("crazy_eights", 2, seed=0)
    g.reset(seed=5, deck=["10D"])
    assert "TD" in g.hand(0)


def test_reset_deck_fixes_the_deal_order():
    g = eights.Game("crazy_eights", 2, seed=0)
    hand_size = g.hand_sizes[0]
    assert g.hand_sizes == [hand_size, hand_size]
    # No eights: a start card of rank 8 may be treated specially.
    candidates = [c for c in STANDARD_CARDS if c[0] != "8"]
    random.Random(4).shuffle(candidates)
    deck = candidates[: 2 * hand_size + 4]

    g.reset(seed=11, deck=deck)
    by_index = lambda cards: sorted(cards, key=card_index)  # noqa: E731
    assert g.hand(0) == by_index(deck[0 : 2 * hand_size : 2])
    assert g.hand(1) == by_index(deck[1 : 2 * hand_size : 2])
    assert g.top_card == deck[2 * hand_size]
    assert g.stock()[:3] == deck[2 * hand_size + 1 :]


def _trace(game, bot, steps):
    """Legal actions, hands and chosen action for up to ``steps`` decisions."""
    trace = []
    for _ in range(steps):
        if is_over(game):
            break
        hands = tuple(tuple(game.hand(p)) for p in range(game.num_players))
        action = bot.act(game)
        trace.append((game.legal_actions(), hands, game.top_card, action))
        game.step(action)
    trace.append((game.is_terminal, game.is_truncated, game.winner))
    return trace


@pytest.mark.parametrize("preset", PRESETS)
def test_reset_seed_reproducibility(preset):
    first = eights.Game(preset, 3, seed=1)
    first.reset(seed=42)
    second = eights.Game(preset, 3, seed=999)
    second.reset(seed=42)
    assert first.to_dict() == second.to_dict()
    assert _trace(first, eights.RandomBot(7), 500) == _trace(second, eights.RandomBot(7), 500)

    # The constructor seed is reproducible too, and different seeds deal differently.
    assert eights.Game(preset, 3, seed=5).to_dict() == eights.Game(preset, 3, seed=5).to_dict()
    deals = set()
    for seed in range(6):
        first.reset(seed=seed)
        deals.add(tuple(tuple(first.hand(p)) for p in range(3)))
    assert len(deals) > 1


def test_random_bot_is_reproducible_and_legal():
    g1 = eights.Game("crazy_eights", 2, seed=8)
    g2 = eights.Game("crazy_eights", 2, seed=8)
    b1, b2 = eights.RandomBot(3), eights.RandomBot(3)

    def choose_and_check(game, bot):
        action = bot.act(game)
        assert type(action) is int and action in game.legal_actions()
        return action

    a1 = play_to_end(g1, lambda g: choose_and_check(g, b1))
    a2 = play_to_end(g2, lambda g: choose_and_check(g, b2))
    assert a1 == a2


@pytest.mark.parametrize("preset", PRESETS)
def test_copies_continue_identically(preset):
    g = running_game(preset, 3, steps=15)
    copies = {
        "clone": g.clone(),
        "pickle": pickle.loads(pickle.dumps(g)),
        "from_dict": eights.Game.from_dict(g.to_dict()),
    }
    for name, copy in copies.items():
        assert copy is not g
        assert copy.to_dict() == g.to_dict(), name

    bot = eights.RandomBot(11)
    while not is_over(g):
        action = bot.act(g)
        g.step(action)
        for name, copy in copies.items():
            copy.step(action)
            assert copy.legal_actions() == g.legal_actions(), name
            assert copy.hand_sizes == g.hand_sizes, name
            assert copy.to_dict() == g.to_dict(), name
    for name, copy in copies.items():
        assert (copy.is_terminal, copy.is_truncated, copy.winner) == (
            g.is_terminal,
            g.is_truncated,
            g.winner,
        ), name
        np.testing.assert_array_equal(copy.returns(), g.returns())


def test_clone_is_independent():
    g = running_game("crazy_eights", 2, steps=3)
    before = g.to_dict()
    copy = g.clone()
    copy.step(copy.legal_actions()[0])
    assert g.to_dict() == before
    assert copy.to_dict() != before


@pytest.mark.parametrize("preset,n", [(p, n) for p in PRESETS for n in (2, 3, 5)])
def test_observation_and_spec(preset, n):
    g = running_game(preset, n, steps=5)
    size = g.observation_size
    for seat in range(n):
        obs = g.observation(seat)
        assert isinstance(obs, np.ndarray)
        assert obs.dtype == np.float32 and obs.shape == (size,)
        assert np.isfinite(obs).all()

    spec = dict(g.observation_spec())
    assert spec
    slices = []
    for name, bounds in spec.items():
        assert isinstance(name, str)
        start, stop = bounds
        assert type(start) is int and type(stop) is int
        assert 0 <= start <= stop <= size, (name, bounds)
        slices.append((start, stop, name))
    slices.sort()
    position = 0
    for start, stop, name in slices:
        assert start == position, f"gap or overlap before {name!r} at {start} (expected {position})"
        position = stop
    assert position == size


def test_observation_spec_is_a_dict():
    # api.md: observation_spec() -> dict[str, tuple[int, int]]
    spec = eights.Game("crazy_eights", 2, seed=0).observation_spec()
    assert isinstance(spec, dict)
    assert all(isinstance(v, tuple) and len(v) == 2 for v in spec.values())


@pytest.mark.parametrize("preset", PRESETS)
def test_render_mentions_top_card(preset):
    g = running_game(preset, 3, steps=4)
    text = g.render()
    assert isinstance(text, str) and text.strip()
    assert mentions_card(text, g.top_card), (g.top_card, text)


@pytest.mark.parametrize("preset", PRESETS)
def test_returns(preset):
    winners = 0
    for seed in range(10):
        g = eights.Game(preset, 3, seed=seed)
        bot = eights.RandomBot(seed)
        while not is_over(g):
            running = g.returns("win_loss")
            assert running.dtype == np.float64 and running.shape == (3,)
            assert not running.any(), "returns must be zero before the end"
            g.step(bot.act(g))
        final = g.returns("win_loss")
        assert final.dtype == np.float64 and final.shape == (3,)
        if g.winner is not None:
            winners += 1
            expected = np.full(3, -0.5)
            expected[g.winner] = 1.0
            np.testing.assert_allclose(final, expected)
            assert final.sum() == pytest.approx(0.0)
        else:
            assert not final.any()
        score = g.returns("score")
        assert score.dtype == np.float64 and score.shape == (3,)
        assert np.isfinite(score).all()
        assert np.array_equal(g.returns(), final)  # default kind is win_loss
    assert winners > 0, "no random game produced a winner"


@pytest.mark.parametrize("preset", PRESETS)
def test_decision_count_counts_steps(preset):
    g = eights.Game(preset, 2, seed=4)
    bot = eights.RandomBot(4)
    steps = 0
    while not is_over(g):
        assert g.decision_count == steps
        g.step(bot.act(g))
        steps += 1
    assert g.decision_count == steps


def test_random_selfplay_summary():
    stats = eights.random_selfplay("crazy_eights", num_players=3, games=50, seed=0)
    assert stats["games"] == 50
    assert len(stats["wins"]) == 3
    assert sum(stats["wins"]) + stats["no_winner"] == 50
    assert 0 <= stats["truncated"] <= stats["no_winner"]
    assert stats["decisions"] > 0
    assert stats["seconds"] >= 0.0
    again = eights.random_selfplay("crazy_eights", num_players=3, games=50, seed=0)
    for key in ("games", "wins", "no_winner", "decisions", "truncated"):
        assert again[key] == stats[key], key


def test_random_selfplay_accepts_rules():
    stats = eights.random_selfplay("crazy_eights", num_players=2, games=5, seed=1, rules={"deal": {"hand_size": 4}})
    assert stats["games"] == 5

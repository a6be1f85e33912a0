"""The rules encoding from Python: its size and layout, its bounds, where it appears
(``Rules.encode``, ``Game.rules_encoding``, ``Game.observation(obs_rules=True)``) and that it
tells rule sets apart (the exhaustive check over drawn rule sets is tests/suite/rules_encoding.rs)."""

import numpy as np
import pytest

import eights
from eights.rules import encoding


def test_size_and_layout():
    k, t = len(encoding.CARD_FEATURE_NAMES), len(encoding.TABLE_FEATURE_NAMES)
    assert eights.RULES_SIZE == 54 * k + t
    assert len(set(encoding.CARD_FEATURE_NAMES)) == k and len(set(encoding.TABLE_FEATURE_NAMES)) == t
    low, high = encoding.bounds()
    assert low.shape == high.shape == (eights.RULES_SIZE,)
    assert np.isfinite(low).all() and np.isfinite(high).all() and (low < high).all()


@pytest.mark.parametrize("preset", eights.presets())
def test_every_preset_encodes_within_the_bounds(preset):
    low, high = encoding.bounds()
    rules = eights.Rules(preset)
    for n in (rules.players.start, rules.players.stop - 1):
        x = rules.encode(n)
        assert x.dtype == np.float32 and x.shape == (eights.RULES_SIZE,)
        assert ((low <= x) & (x <= high)).all(), preset
        g = eights.Game(rules, n, seed=1)
        np.testing.assert_array_equal(g.rules_encoding(), x)


def test_observation_with_the_rules_is_the_observation_then_the_encoding():
    g = eights.Game("switch_blackjack", 3, seed=4)
    both = g.observation(1, obs_rules=True)
    assert both.shape == (eights.OBS_SIZE + eights.RULES_SIZE,)
    np.testing.assert_array_equal(both[: eights.OBS_SIZE], g.observation(1))
    np.testing.assert_array_equal(both[eights.OBS_SIZE :], g.rules_encoding())


def test_what_a_card_does_is_in_its_row():
    cards, table = encoding.split(eights.Rules("switch_blackjack").encode(2))
    col = encoding.CARD_FEATURE_NAMES.index
    # "Twos - the next player must pick up two cards" (The Other Blackjack): a draw-two chain.
    assert cards[encoding.face("2H"), col("chain_amount")] * 16 == 2
    # The black jacks pick up seven, the red ones cancel them.
    assert cards[encoding.face("JS"), col("chain_amount")] * 16 == 7
    assert cards[encoding.face("JH"), col("chain_amount")] == 0
    assert cards[encoding.face("JH"), col("cancels_group=1")] == 1
    # A five does nothing: its row holds its copy in the pack and the start-card rule every
    # card of the preset shares (start.effect = "ignore"); the preset scores no points
    # (score.mode = "none": a hand is only won or lost).
    names = [encoding.CARD_FEATURE_NAMES[i] for i in np.flatnonzero(cards[encoding.face("5H")])]
    assert names == ["copies", "start=ignore"]
    assert table[encoding.TABLE_FEATURE_NAMES.index("num_players")] == pytest.approx(0.2)


def test_the_player_count_changes_the_deck_in_the_encoding():
    r = eights.Rules("crazy_eights")  # two packs from six players
    copies = encoding.CARD_FEATURE_NAMES.index("copies")
    assert encoding.split(r.encode(5))[0][0, copies] * 4 == 1
    assert encoding.split(r.encode(6))[0][0, copies] * 4 == 2


def test_names_and_prose_do_not_change_the_encoding_but_rules_do():
    base = eights.Rules("crazy_eights")
    renamed = base.replace(name="my_game", title="My game", description="Prose.")
    np.testing.assert_array_equal(base.encode(2), renamed.encode(2))
    assert not np.array_equal(base.encode(2), base.replace(cards={"7": {"skip": 1}}).encode(2))


def test_split_refuses_a_wrong_size():
    with pytest.raises(ValueError, match=f"{eights.RULES_SIZE} values"):
        encoding.split(np.zeros(10))
    with pytest.raises(ValueError, match="card must be"):
        encoding.face("ZZ")

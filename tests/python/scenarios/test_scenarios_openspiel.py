"""Checks of the `openspiel_crazy_eights` preset against OpenSpiel's documented rules
(docs/rules_catalog.md#openspiel_crazy_eights).

OpenSpiel's crazy_eights (default parameters): five cards each (seven for two players), an
eight turned up first is put back and another card turned, eights wild with the suit named as
a separate decision, up to five draws a turn (drawing allowed even with a playable card), any
legal card playable after drawing, passing only after five draws or with an empty stock, no
reshuffle, the game ends on an empty hand, after n + 1 consecutive passes, or after 100 plays.
"""

import pytest

import eights
from scenario_helpers import legal, legal_cards, position

PRESET = "openspiel_crazy_eights"


def test_draw_up_to_five_then_pass():
    # P0 holds nothing playable on 9S; the first four stock cards are not playable either.
    stock = ["2H", "3H", "4H", "5H", "6S", "7H", "TH"]
    g = position(PRESET, 2, hands=[["2C", "3D"], ["4C", "5D"]], discard=["9S"], stock=stock)
    assert legal(g) == {"draw"}
    for _ in range(4):
        g.step("draw")
        assert g.current_player == 0
        assert legal(g) == {"draw"}, "no pass before the fifth draw"
    g.step("draw")  # the fifth card, 6S, is playable
    assert legal(g) == {"play 6S", "pass"}, "after five draws: play a legal card or pass"
    g.step("pass")
    assert g.current_player == 1
    assert len(g.hand(0)) == 7


def test_five_draws_without_a_playable_card_wait_for_the_pass():
    # With nothing to play after the fifth draw, pass is the only action; as in OpenSpiel the
    # player still takes it as a decision (`pass.explicit`), so action sequences map one to one.
    stock = ["2H", "3H", "4H", "5H", "6H", "7H", "TH"]
    g = position(PRESET, 2, hands=[["2C", "3D"], ["4C", "5D"]], discard=["9S"], stock=stock)
    for _ in range(5):
        assert g.current_player == 0
        g.step("draw")
    assert g.current_player == 0
    assert legal(g) == {"pass"}
    g.step("pass")
    assert g.current_player == 1
    assert len(g.hand(0)) == 7


def test_draw_with_a_playable_card_then_play_any_legal_card():
    g = position(PRESET, 2, hands=[["9C", "3D"], ["4C", "5D"]], discard=["9S"], stock=["3S", "KH"])
    assert legal(g) == {"play 9C", "draw"}
    g.step("draw")  # draws 3S
    assert legal(g) == {"play 9C", "play 3S", "draw"}
    g.step("play 9C")
    assert g.current_player == 1


def test_eight_start_card_is_put_back():
    g = eights.Game(PRESET, 2, seed=3)
    # 7 cards each (two players), then the start card 8H, then the stock.
    hands = [["2C", "3C", "4C", "5C", "6C", "7C", "9C"], ["2D", "3D", "4D", "5D", "6D", "7D", "9D"]]
    deck = [c for pair in zip(*hands) for c in pair] + ["8H", "KS"]
    g.reset(seed=3, deck=deck)
    assert g.top_card != "8H"
    assert g.top_card[0] != "8"
    assert "8H" in g.stock(), "the eight went back into the stock"
    assert g.current_player == 0 and g.phase == "play"


def test_game_ends_after_n_plus_one_consecutive_passes():
    g = position(PRESET, 2, hands=[["2C", "3D"], ["4C", "5D"]], discard=["9S"], stock=[])
    for _k in range(2):
        assert legal(g) == {"pass"}
        g.step("pass")
        assert not g.is_terminal, "n passes do not end the game"
    assert legal(g) == {"pass"}
    g.step("pass")
    assert g.is_terminal
    # Everyone scores their hand at face value: 2 + 3 and 4 + 5.
    assert list(g.hand_points) == [5, 9]


def test_cap_on_plays_ends_the_game():
    g = position(
        PRESET,
        2,
        hands=[["9C", "9D", "KH"], ["9H", "2D", "QS"]],
        discard=["9S"],
        stock=["3S"],
        rules={"end": {"max_plays": 2}},
    )
    g.step("play 9C")
    assert not g.is_terminal
    g.step("play 9H")
    assert g.is_terminal
    assert list(g.hand_points) == [9 + 10, 2 + 10]


def test_spot_cards_score_face_value():
    # OpenSpiel scores spot cards by card index; the preset uses face values.
    g = position(PRESET, 2, hands=[["9S"], ["2D", "3H", "8C", "KD"]], discard=["9H"], stock=["4C"])
    g.step("play 9S")
    assert g.is_terminal and g.winner == 0
    assert list(g.hand_points) == [0, 2 + 3 + 50 + 10]


def test_aces_score_ten_as_in_openspiel():
    # OpenSpiel's crazy_eights.h: "50 for each 8, 10 for each face card, and face values for
    # others. then it is totally 4 * (2+3+..7+50+9+10+4*10)": four ranks at 10, the ace with
    # the courts. The preset inherited crazy_eights' ace at 1.
    g = position(PRESET, 3, hands=[["9C"], ["AC", "AD", "KS"], ["TC", "2D", "8H"]], discard=["9D"], stock=["3C"])
    g.step("play 9C")
    assert g.is_terminal and g.winner == 0
    assert list(g.hand_points) == [0, 10 + 10 + 10, 10 + 2 + 50]


def test_eight_nominates_as_a_separate_decision():
    g = position(PRESET, 3, hands=[["8C", "3D"], ["4H", "5D"], ["6S", "7S"]], discard=["9S"], stock=["2H"])
    g.step("play 8C")
    assert g.phase == "nominate" and g.current_player == 0
    assert legal(g) == {"suit C", "suit D", "suit H", "suit S"}
    g.step("suit D")
    assert g.current_player == 1
    assert legal_cards(g) == {"5D"}


@pytest.mark.parametrize("n", [3])
def test_special_cards_variant(n):
    rules = {"variants": ["use_special_cards"]}
    g = position(
        PRESET, n, hands=[["QS", "3D"], ["4H", "5D"], ["6S", "2S"]], discard=["9S"], stock=["2H", "KH"], rules=rules
    )
    g.step("play QS")
    assert g.current_player == 2, "the queen skips the next player"
    g.step("play 2S")
    assert g.phase == "chain" and g.current_player == 0 and g.pending_draw == 2
    assert legal(g) == {"accept"}
    g.step("accept")
    assert g.current_player == 1

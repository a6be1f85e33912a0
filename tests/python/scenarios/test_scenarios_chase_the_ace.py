"""Scenario checks CA-1 .. CA-3 (docs/rules_catalog.md#chase_the_ace-scenario-checks) for `chase_the_ace`.

Preset facts used (docs/rules_catalog.md#chase_the_ace, identical to switch_blackjack `switch_blackjack` with all
jacks ordinary): K = draw-chain(1) answered only by a K, adding up; 2 =
draw-chain(2) answered only by a 2; chains do not mix and block every other
card; accepting ends the turn; court cards match the same court rank; drawing
is voluntary; the start card has no effect (`start.effect=ignore`); deal 7.
"""

from scenario_helpers import (
    dealt_game,
    legal,
    legal_cards,
    multiset,
    plays,
    position,
)

PRESET = "chase_the_ace"


def test_CA_1_black_jack_is_ordinary():
    """CA-1: P0 plays `JS` on `9S`. Expect: no pick-up; P1 plays normally."""
    # n=3 (not stated).  P1 holds JC (the other black jack), 4S and 6H.
    p1 = ["JC", "4S", "6H"]
    g = position(
        PRESET,
        3,
        hands=[["JS", "3D", "4C"], p1, ["7C", "TC"]],
        discard=["9S"],
        stock=["2D", "5D", "6D"],
    )
    g.step("play JS")
    assert g.top_card == "JS"
    assert g.current_player == 1
    assert g.phase == "play"
    assert g.pending_draw == 0
    assert multiset(g.hand(1)) == multiset(p1)
    assert g.stock() == ["2D", "5D", "6D"]
    assert legal_cards(g) == {"JC", "4S"}
    assert legal(g) == plays("JC 4S") | {"draw"}


def test_CA_2_king_chain():
    """CA-2: n=3. P0 plays `KD`. Expect: P1 picks up 1 or plays a K. P1 plays `KS`.
    Expect: P2 picks up 2 or plays a K."""
    # P1: 6D (diamond, blocked) and 2D (a 2 can't answer a K chain).
    # P2: 7S (spade, blocked) and 2S.
    g = position(
        PRESET,
        3,
        hands=[["KD", "3C", "9S"], ["KS", "6D", "2D"], ["KC", "7S", "2S"]],
        discard=["5D"],
        stock=["3H", "4H", "5H", "6H"],
    )
    g.step("play KD")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 1
    assert legal(g) == {"play KS", "accept"}
    g.step("play KS")
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play KC", "accept"}
    g.step("accept")
    assert multiset(g.hand(2)) == multiset(["KC", "7S", "2S", "3H", "4H"])
    assert g.stock() == ["5H", "6H"]
    assert g.pending_draw == 0
    assert g.current_player == 0


def test_CA_3_two_start_card_has_no_effect():
    """CA-3: the start card is `2C`. Expect: no chain; P0 plays normally, following
    clubs or 2s."""
    # n=2, 7 cards each.  P0 holds a club (4C), a 2 (2H) and five cards that
    # match neither 2C nor any 2 (no aces or queens, to keep their rules out).
    hands = [
        ["4C", "2H", "9D", "KS", "6H", "3S", "TD"],
        ["5D", "7D", "8D", "JD", "QD", "KD", "4S"],
    ]
    g = dealt_game(PRESET, 2, hands=hands, start="2C", stock=["5S", "6S", "7S"])
    assert g.current_player == 0
    assert g.phase == "play"
    assert g.pending_draw == 0
    assert legal_cards(g) == {"4C", "2H"}
    assert legal(g) == plays("4C 2H") | {"draw"}
    assert multiset(g.hand(0)) == multiset(hands[0])

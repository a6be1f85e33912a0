"""Scenario checks CW-1 .. CW-5
(docs/rules_catalog.md#crazy_eights_winner_collects-scenario-checks) for `crazy_eights_winner_collects`.

Preset facts used (docs/rules_catalog.md#crazy_eights_winner_collects, inheriting `crazy_eights`):
1 pack, jokers optional
(default 0; enabled here with rules={"deck": {"jokers": 2}}); deal 8; 8s are
wild with a required nomination; drawing is voluntary; a `draw` draws cards
one at a time until the hand holds a legal play (at least one card) and the
player MUST then play (R, A13); the stock is not reshuffled; a player who
can't play with an empty stock passes; when everybody passes the hand is
blocked and nobody collects (R, A14); a joker is playable on any card, makes
no nomination and gives the next player a free play; winner-collects scoring:
spot cards face value (A=1), J/Q/K=10, 8=50, joker 0; series target 50 x n.
"""

import pytest

import eights
from scenario_helpers import (
    draw_until_stopped,
    hand_over,
    legal,
    legal_cards,
    multiset,
    plays,
    position,
)

PRESET = "crazy_eights_winner_collects"
JOKERS = {"deck": {"jokers": 2}}
# One hand per episode, so that `is_terminal` marks the end of the hand (with a
# match the engine deals the next hand by itself).
ONE_HAND = {"series": {"match": False}}


def test_CW_1_legal_cards_on_4D():
    """CW-1: top `4D`, P0 holds `4S 9D 8C KH`. Expect: legal = {`4S`, `9D`, `8C`}
    plus `draw`."""
    # n=2 (not stated).
    g = position(
        PRESET,
        2,
        hands=[["4S", "9D", "8C", "KH"], ["2C", "3C"]],
        discard=["4D"],
        stock=["5S", "6S", "7S"],
    )
    assert g.phase == "play"
    assert legal_cards(g) == {"4S", "9D", "8C"}
    assert legal(g) == plays("4S 9D 8C") | {"draw"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play KH")


def test_CW_2_draw_until_playable_then_must_play():
    """CW-2 (R): top `4D`, P0 holds `KS 7C`, the stock from the top is `9C 2H 4H
    QS`. P0 draws. Expect: the draws stop after `4H` (3 cards drawn). P0 must
    then play; the only legal card is `4H`."""
    # n=2 (not stated).  draw_until_stopped works whether one "draw" action
    # draws until playable or each "draw" draws one card.
    g = position(
        PRESET,
        2,
        hands=[["KS", "7C"], ["2C", "3C"]],
        discard=["4D"],
        stock=["9C", "2H", "4H", "QS"],
    )
    assert legal(g) == {"draw"}
    draw_until_stopped(g)
    assert multiset(g.hand(0)) == multiset(["KS", "7C", "9C", "2H", "4H"])
    assert g.stock() == ["QS"]
    assert g.current_player == 0
    # the play is now compulsory: no further draw, no pass
    assert legal(g) == {"play 4H"}
    g.step("play 4H")
    assert g.top_card == "4H"
    assert multiset(g.hand(0)) == multiset(["KS", "7C", "9C", "2H"])
    assert g.current_player == 1


def test_CW_3_joker_free_play_no_nomination():
    """CW-3: jokers enabled, top `9S`. P0 plays `RJ`. Expect: P0 makes no
    nomination, and P1 may play any card (e.g. `3D`)."""
    # n=3 (not stated).  P1's cards match neither 9S nor anything else.
    p1 = ["3D", "6H", "KC", "4D"]
    g = position(
        PRESET,
        3,
        hands=[["RJ", "4H", "7D"], p1, ["TC", "JC"]],
        discard=["9S"],
        stock=["2S", "3S", "5S"],
        rules=JOKERS,
    )
    assert "play RJ" in legal(g)
    g.step("play RJ")
    # no nomination decision for the joker
    assert g.phase != "nominate"
    assert g.nominated_suit is None
    assert g.top_card == "RJ"
    assert g.current_player == 1
    assert legal_cards(g) == set(p1)
    assert legal(g) == plays(p1) | {"draw"}


def test_CW_4_blocked_hand_nobody_collects():
    """CW-4 (R): the stock is empty (no reshuffle), n=3, and nobody can play. P0,
    P1 and P2 each pass. Expect: the hand ends blocked and nobody collects."""
    # Nothing is playable on 5C (no clubs, 5s or 8s).  The hand values differ
    # (5, 10, 16) so the alternative "lowest hand collects" would give points.
    g = position(
        PRESET,
        3,
        hands=[["2D", "3H"], ["4D", "6H"], ["7D", "9H"]],
        discard=["9C", "5C"],
        stock=[],
        rules=ONE_HAND,
    )
    for p in range(3):
        assert g.current_player == p
        assert not hand_over(g)
        assert legal(g) == {"pass"}
        g.step("pass")
    assert hand_over(g)
    assert g.winner is None
    # no reshuffle happened
    assert g.discard_pile() == ["9C", "5C"]
    assert list(g.hand_sizes) == [2, 2, 2]
    assert list(g.hand_points) == [0, 0, 0]
    assert list(g.scores) == [0, 0, 0]


def test_CW_fidelity_with_the_stock_empty_only_a_player_who_cannot_play_passes():
    """Source: "if the face-down stack runs out of cards, a player who can't put down a card
    simply passes their turn". The stock is empty, n=3, on 4D: P0 holds 4C (a four) and P1
    4H, so each must play; P2 cannot play and passes. (Every player could pass, and three
    passes ended the hand blocked with nobody collecting.)"""
    g = position(
        PRESET,
        3,
        hands=[["4C", "9C"], ["4H", "6D"], ["9S", "TS"]],
        discard=["2S", "4D"],
        stock=[],
        rules=ONE_HAND,
    )
    assert legal(g) == {"play 4C"}
    g.step("play 4C")
    assert g.current_player == 1 and legal(g) == {"play 4H"}
    g.step("play 4H")
    assert g.current_player == 2 and legal(g) == {"pass"}
    g.step("pass")
    assert g.current_player == 0 and legal(g) == {"pass"}  # 9C on 4H: P0 cannot play now
    assert not hand_over(g)


def test_CW_5_winner_collects_and_series_target():
    """CW-5: n=3, P0 goes out. P1 holds `8S QD 7C` and P2 holds `AS 3H`. Expect:
    P0 collects 71; the series target is 150."""
    # Preset defaults (no override): whether or not the engine then deals the
    # next hand of the match, the finished hand's points and the totals hold.
    g = position(
        PRESET,
        3,
        hands=[["4D"], ["8S", "QD", "7C"], ["AS", "3H"]],
        discard=["9D"],
        stock=["2C", "5C", "6C"],
    )
    g.step("play 4D")
    assert g.is_terminal, "P0 went out: the hand is over"
    # 8S=50 QD=10 7C=7 -> 67; AS=1 3H=3 -> 4; 67 + 4 = 71
    assert list(g.hand_points) == [71, 0, 0]
    assert list(g.scores) == [71, 0, 0]

    series = eights.Game(PRESET, 3, seed=0).rules_dict()["series"]
    assert series["target_per_player"] == 50
    assert series["target_per_player"] * 3 == 150

"""Scenario checks ST-1 .. ST-6 (docs/rules_catalog.md#stalin-scenario-checks) for `stalin`.

Preset facts used (docs/rules_catalog.md#stalin, A33-A35): 4+ players, ceil(n/5) packs (one
pack for n=4), no jokers, deal 5; no wild cards; on the play pile a card is
legal if it matches the top card by suit or rank, or if its value (A=1 ..
T=10) equals the sum or the product of the two top cards of the pile, none of
the three being a picture card (J, Q, K have no value); a turn is 1, 2 or 3
cards played one after another (each legal on the current top), or the whole
hand if every card can be played in sequence; only when no play-pile play
exists, the player may instead put exactly one red card on the rogue pile
(legal there by suit, rank or arithmetic against the rogue pile; black cards
never), which ends the play; a player who has a legal play must make one (no
cards are played only when no legal play exists, A35); every turn ends with a
compulsory draw of 1, except that a player whose hand is empty after the play
wins at once without drawing (A34); a player with no legal play at all only
draws, which is the whole turn (hand +1).

Engine conventions: `Game.from_position(..., rogue=[bottom .. top])` sets the
rogue pile, `g.rogue_pile()` reads it back (bottom to top); every card is
"play X" (the engine puts it on the play pile when it is legal there, else on
the rogue pile); after each play-pile card the phase is "continue" (more
cards or "end") while the limit allows, a 4th (5th, ...) card being offered
only if the hand can still be emptied in sequence from there; the end-of-turn
draw is made by the engine (no decision).

All positions have n=4 (one pack, so every card below is unique); the stock
is given explicitly, so the end-of-turn draw takes its first card.
"""

import pytest

import eights
from scenario_helpers import (
    hand_over,
    legal,
    multiset,
    plays,
    position,
)

PRESET = "stalin"
N = 4


def _position(*, hands, pile, rogue, stock, current_player=0, direction=1, seed=0):
    """``Game.from_position`` with the rogue pile, plus the same sanity
    preconditions as ``scenario_helpers.position`` (which has no ``rogue``)."""
    hands = [list(h) for h in hands]
    g = eights.Game.from_position(
        PRESET,
        N,
        hands=hands,
        discard=list(pile),
        stock=list(stock),
        current_player=current_player,
        direction=direction,
        rogue=list(rogue),
        seed=seed,
    )
    assert g.num_players == N
    for p, h in enumerate(hands):
        assert multiset(g.hand(p)) == multiset(h), f"P{p} hand not built as given"
    assert g.discard_pile() == list(pile), "play pile not built as given"
    assert g.top_card == pile[-1]
    assert g.rogue_pile() == list(rogue), "rogue pile not built as given"
    assert g.stock() == list(stock), "stock not built as given"
    assert g.current_player == current_player
    assert g.direction == direction
    assert g.pending_draw == 0
    assert not g.is_terminal
    return g


# --------------------------------------------------------------------- ST-1


def test_ST_1_sum_seven_diamonds_or_fours():
    """ST-1: the play pile (under->top) is `3C 4D`. Expect: P0 may play any 7
    (3+4), any diamond, or any 4."""
    # 7S, 7H (3+4), 9D (diamond), 4S (rank).  Not legal: QS (3x4 = 12 is not a
    # card value; Q has none), 3S (matches only the card under the top), 2H
    # (red and legal on the rogue pile's 8H, but a play-pile play exists, so the
    # rogue pile is not an option).
    g = _position(
        hands=[
            ["7S", "7H", "9D", "4S", "QS", "3S", "2H"],
            ["2C", "5C", "6C", "8C", "9C"],
            ["TC", "JC", "KC", "AC", "2S"],
            ["5S", "6S", "8S", "TS", "JS"],
        ],
        pile=["3C", "4D"],
        rogue=["8H"],
        stock=["AD", "5D", "6D"],
    )
    assert g.phase == "play"
    assert legal(g) == plays("7S 7H 9D 4S")
    for bad in ("play QS", "play 3S", "play 2H", "draw"):
        with pytest.raises(eights.IllegalActionError):
            g.step(bad)


# --------------------------------------------------------------------- ST-2


def test_ST_2a_sum_and_product():
    """ST-2 (a): The pile is `2C 3D`. Expect: any 5 (2+3) and any 6 (2x3) are
    legal."""
    # 5S (2+3), 6H (2x3), 9D (diamond), 3H (rank); 4C, KS, 8C match nothing.
    g = _position(
        hands=[
            ["5S", "6H", "9D", "3H", "4C", "KS", "8C"],
            ["7C", "9C", "TC", "JC", "QC"],
            ["AS", "2S", "4S", "7S", "8S"],
            ["9S", "TS", "JS", "QS", "AH"],
        ],
        pile=["2C", "3D"],
        rogue=["TH"],
        stock=["4D", "5D", "6D"],
    )
    assert legal(g) == plays("5S 6H 9D 3H")


def test_ST_2b_picture_card_disables_arithmetic():
    """ST-2 (b): The pile is `5C KD`. Expect: no arithmetic plays; only diamonds
    and kings."""
    # 4D, TD (diamonds), KS (king).  5S would be legal if K counted as 0 (or the
    # 5 alone were "summed"); 9C matches only the card under the top; 2H is red
    # and fits the rogue pile's 9H, but play-pile plays exist; 7C matches nothing.
    g = _position(
        hands=[
            ["5S", "9C", "4D", "KS", "2H", "TD", "7C"],
            ["2C", "3C", "6C", "8C", "TC"],
            ["AS", "2S", "3S", "4S", "6S"],
            ["7S", "8S", "9S", "JS", "QS"],
        ],
        pile=["5C", "KD"],
        rogue=["9H"],
        stock=["2D", "3D", "6D"],
    )
    assert legal(g) == plays("4D TD KS")


# --------------------------------------------------------------------- ST-3

# Top 9H over KC (a picture: no arithmetic at the start).  A legal six-card
# order is JH QH 5H 5D 5S 9S:
#   JH, QH, 5H follow hearts (no arithmetic: a picture is among the top two);
#   5D on 5H (rank); 5S on 5D (rank); 9S on 5S (suit).
# After JH QH 5H both 5D and 5S are legal on 5H, but only 5D can be followed
# by the rest of the hand: after 5S, neither 5D then 9S (9S on 5D: not a
# diamond, not a 5, 5+5=10, 5x5=25) nor 9S then 5D (5D on 9S: 5+9=14, 45) works.
_ST3_P0 = ["JH", "QH", "5H", "5S", "5D", "9S"]
_ST3_PILE = ["KC", "9H"]
_ST3_STOCK = ["8S", "TS", "2H"]


def _st3():
    g = _position(
        hands=[
            _ST3_P0,
            ["2C", "3C", "4C", "6C", "7C"],
            ["8C", "TC", "JC", "QC", "AC"],
            ["2S", "3S", "4S", "6S", "7S"],
        ],
        pile=_ST3_PILE,
        rogue=["AD"],
        stock=_ST3_STOCK,
    )
    assert legal(g) == plays("JH QH 5H 9S")
    return g


@pytest.mark.parametrize("k", [1, 2, 3])
def test_ST_3a_one_two_or_three_cards(k):
    """ST-3: P0 holds 6 cards that can be played one after another. Expect: P0
    may play 1, 2 or 3 cards."""
    g = _st3()
    played = ["JH", "QH", "5H"][:k]
    for c in played:
        g.step(f"play {c}")
        assert g.current_player == 0
        assert g.phase == "continue"
        assert "end" in legal(g)
    g.step("end")
    assert g.discard_pile() == _ST3_PILE + played
    rest = [c for c in _ST3_P0 if c not in played]
    # the compulsory end-of-turn draw
    assert multiset(g.hand(0)) == multiset(rest + ["8S"])
    assert g.stock() == ["TS", "2H"]
    assert g.rogue_pile() == ["AD"]
    assert g.current_player == 1
    assert not g.is_terminal


def test_ST_3b_whole_hand_but_not_four_or_five():
    """ST-3: P0 holds 6 cards that can be played one after another. Expect: P0
    may play 1, 2, 3 or 6 cards, but not 4 or 5."""
    g = _st3()
    g.step("play JH")
    assert legal(g) == plays("QH 5H") | {"end"}
    g.step("play QH")
    assert legal(g) == plays("5H") | {"end"}
    g.step("play 5H")
    # a 4th card only if the whole hand can still be played: 5D yes, 5S no
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 5D", "end"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play 5S")

    g.step("play 5D")
    # 4 cards is no legal turn: no "end"
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 5S"}
    with pytest.raises(eights.IllegalActionError):
        g.step("end")

    g.step("play 5S")
    # 5 cards is no legal turn either
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 9S"}
    with pytest.raises(eights.IllegalActionError):
        g.step("end")

    g.step("play 9S")
    assert g.discard_pile() == _ST3_PILE + ["JH", "QH", "5H", "5D", "5S", "9S"]
    assert g.hand(0) == []
    assert hand_over(g)
    assert g.winner == 0
    assert g.stock() == _ST3_STOCK  # no draw after going out


# --------------------------------------------------------------------- ST-4


def test_ST_4_red_card_on_the_rogue_pile():
    """ST-4: P0 has no legal play on the play pile; the rogue top is `7D`; P0 holds
    `7H 7C`. Expect: `7H` is legal on the rogue pile and `7C` is not. After `7H`,
    the play ends and P0 draws 1."""
    # Play pile 5D KS: no arithmetic (K), and P0 holds no spade and no K.
    # Rogue pile QH 7D: no arithmetic (Q); 7H matches by rank, 4H (a red card of
    # another suit and rank) does not, 7C is black.  A35: a legal play exists,
    # so "draw" is not offered.
    p0 = ["7H", "7C", "4H", "9C", "3C"]
    g = _position(
        hands=[
            p0,
            ["AS", "2S", "3S", "4S", "5S"],
            ["6S", "7S", "8S", "9S", "TS"],
            ["JS", "QS", "AC", "TC", "JC"],
        ],
        pile=["5D", "KS"],
        rogue=["QH", "7D"],
        stock=["2C", "6C", "8C"],
    )
    assert legal(g) == {"play 7H"}
    for bad in ("play 7C", "play 4H", "draw"):
        with pytest.raises(eights.IllegalActionError):
            g.step(bad)

    g.step("play 7H")
    assert g.rogue_pile() == ["QH", "7D", "7H"]
    assert g.discard_pile() == ["5D", "KS"]
    assert g.top_card == "KS"
    # the play ended with the rogue card; the compulsory draw followed
    assert multiset(g.hand(0)) == multiset(["7C", "4H", "9C", "3C", "2C"])
    assert g.stock() == ["6C", "8C"]
    assert g.current_player == 1


# --------------------------------------------------------------------- ST-5


def test_ST_5_draw_every_turn():
    """ST-5: P0 plays 1 card. Expect: P0 draws 1, so the hand size is unchanged. A
    player with no legal play anywhere only draws, so their hand grows by 1."""
    # Pile 8D 9H (8+9=17, 8x9=72: no arithmetic).  P0 plays 9S (rank) and stops
    # although 4S could follow.  P1 then has no spade, no 9 (9+9=18, 81) and
    # only diamonds for the rogue pile, whose top KH over QD takes hearts or Ks.
    p0 = ["9S", "4S", "2C", "3C", "6C"]
    p1 = ["2D", "3D", "6D", "TC", "JC"]
    g = _position(
        hands=[
            p0,
            p1,
            ["AS", "2S", "3S", "5S", "6S"],
            ["7S", "8S", "TS", "JS", "QS"],
        ],
        pile=["8D", "9H"],
        rogue=["QD", "KH"],
        stock=["7C", "8C", "AC", "5C"],
    )
    assert legal(g) == plays("9S")
    g.step("play 9S")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 4S", "end"}
    g.step("end")
    assert g.discard_pile() == ["8D", "9H", "9S"]
    assert multiset(g.hand(0)) == multiset(["4S", "2C", "3C", "6C", "7C"])
    assert g.hand_sizes[0] == 5
    assert g.stock() == ["8C", "AC", "5C"]

    assert g.current_player == 1
    assert legal(g) == {"draw"}
    g.step("draw")
    # one card only: the no-play draw is the whole turn (no extra end-of-turn draw)
    assert multiset(g.hand(1)) == multiset(p1 + ["8C"])
    assert g.hand_sizes[1] == 6
    assert g.stock() == ["AC", "5C"]
    assert g.discard_pile() == ["8D", "9H", "9S"]
    assert g.rogue_pile() == ["QD", "KH"]
    assert g.current_player == 2


# --------------------------------------------------------------------- ST-6


def test_ST_6_empty_hand_wins_without_drawing():
    """ST-6 (R): top `4H`, P0 holds `5H 6H`. P0 plays `5H 6H`. Expect: P0's hand is
    empty and P0 wins at once, with no draw."""
    stock = ["7D", "8D", "9D"]
    g = _position(
        hands=[
            ["5H", "6H"],
            ["2C", "3C", "7C", "8C", "TC"],
            ["2S", "3S", "4S", "7S", "8S"],
            ["TS", "JS", "QS", "KS", "AS"],
        ],
        pile=["9C", "4H"],
        rogue=["2D"],
        stock=stock,
    )
    assert legal(g) == plays("5H 6H")
    g.step("play 5H")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 6H", "end"}
    g.step("play 6H")
    assert g.hand(0) == []
    assert g.hand_sizes[0] == 0
    assert hand_over(g)
    assert g.winner == 0
    assert g.stock() == stock
    assert g.discard_pile() == ["9C", "4H", "5H", "6H"]
    with pytest.raises(eights.IllegalActionError):
        g.step("draw")


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_ST_fidelity_ace_of_diamonds_reverses_option():
    """Source (Stalin, optional rules): "Ace of Diamonds causing play order to
    reverse". Variant `ace_of_diamonds_reverses`: P0 plays `AD` on `9D` (and draws
    at the end of the turn); the direction reverses and P3 acts."""
    g = position(
        PRESET,
        N,
        hands=[["AD", "3C", "4C"], ["4D", "5C"], ["6D", "7H"], ["2S", "3S"]],
        discard=["9D"],
        stock=["2H", "3H", "4H", "5H", "6H"],
        rules={"variants": ["ace_of_diamonds_reverses"]},
    )
    g.step("play AD")
    if g.current_player == 0 and "end" in legal(g):
        g.step("end")
    assert g.direction == -1
    assert g.current_player == 3
    assert multiset(g.hand(0)) == multiset(["3C", "4C", "2H"])

"""Scenario checks CX-1 .. CX-6 (docs/rules_catalog.md#crazy_eights_xtreme-scenario-checks) for `crazy_eights_xtreme`.

Preset facts used (docs/rules_catalog.md#crazy_eights_xtreme): double pack + 4 jokers (two copies of each
card); jokers are wild (not on a pending 2) and the player declares a suit;
A = skip(1); 2 = draw-chain(2) answered only by a 2 (not even a joker), may go
round the table, accepting loses the turn and the next player then follows the
top 2 normally; J may be covered by a card matching its suit or rank, more Js
may follow, then one card matching the top J's suit; Q = free play for the
next player; K = reverse; drawing is not voluntary: a player who can't play
draws until a card is playable or the hand holds 8 cards and must then play a
found card; a player starting the turn with 8+ cards draws one and passes if
still unable; a 2 as the last card: the round ends once the chain is accepted;
start card: joker -> dealer declares the suit, A -> P1 starts, 2 -> P0 faces
2, K -> ccw and P(n-2) starts; penalty scoring 2-5=1, 6-9=2, T-K=5, A=6,
joker=20, cards of the last played card's rank count double (all cards if it
was a joker).
"""

import pytest

import eights
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    dealt_game,
    draw_until_stopped,
    hand_over,
    legal,
    legal_cards,
    multiset,
    play_turn,
    plays,
    position,
)

PRESET = "crazy_eights_xtreme"
LAST_CARD_ACTION = {"last_card": {"mode": "action"}}
# The hand size is the dealer's choice 3..7 (a preset parameter, G14); 3 keeps
# the fixed decks of CX-3 short.
SHORT_DEAL = {"deal": {"hand_size": 3}}

# Cards that can't be played on a 5H top card (no heart, no 5, no joker, no
# special rank).
_UNPLAYABLE_ON_5H = ["3C", "4C", "6S", "7S", "TD"]


def _finish_by_passing(g, p):
    """After P's drawing has stopped with no playable card, P passes (the
    engine may also have passed the turn on by itself)."""
    if not g.is_terminal and g.current_player == p:
        assert legal(g) == {"pass"}
        g.step("pass")


def test_CX_1a_draw_stops_at_eight_cards_then_pass():
    """CX-1 (a): P0 holds 5 cards and can't play; P0 draws 3 unplayable cards.
    Expect: the drawing stops at 8 cards and P0 passes."""
    # n=2 (not stated).  The 4th stock card (9H) is playable: it must not be
    # drawn, because the drawing stops at 8 cards.
    g = position(
        PRESET,
        2,
        hands=[_UNPLAYABLE_ON_5H, ["9C", "TC"]],
        discard=["5H"],
        stock=["3D", "6C", "7C", "9H", "4S"],
    )
    assert legal(g) == {"draw"}
    draw_until_stopped(g)
    assert len(g.hand(0)) == 8
    assert multiset(g.hand(0)) == multiset(_UNPLAYABLE_ON_5H + ["3D", "6C", "7C"])
    assert g.stock() == ["9H", "4S"]
    _finish_by_passing(g, 0)
    assert g.current_player == 1
    assert len(g.hand(0)) == 8
    assert g.top_card == "5H"


def test_CX_1b_drawn_playable_card_must_be_played():
    """CX-1 (b): P0 draws 2 unplayable cards and then a playable one. Expect: P0
    must play it."""
    # n=2; P0 starts with 4 unplayable cards so the playable 9H is found while
    # the hand is still below the 8-card limit.
    start = ["3C", "4C", "6S", "7S"]
    g = position(
        PRESET,
        2,
        hands=[start, ["9C", "TC"]],
        discard=["5H"],
        stock=["3D", "6C", "9H", "4S"],
    )
    assert legal(g) == {"draw"}
    draw_until_stopped(g)
    assert multiset(g.hand(0)) == multiset(start + ["3D", "6C", "9H"])
    assert g.stock() == ["4S"]
    assert g.current_player == 0
    # must play: no draw, no pass
    assert legal(g) == {"play 9H"}
    g.step("play 9H")
    assert g.top_card == "9H"
    assert multiset(g.hand(0)) == multiset(start + ["3D", "6C"])
    assert g.current_player == 1


def test_CX_1c_eight_or_more_cards_draw_exactly_one():
    """CX-1 (c): P0 starts the turn with 9 cards and can't play. Expect: P0 draws
    exactly 1, then passes if still unable."""
    # The first stock card (TD) is unplayable; the second (9H) would be
    # playable and must stay in the stock.
    start = ["3C", "4C", "6C", "7C", "9C", "3S", "4S", "6S", "7S"]
    g = position(
        PRESET,
        2,
        hands=[start, ["9D", "TC"]],
        discard=["5H"],
        stock=["TD", "9H", "4D"],
    )
    assert legal(g) == {"draw"}
    draw_until_stopped(g)
    assert multiset(g.hand(0)) == multiset(start + ["TD"])
    assert g.stock() == ["9H", "4D"]
    _finish_by_passing(g, 0)
    assert g.current_player == 1
    assert len(g.hand(0)) == 10


def test_CX_2_two_chain_round_the_table():
    """CX-2: n=4. P0 to P3 play `2H`, `2S`, `2C`, `2D`. Expect: P0 must play a 2 or
    draw 8; `RJ` is illegal. P0 draws 8. Expect: P1 must match `2D`."""
    # Double pack: P0 holds the second 2C (a legal answer), the RJ (wild, but
    # not on a pending 2) and 9D (matches 2D by suit, blocked by the chain).
    # P1 keeps 4D (diamond), BJ (wild) and 7C (no match) for the last turn.
    g = position(
        PRESET,
        4,
        hands=[
            ["2H", "2C", "RJ", "9D"],
            ["2S", "4D", "7C", "BJ"],
            ["2C", "6H"],
            ["2D", "7H"],
        ],
        discard=["5H"],
        stock=["3C", "4C", "5C", "6C", "7C", "9C", "TC", "3S", "4S", "6S"],
    )
    for p, (c, pending) in enumerate([("2H", 2), ("2S", 4), ("2C", 6), ("2D", 8)]):
        assert g.current_player == p
        g.step(f"play {c}")
        assert g.pending_draw == pending
    assert g.current_player == 0
    assert g.phase == "chain"
    assert legal(g) == {"play 2C", "accept"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play RJ")

    g.step("accept")
    assert multiset(g.hand(0)) == multiset(["2C", "RJ", "9D", "3C", "4C", "5C", "6C", "7C", "9C", "TC", "3S"])
    assert g.stock() == ["4S", "6S"]
    assert g.pending_draw == 0
    assert g.top_card == "2D"
    assert g.current_player == 1
    # P1 follows 2D normally (suit D or a 2, or the wild joker); drawing is
    # not voluntary, so "draw" is not offered while P1 can play.
    assert legal(g) == {"play 4D", "play BJ"}


# n=4, 3 cards each (SHORT_DEAL).  Fillers are plain 3-7 cards.
_CX3_HANDS = [
    ["3C", "4C", "5C"],
    ["3D", "4D", "5D"],
    ["3H", "4H", "5H"],
    ["6C", "6D", "6H"],
]


def test_CX_3a_ace_start_card_P1_starts():
    """CX-3: n=4. The start card is `AS`. Expect: P1 acts first."""
    g = dealt_game(PRESET, 4, hands=_CX3_HANDS, start="AS", stock=["7C", "7D"], rules=SHORT_DEAL)
    assert g.direction == 1
    assert g.current_player == 1


def test_CX_3b_king_start_card_reverses():
    """CX-3: n=4. The start card is `KS`. Expect: `d=ccw` and P2 acts first."""
    g = dealt_game(PRESET, 4, hands=_CX3_HANDS, start="KS", stock=["7C", "7D"], rules=SHORT_DEAL)
    assert g.direction == -1
    assert g.current_player == 2


def test_CX_3c_two_start_card_chain_on_P0():
    """CX-3: n=4. The start card is `2S`. Expect: P0 must play a 2 or draw 2."""
    # P0 holds a 2 (2D), a spade (5S, blocked by the chain) and RJ (not on a 2).
    hands = [["2D", "5S", "RJ"]] + _CX3_HANDS[1:]
    g = dealt_game(PRESET, 4, hands=hands, start="2S", stock=["7C", "7D", "9C"], rules=SHORT_DEAL)
    assert g.current_player == 0
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play 2D", "accept"}


def test_CX_3d_joker_start_card_dealer_declares():
    """CX-3: n=4. The start card is a joker. Expect: P3 declares the suit."""
    g = dealt_game(PRESET, 4, hands=_CX3_HANDS, start="BJ", stock=["7C", "7D"], rules=SHORT_DEAL)
    assert g.current_player == 3
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit C")
    assert g.nominated_suit == "C"
    assert g.current_player == 0


def _cx4a_position():
    # n=3 (not stated).  P0 holds both turns' cards plus a 6C filler.
    return position(
        PRESET,
        3,
        hands=[["JH", "9H", "JS", "3S", "6C"], ["4D", "7D"], ["4C", "7C"]],
        discard=["5H"],
        stock=["TD", "KD"],
    )


def test_CX_4a_jack_follow_on_turns():
    """CX-4 (a): Top `5H`. `JH 9H` and `JH JS 3S` are each a legal single turn."""
    # Turn JH 9H: the J is covered by a card of its suit.
    g = _cx4a_position()
    g.step("play JH")
    assert g.current_player == 0
    assert g.phase == "continue"
    # cover with the J's suit (9H) or rank (JS), or stop; 3S/6C don't match JH
    assert legal(g) == {"play 9H", "play JS", "end"}
    g.step("play 9H")
    if not g.is_terminal and g.current_player == 0 and g.phase == "continue":
        g.step("end")
    assert g.discard_pile() == ["5H", "JH", "9H"]
    assert multiset(g.hand(0)) == multiset(["JS", "3S", "6C"])
    assert g.current_player == 1

    # Turn JH JS 3S: a second J, then one card matching the top J's suit.
    g = _cx4a_position()
    g.step("play JH")
    g.step("play JS")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 3S", "end"}
    g.step("play 3S")
    if not g.is_terminal and g.current_player == 0 and g.phase == "continue":
        g.step("end")
    assert g.discard_pile() == ["5H", "JH", "JS", "3S"]
    assert multiset(g.hand(0)) == multiset(["9H", "6C"])
    assert g.current_player == 1


def test_CX_4b_jack_plus_match_goes_out_without_last_card_penalty():
    """CX-4 (b): P0 holds `JH 5H`. Expect: P0 plays both, goes out, and incurs no
    last-card penalty."""
    # last_card.mode=action (the RL default "off" never penalises anyone).
    g = position(
        PRESET,
        2,
        hands=[["JH", "5H"], ["3C", "4C"]],
        discard=["7H"],
        stock=["6S", "9S", "TS"],
        rules=LAST_CARD_ACTION,
    )
    play_turn(g, "JH 5H")  # never announced
    assert hand_over(g)
    assert g.hand(0) == []
    assert g.hand_sizes[0] == 0
    assert g.stock() == ["6S", "9S", "TS"]
    assert multiset(g.hand(1)) == multiset(["3C", "4C"])
    assert g.hand_points[0] == 0


def test_CX_4c_queen_gives_free_play():
    """CX-4 (c): P0 plays `QC`. Expect: P1 may play any card."""
    # n=3 (not stated).  P1's cards match neither the suit (C) nor the rank (Q)
    # of the queen.
    p1 = ["3D", "6H", "9S", "4D"]
    g = position(
        PRESET,
        3,
        hands=[["QC", "4H", "7S"], p1, ["TC", "JC"]],
        discard=["5C"],
        stock=["2S", "3S"],
    )
    g.step("play QC")
    assert g.current_player == 1
    assert legal_cards(g) == set(p1)
    # drawing is not voluntary, so only plays are offered
    assert legal(g) == plays(p1)


def _cx5_position(p2_hand, stock):
    return position(
        PRESET,
        3,
        hands=[["2H"], ["2S", "9C", "KD"], p2_hand],
        discard=["5H"],
        stock=stock,
    )


def test_CX_5_last_card_two_chain_continues():
    """CX-5: n=3. P0's last card is `2H`. P1 plays `2S`; P2 draws 4. Expect: the
    round ends and P0 scores 0."""
    g = _cx5_position(["4C", "7D", "TS"], ["3D", "6S", "AH", "2C", "9H", "9D"])
    g.step("play 2H")
    # the round does not end yet: the chain continues
    assert not hand_over(g)
    assert g.hand_sizes[0] == 0
    assert g.current_player == 1
    assert g.pending_draw == 2
    g.step("play 2S")
    assert g.current_player == 2
    assert g.pending_draw == 4
    assert legal(g) == {"accept"}
    g.step("accept")
    assert hand_over(g)
    assert multiset(g.hand(2)) == multiset(["4C", "7D", "TS", "3D", "6S", "AH", "2C"])
    # last card played: 2S -> 2s count double.
    # P1: 9C=2 + KD=5 = 7.  P2: 4C=1 7D=2 TS=5 3D=1 6S=2 AH=6 2C=1*2 -> 19.
    assert list(g.hand_points) == [0, 7, 19]
    assert list(g.scores) == [0, 7, 19]


def test_CX_5_alternative_chain_returns_to_empty_hand():
    """CX-5 alternative: P2 plays `2C`. Expect: P0 (0 cards) must play a 2 or draw
    6. P0 draws 6. Expect: the round ends and P0 scores those 6 cards."""
    g = _cx5_position(["2C", "4C", "7D", "TS"], ["3C", "6D", "TH", "AS", "9S", "2D", "4H"])
    g.step("play 2H")
    g.step("play 2S")
    assert g.current_player == 2
    g.step("play 2C")
    assert g.current_player == 0
    assert g.hand_sizes[0] == 0
    assert g.phase == "chain"
    assert g.pending_draw == 6
    assert not hand_over(g)
    # with no cards, P0 can only take the 6
    assert legal(g) == {"accept"}
    g.step("accept")
    assert hand_over(g)
    assert multiset(g.hand(0)) == multiset(["3C", "6D", "TH", "AS", "9S", "2D"])
    assert g.stock() == ["4H"]
    # last card played: 2C -> 2s count double.
    # P0: 3C=1 6D=2 TH=5 AS=6 9S=2 2D=1*2 -> 18.  P1: 9C=2 + KD=5 = 7.
    # P2: 4C=1 7D=2 TS=5 = 8.
    assert list(g.hand_points) == [18, 7, 8]
    assert list(g.scores) == [18, 7, 8]


def test_CX_6_double_scoring():
    """CX-6: the last card played is `9D`. Expect: a hand of `9S 9C KD RJ` scores
    4+4+5+20 = 33. If the last card is a joker, a hand of `9S KD` scores 14."""
    # P0 goes out with 9D (a plain card matching the 4D top by suit).
    g = position(
        PRESET,
        2,
        hands=[["9D"], ["9S", "9C", "KD", "RJ"]],
        discard=["4D"],
        stock=["3C", "4C"],
    )
    g.step("play 9D")
    assert hand_over(g)
    assert list(g.hand_points) == [0, 33]

    # P0 goes out with a joker: every card counts double, (2 + 5) * 2 = 14.
    g = position(
        PRESET,
        2,
        hands=[["BJ"], ["9S", "KD"]],
        discard=["4D"],
        stock=["3C", "4C"],
    )
    g.step("play BJ")
    if not g.is_terminal and g.current_player == 0 and g.phase == "nominate":
        # Tolerated: an engine may still ask for the (meaningless) declaration
        # after the last card; the score must not depend on it.
        g.step("suit C")
    assert hand_over(g)
    assert list(g.hand_points) == [0, 14]


# ----- variation 6, Defensive 10 (docs/rules_catalog.md#crazy_eights_xtreme) -----------------
# "a card may break a 2-chain without forcing the player to draw cards" (cancel form) and
# "the defensive card only shields the player from the 2-chain, but does not end it. In
# this case if it matches the suit of the top card then it can be played where the 2-chain
# skips the player but continues going around the table" (pass-through shield form).

DEFENSIVE_CANCEL = {"variants": ["defensive_ten"]}
DEFENSIVE_SHIELD = {"variants": ["defensive_ten_shield"]}
_DEF_STOCK = ["3C", "4C", "5C", "6C", "7C", "9C", "3S", "4S"]


def _defence(rules, p1, p2):
    g = position(
        PRESET,
        4,
        hands=[["2H", "3D"], p1, p2, ["5D", "6S", "QD"]],
        discard=["5H"],
        stock=_DEF_STOCK,
        rules=rules,
    )
    g.step("play 2H")
    assert g.current_player == 1 and g.phase == "chain" and g.pending_draw == 2
    return g


def test_CX_defensive_ten_not_a_defence_without_the_variation():
    g = _defence(None, ["TH", "TC", "8S"], ["2S", "4D"])
    assert legal(g) == {"accept"}


def test_CX_defensive_ten_cancel_breaks_the_chain():
    g = _defence(DEFENSIVE_CANCEL, ["TH", "TC", "8S"], ["2S", "4D"])
    # Any ten breaks the chain (the cancel form has no suit condition).
    assert legal(g) == {"play TH", "play TC", "accept"}
    g.step("play TC")
    # Nobody draws; the chain is over and P2 plays normally on TC.
    assert g.pending_draw == 0
    assert multiset(g.hand(1)) == multiset(["TH", "8S"])
    assert g.current_player == 2
    assert g.phase == "play"
    assert g.stock() == _DEF_STOCK


def test_CX_defensive_ten_shield_passes_the_chain_on():
    g = _defence(DEFENSIVE_SHIELD, ["TH", "TC", "8S"], ["2S", "4D"])
    # Only a ten of the top card's suit (2H: hearts) shields.
    assert legal(g) == {"play TH", "accept"}
    g.step("play TH")
    # P1 is shielded and draws nothing; the chain, still 2, skips on to P2.
    assert multiset(g.hand(1)) == multiset(["TC", "8S"])
    assert g.top_card == "TH"
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 2
    # A 2 still answers the chain.
    assert legal(g) == {"play 2S", "accept"}
    g.step("play 2S")
    assert g.current_player == 3 and g.pending_draw == 4
    g.step("accept")
    assert multiset(g.hand(3)) == multiset(["5D", "6S", "QD", "3C", "4C", "5C", "6C"])
    # Accepting jams P3; P0 then follows the top 2 normally.
    assert g.current_player == 0
    assert g.phase == "play"
    assert g.pending_draw == 0


def test_CX_defensive_ten_shield_accepted_by_the_next_player():
    g = _defence(DEFENSIVE_SHIELD, ["TH", "8S"], ["TD", "TH", "4D"])
    g.step("play TH")
    # On top TH, P2's TH matches the top card's suit and shields again; TD does not.
    assert legal(g) == {"play TH", "accept"}
    g.step("accept")
    assert multiset(g.hand(2)) == multiset(["TD", "TH", "4D", "3C", "4C"])
    assert g.current_player == 3
    assert g.phase == "play"
    assert g.pending_draw == 0


# "If a player's last card is a 2 the round doesn't end immediately when it is played. Play
# continues the 2-chain in rotation order until no player can play a 2 and draws the required
# number of cards. The round ends even if the person who played their last card now has
# cards." A ten that breaks the chain (or a shield that stops it, a house rule) ends the chain
# as the draw does, so it ends the round. (The engine once played on with P0 holding no card,
# and a later accepted chain ended the hand with P0 as winner again.)

_LAST_TWO_HANDS = [["2H"], ["TH", "TC", "8S"], ["2S", "4D"], ["5D", "6S", "QD"]]
# A shield that stops the chain where it stands: no pass-through (a house rule).
_STOPPING_SHIELD = {"cards": {"T": {"shield": {"against": ["2"]}}}}


@pytest.mark.parametrize("rules", [DEFENSIVE_CANCEL, _STOPPING_SHIELD], ids=["cancel", "stopping_shield"])
def test_CX_a_ten_that_ends_the_chain_of_a_last_two_ends_the_round(rules):
    """P0 goes out on 2H; P1 breaks the chain with TH. The round ends, P0 the winner with
    no cards. Last card played TH: tens count double. P1: TC=5*2 + 8S=2 = 12; P2: 2S=1 +
    4D=1 = 2; P3: 5D=1 + 6S=2 + QD=5 = 8."""
    g = position(PRESET, 4, hands=_LAST_TWO_HANDS, discard=["5H"], stock=_DEF_STOCK, rules=rules)
    g.step("play 2H")
    assert not hand_over(g) and g.phase == "chain"
    g.step("play TH")
    assert hand_over(g)
    assert g.winner == 0
    assert list(g.hand_points) == [0, 12, 2, 8]
    assert list(g.scores) == [0, 12, 2, 8]
    assert g.stock() == _DEF_STOCK


def test_CX_going_out_on_the_ten_that_ends_the_chain_of_a_last_two():
    """P0 goes out on 2H and P1 breaks the chain with its own last card, TC. The round ends
    at once; the player whose last 2 held it open went out first and wins it (the engine's
    reading: the source names no winner for two players out in one chain). Last card TC:
    P2: 2S=1 + 4D=1 = 2; P3: 5D=1 + 6S=2 + QD=5 = 8."""
    hands = [["2H"], ["TC"], ["2S", "4D"], ["5D", "6S", "QD"]]
    g = position(PRESET, 4, hands=hands, discard=["5H"], stock=_DEF_STOCK, rules=DEFENSIVE_CANCEL)
    g.step("play 2H")
    g.step("play TC")
    assert hand_over(g)
    assert g.winner == 0
    assert list(g.hand_points) == [0, 0, 2, 8]


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_CX_fidelity_ace_skips_in_play():
    """Source (Xtreme): "Ace - If a player can play an Ace the next player in
    rotation order will be skipped."

    n=3: P0 plays `AH` on `5H`; P1 is skipped and P2 acts."""
    g = position(
        PRESET,
        3,
        hands=[["AH", "3C", "4C"], ["6H", "7C"], ["9H", "TC"]],
        discard=["5H"],
        stock=["4D", "5D"],
    )
    play_turn(g, "AH")
    assert multiset(g.hand(1)) == multiset(["6H", "7C"])
    assert g.current_player == 2


def test_CX_fidelity_king_reverses_in_play():
    """Source (Xtreme): "King - The King reverses the direction, that is rotation of
    play."

    n=3: P0 plays `KH` on `5H`; the direction becomes anticlockwise and P2 acts."""
    g = position(
        PRESET,
        3,
        hands=[["KH", "3C", "4C"], ["6H", "7C"], ["9H", "TC"]],
        discard=["5H"],
        stock=["4D", "5D"],
    )
    play_turn(g, "KH")
    assert g.direction == -1
    assert g.current_player == 2


def test_CX_fidelity_joker_declares_suit_next_plays_joker_or_suit():
    """Source (Xtreme): "The player playing the Joker will declare which suit they
    wish to change to. The next player must either play a Joker or a card of the suit
    declared."

    n=3: P0 plays `RJ` on `5H` and declares C; P1 (holding `5C`, `6H`, `BJ`, `5S`)
    may play `5C` or `BJ` only."""
    g = position(
        PRESET,
        3,
        hands=[["RJ", "3D", "4D"], ["5C", "6H", "BJ", "5S"], ["9H", "TC"]],
        discard=["5H"],
        stock=["4S", "6S"],
    )
    g.step("play RJ")
    assert g.current_player == 0
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit C")
    assert g.current_player == 1
    assert legal_cards(g) == {"5C", "BJ"}


def test_CX_fidelity_single_pack_eights_wild():
    """Source (Xtreme, Single Deck Play): "In this case the Jokers are removed. In
    this case Eights will be the wild cards. They then do not have to match the suit
    in order to be played." Variant `single_pack`: 52 cards; `8C` plays on `9H` and
    nominates."""
    g = eights.Game(PRESET, 3, seed=2, rules={"variants": ["single_pack"]})
    g.reset(seed=2)
    assert sum(g.hand_sizes) + len(g.stock()) + len(g.discard_pile()) == 52
    g = position(
        PRESET,
        3,
        hands=[["8C", "3C", "4D"], ["4H", "5C", "9C"], ["6H", "7D"]],
        discard=["9H"],
        stock=["2D", "3D"],
        rules={"variants": ["single_pack"]},
    )
    assert legal(g) == plays("8C")
    g.step("play 8C")
    assert legal(g) == ALL_SUIT_NOMINATIONS

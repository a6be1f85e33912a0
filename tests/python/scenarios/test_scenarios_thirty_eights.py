"""Scenario checks TE-1 .. TE-6 (docs/rules_catalog.md#thirty_eights-scenario-checks) for `thirty_eights` ("38's").

Preset facts used (docs/rules_catalog.md#thirty_eights, A43/A44): 4-8 players, 4 packs + 8 jokers
(4 copies of every card, 4 `RJ`, 4 `BJ`), deal 8; suit-or-rank matching,
after a nomination the nominated suit or a wild; 8 (optional nomination) and
joker (required nomination) are wild at any time; drawing is not voluntary
(only a player with no legal card draws), one card, and only the drawn card
may then be played; A = every hand passes to next(seat) in the direction of
play (as the last card: the hands pass skipping the player, who draws 1 and is
not out; next(p) acts); K = reverse; QS = next(p) picks up the top 13 cards
under the QS (fewer if the pile is smaller), the QS stays face up on the rest
and the victim loses the turn (R); J = optional hand swap; 7 = ask for a rank,
"QS" or "joker": next(p) must play such a card (any suit, its effect applies)
or, holding none, draws 1; 4 = skip; 3 = must be covered by a card of its
suit, another 3 of its suit (the obligation continues), a joker or the 8 of
its suit, else the 3 stays and the player draws 1; 2 = draw-two chain; joker =
draw-four chain; A and 8 can't go out, any other last card ends the hand at
once and nobody draws ("play stops immediately").

Engine conventions: the A/QS effects are applied at once (no decisions of the
other players); after "play 3X" the phase is "continue" offering only the
cover cards (no "end"), and with no cover card the engine draws 1 for the
player and ends the turn; after "play 7X" the phase is "ask" ("ask A" ..
"ask K", "ask QS", "ask joker"); an 8 is followed by phase "nominate"
("suit X" or "end" to keep the suit), also when it was the last card, after
which the player draws 1.

None of TE-1 .. TE-6 is about the last-card call, so `last_card.mode` is
switched off in every test (the preset default is `action` with penalty 4):
neither an "announce" action nor a penalty draw can then enter the legal sets
or the hand sizes asserted here.  `series.match` is switched off as well, so
that one episode is one hand and `is_terminal` marks the end of the hand
(TE-6b).
"""

import pytest

import eights
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    deal_deck,
    dealt_game,
    hand_over,
    legal,
    multiset,
    plays,
    position,
)

PRESET = "thirty_eights"
RULES = {"last_card": {"mode": "off"}, "series": {"match": False}}
N = 4

ASK_ACTIONS = {f"ask {r}" for r in "A23456789TJQK"} | {"ask QS", "ask joker"}


def _pos(hands, discard, stock, n=N, **kw):
    return position(
        PRESET,
        n,
        hands=hands,
        discard=discard,
        stock=stock,
        rules=RULES,
        seed=38,
        **kw,
    )


# --------------------------------------------------------------------- TE-1

# Hand sizes differ (after the A: 2, 3, 4, 1) so that every move is visible.
# Only cards without an effect on the checked state are used as filler.
_TE1_P0_REST = ["5H", "TC"]
_TE1_P1 = ["KC", "4S", "9C"]
_TE1_P2 = ["6D", "TD", "QD", "2S"]
_TE1_P3 = ["9D"]
_TE1_STOCK = ["3D", "4D", "6C"]


def test_TE_1_ace_passes_hands_in_direction_of_play():
    """TE-1: n=4. P0 plays `AH` (not their last card). Expect: hands move P0→P1,
    P1→P2, P2→P3, P3→P0; P1 acts."""
    g = _pos(
        [["AH"] + _TE1_P0_REST, _TE1_P1, _TE1_P2, _TE1_P3],
        ["9H"],
        _TE1_STOCK,
    )
    g.step("play AH")
    assert g.discard_pile() == ["9H", "AH"]
    assert multiset(g.hand(1)) == multiset(_TE1_P0_REST)
    assert multiset(g.hand(2)) == multiset(_TE1_P1)
    assert multiset(g.hand(3)) == multiset(_TE1_P2)
    assert multiset(g.hand(0)) == multiset(_TE1_P3)
    assert list(g.hand_sizes) == [1, 2, 3, 4]
    # nobody draws, the direction is unchanged
    assert g.stock() == _TE1_STOCK
    assert g.direction == 1
    assert not hand_over(g)
    assert g.current_player == 1
    assert g.phase == "play"
    # P1 plays from the hand it was passed (P0's rest): on AH only 5H (heart)
    # is legal; TC is not, and drawing is not voluntary.
    assert legal(g) == plays("5H")


def test_TE_1b_ace_passes_hands_anticlockwise():
    """TE-1 (direction of play): with d=ccw, P0 plays `AH`. Expect: hands move
    P0→P3, P3→P2, P2→P1, P1→P0; P3 acts."""
    # Derived from 3.21 "Everyone passes their whole hand to next(seat)", with
    # next() counted in the current direction (docs/rules_catalog.md#conventions).
    g = _pos(
        [["AH"] + _TE1_P0_REST, _TE1_P1, _TE1_P2, _TE1_P3],
        ["9H"],
        _TE1_STOCK,
        direction=-1,
    )
    g.step("play AH")
    assert g.discard_pile() == ["9H", "AH"]
    assert multiset(g.hand(3)) == multiset(_TE1_P0_REST)
    assert multiset(g.hand(2)) == multiset(_TE1_P3)
    assert multiset(g.hand(1)) == multiset(_TE1_P2)
    assert multiset(g.hand(0)) == multiset(_TE1_P1)
    assert list(g.hand_sizes) == [3, 4, 1, 2]
    assert g.stock() == _TE1_STOCK
    assert g.direction == -1
    assert g.current_player == 3
    assert g.phase == "play"
    assert legal(g) == plays("5H")


# --------------------------------------------------------------------- TE-2


def test_TE_2_ace_as_last_card_skips_player_who_draws_one():
    """TE-2: n=4. `AH` is P0's last card. Expect: P3's hand goes to P1, P1's to P2
    and P2's to P3; P0 draws 1 and is not out; P1 acts."""
    p1 = ["KC", "4S", "9C"]
    p2 = ["6D", "TD", "QD", "2S"]
    p3 = ["5H", "TC"]
    # P0 draws 6C, which could not be played on AH anyway.
    g = _pos([["AH"], p1, p2, p3], ["9H"], ["6C", "3D", "4D"])
    g.step("play AH")
    assert g.discard_pile() == ["9H", "AH"]
    # the seat before P0 (P3) passes straight to the seat after P0 (P1)
    assert multiset(g.hand(1)) == multiset(p3)
    assert multiset(g.hand(2)) == multiset(p1)
    assert multiset(g.hand(3)) == multiset(p2)
    # P0 draws 1 from the stock and is not out
    assert g.hand(0) == ["6C"]
    assert list(g.hand_sizes) == [1, 2, 3, 4]
    assert g.stock() == ["3D", "4D"]
    assert not hand_over(g)
    assert g.winner is None
    assert g.direction == 1
    assert g.current_player == 1
    assert g.phase == "play"
    # P1 plays from P3's former hand: 5H on AH
    assert legal(g) == plays("5H")


# --------------------------------------------------------------------- TE-3

# Interpretation: "20 cards lie under the top card" once the QS is played,
# i.e. the pile holds 20 cards before the play (9S on top); 13 taken leave the
# "other 7".  All 20 are distinct faces so that the split is visible.
_TE3_BOTTOM7 = ["4C", "5C", "6C", "9C", "TC", "KC", "4D"]
_TE3_TOP13 = ["5D", "6D", "9D", "TD", "KD", "4H", "5H", "6H", "9H", "TH", "KH", "5S", "9S"]
_TE3_PILE = _TE3_BOTTOM7 + _TE3_TOP13


def test_TE_3_queen_of_spades_picks_up_13():
    """TE-3: 20 cards lie under the top card. P0 plays `QS`. Expect: P1 takes the
    top 13 of those 20; `QS` lies face up on the other 7; P1 loses the turn (R);
    P2 acts on `QS`."""
    # n=4 (not stated).  P1 holds KS, which would be legal on QS: it loses the
    # turn all the same.  P2 holds QH (legal on QS by rank) and 2C (not legal).
    assert len(_TE3_PILE) == 20
    p1 = ["KS", "4C"]
    p2 = ["QH", "2C"]
    p3 = ["6C", "7H"]
    g = _pos([["QS", "3D", "TC"], p1, p2, p3], _TE3_PILE, ["2D", "3H"])
    g.step("play QS")
    assert g.discard_pile() == _TE3_BOTTOM7 + ["QS"]
    assert g.top_card == "QS"
    assert multiset(g.hand(1)) == multiset(p1 + _TE3_TOP13)
    assert list(g.hand_sizes) == [2, 15, 2, 2]
    assert multiset(g.hand(0)) == multiset(["3D", "TC"])
    assert g.stock() == ["2D", "3H"]  # a pick-up from the pile, not the stock
    assert g.direction == 1
    assert g.current_player == 2
    assert g.phase == "play"
    assert legal(g) == plays("QH")


def test_TE_3b_queen_of_spades_small_pile():
    """TE-3 (docs/rules_catalog.md#thirty_eights: "all of them when fewer lie there"): 5 cards lie under the `QS`.
    Expect: P1 takes all 5; `QS` is then the only discard; P2 acts."""
    pile = ["4C", "5C", "6C", "9C", "9S"]
    p1 = ["KS", "4D"]
    g = _pos([["QS", "3D", "TC"], p1, ["QH", "2C"], ["6D", "7H"]], pile, ["2D", "3H"])
    g.step("play QS")
    assert g.discard_pile() == ["QS"]
    assert multiset(g.hand(1)) == multiset(p1 + pile)
    assert g.stock() == ["2D", "3H"]
    assert g.current_player == 2
    assert legal(g) == plays("QH")


# --------------------------------------------------------------------- TE-4

# Cover cards for 3S: 6S (a spade), the second 3S, RJ and BJ (jokers), 8S (the
# 8 of the 3's suit).  Not cover cards: 8H (an 8 of another suit), 3H (a 3 of
# another suit), KD and 9C.
_TE4_HAND = ["3S", "3S", "6S", "RJ", "BJ", "8S", "8H", "3H", "KD", "9C"]


def test_TE_4a_three_must_be_covered():
    """TE-4: P0 plays `3S`. Expect: P0 must continue with a spade (e.g. `6S`),
    another `3S`, a joker, or `8S`."""
    # n=4 (not stated), top TS.
    g = _pos([_TE4_HAND, ["6H", "KC"], ["2C", "5D"], ["4C", "TH"]], ["TS"], ["KC", "5D"])
    g.step("play 3S")
    assert g.discard_pile() == ["TS", "3S"]
    assert g.current_player == 0
    assert g.phase == "continue"
    # the cover is compulsory: no "end", no "draw"
    assert legal(g) == plays("3S 6S RJ BJ 8S")
    for bad in ("play 8H", "play 3H", "play KD", "play 9C", "end", "draw"):
        with pytest.raises(eights.IllegalActionError):
            g.step(bad)

    g.step("play 6S")
    assert g.discard_pile() == ["TS", "3S", "6S"]
    assert multiset(g.hand(0)) == multiset(["3S", "RJ", "BJ", "8S", "8H", "3H", "KD", "9C"])
    assert g.stock() == ["KC", "5D"]
    # 6S has no effect and offers no continuation: the turn is over
    assert g.current_player == 1
    assert g.phase == "play"


def test_TE_4b_second_three_continues_the_obligation():
    """TE-4 (docs/rules_catalog.md#thirty_eights: "another three of the suit"): P0
    plays `3S` and covers it with the other `3S`. Expect: P0 must cover again
    with a spade, a joker or `8S`."""
    g = _pos([_TE4_HAND, ["6H", "KC"], ["2C", "5D"], ["4C", "TH"]], ["TS"], ["KC", "5D"])
    g.step("play 3S")
    g.step("play 3S")
    assert g.discard_pile() == ["TS", "3S", "3S"]
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == plays("6S RJ BJ 8S")
    g.step("play 6S")
    assert g.discard_pile() == ["TS", "3S", "3S", "6S"]
    assert g.current_player == 1


def test_TE_4c_three_not_coverable_draws_one():
    """TE-4: If P0 has none of these, `3S` stays and P0 draws 1."""
    # P0 holds only non-cover cards besides 3S: 8H (wrong-suit 8), 3H, KD, 9C.
    # The card drawn (KC) could not cover 3S anyway.
    p1 = ["6S", "KH"]
    g = _pos([["3S", "8H", "3H", "KD", "9C"], p1, ["2C", "5D"], ["4C", "TH"]], ["TS"], ["KC", "5D"])
    g.step("play 3S")
    assert g.discard_pile() == ["TS", "3S"]
    assert g.top_card == "3S"
    assert multiset(g.hand(0)) == multiset(["8H", "3H", "KD", "9C", "KC"])
    assert g.stock() == ["5D"]
    assert g.current_player == 1
    assert g.phase == "play"
    # P1 plays on the 3S that stayed: a spade or a 3 (6S), not KH
    assert legal(g) == plays("6S")


# --------------------------------------------------------------------- TE-5


def _te5(p1):
    # n=4 (not stated), top 9C; P0 plays 7C (by suit).
    g = _pos(
        [["7C", "5H", "TD"], p1, ["2D", "4H"], ["6S", "TH"]],
        ["9C"],
        ["6D", "3H", "4S"],
    )
    g.step("play 7C")
    assert g.discard_pile() == ["9C", "7C"]
    assert g.current_player == 0
    assert g.phase == "ask"
    assert legal(g) == ASK_ACTIONS
    g.step("ask K")
    return g


def test_TE_5a_seven_asks_king_must_be_played():
    """TE-5: P0 plays `7C` and asks for "K". Expect: P1, holding `KD`, must play
    it; it reverses the direction."""
    # P1 also holds 5C (the 7's suit), 8D and RJ (wilds) and 7H (the 7's rank):
    # none may be played, only the asked rank, whatever its suit.
    g = _te5(["KD", "5C", "8D", "RJ", "7H"])
    assert g.current_player == 1
    assert g.phase == "play"
    assert legal(g) == plays("KD")
    for bad in ("play 5C", "play 8D", "play RJ", "play 7H", "draw"):
        with pytest.raises(eights.IllegalActionError):
            g.step(bad)

    g.step("play KD")
    assert g.discard_pile() == ["9C", "7C", "KD"]
    assert multiset(g.hand(1)) == multiset(["5C", "8D", "RJ", "7H"])
    assert g.direction == -1
    # anticlockwise from P1 comes P0, who plays normally on KD
    assert g.current_player == 0
    assert g.phase == "play"
    assert legal(g) == plays("TD")


def test_TE_5b_seven_asks_king_not_held_draws_one():
    """TE-5: If P1 holds no K, P1 draws 1."""
    # P1 holds cards that would match 7C normally (5C, 7H) and wilds (8D, RJ),
    # but no K.  The card drawn (6D) is no K either.
    p1 = ["5C", "8D", "RJ", "7H"]
    g = _te5(p1)
    assert g.current_player == 1
    assert legal(g) == {"draw"}
    g.step("draw")
    assert multiset(g.hand(1)) == multiset(p1 + ["6D"])
    assert g.stock() == ["3H", "4S"]
    assert g.discard_pile() == ["9C", "7C"]
    assert g.direction == 1
    assert g.current_player == 2


# --------------------------------------------------------------------- TE-6


@pytest.mark.parametrize(
    "choice, p1_legal",
    [
        # P1 holds 9S, 9D, TC: spades named -> only 9S (9D is the 8's suit,
        # but the nomination is in force)
        ("suit S", "9S"),
        # suit kept: diamonds -> only 9D
        ("end", "9D"),
    ],
)
def test_TE_6a_eight_as_last_card_nominates_then_draws(choice, p1_legal):
    """TE-6: `8D` is P0's last card. Expect: P0 names a suit, draws 1, and is not
    out."""
    # n=4 (not stated), top 5D.  P0 draws 6C, which is playable neither on
    # spades nor on diamonds.
    g = _pos([["8D"], ["9S", "9D", "TC"], ["2C", "4H"], ["6S", "TH"]], ["5D"], ["6C", "KH", "4C"])
    g.step("play 8D")
    assert g.discard_pile() == ["5D", "8D"]
    assert g.current_player == 0
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS | {"end"}
    g.step(choice)
    assert g.hand(0) == ["6C"]
    assert g.stock() == ["KH", "4C"]
    assert not hand_over(g)
    assert g.winner is None
    assert g.top_card == "8D"
    if choice == "suit S":
        assert g.nominated_suit == "S"
        assert g.active_suit == "S"
    else:
        assert g.nominated_suit is None
        assert g.active_suit == "D"
    assert g.current_player == 1
    assert g.phase == "play"
    assert legal(g) == plays(p1_legal)


def test_TE_6b_two_as_last_card_ends_hand():
    """TE-6: `2H` is P0's last card. Expect: the hand ends and P1 draws
    nothing."""
    # n=4 (not stated), top 5H.
    p1 = ["3C", "TD"]
    p2 = ["KC", "4S", "9C"]
    p3 = ["6D", "QD"]
    g = _pos([["2H"], p1, p2, p3], ["5H"], ["6C", "KH", "4C"])
    g.step("play 2H")
    assert hand_over(g)
    assert g.winner == 0
    assert g.discard_pile() == ["5H", "2H"]
    assert multiset(g.hand(1)) == multiset(p1)
    assert multiset(g.hand(2)) == multiset(p2)
    assert multiset(g.hand(3)) == multiset(p3)
    assert list(g.hand_sizes) == [0, 2, 3, 2]
    assert g.stock() == ["6C", "KH", "4C"]
    assert g.pending_draw == 0


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def _stock(k):
    """k stock cards without an effect on the checked state (no 2, joker, 8)."""
    pool = ["5C", "6C", "9C", "TC", "5H", "6H", "9H", "TH", "5S", "6S", "TS", "QD", "KD", "TD"]
    return pool[:k]


def test_TE_fidelity_jokers_in_succession_accumulate():
    """Source (38's): "If several jokers are played in succession, the cards to be
    drawn accumulate in the same way as with deuces." and (Deuces) "If he plays
    another deuce, the next person must draw 4 cards or play another deuce".

    P0 plays `RJ` and names S; P1, holding `BJ`, may answer it (or accept 4); after
    `BJ` P2 faces 8 and, holding no joker, can only accept."""
    # P1 also holds 9S (the named suit: blocked by the pending penalty) and 2S (a
    # 2 does not answer a joker chain, A44).  P2 holds 4C and KH only.
    stock = _stock(12)
    g = _pos(
        [["RJ", "5H", "TC"], ["BJ", "2S", "9S"], ["4C", "KH"], ["6S", "TH"]],
        ["5D"],
        stock,
    )
    g.step("play RJ")
    g.step("suit S")
    assert g.current_player == 1
    assert g.pending_draw == 4
    assert legal(g) == {"play BJ", "accept"}
    g.step("play BJ")
    assert g.phase == "nominate"
    g.step("suit H")
    assert g.current_player == 2
    assert g.pending_draw == 8
    assert legal(g) == {"accept"}
    g.step("accept")
    assert multiset(g.hand(2)) == multiset(["4C", "KH"] + stock[:8])
    assert g.stock() == stock[8:]


def test_TE_fidelity_a_joker_answers_a_chain_of_three_jokers():
    """Source (38's): "If several jokers are played in succession, the cards to be
    drawn accumulate in the same way as with deuces." and (Deuces) "if the third deuce
    is played the next player must pick up 6 cards or play another deuce, etc."

    Four jokers in succession round the table (4 decks, 8 jokers): P0 `RJ` (P1 faces
    4), P1 `BJ` (8), P2 `RJ` (12); P3, holding a joker, answers a chain of three
    jokers with `BJ`, and P0 faces 16. P0, holding no joker now, can only accept, and
    draws 16."""
    pool = ["5C", "6C", "9C", "TC", "5H", "6H", "9H", "TH", "5S", "6S", "TS", "QD", "KD", "TD"]
    stock = pool + ["3C", "4H", "KC"]
    g = _pos(
        [["RJ", "5D", "TC"], ["BJ", "9S"], ["RJ", "4C"], ["BJ", "6S", "KH"]],
        ["5D"],
        stock,
    )
    for p, named, faced in [(0, "S", 4), (1, "H", 8), (2, "C", 12)]:
        assert g.current_player == p
        g.step(f"play {'RJ' if p % 2 == 0 else 'BJ'}")
        g.step(f"suit {named}")
        assert g.pending_draw == faced
    assert g.current_player == 3
    assert legal(g) == {"play BJ", "accept"}
    g.step("play BJ")
    g.step("suit D")
    assert g.current_player == 0
    assert g.pending_draw == 16
    assert legal(g) == {"accept"}
    g.step("accept")
    assert multiset(g.hand(0)) == multiset(["5D", "TC"] + stock[:16])
    assert g.stock() == stock[16:]


def test_TE_fidelity_seven_start_card_dealer_asks():
    """Source (38's): "If any other special action card is the first turned up, it
    is treated as if the dealer played it." and (Sevens) "the person playing it asks
    the next person in the direction of play to play a card of a certain rank".

    Start card `7C`: the dealer (P3) asks P0 for a rank; asked for "K", P0 must play
    its `KD` (any suit). If the ask is made for the dealer instead (a preset
    parameter, G14), P0 is bound by it all the same: P0's legal cards are then all of
    one rank (or P0 can only draw), never the clubs of several ranks that a plain
    `7C` would allow."""
    hands = [
        ["KD", "5H", "TC", "2C", "3C", "4C", "5C", "6C"],
        ["2D", "3D", "4D", "5D", "6D", "9D", "TD", "9S"],
        ["2H", "3H", "4H", "5H", "6H", "9H", "TH", "QH"],
        ["2S", "3S", "4S", "5S", "6S", "9S", "TS", "QD"],
    ]
    g = dealt_game(PRESET, N, hands=hands, start="7C", stock=["KC", "KH", "9C"], rules=RULES)
    if g.phase == "ask":
        assert g.current_player == 3
        assert legal(g) == ASK_ACTIONS
        g.step("ask K")
        assert g.current_player == 0
        assert legal(g) == plays("KD")
    else:
        assert g.current_player == 0
        ranks = {a.split()[1][0] for a in legal(g) if a.startswith("play ")}
        assert len(ranks) <= 1
        assert legal(g) == {"draw"} or "draw" not in legal(g)


def test_TE_fidelity_three_start_card_dealer_covers_or_draws():
    """Source (38's): "If any other special action card is the first turned up, it
    is treated as if the dealer played it." and (Threes) "If you do not have another
    card of the same suit, you play the three then draw a card."

    Start card `3C`; the dealer (P3) holds no club, no joker and no 8 of clubs, so
    the dealer draws 1 and P0 then plays on `3C`."""
    hands = [
        ["KD", "5H", "TC", "2C", "4C", "5C", "6C", "9C"],
        ["2D", "3D", "4D", "5D", "6D", "9D", "TD", "9S"],
        ["2H", "3H", "4H", "5H", "6H", "9H", "TH", "QH"],
        ["2S", "3S", "4S", "5S", "6S", "9S", "TS", "QD"],
    ]
    g = dealt_game(PRESET, N, hands=hands, start="3C", stock=["KH", "KC", "9C"], rules=RULES)
    assert multiset(g.hand(3)) == multiset(hands[3] + ["KH"])
    assert g.stock()[:2] == ["KC", "9C"]
    assert g.top_card == "3C"
    assert g.current_player == 0
    assert g.phase == "play"


def test_TE_fidelity_three_start_card_dealer_covers():
    """Source (38's): "If any other special action card is the first turned up, it
    is treated as if the dealer played it." and (Threes) "If a three is played, the
    person who played it must then play another card of the same suit".

    Start card `3C`; the dealer (P3) holds `5C` and `QD`: the dealer must cover with
    `5C` (no `end`), draws nothing, and P0 then plays on `5C`."""
    hands = [
        ["KD", "5H", "TC", "2C", "4C", "6C", "9C", "7H"],
        ["2D", "3D", "4D", "5D", "6D", "9D", "TD", "9S"],
        ["2H", "3H", "4H", "5H", "6H", "9H", "TH", "QH"],
        ["2S", "3S", "4S", "5S", "6S", "9S", "5C", "QD"],
    ]
    g = dealt_game(PRESET, N, hands=hands, start="3C", stock=["KH", "KC", "9C"], rules=RULES)
    assert g.current_player == 3
    assert g.phase == "continue"
    assert legal(g) == plays("5C")
    g.step("play 5C")
    assert g.top_card == "5C"
    assert g.current_player == 0
    assert g.phase == "play"
    assert len(g.hand(3)) == 7
    assert g.stock()[:3] == ["KH", "KC", "9C"]


def test_TE_fidelity_jack_trades_hands_with_a_chosen_player():
    """Source (38's): "Jacks: The person who lays down a Jack may choose to (although
    he is not required to) trade his hand with any one other player's hand."

    P0 plays `JC` and may choose any other seat or decline; choosing P2 (two seats
    on) swaps P0's remaining hand with P2's."""
    g = _pos(
        [["JC", "5H"], ["6D", "TD", "9S"], ["4H", "KH", "2H", "3H"], ["6S", "TH"]],
        ["5C"],
        ["9C", "TC"],
    )
    g.step("play JC")
    assert g.current_player == 0
    assert legal(g) == {"target +1", "target +2", "target +3", "end"}
    g.step("target +2")
    assert multiset(g.hand(0)) == multiset(["4H", "KH", "2H", "3H"])
    assert multiset(g.hand(2)) == multiset(["5H"])
    assert g.current_player == 1


def test_TE_fidelity_four_skips():
    """Source (38's): "Fours: If a four is played, the next person in the direction
    of play misses their turn."

    P0 plays `4C`; P1 is skipped and P2 acts."""
    g = _pos(
        [["4C", "5H"], ["6D", "TD", "9S"], ["4H", "KH"], ["6S", "TH"]],
        ["5C"],
        ["9C", "TC"],
    )
    g.step("play 4C")
    assert multiset(g.hand(1)) == multiset(["6D", "TD", "9S"])
    assert g.current_player == 2
    assert legal(g) == plays("4H")


def test_TE_fidelity_deuce_chain_two_four_six():
    """Source (38's): "If a deuce is played the next person in the direction of play
    must either draw 2 cards, or play another deuce. If he plays another deuce, the
    next person must draw 4 cards or play another deuce, if the third deuce is played
    the next player must pick up 6 cards".

    P0 `2C`, P1 `2D`, P2 `2H`: P3 (no deuce; a spade 8 is no answer) takes 6."""
    stock = ["9C", "TC", "9D", "9H", "6C", "6H", "QC"]
    g = _pos(
        [["2C", "5H"], ["2D", "TD", "9S"], ["2H", "KH"], ["8S", "TH"]],
        ["5C"],
        stock,
    )
    for p, card, total in ((0, "2C", 2), (1, "2D", 4), (2, "2H", 6)):
        assert g.current_player == p
        g.step(f"play {card}")
        assert g.pending_draw == total
    assert g.current_player == 3
    assert legal(g) == {"accept"}
    g.step("accept")
    assert multiset(g.hand(3)) == multiset(["8S", "TH"] + stock[:6])
    assert g.current_player == 0


def test_TE_fidelity_draw_only_when_unable_then_may_play_the_drawn_card():
    """Source (38's): "You can only draw if you can't play anything in your hand." and
    "If you can't play, and have to draw, if you're able, you CAN play the card you
    just drew."

    Top `5D`: holding `5C`, P0 may not draw. Holding nothing playable, P0 draws `9D`
    and may play it or end the turn."""
    g = _pos([["5C", "3H"], ["6D", "TD", "9S"], ["4H", "KH"], ["6S", "TH"]], ["5D"], ["9D", "TC"])
    assert legal(g) == plays("5C")
    g = _pos([["6C", "3H"], ["6D", "TD", "9S"], ["4H", "KH"], ["6S", "TH"]], ["5D"], ["9D", "TC"])
    assert legal(g) == {"draw"}
    g.step("draw")
    assert g.current_player == 0
    assert legal(g) == {"play 9D", "pass"}
    g.step("play 9D")
    assert g.top_card == "9D"
    assert g.current_player == 1


def test_TE_fidelity_eight_start_card_dealer_calls_a_suit_blind():
    """Source (38's): "If the first card turned up is an eight or joker, the dealer
    calls the suit BEFORE looking at his hand." (a blind call: any suit)

    Start `8C` over several seeds: a suit is always nominated before P0 acts, P0 must
    follow it (or play a wild), and more than one suit occurs."""
    hands = [
        ["KD", "5H", "TC", "2C", "3C", "4C", "5C", "6C"],
        ["2D", "3D", "4D", "5D", "6D", "9D", "TD", "9S"],
        ["2H", "3H", "4H", "5H", "6H", "9H", "TH", "QH"],
        ["2S", "3S", "4S", "5S", "6S", "9S", "TS", "QD"],
    ]
    seen = set()
    for seed in range(1, 13):
        g = dealt_game(PRESET, N, hands=hands, start="8C", stock=["KC"], rules=RULES, seed=seed)
        suit = g.nominated_suit
        assert suit in ("C", "D", "H", "S")
        seen.add(suit)
        assert g.current_player == 0
        expected = {c for c in hands[0] if c[1] == suit}
        assert legal(g) == (plays(expected) if expected else {"draw"})
    assert len(seen) > 1


def test_TE_fidelity_card_points():
    """Source (38's): "Aces are 20 points", "Kings are 10 points", "The Queens of
    Spades are 100 points each", "Jacks … 10 points", "Nines … 10 points", "Eights
    … 20 points", "Sevens … 5 Points", "Threes … 5 points", "Deuces … 20 points",
    "Joker … 50 points". Catalog (A43): penalty points for the players left.

    P0 goes out with `5H` on `5C`."""
    g = _pos(
        [["5H"], ["QS", "2D", "9S"], ["AH", "KH", "7C", "RJ"], ["3S", "JD", "8D"]],
        ["5C"],
        ["6C", "KC", "4C"],
    )
    g.step("play 5H")
    assert hand_over(g)
    # P1: 100 + 20 + 10; P2: 20 + 10 + 5 + 50; P3: 5 + 10 + 20
    assert list(g.hand_points) == [0, 130, 85, 35]


def test_TE_fidelity_one_card_call_penalty_four():
    """Source (38's): "If a player has one card in his hand (no matter how he got
    it), he must say "One Card!" before the next person plays. If he doesn't, someone
    can ask him "How many cards do you have?" and he must draw 4 cards." (the preset
    default `last_card.mode=action`, penalty 4)

    P0 plays down to one card without the call; once P1 has played, P0 holds 5."""
    g = position(
        PRESET,
        N,
        hands=[["5H", "TC"], ["6H", "TD", "9S"], ["4H", "KH"], ["6S", "TH"]],
        discard=["5C"],
        stock=["9C", "9D", "9H", "6C", "6D", "QC"],
        rules={"series": {"match": False}},
        seed=38,
    )
    assert "announce" in legal(g)
    g.step("play 5H")
    g.step("play 6H")
    assert len(g.hand(0)) == 5


_CALL_OTHERS = [["5D", "6D", "7D", "9H"], ["5S", "6S", "7S", "9S"]]
_CALL_STOCK = ["KH", "QH", "TH", "3H", "2C", "TC", "TS", "TD"]


@pytest.mark.parametrize("call", [True, False])
@pytest.mark.parametrize(
    "case, p0, p3, moves, one_card",
    [
        # A three from three cards must be covered: the cover leaves one card.
        ("cover", ["3D", "5D", "6H"], ["5C", "6C", "7C", "9C"], ["play 3D", "play 5D"], ["6H"]),
        # A jack trades hands with P3, who holds one card.
        ("trade", ["JD", "5H", "6H"], ["9C"], ["play JD", "target +3"], ["9C"]),
    ],
)
def test_TE_fidelity_one_card_call_however_the_hand_came_to_one_card(case, p0, p3, moves, one_card, call):
    """Source (38's): "If a player has one card in his hand (no matter how he got it), he
    must say "One Card!" before the next person plays. If he doesn't, ... he must draw 4
    cards." A compulsory cover of a three and a jack's trade leave P0 one card in the middle
    of its turn: the call is offered there (it was not, and the 4 cards were unavoidable);
    made, P0 keeps its one card; not made, P0 draws 4."""
    g = position(
        PRESET,
        N,
        hands=[p0, *_CALL_OTHERS, p3],
        discard=["4D"],
        stock=_CALL_STOCK,
        rules={"series": {"match": False}},
        seed=38,
    )
    g.step(moves[0])
    assert "announce" in legal(g), case
    if call:
        g.step("announce")
    g.step(moves[1])
    assert g.current_player != 0
    if call:
        assert g.hand(0) == one_card
    else:
        assert len(g.hand(0)) == 5 and one_card[0] in g.hand(0)


@pytest.mark.parametrize(
    "start, first, direction, pending",
    [
        ("4C", 1, 1, 0),  # four: P0 misses the turn
        ("KC", 2, -1, 0),  # king: reverse, the dealer's right (P2 of 4) starts
        ("2C", 0, 1, 2),  # deuce: P0 draws 2 or plays a deuce
    ],
)
def test_TE_fidelity_special_start_cards_act_as_played_by_dealer(start, first, direction, pending):
    """Source (38's): "If any other special action card is the first turned up, it is
    treated as if the dealer played it." (the dealer is P3 of 4)"""
    hands = [
        ["KD", "5H", "TC", "2H", "3C", "4C", "5C", "6C"],
        ["2D", "3D", "4D", "5D", "6D", "9D", "TD", "9S"],
        ["2S", "3H", "4H", "5S", "6H", "9H", "TH", "QH"],
        ["3S", "4S", "6S", "9C", "TS", "QD", "KS", "QC"],
    ]
    g = dealt_game(PRESET, N, hands=hands, start=start, stock=["9C"], rules=RULES)
    assert g.current_player == first
    assert g.direction == direction
    assert g.pending_draw == pending


def test_TE_fidelity_ace_and_queen_of_spades_start_cards():
    """Source (38's): "If any other special action card is the first turned up, it is
    treated as if the dealer played it." with "When an Ace is played, everyone passes
    their entire hand to the next person in the direction of play" and the QS: "The
    next person in the direction of play, must pick up the to 13 cards" (none lie
    under a start card; the victim loses the turn, A44).

    `AC` start: every hand moves one seat on, so P0 holds the dealer's (P3's) dealt
    hand and acts. `QS` start: P0 picks up nothing and misses the turn; P1 acts."""
    hands = [
        ["KD", "5H", "TC", "2H", "3C", "4C", "5C", "6C"],
        ["2D", "3D", "4D", "5D", "6D", "9D", "TD", "9S"],
        ["2S", "3H", "4H", "5S", "6H", "9H", "TH", "QH"],
        ["3S", "4S", "6S", "9C", "TS", "QD", "KS", "QC"],
    ]
    g = eights.Game(PRESET, N, seed=7, rules=RULES)
    g.reset(seed=7, deck=deal_deck(hands, "AC", ["9C"]))
    assert g.top_card == "AC"
    assert g.current_player == 0
    for p in range(N):
        assert multiset(g.hand(p)) == multiset(hands[(p - 1) % N])
    g = dealt_game(PRESET, N, hands=hands, start="QS", stock=["9C"], rules=RULES)
    assert g.current_player == 1
    assert list(g.hand_sizes) == [8, 8, 8, 8]
    assert g.discard_pile() == ["QS"]


# ------------------------------------------------ the eight's "leave it" (issue: fidelity round three)

_LEAVE_P1 = ["5S", "5C", "KD"]
_LEAVE_REST = [["6D", "TD"], ["6H", "TH"]]


def test_TE_fidelity_eight_leaves_the_suit_already_there():
    """Source (38's): "When an eight is played, the person who laid it down may choose to
    change the suit to one of his choice, or leave it the one that is already there. An
    eight does not have to follow suit."

    `8C` played on `9S` and the suit left (`end`): spades, the suit already there, is the
    suit to follow, not the eight's own clubs."""
    g = _pos([["8C", "TD"], _LEAVE_P1, *_LEAVE_REST], ["9S"], _stock(4))
    g.step("play 8C")
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS | {"end"}
    # While the choice is open, the suit already there is what the table shows.
    assert g.active_suit == "S"
    g.step("end")
    assert g.top_card == "8C"
    assert g.active_suit == "S"
    assert g.nominated_suit == "S"
    assert g.current_player == 1
    # P1 follows spades: 5S, not 5C (drawing is not voluntary while a card is playable).
    assert legal(g) == plays("5S")


def test_TE_fidelity_eight_leaves_a_nominated_suit():
    """Source (38's): "... or leave it the one that is already there."  The suit already
    there may itself have been named: on `8H` with diamonds nominated, `8C` and `end`
    leave diamonds."""
    g = _pos([["8C", "TC"], ["5D", "5C", "KH"], *_LEAVE_REST], ["9S", "8H"], _stock(4), nominated_suit="D")
    g.step("play 8C")
    g.step("end")
    assert g.active_suit == "D"
    assert g.nominated_suit == "D"
    assert legal(g) == plays("5D")


def test_TE_fidelity_eight_may_still_change_the_suit():
    """Source (38's): "may choose to change the suit to one of his choice": naming a suit
    replaces the suit already there."""
    g = _pos([["8C", "TD"], _LEAVE_P1, *_LEAVE_REST], ["9S"], _stock(4))
    g.step("play 8C")
    g.step("suit C")
    assert g.active_suit == "C"
    assert legal(g) == plays("5C")


def test_TE_fidelity_eight_on_its_own_suit_leaves_it():
    """`8S` on `9S` and `end`: the suit already there is the eight's own; spades, and no
    suit counts as named."""
    g = _pos([["8S", "TD"], _LEAVE_P1, *_LEAVE_REST], ["9S"], _stock(4))
    g.step("play 8S")
    g.step("end")
    assert g.active_suit == "S"
    assert g.nominated_suit is None


def test_TE_fidelity_an_ace_from_two_cards_hands_the_one_card_on_without_a_penalty():
    """Source (38's): "If a player has one card in his hand (no matter how he got it), he
    must say "One Card!" before the next person plays." with the ace: "everyone passes
    their entire hand to the next person in the direction of play".

    P0 plays `AH` from `AH 6C` without the call. When the next person plays, P0 holds
    P3's hand, and `6C` is P1's: P0 owes no call for it. Expect: nobody draws 4 (the
    4 cards were drawn into P0's hand and passed on with it to P1); P1, handed one card
    between turns, is not fined either."""
    g = position(
        PRESET,
        N,
        hands=[["AH", "6C"], ["6H", "TD", "9S"], ["4H", "KH", "TS"], ["6S", "TH", "9D"]],
        discard=["5H"],
        stock=["9C", "6D", "QC", "4C", "4D", "4S"],
        rules={"series": {"match": False}},
        seed=38,
    )
    g.step("play AH")
    assert g.hand(1) == ["6C"]
    assert multiset(g.hand(0)) == multiset(["6S", "TH", "9D"])
    assert g.stock() == ["9C", "6D", "QC", "4C", "4D", "4S"]
    assert g.current_player == 1

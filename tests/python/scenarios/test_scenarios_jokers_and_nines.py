"""Scenario checks JN-1 .. JN-5 (docs/rules_catalog.md#jokers_and_nines-scenario-checks) for `jokers_and_nines`.

Preset facts used (docs/rules_catalog.md#jokers_and_nines, inheriting sevens_and_eights `sevens_and_eights`): 1 pack +
RJ + BJ; a joker is wild at any time, the player names a suit, the next player
draws 2 and loses the turn (no answer); only one joker per play; after a joker
the next player plays the nominated suit, a J or a joker (R, A41); 9 =
reverse, several nines together reverse once, with n=2 the 9 is an ordinary
card scoring 5; a joker as the last card: the next player draws 2, then the
hand ends; a 9 as the last card: nothing happens; equal-rank multiples (not
J, Q, K, jokers); drawing is voluntary; penalty scoring J 50, joker 50, K 40,
Q 30, 7/8/9 20 (9 = 5 when n=2), A 15, T 10, others 5.

Engine conventions: further cards of a multiple are offered in phase
"continue"; unanswerable penalties are applied at once when the play resolves.
"""

from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    dealt_game,
    hand_over,
    legal,
    legal_cards,
    multiset,
    play_turn,
    plays,
    position,
)

PRESET = "jokers_and_nines"
# One hand per episode, so that `is_terminal` marks the end of the hand.
ONE_HAND = {"series": {"match": False}}


def _jn1_position():
    return position(
        PRESET,
        3,
        hands=[["9C", "9S", "KH"], ["2D", "3D"], ["4D", "6D"]],
        discard=["5C"],
        stock=["2H", "3H"],
    )


def test_JN_1_nine_reverses():
    """JN-1: n=3. P0 plays `9C`. Expect: `d=ccw` and P2 acts."""
    g = _jn1_position()
    g.step("play 9C")
    if not g.is_terminal and g.current_player == 0 and g.phase == "continue":
        g.step("end")  # P0 could add 9S; a single 9 is played here
    assert g.discard_pile() == ["5C", "9C"]
    assert g.direction == -1
    assert g.current_player == 2


def test_JN_1_two_nines_reverse_once():
    """JN-1: Separately, P0 plays `9C 9S`. Expect: one reverse only, and P2 acts."""
    g = _jn1_position()
    play_turn(g, "9C 9S")
    assert g.discard_pile() == ["5C", "9C", "9S"]
    assert g.direction == -1
    assert g.current_player == 2


def test_JN_2_two_player_nine_is_ordinary():
    """JN-2: n=2. P0 plays `9C`. Expect: no reverse and P1 acts; a 9 left in hand
    scores 5."""
    g = position(
        PRESET,
        2,
        hands=[["9C", "KH", "3D"], ["2S", "4S"]],
        discard=["5C"],
        stock=["2H", "3H"],
    )
    g.step("play 9C")
    assert g.direction == 1
    assert g.current_player == 1
    assert g.phase == "play"

    # scoring with n=2: P1's 9D counts 5 (not 20), KH 40
    g = position(
        PRESET,
        2,
        hands=[["3C"], ["9D", "KH"]],
        discard=["5C"],
        stock=["2H", "3H"],
        rules=ONE_HAND,
    )
    g.step("play 3C")
    assert hand_over(g)
    assert g.winner == 0
    assert list(g.hand_points) == [0, 45]


def test_JN_3_joker_draw_two_then_nominated_suit():
    """JN-3: n=3. P0 plays `BJ` and names H. Expect: P1 draws 2 and the turn ends;
    P2 must play a heart, a J, or `RJ`."""
    # P2 holds a heart (4H), a J (JC), RJ, 9S (matches the old top TS only) and
    # 5D.
    g = position(
        PRESET,
        3,
        hands=[["BJ", "3C", "6C"], ["2D", "3D"], ["4H", "JC", "RJ", "9S", "5D"]],
        discard=["TS"],
        stock=["2C", "4C", "5C"],
    )
    g.step("play BJ")
    assert g.current_player == 0
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit H")
    assert multiset(g.hand(1)) == multiset(["2D", "3D", "2C", "4C"])
    assert g.stock() == ["5C"]
    assert g.pending_draw == 0
    assert g.current_player == 2
    assert g.nominated_suit == "H"
    assert legal_cards(g) == {"4H", "JC", "RJ"}
    assert legal(g) == plays("4H JC RJ") | {"draw"}


def test_JN_4_joker_as_last_card_next_player_draws():
    """JN-4: P0's last card is `RJ`. Expect: P1 draws 2, then the hand ends."""
    # n=3 (not stated): P1 (the next player), not P2, draws.
    g = position(
        PRESET,
        3,
        hands=[["RJ"], ["4D", "6D"], ["3H", "KS"]],
        discard=["5C"],
        stock=["TC", "2S", "6H"],
        rules=ONE_HAND,
    )
    g.step("play RJ")
    if not g.is_terminal and g.current_player == 0 and g.phase == "nominate":
        # Tolerated: an engine may still ask for the (meaningless) suit after
        # the last card; the outcome must not depend on it.
        g.step("suit C")
    assert hand_over(g)
    assert g.winner == 0
    assert multiset(g.hand(1)) == multiset(["4D", "6D", "TC", "2S"])
    assert multiset(g.hand(2)) == multiset(["3H", "KS"])
    assert g.stock() == ["6H"]
    # P1: 5 + 5 + 10 + 5 = 25; P2: 5 + 40 = 45
    assert list(g.hand_points) == [0, 25, 45]


def test_JN_5a_nine_as_last_card_nothing_happens():
    """JN-5: n=3. P0's last card is `9H`. Expect: the hand ends with no draws."""
    g = position(
        PRESET,
        3,
        hands=[["9H"], ["3C", "4C"], ["6D", "2S"]],
        discard=["5H"],
        stock=["TC", "2D", "6H"],
        rules=ONE_HAND,
    )
    g.step("play 9H")
    assert hand_over(g)
    assert g.winner == 0
    assert list(g.hand_sizes) == [0, 2, 2]
    assert g.stock() == ["TC", "2D", "6H"]
    assert list(g.hand_points) == [0, 10, 10]


def test_JN_5b_two_jokers_not_played_together():
    """JN-5: Separately, `RJ BJ` played together is illegal."""
    g = position(
        PRESET,
        3,
        hands=[["RJ", "BJ", "3C"], ["2D", "3D"], ["4H", "6H"]],
        discard=["5H"],
        stock=["TC", "2S", "6S"],
    )
    g.step("play RJ")
    # no second joker is offered: the joker goes straight to its nomination
    assert g.current_player == 0
    assert g.phase == "nominate"
    assert "play BJ" not in legal(g)
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit C")
    # P1 drew 2 and lost the turn; P0 still holds BJ
    assert g.current_player == 2
    assert multiset(g.hand(0)) == multiset(["BJ", "3C"])
    assert g.discard_pile() == ["5H", "RJ"]


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_JN_fidelity_four_sevens_ending_next_player_draws():
    """Source (Jokers and Nines, rule 5): "All other rules of Sevens and Eights
    apply." With Sevens and Eights rule 12: "If a player ends the hand by playing one
    or more Sevens, then the player after him draws two cards for each Seven played"
    ... "It does not matter which of the two options stated in rules 10 and 11 he
    uses to end the hand."

    n=3, the pile ends `7C 7D 7H`; P0 plays `7S` (not the last card): four of a
    kind ends the hand and P1 draws 2 first."""
    g = position(
        PRESET,
        3,
        hands=[["7S", "KD", "2S"], ["4C", "6C"], ["5H", "TH"]],
        discard=["9C", "7C", "7D", "7H"],
        stock=["3D", "4D", "5D"],
        rules=ONE_HAND,
    )
    play_turn(g, "7S")
    assert hand_over(g)
    assert multiset(g.hand(1)) == multiset(["4C", "6C", "3D", "4D"])
    assert g.stock() == ["5D"]
    # P0: KD 40 + 2S 5; P1: four 5-point cards; P2: 5H 5 + TH 10
    assert list(g.hand_points) == [45, 20, 15]


def test_JN_fidelity_both_jokers_consecutively_do_not_end_the_hand():
    """Source, rule 4: "Rule 10 of Sevens and Eights (ending with four consecutive cards
    of one rank) applies in this version to any rank except Jokers - that is, both
    Jokers played consecutively does not end the hand." A deck holds only two jokers,
    so "all the cards of the rank played consecutively" would be both jokers: n=3, the
    top card is `RJ` (spades named, its penalty already drawn) and P0 plays `BJ` on it.
    Expect: the hand goes on (P1 draws 2 and loses the turn, P2 acts)."""
    g = position(
        PRESET,
        3,
        hands=[["BJ", "3C", "4C"], ["2D", "3D"], ["4H", "6H"]],
        discard=["5H", "RJ"],
        nominated_suit="S",
        stock=["TC", "2S", "6S"],
        rules=ONE_HAND,
    )
    assert "play BJ" in legal(g)
    g.step("play BJ")
    g.step("suit C")
    assert not hand_over(g)
    assert g.discard_pile() == ["5H", "RJ", "BJ"]
    assert len(g.hand(1)) == 4  # drew the joker's 2
    assert g.current_player == 2
    assert g.nominated_suit == "C"


def test_JN_fidelity_a_joker_does_not_complete_four_of_a_kind():
    """Source, rule 4: rule 10 ("If all four cards of the same rank are played
    consecutively, then the hand ends.") "applies in this version to any rank except
    Jokers": a joker is not a card of the rank it is played on. n=3, three fives on the
    pile, P0 plays `RJ`. Expect: the hand goes on; with `5S` instead, it ends."""
    three_fives = ["5C", "5D", "5H"]
    g = position(
        PRESET,
        3,
        hands=[["RJ", "3C", "4C"], ["2D", "3D"], ["4H", "6H"]],
        discard=three_fives,
        stock=["TC", "2S", "6S"],
        rules=ONE_HAND,
    )
    g.step("play RJ")
    g.step("suit C")
    assert not hand_over(g)
    assert g.current_player == 2

    g = position(
        PRESET,
        3,
        hands=[["5S", "3C", "4C"], ["2D", "3D"], ["4H", "6H"]],
        discard=three_fives,
        stock=["TC", "2S", "6S"],
        rules=ONE_HAND,
    )
    g.step("play 5S")
    if not g.is_terminal and g.current_player == 0 and g.phase == "continue":
        g.step("end")
    assert hand_over(g)


_NINE_START_HANDS = [["5C", "9D", "3S", "4S", "6S"], ["2S", "3H", "4H", "6H", "TH"], ["QD", "2D", "3D", "4D", "6D"]]
_NINE_START_STOCK = ["2C", "3C", "4C", "5D", "6C"]


def test_JN_fidelity_a_nine_turned_up_reverses_the_first_turn():
    """Source (Jokers and Nines): "Nines are reverse cards. If a Nine is played, the order of
    play is reversed." ... "However, if only two players are playing the game, then Nines are
    ordinary cards" ... "All other rules of Sevens and Eights apply." Sevens and Eights gives a
    jack, an eight and a seven turned up after the deal the effect they have when played; a
    reading (docs/fidelity.md, round eleven) gives the nine its own: with three players play
    starts anticlockwise, at the dealer's right (the dealer is P2, so P1); with two it is an
    ordinary card and P0 starts."""
    g = dealt_game(PRESET, 3, hands=_NINE_START_HANDS, start="9H", stock=_NINE_START_STOCK)
    assert g.current_player == 1 and g.direction == -1
    assert legal_cards(g) == {"3H", "4H", "6H", "TH"}
    g.step("play 3H")
    assert g.current_player == 0
    g = dealt_game(PRESET, 2, hands=_NINE_START_HANDS[:2], start="9H", stock=_NINE_START_STOCK)
    assert g.current_player == 0 and g.direction == 1

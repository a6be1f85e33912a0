"""Variants, one by one: the hands ended under a variant whose sentence speaks of the end
(docs/fidelity.md#variants-one-by-one).

A variant whose source sentence speaks of scoring, of the end of a hand or of a match gets a
test that plays a hand to its end under the variant and reads the result against the
sentence's arithmetic, counted by hand in the docstring. The tables of docs/fidelity.md name
these tests after "ends a hand:"; `test_variants_audit.py` checks that every such row has
one. The variants whose other test already ends a hand are not repeated here. Preset facts:
docs/rules_catalog.md#crazy_eights_countdown, docs/rules_catalog.md#crazy_eights_countdown_blog,
docs/rules_catalog.md#bitch, docs/rules_catalog.md#kings_reverse, docs/rules_catalog.md#one_card.
"""

import pytest

from scenario_helpers import legal, position

COUNTDOWNS = ["crazy_eights_countdown", "crazy_eights_countdown_blog", "bitch"]


@pytest.mark.parametrize("preset", COUNTDOWNS)
def test_no_reshuffle_a_blocked_countdown_ends_with_the_scores_as_they_were(preset):
    """Source (Pagat, End of Stock Pile): "A player who cannot or does not wish to play just
    passes. If all pass, the game is blocked. Play stops and everyone scores for the cards
    remaining in their hands." with the countdown's "When a player gets rid of all their
    cards ... the player subtracts 1 from their score" and "The winner of the game is the
    first player who reduces their score to zero." Variant `no_reshuffle`: the stock is
    empty and nobody can play on `KC`; three passes block the game. Play stops (the game is
    over), nobody reached zero (no winner), and a countdown gives its cards no points, so
    the scores stay 5 / 3 / 6 and every hand's points are 0. Without the variant the first
    player draws from the pile turned over instead of passing."""
    hands = [["3H", "4H"], ["4D", "TS"], ["9S", "3D"]]
    scores = [5, 3, 6]
    g = position(preset, 3, hands=hands, discard=["9C", "KC"], stock=[], scores=scores)
    assert "pass" not in legal(g)
    g = position(
        preset, 3, hands=hands, discard=["9C", "KC"], stock=[], scores=scores, rules={"variants": ["no_reshuffle"]}
    )
    for _ in range(3):
        assert legal(g) == {"pass"}
        g.step("pass")
    assert g.is_terminal
    assert g.winner is None
    assert list(g.scores) == scores
    assert list(g.hand_points) == [0, 0, 0]


@pytest.mark.parametrize("preset", COUNTDOWNS)
def test_no_reshuffle_going_out_on_an_empty_stock_is_not_a_win(preset):
    """Source (Pagat, Crazy Eights Countdown): "When a player gets rid of all their cards,
    this does not end the play. Instead, the player subtracts 1 from their score, and is
    immediately dealt a new hand of cards equal in size to their new score." and "The
    winner of the game is the first player who reduces their score to zero." Variant
    `no_reshuffle`, the stock empty: P0 (score 5) plays its last card, 3H. Its score falls
    to 4 and the empty stock deals it no card, but 4 is not zero, so play goes on: no
    winner, P1 to play. Nobody can play on 3H (P1's wild is 3, P2's 6, P0 holds nothing),
    so three passes block the game: no winner, the scores 4 / 3 / 6. (The engine once made
    P0 the winner with a score of 4.)"""
    g = position(
        preset,
        3,
        hands=[["3H"], ["4D", "TS"], ["9S", "5D"]],
        discard=["9C", "KH"],
        stock=[],
        scores=[5, 3, 6],
        rules={"variants": ["no_reshuffle"]},
    )
    g.step("play 3H")
    assert not g.is_terminal and g.winner is None
    assert list(g.scores) == [4, 3, 6]
    assert list(g.hand_sizes) == [0, 2, 2]
    assert g.current_player == 1
    for seat in (1, 2, 0):
        assert g.current_player == seat and legal(g) == {"pass"}
        g.step("pass")
    assert g.is_terminal
    assert g.winner is None
    assert list(g.scores) == [4, 3, 6]


def test_consecutive_passes_kings_reverse_ends_when_everyone_passes_in_a_row():
    """Source (Kings Reverse): "If the entire pack is used during play, the play continues
    until no one can play a card." ... "Play continues until player D has no card to play. At
    this point everyone counts their card values and adds to their score." and "Sevens,
    eights, kings, and the Ace of Spades are worth 20 points, jacks are worth 15, jokers are
    worth 25, and all other cards are worth 5." Variant `consecutive_passes`: stock empty, on
    `9C`: P0 passes, P1 plays `9H`, P2 passes, P0 plays `3H` (a player who passed plays
    again), then P1, P2 and P0 pass in a row and the hand ends: P0 `4S` 5, P1 `4D` 5, P2
    `5S 6S` 10. In the preset P0 is out of play after the first pass: P1 plays `9H`, P2
    passes, P1 passes and the hand ends with P0 `3H 4S` 10, P1 5, P2 10."""
    hands = [["3H", "4S"], ["9H", "4D"], ["5S", "6S"]]
    for variants, actions, points in (
        ((), ["pass", "play 9H", "pass", "pass"], [10, 5, 10]),
        (("consecutive_passes",), ["pass", "play 9H", "pass", "play 3H", "pass", "pass", "pass"], [5, 5, 10]),
    ):
        g = position(
            "kings_reverse", 3, hands=hands, discard=["2C", "9C"], stock=[], rules={"variants": list(variants)}
        )
        for a in actions:
            assert not g.is_terminal, variants
            g.step(a)
        assert g.is_terminal, variants
        assert list(g.hand_points) == points, variants
        assert list(g.scores) == points, variants


def test_play_for_second_one_card_ends_when_second_place_goes_out():
    """Source (One Card, rule 14): "The winner is the player who manages to play all his
    cards. If there are 3 players and there is a winner already, the two remaining players
    may continue the game for 2nd place. Usually the winner takes the whole bet, or the
    winner takes 75% and the 2nd placed player takes 25%." (the bet is not modelled: the
    reward is +1 / 0 / -1 by finishing order, docs/presets.md). Variant `play_for_second`: P0
    goes out with `5H`; P1 plays `5S`, P2 `9S`, and P1 goes out second with `6S`: the hand
    ends with the order P0, P1, P2 and the returns +1, 0, -1. In the preset the hand ends
    when P0 goes out: P0 wins (+1), the other two lose alike."""
    hands = [["5H"], ["5S", "6S"], ["9S", "4C"]]
    stock = ["4D", "6D", "8D", "9D", "TD"]
    g = position("one_card", 3, hands=hands, discard=["5C"], stock=stock)
    g.step("play 5H")
    assert g.is_terminal and g.winner == 0
    assert g.finishing_order == [0]
    returns = list(g.returns())
    assert returns[0] == 1.0 and returns[1] == returns[2] < 0
    g = position("one_card", 3, hands=hands, discard=["5C"], stock=stock, rules={"variants": ["play_for_second"]})
    for a in ["play 5H", "play 5S", "play 9S"]:
        g.step(a)
        assert not g.is_terminal
    g.step("play 6S")
    assert g.is_terminal and g.winner == 0
    assert g.finishing_order == [0, 1, 2]
    assert list(g.returns()) == [1.0, 0.0, -1.0]


def test_previous_loser_one_card_the_last_out_of_a_hand_leads_the_next():
    """Source (One Card, rule 4): "The first to lay out a card should be either the loser of
    the previous game or the non-participant who chooses among the players the one who will
    lay out his card right after him. The non-participant may also choose the initial
    direction of play" with rule 14's "the two remaining players may continue the game for
    2nd place". Variant `previous_loser` (with `play_for_second`, in a match of two hands):
    P0 goes out, then P1 (the order is P0, P1), so P2 lost the hand; the hand ends and the
    next one is led by P2, anticlockwise. Without `previous_loser` the next dealer's left
    (P1) leads, clockwise. One Card keeps no points: the scores stay 0."""
    hands = [["5H"], ["5S", "6S"], ["9S", "4C"]]
    stock = ["4D", "6D", "8D", "9D", "TD"]
    for variants, leader, direction in (
        (["play_for_second"], 1, 1),
        (["play_for_second", "previous_loser"], 2, -1),
    ):
        rules = {"variants": variants, "series": {"match": True, "max_hands": 2}}
        g = position("one_card", 3, hands=hands, discard=["5C"], stock=stock, rules=rules, seed=11)
        for a in ["play 5H", "play 5S", "play 9S"]:
            g.step(a)
        assert g.finishing_order == [0], variants
        g.step("play 6S")
        assert g.hands_played == 1, variants
        assert list(g.scores) == [0, 0, 0], variants
        assert (g.current_player, g.direction) == (leader, direction), variants

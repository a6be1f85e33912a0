"""Scenario checks SE-1 .. SE-6 (docs/rules_catalog.md#sevens_and_eights-scenario-checks) for `sevens_and_eights`.

Preset facts used (docs/rules_catalog.md#sevens_and_eights): 1 pack, no jokers, deal 5; J is wild at any
time with a required nomination and is never part of a multiple; several cards
of one rank (not J, Q, K) may be played in one turn, the first one legal, the
player choosing the order (the last card is the top card); 7 = the next player
draws 2 per seven and loses the turn (no answer); 8 = skip, once however many
are played; drawing is voluntary; start card: J = P0 may play any card, 8 = P0
is skipped, 7 = P0 draws 2 and the turn ends; the hand ends when a player goes
out or when the top four cards of the pile have the same rank; a 7 as the last
card: the next player draws 2 per seven, then the hand ends; penalty scoring
J 50, K 40, Q 30, 7/8 20, A 15, T 10, others 5; the player who went out
scores 0; after a four-of-a-kind ending everybody scores.

Engine conventions: further cards of a multiple are offered in phase
"continue" ("end" stops); unanswerable penalties are applied at once when the
play resolves.
"""

import pytest

import eights
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

PRESET = "sevens_and_eights"
# One hand per episode, so that `is_terminal` marks the end of the hand.
ONE_HAND = {"series": {"match": False}}


def _se1_position(p0_hand):
    # n=3 (not stated).  KC is a filler that matches nothing on 4H, so the
    # player does not go out with the sixes.
    return position(
        PRESET,
        3,
        hands=[p0_hand, ["2C", "3C"], ["9S", "TS"]],
        discard=["4H"],
        stock=["2D", "3D", "5D"],
    )


def test_SE_1a_first_card_must_be_legal():
    """SE-1: top `4H`. P0 holds `6H 6D`. Expect: the legal multi-play is `6H` then
    `6D` (with `6D` on top); `6D` then `6H` is illegal."""
    g = _se1_position(["6H", "6D", "KC"])
    assert legal(g) == {"play 6H", "draw"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play 6D")
    g.step("play 6H")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 6D", "end"}
    g.step("play 6D")
    if not g.is_terminal and g.current_player == 0 and g.phase == "continue":
        g.step("end")
    assert g.discard_pile() == ["4H", "6H", "6D"]
    assert g.top_card == "6D"
    assert g.hand(0) == ["KC"]
    assert g.current_player == 1


def test_SE_1b_player_chooses_the_top_card():
    """SE-1: top `4H`. Holding `6C` as well, P0 may finish with `6D` or `6C` on
    top."""
    g = _se1_position(["6H", "6D", "6C", "KC"])
    g.step("play 6H")
    assert g.phase == "continue"
    assert legal(g) == {"play 6D", "play 6C", "end"}
    g.step("play 6C")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 6D", "end"}
    g.step("play 6D")
    if not g.is_terminal and g.current_player == 0 and g.phase == "continue":
        g.step("end")
    assert g.discard_pile() == ["4H", "6H", "6C", "6D"]
    assert g.top_card == "6D"
    assert g.current_player == 1

    g = _se1_position(["6H", "6D", "6C", "KC"])
    play_turn(g, "6H 6D 6C")
    assert g.discard_pile() == ["4H", "6H", "6D", "6C"]
    assert g.top_card == "6C"
    assert g.hand(0) == ["KC"]
    assert g.current_player == 1


def test_SE_1c_sixes_illegal_without_the_heart():
    """SE-1: top `4H`. Holding only `6D 6C`, the sixes are illegal."""
    g = _se1_position(["6D", "6C", "KC"])
    assert legal_cards(g) == set()
    assert legal(g) == {"draw"}


def test_SE_1d_jacks_never_played_together():
    """SE-1: `JH JC` together is always illegal."""
    g = _se1_position(["JH", "JC", "KC"])
    assert legal(g) == plays("JH JC") | {"draw"}
    g.step("play JH")
    # no second jack is offered: the J goes straight to its nomination
    assert g.current_player == 0
    assert g.phase == "nominate"
    assert "play JC" not in legal(g)
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit C")
    assert g.current_player == 1
    assert g.discard_pile() == ["4H", "JH"]
    assert multiset(g.hand(0)) == multiset(["JC", "KC"])


def test_SE_2_two_sevens_draw_four():
    """SE-2: n=3. P0 plays `7S 7H`. Expect: P1 draws 4 and the turn ends; P2
    acts."""
    # P1 holds 7D: a 7 can't answer (no answer exists).
    g = position(
        PRESET,
        3,
        hands=[["7S", "7H", "KC"], ["7D", "6C"], ["9C", "TC"]],
        discard=["5S"],
        stock=["2D", "3D", "4D", "9D", "TD"],
    )
    play_turn(g, "7S 7H")
    assert g.top_card == "7H"
    assert multiset(g.hand(1)) == multiset(["7D", "6C", "2D", "3D", "4D", "9D"])
    assert g.stock() == ["TD"]
    assert g.pending_draw == 0
    assert g.current_player == 2


def test_SE_3_two_eights_skip_once():
    """SE-3: n=3. P0 plays `8C 8D`. Expect: only P1 is skipped; P2 acts."""
    g = position(
        PRESET,
        3,
        hands=[["8C", "8D", "KH"], ["6S", "9S"], ["2S", "3S"]],
        discard=["5C"],
        stock=["2D", "3D"],
    )
    play_turn(g, "8C 8D")
    assert g.top_card == "8D"
    assert g.direction == 1
    assert g.current_player == 2
    assert multiset(g.hand(1)) == multiset(["6S", "9S"])


# n=3, 5 cards each.  P0's cards match neither D nor J, 8 or 7.
_SE4_HANDS = [
    ["3C", "4S", "9H", "TC", "KC"],
    ["2C", "5S", "6H", "QS", "AC"],
    ["9S", "TS", "2H", "3S", "4C"],
]
_SE4_STOCK = ["5C", "6C", "9C"]


def test_SE_4a_jack_start_card_free_play():
    """SE-4: n=3. The start card is `JD`. Expect: P0 may play any card."""
    g = dealt_game(PRESET, 3, hands=_SE4_HANDS, start="JD", stock=_SE4_STOCK)
    assert g.current_player == 0
    assert g.phase == "play"
    assert legal_cards(g) == set(_SE4_HANDS[0])
    assert legal(g) == plays(_SE4_HANDS[0]) | {"draw"}


def test_SE_4b_eight_start_card_skips_P0():
    """SE-4: n=3. The start card is `8D`. Expect: P1 acts first."""
    g = dealt_game(PRESET, 3, hands=_SE4_HANDS, start="8D", stock=_SE4_STOCK)
    assert g.current_player == 1
    assert multiset(g.hand(0)) == multiset(_SE4_HANDS[0])


def test_SE_4c_seven_start_card_P0_draws_two():
    """SE-4: n=3. The start card is `7D`. Expect: P0 draws 2, the turn ends, and P1
    acts."""
    g = dealt_game(PRESET, 3, hands=_SE4_HANDS, start="7D", stock=_SE4_STOCK)
    assert multiset(g.hand(0)) == multiset(_SE4_HANDS[0] + ["5C", "6C"])
    assert g.stock()[0] == "9C"
    assert g.pending_draw == 0
    assert g.current_player == 1


def test_SE_5_four_of_a_kind_ends_the_hand():
    """SE-5: n=3. P0 plays `5C`, P1 plays `5D`, and P2 plays `5H 5S`. Expect: the
    hand ends; P0, P1 and P2 all add their hand values (P2 did not go out)."""
    g = position(
        PRESET,
        3,
        hands=[["5C", "KD", "2S"], ["5D", "JH", "3C"], ["5H", "5S", "QC", "7H"]],
        discard=["9C"],
        stock=["2D", "3D", "4D"],
        rules=ONE_HAND,
    )
    play_turn(g, "5C")
    assert g.current_player == 1
    play_turn(g, "5D")
    assert g.current_player == 2
    assert not hand_over(g)
    play_turn(g, "5H 5S")
    assert hand_over(g)
    assert g.discard_pile() == ["9C", "5C", "5D", "5H", "5S"]
    assert list(g.hand_sizes) == [2, 2, 2]
    # P0: KD 40 + 2S 5 = 45; P1: JH 50 + 3C 5 = 55; P2: QC 30 + 7H 20 = 50
    assert list(g.hand_points) == [45, 55, 50]
    assert list(g.scores) == [45, 55, 50]


def test_SE_6_seven_as_last_card_then_scoring():
    """SE-6: P0's last card is `7S`. Expect: P1 draws 2 and the hand ends; P0
    scores 0. A hand of `JS KD QC 7H AS TC 3D` is worth 170."""
    # n=3 (not stated): P1 (the next player), not P2, draws.  P1 draws TC 3D and
    # so ends with the 170-point hand.
    g = position(
        PRESET,
        3,
        hands=[["7S"], ["JS", "KD", "QC", "7H", "AS"], ["4C", "6C"]],
        discard=["9S"],
        stock=["TC", "3D", "2H"],
        rules=ONE_HAND,
    )
    g.step("play 7S")
    assert hand_over(g)
    assert g.winner == 0
    assert multiset(g.hand(1)) == multiset(["JS", "KD", "QC", "7H", "AS", "TC", "3D"])
    assert multiset(g.hand(2)) == multiset(["4C", "6C"])
    assert g.stock() == ["2H"]
    # 50 + 40 + 30 + 20 + 15 + 10 + 5 = 170; P2: 5 + 5 = 10
    assert list(g.hand_points) == [0, 170, 10]
    assert list(g.scores) == [0, 170, 10]


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_SE_fidelity_four_sevens_ending_next_player_draws():
    """Source (Sevens and Eights, rule 12): "If a player ends the hand by playing one
    or more Sevens, then the player after him draws two cards for each Seven played,
    and the hand ends." ... "It does not matter which of the two options stated in
    rules 10 and 11 he uses to end the hand."

    n=3, the pile ends `7C 7D 7H`; P0 plays `7S` (not the last card), which makes
    four of a kind (rule 10): P1 draws 2 and the hand ends; everyone is scored, P1
    with the two drawn cards."""
    g = position(
        PRESET,
        3,
        hands=[["7S", "KD", "2S"], ["4C", "6C"], ["9H", "TH"]],
        discard=["9C", "7C", "7D", "7H"],
        stock=["3D", "4D", "5D"],
        rules=ONE_HAND,
    )
    play_turn(g, "7S")
    assert hand_over(g)
    assert multiset(g.hand(1)) == multiset(["4C", "6C", "3D", "4D"])
    assert g.stock() == ["5D"]
    # P0 did not go out: KD 40 + 2S 5; P1: 4C 6C 3D 4D = 4 x 5; P2: 9H 5 + TH 10
    assert list(g.hand_points) == [45, 20, 15]


@pytest.mark.parametrize("pair", [["QH", "QD"], ["KH", "KD"]])
def test_SE_fidelity_queens_and_kings_not_played_together(pair):
    """Source (Sevens and Eights, rule 7): "Players may play two or more cards of the
    same rank at the same time (however, this rule does not apply to Jacks, Queens,
    or Kings)."

    Top `5H`: P0 plays the heart Q (or K) and is offered no second one; P1 acts."""
    g = position(
        PRESET,
        3,
        hands=[pair + ["3C"], ["4C", "6C"], ["6D", "7D"]],
        discard=["5H"],
        stock=["2D", "3D"],
    )
    g.step(f"play {pair[0]}")
    assert g.current_player == 1
    assert multiset(g.hand(0)) == multiset([pair[1], "3C"])


def test_SE_fidelity_after_drawing_may_play_or_end():
    """Source (Sevens and Eights, rule 3): "If a player cannot play or does not want
    to play one of his cards, he may draw the top card of the deck. If he cannot play
    or does not want to, then his turn ends". Catalog (A40): any legal card may then
    be played.

    Top `5C`: P0 holds `5H` but draws (`2D`, unplayable); P0 may still play `5H`
    or pass."""
    g = position(
        PRESET,
        3,
        hands=[["5H", "6D"], ["4H", "KH"], ["9D", "TD"]],
        discard=["5C"],
        stock=["2D", "3D", "4D"],
        rules=ONE_HAND,
    )
    assert "draw" in legal(g)
    g.step("draw")
    assert g.current_player == 0
    assert legal(g) == plays("5H") | {"pass"}
    g.step("pass")
    assert g.current_player == 1
    assert multiset(g.hand(0)) == multiset(["5H", "6D", "2D"])


@pytest.mark.parametrize("last", [["JS"], ["8S"], ["8S", "8D"]])
def test_SE_fidelity_going_out_with_a_jack_or_eights_nothing_else_happens(last):
    """Source (Sevens and Eights, rule 12): "If he ends by playing a Jack or one or
    more Eights, then nothing else happens."

    n=3: P0 goes out with `JS` (or `8S`, or `8S 8D`) on `9S`; nobody draws, the hand
    ends and P0 scores 0."""
    g = position(
        PRESET,
        3,
        hands=[last, ["4C", "6C"], ["9H", "TH"]],
        discard=["9S"],
        stock=["3D", "4D", "5D"],
        rules=ONE_HAND,
    )
    g.step(f"play {last[0]}")
    if not hand_over(g) and g.phase == "nominate":
        g.step("suit C")
    for c in last[1:]:
        g.step(f"play {c}")
    assert hand_over(g)
    assert g.winner == 0
    assert g.stock() == ["3D", "4D", "5D"]
    # P1: 4C 6C = 10; P2: 9H 5 + TH 10 = 15
    assert list(g.hand_points) == [0, 10, 15]


def test_SE_fidelity_a_fourth_jack_in_a_row_ends_the_hand_without_naming_a_suit():
    """Source (Sevens and Eights, rules 10 and 12): "If all four cards of the same rank are
    played consecutively, then the hand ends." ... "If he ends by playing a Jack or one or
    more Eights, then nothing else happens. It does not matter which of the two options stated
    in rules 10 and 11 he uses to end the hand."

    n=3: `JC JD JH` lie on top; P0 plays `JS`. The hand ends at once: no suit is named (there
    is no next play to follow it), nobody draws, and everyone scores their cards."""
    g = position(
        PRESET,
        3,
        hands=[["JS", "KD", "2S"], ["4C", "6C"], ["9H", "TH"]],
        discard=["9C", "JC", "JD", "JH"],
        stock=["3D", "4D", "5D"],
        rules=ONE_HAND,
    )
    g.step("play JS")
    assert hand_over(g)
    assert g.stock() == ["3D", "4D", "5D"]
    # P0: KD 40 + 2S 5 = 45; P1: 4C 6C = 10; P2: 9H 5 + TH 10 = 15
    assert list(g.hand_points) == [45, 10, 15]


LAST_CARD = {"last_card": {"mode": "action"}, "series": {"match": False}}


def test_SE_fidelity_card_call_penalty_two():
    """Source (Sevens and Eights, rule 9): "If a player has only one card left at the
    end of his turn, he must say "card" … If he fails to do so and any player catches
    him before the next player plays, then that player who failed to call must draw
    two cards." (option `last_card.mode=action`)"""
    g = position(
        PRESET,
        3,
        hands=[["5H", "6D"], ["4C", "KC"], ["9D", "TD"]],
        discard=["5C"],
        stock=["2D", "3D", "4D"],
        rules=LAST_CARD,
    )
    g.step("play 5H")
    g.step("draw")  # P1 takes a turn
    assert len(g.hand(0)) == 3


# The run of five cards on the pile when the stock is empty: 5H and 5D were played one
# after the other on the KC.
_FIVES_RUN = ["9C", "KC", "5H", "5D"]


def test_SE_fidelity_four_of_a_kind_holds_across_a_reshuffle():
    """Source (Sevens and Eights, rule 13): "all the cards in the waste pile, except the
    top card, are shuffled and a new draw pile is formed. The old top card of the waste
    pile now forms the first card in the new waste pile. Play then continues as normal
    until one player runs out of cards or all four cards of the same rank are played
    consecutively." With rule 10: "It does not matter how many players played these
    four cards".

    n=2, `5H 5D` were played and the stock is empty. P0 draws: the pile under `5D` is
    shuffled into the stock, and `5D` alone is left. P1 plays `5C 5S`. Expect: four
    fives were played one after another, and the hand ends with everyone scored."""
    g = position(PRESET, 2, hands=[["3H", "4H"], ["5C", "KD", "5S"]], discard=_FIVES_RUN, stock=[], rules=ONE_HAND)
    g.step("draw")
    assert g.discard_pile() == ["5D"]  # the reshuffle left the top card alone
    assert multiset(g.hand(0)) == multiset(["3H", "4H", "KC"])  # seed 0 draws the king
    assert g.current_player == 1
    play_turn(g, "5C 5S")
    assert hand_over(g)
    assert g.hand(1) == ["KD"]  # nobody went out: both hands are scored
    # P0: KC 40 + 3H 5 + 4H 5; P1: KD 40
    assert list(g.hand_points) == [50, 40]


def test_SE_fidelity_a_five_back_from_the_stock_counts_once_in_the_run():
    """Source (Sevens and Eights, rule 10): "If all four cards of the same rank are
    played consecutively, then the hand ends." A single deck has four fives, so `5H`
    played again after a reshuffle brought it back is one of them, not a fifth.

    n=2, `5H 5D` played, the stock empty; P0 draws `5H` from the reshuffled pile and
    plays it, then P1 plays `5C`: the fives played in a row are 5H 5D 5H 5C, three of the
    four cards, and the hand goes on. P0's `5S` then completes 5D 5H 5C 5S: it ends."""
    g = position(
        PRESET, 2, hands=[["3H", "4H", "5S"], ["5C", "KD"]], discard=_FIVES_RUN, stock=[], rules=ONE_HAND, seed=2
    )
    g.step("draw")
    assert "5H" in g.hand(0)  # seed 2 draws the five back
    play_turn(g, "5H")
    play_turn(g, "5C")
    assert not hand_over(g)
    assert g.current_player == 0
    play_turn(g, "5S")
    assert hand_over(g)
    assert g.discard_pile()[-4:] == ["5D", "5H", "5C", "5S"]

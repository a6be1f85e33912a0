"""Scenario checks CD-1 .. CD-6 (docs/rules_catalog.md#crazy_eights_countdown-scenario-checks) for
`crazy_eights_countdown`.

Preset facts used (docs/rules_catalog.md#crazy_eights_countdown, docs/rules_catalog.md#countdown,
inheriting `crazy_eights`): 1 pack, no jokers;
every player starts with a countdown score of 8 and a player's wild rank is
their score (8->8 ... 2->2, 1->A) with a required nomination; after a wild the
next player must play the nominated suit or *their own* wild (a card of the
played wild's rank is not enough, unless `countdown.equal_rank_on_wild`);
drawing is voluntary (one card); going out lowers the score by 1 and deals the
player `score` new cards at once, the others keep their hands and the turn
passes on; a score of 0 wins the game; no specials by default, house specials
are rule overrides and combine with a wild of the same rank
(`countdown.wild_special_combo`): wild/skip -> the player after the skipped one
follows the nomination; wild/reverse -> reverse first; wild/draw-two -> only a
2 of the nominated suit answers, and a 2 played as an answer is not wild, so
any 2 answers it.  Chains: `wild_blocked`, accepting ends the turn (the
crazy_eights defaults for a draw-two special).

Engine conventions: the `scores=[...]` argument of `Game.from_position` sets
the countdown scores (`g.scores` reads them); the re-deal on going out happens
at once, without a decision.
"""

import pytest

import eights
from countdown_helpers import score_position
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    dealt_game,
    legal,
    legal_cards,
    multiset,
    plays,
)

PRESET = "crazy_eights_countdown"
HOUSE_SKIP_REVERSE = {"cards": {"4": {"skip": 1}, "A": {"reverse": True}}}
HOUSE_DRAW_TWO = {"cards": {"2": {"draw_chain": {"amount": 2}}}}


def cd_position(n, **kw):
    return score_position(PRESET, n, **kw)


def _play_wild(g, card, suit):
    """The current player plays their wild `card` and nominates `suit`."""
    p = g.current_player
    g.step(f"play {card}")
    assert g.current_player == p
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step(f"suit {suit}")


def test_CD_1_follow_nominated_suit_or_own_wild():
    """CD-1: n=3, scores P0=6, P1=7, P2=8, top `9D`. P0 plays `6C` (their wild) and
    nominates H. P1 holds `6S 7D 8S 4H`. Expect: legal = {`4H`, `7D`} plus `draw`.
    `6S` and `8S` are illegal."""
    g = cd_position(
        3,
        hands=[["6C", "3S", "KD"], ["6S", "7D", "8S", "4H"], ["2C", "5C"]],
        discard=["9D"],
        stock=["TC", "JC", "QC"],
        scores=[6, 7, 8],
    )
    _play_wild(g, "6C", "H")
    assert g.current_player == 1
    assert g.top_card == "6C"
    assert g.nominated_suit == "H"
    # 4H: the nominated suit; 7D: P1's own wild (score 7).  6S is the played
    # wild's rank but not P1's wild; 8S is nobody's wild for P1.
    assert legal_cards(g) == {"4H", "7D"}
    assert legal(g) == plays("4H 7D") | {"draw"}
    for c in ("6S", "8S"):
        with pytest.raises(eights.IllegalActionError):
            g.step(f"play {c}")


def test_CD_2_going_out_lowers_score_and_redeals():
    """CD-2: n=3, P0 (score 8) plays their last card `5H` on `5C`. Expect: P0's
    score is 7; P0 is dealt 7 new cards and their wild rank is now 7; P1 acts
    next on `5H`; the hand sizes of P1 and P2 are unchanged."""
    new_cards = ["7S", "8C", "2D", "3D", "4D", "9D", "KD"]
    g = cd_position(
        3,
        hands=[["5H"], ["6H", "2C", "3C"], ["TH", "4C", "6C"]],
        discard=["5C"],
        stock=new_cards + ["QD", "JD"],
        scores=[8, 8, 8],
    )
    g.step("play 5H")
    assert not g.is_terminal
    assert list(g.scores) == [7, 8, 8]
    # dealt at once: the next 7 stock cards
    assert multiset(g.hand(0)) == multiset(new_cards)
    assert g.stock() == ["QD", "JD"]
    assert list(g.hand_sizes) == [7, 3, 3]
    assert g.current_player == 1
    assert g.phase == "play"
    assert g.top_card == "5H"

    # The wild rank is now 7: on `TH` (after two heart plays) P0 may play 7S as
    # a wild; 8C is no longer wild and matches nothing.
    g.step("play 6H")
    assert g.current_player == 2
    g.step("play TH")
    assert g.current_player == 0
    assert legal_cards(g) == {"7S"}
    assert legal(g) == {"play 7S", "draw"}
    g.step("play 7S")
    assert g.current_player == 0
    assert g.phase == "nominate"


def test_CD_fidelity_going_out_on_a_wild_names_the_suit_before_the_new_hand():
    """Source: "When a wild card is played, the player nominates a suit." The suit is named
    as the wild is played, before its player has gone out and "is immediately dealt a new
    hand". n=3, P0 (score 5) plays their last card, the wild 5H, on 9C. Expect: P0 names the
    suit with an empty hand (the new cards were dealt first, and in view of the choice), then
    holds the 4 new cards; P1 plays on."""
    new_cards = ["AS", "KS", "QS", "JS"]
    g = cd_position(
        3,
        hands=[["5H"], ["3D", "4D", "6D"], ["7C", "8C", "TC"]],
        discard=["2S", "9C"],
        stock=new_cards + ["TD", "JD"],
        scores=[5, 8, 8],
    )
    g.step("play 5H")
    assert g.phase == "nominate" and g.current_player == 0
    assert list(g.scores) == [4, 8, 8]
    assert g.hand(0) == [] and g.stock_size == 6
    g.step("suit D")
    assert multiset(g.hand(0)) == multiset(new_cards)
    assert g.stock() == ["TD", "JD"]
    assert g.current_player == 1 and g.nominated_suit == "D"


def test_CD_3_score_zero_wins_the_game():
    """CD-3: P0 (score 1) plays their last card. Expect: P0's score is 0, P0 wins,
    and the episode ends."""
    # n=3 (not stated).  The last card is an ordinary match (5H on 5C), so no
    # nomination is involved.
    g = cd_position(
        3,
        hands=[["5H"], ["6D", "2C", "3C"], ["TS", "4C"]],
        discard=["5C"],
        stock=["QD", "JD", "9S"],
        scores=[1, 3, 8],
    )
    g.step("play 5H")
    assert g.is_terminal
    assert g.winner == 0
    assert list(g.scores) == [0, 3, 8]
    # nothing is dealt to the winner
    assert g.hand(0) == []
    assert g.stock() == ["QD", "JD", "9S"]
    assert list(g.returns()) == [1.0, -0.5, -0.5]
    with pytest.raises(eights.IllegalActionError):
        g.step("draw")


def _cd4(rules):
    # n=3 (not stated).  P1 (score 8) holds 5H (the wild's rank), 4D (the
    # nominated suit), and 2S / 7C, which match nothing.
    g = cd_position(
        3,
        hands=[["5C", "3H", "KS"], ["5H", "4D", "2S", "7C"], ["9C", "TC"]],
        discard=["9S"],
        stock=["2D", "3D", "6D"],
        scores=[5, 8, 8],
        rules=rules,
    )
    _play_wild(g, "5C", "D")
    assert g.current_player == 1
    assert g.nominated_suit == "D"
    return g


def test_CD_4_equal_rank_on_wild_flag():
    """CD-4: `countdown.equal_rank_on_wild=true`. P0 (score 5) plays `5C` and
    nominates D. Expect: P1 (score 8) may play `5H`. With the flag false, `5H` is
    illegal."""
    g = _cd4({"countdown": {"equal_rank_on_wild": True}})
    assert legal(g) == plays("5H 4D") | {"draw"}

    g = _cd4({"countdown": {"equal_rank_on_wild": False}})
    assert legal(g) == plays("4D") | {"draw"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play 5H")

    # the preset default is false
    g = _cd4(None)
    assert legal(g) == plays("4D") | {"draw"}


def test_CD_5a_wild_skip_combo():
    """CD-5: house specials {4: skip, A: reverse}. (a) n=3. P0 (score 4) plays `4C`
    and nominates D. Expect: P1 is skipped; P2 must play a diamond or P2's own
    wild, or draw."""
    # P2 (score 6): 3D (diamond), 6S (own wild), 4H (the played wild's rank,
    # not P2's wild), 8S (not P2's wild), KC (no match).
    g = cd_position(
        3,
        hands=[["4C", "9S", "TS"], ["2H", "3H"], ["3D", "6S", "4H", "8S", "KC"]],
        discard=["9H"],
        stock=["5C", "7C"],
        scores=[4, 8, 6],
        rules=HOUSE_SKIP_REVERSE,
    )
    _play_wild(g, "4C", "D")
    assert multiset(g.hand(1)) == multiset(["2H", "3H"])
    assert g.current_player == 2
    assert g.direction == 1
    assert g.nominated_suit == "D"
    assert legal(g) == plays("3D 6S") | {"draw"}


def test_CD_5b_wild_reverse_combo():
    """CD-5: house specials {4: skip, A: reverse}. (b) n=4. P0 (score 1) plays `AC`
    and nominates S. Expect: `d=ccw`; P3 acts and must play a spade or P3's own
    wild, or draw."""
    # P3 (score 3): 5S (spade), 3H (own wild), AD (the played wild's rank, not
    # P3's wild), 8D (not P3's wild), KC (no match).
    g = cd_position(
        4,
        hands=[["AC", "7D"], ["2H", "4H"], ["5C", "6C"], ["5S", "3H", "AD", "8D", "KC"]],
        discard=["9H"],
        stock=["TC", "JC"],
        scores=[1, 8, 8, 3],
        rules=HOUSE_SKIP_REVERSE,
    )
    _play_wild(g, "AC", "S")
    assert g.direction == -1
    assert g.current_player == 3
    assert g.nominated_suit == "S"
    assert list(g.scores) == [1, 8, 8, 3]
    assert legal(g) == plays("5S 3H") | {"draw"}


# CD-6: one pack, so the four 2s are 2C 2D 2H 2S.  Scores P0=2, P1=5, P2=6.
_CD6_SCORES = [2, 5, 6]


def test_CD_6_wild_two_answered_only_by_nominated_two_then_accept():
    """CD-6: house {2: draw_chain(2)}, single pack, n=3, scores P0=2, P1=5, P2=6.
    P0 plays `2H` and nominates C. Expect: P1 may answer only with `2C` (`2S` and
    `2D` are illegal), or accept 2. (b) If P1 accepts instead, P2 must play a club
    or a 6, or draw."""
    # P1 also holds 9C (a club: blocked while the chain is pending) and 5D (P1's
    # own wild: wilds can't answer).  P2: 5C (club), 6S (own wild), 7H (the
    # wild 2's suit, overridden by the nomination), KD.
    g = cd_position(
        3,
        hands=[
            ["2H", "9H", "TS"],
            ["2C", "2S", "2D", "9C", "5D"],
            ["5C", "6S", "7H", "KD"],
        ],
        discard=["4S"],
        stock=["3D", "4D", "6D", "7D"],
        scores=_CD6_SCORES,
        rules=HOUSE_DRAW_TWO,
    )
    _play_wild(g, "2H", "C")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play 2C", "accept"}
    for c in ("2S", "2D"):
        with pytest.raises(eights.IllegalActionError):
            g.step(f"play {c}")

    # (b) P1 accepts: draws 2, the turn ends, the nomination C stays in force.
    g.step("accept")
    assert multiset(g.hand(1)) == multiset(["2C", "2S", "2D", "9C", "5D", "3D", "4D"])
    assert g.stock() == ["6D", "7D"]
    assert g.pending_draw == 0
    assert g.current_player == 2
    assert g.phase == "play"
    assert g.top_card == "2H"
    assert g.nominated_suit == "C"
    assert legal(g) == plays("5C 6S") | {"draw"}


def test_CD_6a_answer_two_is_not_wild_any_two_answers():
    """CD-6: P0 (score 2) plays `2H` and nominates C. (a) If P1 plays `2C`, P2 must
    play any 2 or accept 4."""
    # P2 holds 2D: not a club, but the answering 2C was not wild, so any 2
    # answers.  P2's club (5C) and own wild (6S) are blocked by the chain.
    g = cd_position(
        3,
        hands=[["2H", "9H", "TS"], ["2C", "2S", "9C", "5D"], ["2D", "5C", "6S", "7H"]],
        discard=["4S"],
        stock=["3D", "4D", "6D", "7D", "8D"],
        scores=_CD6_SCORES,
        rules=HOUSE_DRAW_TWO,
    )
    _play_wild(g, "2H", "C")
    assert legal(g) == {"play 2C", "accept"}
    g.step("play 2C")
    # 2 is not P1's wild (score 5): no nomination, the chain passes on
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 4
    assert legal(g) == {"play 2D", "accept"}


def test_CD_6c_no_nominated_two_left_only_accept():
    """CD-6: (c) Separately: P0 plays `2D` and nominates D. Expect: P1's only action
    is `accept` (single pack), after which P2 must play a diamond or their own
    wild."""
    # P1 holds the other three 2s, a diamond (9D) and their own wild (5C).
    # P2: 4D (diamond), 6C (own wild), 7S, KH.
    g = cd_position(
        3,
        hands=[["2D", "9H", "TS"], ["2C", "2S", "2H", "9D", "5C"], ["4D", "6C", "7S", "KH"]],
        discard=["4S"],
        stock=["3C", "4C", "7C", "TC"],
        scores=_CD6_SCORES,
        rules=HOUSE_DRAW_TWO,
    )
    _play_wild(g, "2D", "D")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"accept"}
    g.step("accept")
    assert multiset(g.hand(1)) == multiset(["2C", "2S", "2H", "9D", "5C", "3C", "4C"])
    assert g.current_player == 2
    assert g.pending_draw == 0
    assert g.nominated_suit == "D"
    assert legal(g) == plays("4D 6C") | {"draw"}


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_CD_fidelity_eight_start_card_dealer_nominates():
    """Source (Countdown): "So at the start of the game everyone has Eight as their
    wild card, and the game is like normal Crazy Eights." with (basic game) "If an
    Eight is turned up by the dealer as the first card of the play pile, it is
    treated as though the dealer had played it. The dealer looks at his or her hand
    and nominates a suit" (catalog 3.4: the start card as in crazy_eights).

    n=3, start `8H`: the dealer (P2) nominates; after "C" P0 must play a club or an
    8."""
    hands = [
        ["3C", "4C", "5C", "6C", "9C", "TC", "3D", "4D"],
        ["3H", "4H", "5H", "6H", "9H", "TH", "3S", "4S"],
        ["5D", "6D", "9D", "TD", "5S", "6S", "9S", "TS"],
    ]
    g = dealt_game(PRESET, 3, hands=hands, start="8H", stock=["KC", "KD"])
    assert g.current_player == 2
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit C")
    assert g.current_player == 0
    assert legal_cards(g) == {"3C", "4C", "5C", "6C", "9C", "TC"}

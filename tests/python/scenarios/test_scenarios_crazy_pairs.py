"""Scenario checks CP-1 .. CP-6 (docs/rules_catalog.md#crazy_pairs-scenario-checks) for `crazy_pairs`.

Preset facts used (docs/rules_catalog.md#crazy_pairs, A01/A02): 1 pack, no jokers, deal 8; the
turn grammar is `c0 (P+ C)*`: a first card legal on the top card, then
optionally a "pair" (further cards of the same rank as the card before them)
that MUST be covered by a cover card (the suit of the last pair card, a
different rank, never an 8), after which the player may stop or start a new
pair on the cover's rank; kickers (inferred, A01): A = reverse (one per ace),
J = skip(1) per jack, 4 = draw_chain(4) answered by a single 4 (sum), paired
fours can't be answered, 8 = wild with a nomination, always played alone and
never part of a pair or a cover; kicker effects add up and apply in the order
aces, jacks, fours; wilds can't answer a chain (R); a turn is either a play
without drawing, or exactly one draw followed by a play or a pass; accepting a
4-penalty counts as that draw and does not end the turn (R, A02).

Engine conventions: after the first card, further cards are offered in phase
"continue"; after the pair cards, "continue" offers only more pair cards or
cover cards (no "end") until a cover is placed, then "end" or a new pair; a
paired-fours penalty is a chain whose target may only "accept"; after
"accept" the same player continues in phase "play"; "draw" draws exactly one
card, "pass" is legal only after that draw, a second "draw" is illegal.
"""

import pytest

import eights
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    legal,
    multiset,
    play_turn,
    plays,
    position,
)

PRESET = "crazy_pairs"


def _cp1(p0_hand):
    # n=2 (not stated); P1's cards are fillers.
    return position(
        PRESET,
        2,
        hands=[p0_hand, ["2C", "5S"]],
        discard=["3S"],
        stock=["TD", "TH", "QC"],
    )


def _finish(g, p=0):
    """After a cover with no further pair card in hand, only "end" remains (an
    engine may also end the turn by itself)."""
    if g.current_player == p and g.phase == "continue":
        assert legal(g) == {"end"}
        g.step("end")
    assert g.current_player != p


def test_CP_1a_valid_pair_with_cover():
    """CP-1: top `3S`. Expect valid: `9S 9D 7D`. Expect invalid: `9S 9D` (no
    cover); `9S 9D 8D` (an 8 can't cover)."""
    g = _cp1(["9S", "9D", "7D", "8D", "5C"])
    # 9S matches the suit, 8D is wild; nothing else matches 3S
    assert legal(g) == plays("9S 8D") | {"draw"}
    g.step("play 9S")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 9D", "end"}
    g.step("play 9D")
    # the pair must be covered: no "end" (9S 9D is invalid) and no 8 cover
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 7D"}
    for bad in ("end", "play 8D", "play 5C"):
        with pytest.raises(eights.IllegalActionError):
            g.step(bad)
    g.step("play 7D")
    _finish(g)
    assert g.discard_pile() == ["3S", "9S", "9D", "7D"]
    assert multiset(g.hand(0)) == multiset(["8D", "5C"])
    assert g.current_player == 1


def test_CP_1b_valid_two_pairs_each_covered():
    """CP-1: top `3S`. Expect valid: `3H 3D 7D 7S 6S`."""
    g = _cp1(["3H", "3D", "7D", "7S", "6S", "KC"])
    g.step("play 3H")
    assert legal(g) == {"play 3D", "end"}
    g.step("play 3D")
    assert legal(g) == {"play 7D"}
    g.step("play 7D")
    # covered: the player may stop or start a new pair on the cover's rank
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 7S", "end"}
    g.step("play 7S")
    assert legal(g) == {"play 6S"}
    g.step("play 6S")
    _finish(g)
    assert g.discard_pile() == ["3S", "3H", "3D", "7D", "7S", "6S"]
    assert g.hand(0) == ["KC"]
    assert g.top_card == "6S"


def test_CP_1c_valid_three_of_a_kind_with_cover():
    """CP-1: top `3S`. Expect valid: `9S 9D 9C 6C`."""
    g = _cp1(["9S", "9D", "9C", "6C", "KH"])
    g.step("play 9S")
    assert legal(g) == {"play 9D", "play 9C", "end"}
    g.step("play 9D")
    # no diamond cover in hand: only the third 9
    assert legal(g) == {"play 9C"}
    g.step("play 9C")
    assert legal(g) == {"play 6C"}
    g.step("play 6C")
    _finish(g)
    assert g.discard_pile() == ["3S", "9S", "9D", "9C", "6C"]
    assert g.hand(0) == ["KH"]


def test_CP_1d_invalid_cover_without_pair():
    """CP-1: top `3S`. Expect invalid: `3H 5H` (no pair)."""
    # 9D lets the pair 3H 3D be covered, so the continuation phase is really offered;
    # without a diamond cover the engine would not offer 3D at all ("If he does not have
    # a cover card he cannot play the pair").
    g = _cp1(["3H", "5H", "3D", "9D", "KC"])
    g.step("play 3H")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play 3D", "end"}
    assert "play 5H" not in legal(g)
    with pytest.raises(eights.IllegalActionError):
        g.step("play 5H")


def test_CP_2_two_jacks_skip_two():
    """CP-2: n=4, top `5H`. P0 plays `JH JD 5D`. Expect: P1 and P2 are skipped; P3
    acts on `5D`."""
    g = position(
        PRESET,
        4,
        hands=[["JH", "JD", "5D", "KC"], ["2C", "3C"], ["6S", "7S"], ["9D", "TS"]],
        discard=["5H"],
        stock=["2H", "3H"],
    )
    play_turn(g, "JH JD 5D")
    assert g.discard_pile() == ["5H", "JH", "JD", "5D"]
    assert g.hand(0) == ["KC"]
    assert multiset(g.hand(1)) == multiset(["2C", "3C"])
    assert multiset(g.hand(2)) == multiset(["6S", "7S"])
    assert g.direction == 1
    assert g.current_player == 3
    assert g.top_card == "5D"


def test_CP_3_paired_fours_after_a_skip_no_answer():
    """CP-3: n=4, top `9H`. P0 plays `4H 4C JC`. Expect: P1 is skipped; P2 must take
    8 and is offered no answer, even holding a 4."""
    penalty = ["2D", "3D", "5D", "6D", "7D", "9D", "TD", "QD"]
    g = position(
        PRESET,
        4,
        hands=[["4H", "4C", "JC", "KS"], ["2C", "3C"], ["4D", "5S"], ["6S", "7S"]],
        discard=["9H"],
        stock=penalty + ["KD", "AD"],
    )
    play_turn(g, "4H 4C JC")
    assert g.discard_pile() == ["9H", "4H", "4C", "JC"]
    assert multiset(g.hand(1)) == multiset(["2C", "3C"])
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 8
    assert legal(g) == {"accept"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play 4D")

    g.step("accept")
    assert multiset(g.hand(2)) == multiset(["4D", "5S"] + penalty)
    assert g.stock() == ["KD", "AD"]
    assert g.pending_draw == 0
    # A02 (R): taking the penalty counts as the turn's draw and does not end
    # the turn: P2 may now pass, play, or draw one more card.
    assert g.current_player == 2
    assert g.phase == "play"
    assert {"pass", "draw"} <= legal(g)


def test_CP_4_effect_order_aces_then_jacks_then_fours():
    """CP-4: n=5, top `7H`. P0 plays `JH JD JC 4C 4S AS`. Expect: `d=ccw`; P4, P3 and
    P2 are skipped; P1 takes 8 with no choice."""
    # JH (on 7H), JD JC (pair), 4C (cover), 4S (new pair), AS (cover).
    # Reverse first (d=ccw), then skip 3 (P4, P3, P2), then the paired fours
    # give P1 8 cards with no answer (P1 holds two fours).
    g = position(
        PRESET,
        5,
        hands=[
            ["JH", "JD", "JC", "4C", "4S", "AS", "KH"],
            ["4H", "4D"],
            ["2C", "3C"],
            ["5C", "6C"],
            ["9C", "TC"],
        ],
        discard=["7H"],
        stock=["2D", "3D", "5D", "6D", "7D", "9D", "TD", "QD", "KD"],
    )
    play_turn(g, "JH JD JC 4C 4S AS")
    assert g.discard_pile() == ["7H", "JH", "JD", "JC", "4C", "4S", "AS"]
    assert g.hand(0) == ["KH"]
    assert g.direction == -1
    for p, h in ((2, ["2C", "3C"]), (3, ["5C", "6C"]), (4, ["9C", "TC"])):
        assert multiset(g.hand(p)) == multiset(h)
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 8
    assert legal(g) == {"accept"}


def test_CP_5_single_four_answered_by_a_four():
    """CP-5: n=3. P0 plays `4H`; P1 plays `4S`. Expect: P2 must play a 4 or take 8;
    an 8 is illegal here."""
    # P1 also holds 8C and 9S, P2 8D and 9D (which would match normally).
    g = position(
        PRESET,
        3,
        hands=[["4H", "KC", "QD"], ["4S", "8C", "9S"], ["4D", "8D", "9D"]],
        discard=["9H"],
        stock=["2C", "3C", "5C", "6C", "7C", "TC", "JS", "QS", "KS"],
    )
    play_turn(g, "4H")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 4
    assert legal(g) == {"play 4S", "accept"}
    play_turn(g, "4S")
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 8
    assert legal(g) == {"play 4D", "accept"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play 8D")


def test_CP_6_pass_only_after_exactly_one_draw():
    """CP-6: P0 wants to pass. Expect: `pass` is illegal until P0 has drawn exactly
    1 card. After that, `pass` is legal even if P0 has a legal card, and a second
    `draw` is illegal."""
    # n=2 (not stated).  P0 holds 5H, legal on 9H; the drawn 3C matches nothing.
    g = position(
        PRESET,
        2,
        hands=[["5H", "KC"], ["2D", "6S"]],
        discard=["9H"],
        stock=["3C", "4D", "7S"],
    )
    assert legal(g) == {"play 5H", "draw"}
    with pytest.raises(eights.IllegalActionError):
        g.step("pass")

    g.step("draw")
    assert multiset(g.hand(0)) == multiset(["5H", "KC", "3C"])
    assert g.stock() == ["4D", "7S"]
    assert g.current_player == 0
    assert legal(g) == {"play 5H", "pass"}
    with pytest.raises(eights.IllegalActionError):
        g.step("draw")

    g.step("pass")
    assert multiset(g.hand(0)) == multiset(["5H", "KC", "3C"])
    assert g.stock() == ["4D", "7S"]
    assert g.current_player == 1


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_CP_fidelity_eight_is_never_a_cover_card():
    """Source (Crazy Pairs): "since eights are wild they do not have a suit or a
    rank. Therefore they can never be played as a pair or a cover card."

    On `3S` P0 plays `9S 9D`; the covers offered are the diamonds `7D` only, not
    `8D`."""
    g = position(
        PRESET,
        3,
        hands=[["9S", "9D", "8D", "7D", "KC"], ["4C", "5C"], ["6H", "7H"]],
        discard=["3S"],
        stock=["2D", "3D"],
    )
    g.step("play 9S")
    assert g.current_player == 0
    assert g.phase == "continue"
    g.step("play 9D")
    assert g.current_player == 0
    assert legal(g) == {"play 7D"}


def test_CP_fidelity_eight_is_played_alone():
    """Source (Crazy Pairs): "Eights are considered wild and may be played regardless
    of the card on the pile. When an eight is played the player must call the suit"
    and "They must always be played by themselves."

    P0 plays `8D` on `3S` holding `8C`: P0 names a suit and the turn ends (no pair of
    eights)."""
    g = position(
        PRESET,
        3,
        hands=[["8D", "8C", "KC"], ["4C", "5C"], ["6H", "7H"]],
        discard=["3S"],
        stock=["2D", "3D"],
    )
    g.step("play 8D")
    assert g.current_player == 0
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit H")
    assert g.current_player == 1
    assert multiset(g.hand(0)) == multiset(["8C", "KC"])


def test_CP_fidelity_winner_collects_card_points():
    """Source (Crazy Pairs): "the remaining players add up the points in their hands
    and all points are awarded to the player who won the round" with "Kicker cards
    (aces, fours, jacks, eights) : 20 points", "Face cards and tens: 10 points",
    "Two through nine - 5 points".

    n=3: P0 goes out with `5H` on `5C`; P1 holds `AS 4D JC 8H` (80), P2 holds
    `TD QC KS 2H 9C` (40): P0 collects 120."""
    g = position(
        PRESET,
        3,
        hands=[["5H"], ["AS", "4D", "JC", "8H"], ["TD", "QC", "KS", "2H", "9C"]],
        discard=["5C"],
        stock=["6C", "7C"],
        rules={"series": {"match": False}},
    )
    g.step("play 5H")
    assert g.is_terminal
    assert g.winner == 0
    assert list(g.hand_points) == [120, 0, 0]

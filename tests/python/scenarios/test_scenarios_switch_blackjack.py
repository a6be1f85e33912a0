"""Scenario checks SB-1 .. SB-6 (docs/rules_catalog.md#switch_blackjack-scenario-checks) for `switch_blackjack`.

Preset facts used (docs/rules_catalog.md#switch_blackjack): 2 = draw-chain(2) answered only by a 2;
K = draw-chain(1) answered only by a K; black J (JC, JS) = draw-chain(7)
answered by the other black J; a red J (JD, JH) cancels a pending black-jack
chain and is otherwise an ordinary card; chains do not mix; accepting
("pick up") ends the turn; 3 = reverse (no effect with n=2); 8 = skip (n=2:
the same player again); Q lets the player place any number of cards of the
Q's suit, only the top card acting; A is not wild (it must match suit or
rank), ends the turn and may nominate a suit ("end" keeps the suit), after
which the next player follows that suit or plays any A; court cards match
only the same court rank; drawing is voluntary, one card, ends the turn;
exhausted stock: the discard pile minus its top card is turned over unshuffled
(oldest discard drawn first); last-card exemption for going out with a Q run.
"""

import pytest

import eights
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    dealt_game,
    legal,
    legal_cards,
    multiset,
    play_turn,
    plays,
    position,
)

PRESET = "switch_blackjack"
LAST_CARD_ACTION = {"last_card": {"mode": "action"}}


def test_SB_1_two_chain_pick_up_four():
    """SB-1: n=3, top `5C`. P0 plays `2C`; P1 plays `2H`. Expect: P2 must play a 2
    or pick up 4. P2 picks up. Expect: P2's turn is over; P0 acts on `2H` with
    legal cards hearts, 2s, and `AH`."""
    # P0 keeps a heart (7H), the heart ace (AH), a 2 (2D), the club ace (AC:
    # aces are not wild, so it must not be legal on 2H) and 9S (no match).
    # P2 holds the last 2 (2S), a heart (6H, blocked by the chain) and KH (a K
    # can't answer a 2-chain: chains do not mix).
    g = position(
        PRESET,
        3,
        hands=[
            ["2C", "7H", "AH", "AC", "9S", "2D"],
            ["2H", "4D"],
            ["2S", "6H", "KH"],
        ],
        discard=["5C"],
        stock=["3D", "4S", "5S", "6S", "7D"],
    )
    g.step("play 2C")
    assert g.current_player == 1
    assert g.pending_draw == 2
    g.step("play 2H")
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 4
    assert legal(g) == {"play 2S", "accept"}

    g.step("accept")
    assert multiset(g.hand(2)) == multiset(["2S", "6H", "KH", "3D", "4S", "5S", "6S"])
    assert g.stock() == ["7D"]
    assert g.current_player == 0
    assert g.pending_draw == 0
    assert g.phase == "play"
    assert g.top_card == "2H"
    assert legal_cards(g) == {"7H", "AH", "2D"}
    assert legal(g) == plays("7H AH 2D") | {"draw"}


def test_SB_2_red_jack_cancels_black_jack_chain():
    """SB-2: n=3, top `9S`. P0 plays `JS`. Expect: P1 faces 7. P1 plays `JC`.
    Expect: P2 faces 14. P2 plays `JH`. Expect: the chain is cancelled and nobody
    draws; P0 plays normally on `JH` (hearts or jacks)."""
    # P1 also holds 4S and P2 holds 4C/5S: cards that would match normally but
    # can't be played on a pending chain.  P0 keeps 3H (heart), JD (a jack),
    # 9D, QC and KS (no match: court cards match only the same court rank).
    g = position(
        PRESET,
        3,
        hands=[
            ["JS", "3H", "JD", "9D", "KS", "QC"],
            ["JC", "4S"],
            ["JH", "5S", "4C"],
        ],
        discard=["9S"],
        stock=["2D", "3D", "5D", "6D"],
    )
    g.step("play JS")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 7
    assert legal(g) == {"play JC", "accept"}

    g.step("play JC")
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 14
    assert legal(g) == {"play JH", "accept"}

    g.step("play JH")
    # cancelled: nobody drew anything
    assert g.pending_draw == 0
    assert list(g.hand_sizes) == [5, 1, 2]
    assert g.stock() == ["2D", "3D", "5D", "6D"]
    assert g.top_card == "JH"
    assert g.current_player == 0
    assert g.phase == "play"
    assert legal_cards(g) == {"3H", "JD"}
    assert legal(g) == plays("3H JD") | {"draw"}


def test_SB_3_two_player_three_and_eight():
    """SB-3: n=2. P0 plays `3H`. Expect: P1 acts. Separately, P0 plays `8H`.
    Expect: P0 acts again."""
    g = position(
        PRESET,
        2,
        hands=[["3H", "KC", "9D"], ["6C", "7C"]],
        discard=["5H"],
        stock=["2S", "4S"],
    )
    g.step("play 3H")
    assert g.current_player == 1
    assert g.phase == "play"

    g = position(
        PRESET,
        2,
        hands=[["8H", "KC", "9D"], ["6C", "7C"]],
        discard=["5H"],
        stock=["2S", "4S"],
    )
    g.step("play 8H")
    assert g.current_player == 0
    assert g.phase == "play"
    assert multiset(g.hand(1)) == multiset(["6C", "7C"])
    assert g.top_card == "8H"


def test_SB_4a_queen_run_only_top_card_acts():
    """SB-4 (a): top `4H`, P0 holds `QH 7H 2H 9C`. P0 plays `QH 7H 2H`. Expect:
    only `2H` acts; P1 must play a 2 or pick up 2."""
    # n=3 (not stated), so "P1 next with exactly 2 pending" is observable.
    # P1 holds 2S (may answer), 5H (heart, blocked by the chain) and KD (a K
    # can't answer a 2-chain).
    g = position(
        PRESET,
        3,
        hands=[["QH", "7H", "2H", "9C"], ["2S", "5H", "KD"], ["6C", "7C"]],
        discard=["4H"],
        stock=["3D", "4D"],
    )
    play_turn(g, "QH 7H 2H")
    assert g.discard_pile() == ["4H", "QH", "7H", "2H"]
    assert multiset(g.hand(0)) == multiset(["9C"])
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play 2S", "accept"}


def test_SB_4b_going_out_with_queen_run_is_exempt_from_last_card():
    """SB-4 (b): top `9D`, P0 holds `QD 5D`. P0 plays both and goes out. Expect: no
    last-card penalty in `mode=action`, even though P0 never announced."""
    g = position(
        PRESET,
        2,
        hands=[["QD", "5D"], ["6C", "7C"]],
        discard=["9D"],
        stock=["3S", "4S", "6S"],
        rules=LAST_CARD_ACTION,
    )
    g.step("play QD")  # no "announce"
    # the Q run continues (phase "continue"); no announcement is made
    assert g.current_player == 0
    assert "play 5D" in legal(g)
    g.step("play 5D")
    assert g.is_terminal
    assert g.winner == 0
    assert list(g.hand_sizes) == [0, 2]
    assert g.hand(0) == []
    # no penalty card was drawn by anybody
    assert g.stock() == ["3S", "4S", "6S"]


def test_SB_5_ace_must_match_then_nominates():
    """SB-5 (R): top `6S`. P0 plays `AS` and names H. Expect: P1 must play a heart
    or any ace. On top `6H`, `AS` is illegal, because aces must match."""
    # n=3 (not stated).  P1 holds 4H (heart), AD (an ace), 9S (the ace's own
    # suit, overridden by the nomination) and 7C.
    g = position(
        PRESET,
        3,
        hands=[["AS", "5C", "KD"], ["4H", "AD", "9S", "7C"], ["KC", "3C"]],
        discard=["6S"],
        stock=["2D", "3D"],
    )
    g.step("play AS")
    assert g.current_player == 0
    assert g.phase == "nominate"
    # the nomination is optional: "end" keeps the suit
    assert legal(g) == ALL_SUIT_NOMINATIONS | {"end"}
    g.step("suit H")
    assert g.current_player == 1
    assert g.nominated_suit == "H"
    assert legal_cards(g) == {"4H", "AD"}
    assert legal(g) == plays("4H AD") | {"draw"}

    # Second part: on top 6H the ace of spades does not match.
    g = position(
        PRESET,
        3,
        hands=[["AS", "3H", "9C"], ["4D", "7C"], ["KC", "3C"]],
        discard=["6H"],
        stock=["2D", "3D"],
    )
    assert "play AS" not in legal(g)
    assert legal(g) == {"play 3H", "draw"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play AS")


def test_SB_6_stock_turned_over_without_shuffle():
    """SB-6: the stock is empty; the discard pile (bottom→top) is `4C 9C 9D KD`; a
    player draws. Expect: the new stock is, from the top, `4C 9C 9D`
    (unshuffled); `KD` stays face up; the drawer gets `4C`."""
    # n=2, P0 draws (no pending chain: the KD is just the top card).
    g = position(
        PRESET,
        2,
        hands=[["3H", "7S"], ["5H", "6H"]],
        discard=["4C", "9C", "9D", "KD"],
        stock=[],
    )
    assert "draw" in legal(g)
    g.step("draw")
    assert multiset(g.hand(0)) == multiset(["3H", "7S", "4C"])
    assert g.stock() == ["9C", "9D"]
    assert g.discard_pile() == ["KD"]
    assert g.top_card == "KD"
    assert g.current_player == 1


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


@pytest.mark.parametrize("start", ["2C", "8C", "JC", "KC"])
def test_SB_fidelity_starting_card_has_no_additional_effect(start):
    """Source (The Other Blackjack, rule 7): "The starting card has no additional
    effect other than setting the suit and the pip value."

    n=2, start `2C` / `8C` / `JC` (black jack) / `KC`: no penalty, nobody skipped; P0
    plays a club or the start card's rank."""
    hands = [
        ["4C", "9D", "KS", "6H", "3S", "TD", "5H"],
        ["5D", "7D", "4D", "QD", "6D", "3D", "4S"],
    ]
    g = dealt_game(PRESET, 2, hands=hands, start=start, stock=["5S", "6S", "7S"])
    assert g.current_player == 0
    assert g.phase == "play"
    assert g.pending_draw == 0
    expected = {"4C"} | {c for c in hands[0] if c[0] == start[0]}
    assert legal_cards(g) == expected
    # rule 3: drawing is allowed even with a legal card in hand
    assert "draw" in legal(g)
    assert multiset(g.hand(0)) == multiset(hands[0])


def test_SB_fidelity_three_reverses_with_three_players():
    """Source (The Other Blackjack): "Threes - A three reverses the direction of
    play."

    n=3: P0 plays `3H` on `9H`; the direction becomes anticlockwise and P2 acts."""
    g = position(
        PRESET,
        3,
        hands=[["3H", "4C", "5C"], ["4H", "5D"], ["6H", "7D"]],
        discard=["9H"],
        stock=["2D", "3D"],
    )
    g.step("play 3H")
    assert g.direction == -1
    assert g.current_player == 2


def test_SB_fidelity_red_jack_does_not_cancel_a_two_chain():
    """Source (The Other Blackjack): "Red jacks - A red jack can be played onto any
    number of black jacks, cancelling them." (black jacks only: a 2-chain is answered
    by a 2 or taken)

    P0 plays `2H`; P1 holding `JH` and `2S` may play `2S` or accept, not `JH`."""
    g = position(
        PRESET,
        3,
        hands=[["2H", "3C", "4C"], ["JH", "5C", "2S"], ["6H", "7D"]],
        discard=["9H"],
        stock=["2D", "3D", "4D"],
    )
    g.step("play 2H")
    assert g.current_player == 1
    assert legal(g) == {"play 2S", "accept"}


def test_SB_fidelity_ace_ends_a_queen_run_and_nominates():
    """Source (The Other Blackjack): "Aces - Playing an ace ends a players turn, but
    the player may nominate which suit the next card played is from" with "Queens - A
    queen allows you to play any other ards of the same suit on top of it." Catalog
    (A25): an ace placed in a queen run ends the run and its nomination applies.

    P0 plays `QH 5H AH` and names C: the run ends (nothing more is offered) and P1
    must follow clubs or play an ace."""
    g = position(
        PRESET,
        3,
        hands=[["QH", "5H", "AH", "3H"], ["4D", "5C", "AS", "9D"], ["6S", "7D"]],
        discard=["9H"],
        stock=["2D", "3D"],
    )
    g.step("play QH")
    g.step("play 5H")
    g.step("play AH")
    assert g.current_player == 0
    assert legal(g) == ALL_SUIT_NOMINATIONS | {"end"}
    g.step("suit C")
    assert g.current_player == 1
    assert legal_cards(g) == {"5C", "AS"}
    assert multiset(g.hand(0)) == multiset(["3H"])


def test_SB_fidelity_declined_nomination_leaves_the_aces_own_suit():
    """Source (The Other Blackjack): "Aces - Playing an ace ends a players turn, but the
    player may nominate which suit the next card played is from, effectively changing the
    suit of the ace played."

    Without a nomination the suit is the ace's own: `AS` played on `AH` (matching by rank,
    hearts in force) and `end` leave spades to follow, not the hearts that were there."""
    g = position(
        PRESET,
        3,
        hands=[["AS", "5C", "KD"], ["4H", "9S", "7C"], ["KC", "3C"]],
        discard=["6H", "AH"],
        stock=["2D", "3D"],
    )
    g.step("play AS")
    g.step("end")
    assert g.nominated_suit is None
    assert g.active_suit == "S"
    assert legal(g) == plays("9S") | {"draw"}

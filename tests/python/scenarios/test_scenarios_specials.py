"""Scenario checks CS-1 .. CS-6 (docs/rules_catalog.md#crazy_eights_specials-scenario-checks) for
`crazy_eights_specials`.

Preset facts used (docs/rules_catalog.md#crazy_eights_specials, inheriting `crazy_eights`): Q = skip(1) (n=2: the same
player again), A = reverse (no effect with n=2), 2 = draw-two chain answered
only by another 2 (an 8 may not answer, `chain.wild_blocked`), the sum is
accepted with "accept", which ends the turn; after the chain the next player
follows the top 2 normally; start card `as_played_by_dealer` for the specials
too; `last_special=ignored`; 8 is wild with a required nomination; drawing is
voluntary; penalty scoring 8=50, J/Q/K=10, A-T face value.
"""

import pytest

import eights
from scenario_helpers import (
    dealt_game,
    legal,
    legal_cards,
    multiset,
    play_turn,
    plays,
    position,
)

PRESET = "crazy_eights_specials"

# Variant of CS-6: equal-rank multi-card plays where every card's effect counts
# (docs/rules_catalog.md#several-cards-in-one-turn: `multi.enabled=true`, `multi.effects=cumulate_all`).
MULTI_RULES = {"multi": {"mode": "equal_rank"}}


def test_CS_1_two_chain_accumulates_then_top_card_normal():
    """CS-1: n=3, top `5H`. P0 plays `2H`. Expect: P1 must play a 2 or accept 2.
    P1 plays `2S`. Expect: P2 must play a 2 or accept 4. P2 accepts and draws 4.
    Expect: the turn passes to P0, who may play any spade, any 2, or an 8 (legal
    is computed on `2S` with no pending chain)."""
    # P1 and P2 also hold a card that would match normally (9H / 7S) and an 8:
    # both must be unavailable while a 2-chain is pending.
    # P0 keeps a spade (KS), a 2 (2C), an 8 (8H) and a non-matching 4D.
    g = position(
        PRESET,
        3,
        hands=[
            ["2H", "KS", "2C", "8H", "4D"],
            ["2S", "9H", "8D"],
            ["2D", "7S", "8C"],
        ],
        discard=["5H"],
        stock=["3D", "6D", "7D", "9D", "TD", "JD"],
    )
    g.step("play 2H")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play 2S", "accept"}

    g.step("play 2S")
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 4
    assert legal(g) == {"play 2D", "accept"}

    g.step("accept")
    assert multiset(g.hand(2)) == multiset(["2D", "7S", "8C", "3D", "6D", "7D", "9D"])
    assert g.stock() == ["TD", "JD"]
    assert g.current_player == 0
    assert g.pending_draw == 0
    assert g.phase == "play"
    assert g.top_card == "2S"
    assert legal_cards(g) == {"KS", "2C", "8H"}
    assert legal(g) == plays("KS 2C 8H") | {"draw"}


def test_CS_2_eight_cannot_answer_a_two():
    """CS-2: n=3, P0 plays `2D` on `5D`; P1 holds `8D KH 5S`. Expect: `accept` is
    P1's only legal action (`8D` is illegal). After P1 draws 2, P2 acts on `2D`
    with no chain pending."""
    # P2 holds 7D (matches 2D by suit), 2C (by rank) and 9S (matches nothing),
    # so its legal set shows a normal turn on 2D.
    g = position(
        PRESET,
        3,
        hands=[["2D", "JH", "QC"], ["8D", "KH", "5S"], ["7D", "2C", "9S"]],
        discard=["5D"],
        stock=["3C", "4C", "6C"],
    )
    g.step("play 2D")
    assert g.current_player == 1
    assert g.pending_draw == 2
    assert legal(g) == {"accept"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play 8D")

    g.step("accept")
    assert multiset(g.hand(1)) == multiset(["8D", "KH", "5S", "3C", "4C"])
    assert g.stock() == ["6C"]
    assert g.current_player == 2
    assert g.pending_draw == 0
    assert g.phase == "play"
    assert g.top_card == "2D"
    assert legal(g) == {"play 7D", "play 2C", "draw"}


# n=4 -> 5 cards each.  P2 (the first player after an ace start) holds a club
# (4C), an ace (AH), an 8 (8D) and two cards matching neither AC nor QD
# (9H, KS).
_CS3_HANDS = [
    ["2S", "3S", "4S", "5S", "6S"],
    ["7S", "9S", "TS", "JS", "QS"],
    ["4C", "AH", "8D", "9H", "KS"],
    ["2D", "3D", "4D", "5D", "6D"],
]


def test_CS_3a_ace_start_card_reverses():
    """CS-3 (a): n=4. Start card `AC`. Expect `d=ccw`; P2 acts first, and may play
    clubs, aces or 8s."""
    g = dealt_game(PRESET, 4, hands=_CS3_HANDS, start="AC", stock=["7D", "9D"])
    assert g.direction == -1
    assert g.current_player == 2
    assert g.phase == "play"
    assert legal_cards(g) == {"4C", "AH", "8D"}
    assert legal(g) == plays("4C AH 8D") | {"draw"}


def test_CS_3b_queen_start_card_skips_P0():
    """CS-3 (b): n=4. Start card `QD`. Expect: P0 is skipped and P1 acts first."""
    g = dealt_game(PRESET, 4, hands=_CS3_HANDS, start="QD", stock=["7D", "9D"])
    assert g.direction == 1
    assert g.current_player == 1
    assert g.phase == "play"
    assert multiset(g.hand(0)) == multiset(_CS3_HANDS[0])


def test_CS_3c_two_start_card_chain_on_P0():
    """CS-3 (c): n=4. Start card `2H`. Expect: P0 must play a 2 or accept 2; then
    P1 acts."""
    # P0 holds a 2 (2C), a heart (5H) and an 8 (8S); only the 2 may answer.
    hands = [
        ["2C", "5H", "8S", "9D", "KC"],
        ["3S", "4S", "5S", "6S", "7S"],
        ["9S", "TS", "JS", "QS", "KS"],
        ["3D", "4D", "5D", "6D", "7D"],
    ]
    g = dealt_game(PRESET, 4, hands=hands, start="2H", stock=["AH", "3H", "4H"])
    assert g.current_player == 0
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play 2C", "accept"}

    g.step("accept")
    assert multiset(g.hand(0)) == multiset(hands[0] + ["AH", "3H"])
    assert g.stock()[0] == "4H"
    assert g.current_player == 1
    assert g.pending_draw == 0


def test_CS_4_two_player_queen_and_ace():
    """CS-4: n=2. P0 plays `QH` on a heart. Expect: P0 acts again. P0 then plays
    `AH`. Expect: P1 acts next (the ace has no effect)."""
    g = position(
        PRESET,
        2,
        hands=[["QH", "AH", "3C"], ["9S", "7C"]],
        discard=["6H"],
        stock=["2D", "4D"],
    )
    g.step("play QH")
    assert g.current_player == 0
    assert g.phase == "play"
    assert multiset(g.hand(1)) == multiset(["9S", "7C"])
    assert g.top_card == "QH"

    g.step("play AH")
    assert g.current_player == 1
    assert g.phase == "play"
    assert g.top_card == "AH"


def test_CS_5_special_last_card_is_ignored():
    """CS-5: n=3, top `TH`, P1's only card is `2H`. P1 plays it. Expect: the hand
    ends with P1 winning; nobody draws; P0 and P2 are scored on their current
    hands."""
    g = position(
        PRESET,
        3,
        hands=[["KC", "3S"], ["2H"], ["8D", "4C"]],
        discard=["TH"],
        stock=["5D", "6D", "7D"],
        current_player=1,
    )
    g.step("play 2H")
    assert g.is_terminal
    assert g.winner == 1
    # nobody draws
    assert list(g.hand_sizes) == [2, 0, 2]
    assert multiset(g.hand(0)) == multiset(["KC", "3S"])
    assert multiset(g.hand(2)) == multiset(["8D", "4C"])
    assert g.stock() == ["5D", "6D", "7D"]
    # KC=10 + 3S=3 -> 13; 8D=50 + 4C=4 -> 54
    assert list(g.hand_points) == [13, 0, 54]


def test_CS_6a_multi_nines_top_card_counts():
    """CS-6 (variant `multi.enabled=true`) (a): top `5C`; P0 plays `9C 9S 9H`.
    Expect: P1 must play a 9, a heart or an 8."""
    # n=3 (not stated).  P1 holds 9D (a 9), 4H (a heart), 8S (an 8), 7S (the
    # suit of a covered 9) and 6C (the suit of the first 9 and of the old top).
    g = position(
        PRESET,
        3,
        hands=[["9C", "9S", "9H", "KD"], ["9D", "4H", "8S", "7S", "6C"], ["3D", "4D"]],
        discard=["5C"],
        stock=["TD", "JD"],
        rules=MULTI_RULES,
    )
    play_turn(g, "9C 9S 9H")
    assert g.discard_pile() == ["5C", "9C", "9S", "9H"]
    assert multiset(g.hand(0)) == multiset(["KD"])
    assert g.current_player == 1
    assert legal_cards(g) == {"9D", "4H", "8S"}
    assert legal(g) == plays("9D 4H 8S") | {"draw"}


def test_CS_6b_two_queens_two_players():
    """CS-6 (variant `multi.enabled=true`) (b): n=2; P0 plays `QH QS`. Expect: P1
    plays next."""
    g = position(
        PRESET,
        2,
        hands=[["QH", "QS", "3D"], ["6C", "7C"]],
        discard=["4H"],
        stock=["2D", "5D"],
        rules=MULTI_RULES,
    )
    play_turn(g, "QH QS")
    assert g.top_card == "QS"
    assert g.current_player == 1
    assert g.phase == "play"


def test_CS_6c_two_aces_cancel():
    """CS-6 (variant `multi.enabled=true`) (c): n=3; P0 plays `AH AS`. Expect: `d`
    is unchanged and P1 plays next."""
    g = position(
        PRESET,
        3,
        hands=[["AH", "AS", "3D"], ["6C", "7C"], ["9C", "TC"]],
        discard=["4H"],
        stock=["2D", "5D"],
        rules=MULTI_RULES,
    )
    play_turn(g, "AH AS")
    assert g.top_card == "AS"
    assert g.direction == 1
    assert g.current_player == 1


def test_CS_6d_two_twos_make_four():
    """CS-6 (variant `multi.enabled=true`) (d): P0 plays `2C 2D`. Expect: P1 must
    play a 2 or accept 4."""
    # n=3 (not stated).  P1 holds 2S (may answer), 6D (diamond: normally legal
    # on 2D, not while the chain is pending) and 8H (wild, blocked).
    g = position(
        PRESET,
        3,
        hands=[["2C", "2D", "KH"], ["2S", "6D", "8H"], ["9C", "TC"]],
        discard=["6C"],
        stock=["3D", "4D", "5D", "7D"],
        rules=MULTI_RULES,
    )
    play_turn(g, "2C 2D")
    assert g.top_card == "2D"
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 4
    assert legal(g) == {"play 2S", "accept"}


# ------------------------------------------------ fidelity audit (docs/fidelity.md)

_N2_HANDS = [
    ["3C", "4C", "5C", "6C", "9C", "TC", "3D"],
    ["3H", "4H", "5H", "6H", "9H", "TH", "3S"],
]


def test_CS_fidelity_two_player_ace_start_card_has_no_effect():
    """Source (Pagat-style page): "In a two-player game an Ace has no effect." with
    "If one of these special cards is turned up as the first card of the play pile,
    it is treated as though the dealer had played it."

    n=2, start `AH`: P0 (the dealer's left) starts."""
    g = dealt_game(PRESET, 2, hands=_N2_HANDS, start="AH", stock=["KC"])
    assert g.current_player == 0
    assert g.direction == 1


def test_CS_fidelity_two_player_queen_start_card_dealer_plays_first():
    """Source (Pagat-style page): "In a two-player game the opponent is skipped and
    the same player plays again." with the start-card rule (catalog: a Q start with
    n=2 lets the dealer, P1, act first)."""
    g = dealt_game(PRESET, 2, hands=_N2_HANDS, start="QH", stock=["KC"])
    assert g.current_player == 1

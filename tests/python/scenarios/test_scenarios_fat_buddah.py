"""Scenario checks FB-1 .. FB-5 (docs/rules_catalog.md#fat_buddah-scenario-checks) for `fat_buddah`.

Preset facts used (docs/rules_catalog.md#fat_buddah): 2 packs + 4 jokers (two copies of every
card, RJ x2, BJ x2); 7 = draw-chain(2) answered only by 7s, adding up (wilds
can't be played on a pending chain, `chain.wild_blocked` for every chain
preset); 8 = reverse; J = wild with a nomination; joker = wild with a
nomination, the next player draws 4 and loses the turn (not stackable, R);
A = skip; after a wild the next player plays the nominated suit or a wild
(J or joker); drawing is voluntary.

Engine conventions: answerable penalties put the target in phase "chain"
("accept" takes them); the joker's penalty is applied at once when the play
resolves (the victim's hand grows, the turn passes on).
"""

from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    legal,
    legal_cards,
    multiset,
    plays,
    position,
)

PRESET = "fat_buddah"


def test_FB_1_sevens_stack():
    """FB-1: n=3. P0 plays `7H`. Expect: P1 draws 2 or plays a 7. P1 plays `7S`.
    Expect: P2 draws 4 or plays a 7."""
    # P1: 4S and 3H (normally playable, blocked by the chain) and JD (wild,
    # blocked).  P2: 7C and the second 7S (both answer), 9S and BJ (blocked).
    g = position(
        PRESET,
        3,
        hands=[
            ["7H", "3C", "9D"],
            ["7S", "4S", "JD", "3H"],
            ["7C", "7S", "9S", "BJ"],
        ],
        discard=["5H"],
        stock=["2C", "4C", "5C", "6C", "TC"],
    )
    g.step("play 7H")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play 7S", "accept"}
    g.step("play 7S")
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 4
    assert legal(g) == {"play 7C", "play 7S", "accept"}
    g.step("accept")
    assert multiset(g.hand(2)) == multiset(["7C", "7S", "9S", "BJ", "2C", "4C", "5C", "6C"])
    assert g.stock() == ["TC"]
    assert g.pending_draw == 0


def test_FB_2_eight_reverses():
    """FB-2: n=3. P0 plays `8H`. Expect: `d=ccw` and P2 acts."""
    g = position(
        PRESET,
        3,
        hands=[["8H", "3C", "9D"], ["2S", "4S"], ["5S", "6S"]],
        discard=["5H"],
        stock=["2D", "4D"],
    )
    g.step("play 8H")
    assert g.direction == -1
    assert g.current_player == 2


def test_FB_3_joker_draw_four_then_nominated_suit():
    """FB-3 (R): n=3. P0 plays `BJ` and names S. Expect: P1 draws 4 and loses the
    turn; P2 must play a spade, a J, or a joker."""
    # P1 holds a joker (BJ): a joker can't be stacked, so P1 is asked nothing.
    # P2 holds a spade (4S), a J (JD), a joker (RJ), 9H (matches the old top
    # only) and 5C.
    g = position(
        PRESET,
        3,
        hands=[
            ["BJ", "3C", "6C"],
            ["BJ", "2D"],
            ["4S", "JD", "RJ", "9H", "5C"],
        ],
        discard=["9H"],
        stock=["2H", "3H", "4H", "5H", "6H"],
    )
    g.step("play BJ")
    assert g.current_player == 0
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit S")
    assert multiset(g.hand(1)) == multiset(["BJ", "2D", "2H", "3H", "4H", "5H"])
    assert g.stock() == ["6H"]
    assert g.pending_draw == 0
    assert g.current_player == 2
    assert g.nominated_suit == "S"
    assert legal_cards(g) == {"4S", "JD", "RJ"}
    assert legal(g) == plays("4S JD RJ") | {"draw"}


def test_FB_4_ace_skips():
    """FB-4: P0 plays `AH`. Expect: P1 is skipped."""
    # n=3 (not stated), so the skip is visible as P2 acting.
    g = position(
        PRESET,
        3,
        hands=[["AH", "3C", "9D"], ["2S", "4S"], ["5S", "6S"]],
        discard=["5H"],
        stock=["2D", "4D"],
    )
    g.step("play AH")
    assert g.direction == 1
    assert g.current_player == 2
    assert multiset(g.hand(1)) == multiset(["2S", "4S"])


def test_FB_5_jack_wild_nominates():
    """FB-5: P0 plays `JC` on `9H` and names D. Expect: P1 must play a diamond, a J,
    or a joker."""
    # n=3 (not stated).  P1 holds a diamond (4D), a J (JS), a joker (BJ), 9C
    # (the J's own suit) and 9H (matches the old top only).
    g = position(
        PRESET,
        3,
        hands=[["JC", "3C", "6S"], ["4D", "JS", "BJ", "9C", "9H"], ["5S", "7S"]],
        discard=["9H"],
        stock=["2D", "5D"],
    )
    g.step("play JC")
    assert g.current_player == 0
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit D")
    assert g.current_player == 1
    assert g.nominated_suit == "D"
    assert legal_cards(g) == {"4D", "JS", "BJ"}
    assert legal(g) == plays("4D JS BJ") | {"draw"}

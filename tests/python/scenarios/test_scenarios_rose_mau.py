"""Scenario checks RM-1 .. RM-4 (docs/rules_catalog.md#rose_mau-scenario-checks) for `rose_mau`.

Preset facts used (docs/rules_catalog.md#rose_mau): 5-9 players; 1 pack, no jokers (R, A32);
7 cards each, dealt one at a time, and the dealer gets 2 extra (9); the start
card is turned up and has no effect (R); P0 (the dealer's left) starts,
clockwise; suit-or-rank matching, no wild; drawing is voluntary, one card,
and ends the turn (R); the hand ends when a player goes out, and the winner
deals the next round (`order.next_dealer=winner`); no scoring; the secret
rules are replaced by public rules from a fixed menu (A = reverse, 5 = even
spot cards of the same suit next, 6 = skip 2, 7 = extra turn).

Engine conventions: public rules via `rules={"options": {"public_rules":
["ace_reverse"]}}`; a match of hands via `rules={"series": {"match": True,
"max_hands": 3}}`, in which the engine deals the next hand itself when a hand
ends (so `g.dealer` shows who deals it); scores stay 0.
"""

import eights
from scenario_helpers import (
    legal,
    multiset,
    plays,
    position,
)

PRESET = "rose_mau"
ACE_REVERSE = {"options": {"public_rules": ["ace_reverse"]}}
MATCH = {"series": {"match": True, "max_hands": 3}}

# n=5 fillers for P1..P4 (no A, 5, 6, 7 and nothing that matters below).
_FILLERS = [["2C", "3C"], ["4C", "8C"], ["2S", "3S"], ["4S", "8S"]]


def test_RM_1_dealer_gets_two_extra_cards():
    """RM-1: n=5. Expect: P4 (the dealer) has 9 cards and P0-P3 have 7 each."""
    for seed in (0, 1, 2, 3, 4):
        g = eights.Game(PRESET, 5, seed=seed)
        assert g.dealer == 4
        assert list(g.hand_sizes) == [7, 7, 7, 7, 9]
        # 52 - (4*7 + 9) - 1 start card
        assert g.stock_size == 14
        assert g.discard_size == 1
        # the start card has no effect: P0 (dealer's left) starts, clockwise
        assert g.current_player == 0
        assert g.direction == 1
        assert g.phase == "play"


def test_RM_2_voluntary_draw_ends_the_turn():
    """RM-2: P0 holds a legal card but chooses `draw`. Expect: P0 gets 1 card and
    the turn ends."""
    # n=5.  The drawn 9C would itself be playable on 9H: the turn still ends.
    g = position(
        PRESET,
        5,
        hands=[["5H", "KC"]] + _FILLERS,
        discard=["9H"],
        stock=["9C", "2D", "3D"],
    )
    assert legal(g) == {"play 5H", "draw"}
    g.step("draw")
    assert multiset(g.hand(0)) == multiset(["5H", "KC", "9C"])
    assert g.stock() == ["2D", "3D"]
    assert g.top_card == "9H"
    assert g.current_player == 1


def test_RM_3_winner_deals_next_round():
    """RM-3: P2 goes out. Expect: P2 deals the next round."""
    # n=5, the first dealer is P4.  A clockwise rotation (G5) would give P0;
    # the winner rule gives P2.  The rest of the pack is shuffled into the stock.
    g = position(
        PRESET,
        5,
        hands=[["2C", "3C"], ["4C", "8C"], ["5H"], ["2S", "3S"], ["4S", "8S"]],
        discard=["9H"],
        current_player=2,
        rules=MATCH,
    )
    assert g.dealer == 4
    g.step("play 5H")
    # the match goes on with a new hand dealt by P2
    assert not g.is_terminal
    assert g.dealer == 2
    assert list(g.hand_sizes) == [7, 7, 9, 7, 7]
    assert g.discard_size == 1
    # the dealer's left, P3, starts the new hand, clockwise
    assert g.current_player == 3
    assert g.direction == 1
    assert list(g.scores) == [0, 0, 0, 0, 0]


def test_RM_4_public_rule_ace_reverse():
    """RM-4: `public_rules=[A reverse]`, n=5. P0 plays `AH`. Expect: `d=ccw` and P4
    acts."""
    g = position(
        PRESET,
        5,
        hands=[["AH", "KD"]] + _FILLERS,
        discard=["9H"],
        stock=["2D", "3D"],
        rules=ACE_REVERSE,
    )
    g.step("play AH")
    assert g.direction == -1
    assert g.current_player == 4

    # Without the public rule the ace is an ordinary card.
    g = position(
        PRESET,
        5,
        hands=[["AH", "KD"]] + _FILLERS,
        discard=["9H"],
        stock=["2D", "3D"],
    )
    g.step("play AH")
    assert g.direction == 1
    assert g.current_player == 1


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def _menu(rule):
    return {"options": {"public_rules": [rule]}}


def test_RM_fidelity_menu_six_skips_two_players():
    """Source (Rose Mau, "Examples of typical created Rules"): "6's skip two
    players." Public rule `six_skip_two`, n=5: P0 plays `6H`; P1 and P2 are skipped
    and P3 acts."""
    g = position(
        PRESET,
        5,
        hands=[["6H", "KD"]] + _FILLERS,
        discard=["9H"],
        stock=["2D", "3D"],
        rules=_menu("six_skip_two"),
    )
    g.step("play 6H")
    assert g.current_player == 3


def test_RM_fidelity_menu_seven_gives_another_turn():
    """Source (Rose Mau): "Playing a 7 gives the player another turn." Public rule
    `seven_extra_turn`: P0 plays `7H` and acts again."""
    g = position(
        PRESET,
        5,
        hands=[["7H", "7C", "KD"]] + _FILLERS,
        discard=["9H"],
        stock=["2D", "3D"],
        rules=_menu("seven_extra_turn"),
    )
    g.step("play 7H")
    assert g.current_player == 0
    assert "play 7C" in legal(g)


def test_RM_fidelity_menu_after_a_five_only_even_spot_cards():
    """Source (Rose Mau): "Only even, non-face cards may be played after 5's."
    Public rule `five_even`; catalog (A32): they must still match suit.

    P0 plays `5H`; P1 (holding `4H`, `3H`, `QH`, `5C`, `8D`) may play `4H` only."""
    hands = [["5H", "KD"], ["4H", "3H", "QH", "5C", "8D"], ["4C", "8C"], ["2S", "3S"], ["4S", "8S"]]
    g = position(
        PRESET,
        5,
        hands=hands,
        discard=["9H"],
        stock=["2D", "3D"],
        rules=_menu("five_even"),
    )
    g.step("play 5H")
    assert g.current_player == 1
    assert legal(g) == plays("4H") | {"draw"}

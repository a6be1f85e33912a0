"""Scenario checks CE-1 .. CE-6 (docs/rules_catalog.md#crazy_eights-scenario-checks) for the `crazy_eights` preset.

Preset facts used (docs/rules_catalog.md#crazy_eights): 8s are wild and the player must nominate a
suit (any of the 4, G6); after an 8 only the nominated suit or another 8 may
be played; drawing is voluntary, draws exactly one card and ends the turn;
pass is never legal while a card can be drawn; an exhausted stock is rebuilt
from the discard pile minus its top card, shuffled; start card
`as_played_by_dealer`; penalty scoring 8=50, J/Q/K=10, A-T face value (A=1).
"""

import pytest

import eights
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    dealt_game,
    legal,
    legal_cards,
    multiset,
    plays,
    position,
)

PRESET = "crazy_eights"


def test_CE_1_legal_cards_on_KH():
    """CE-1: n=3, top `KH`, P0 holds `KS 3H 8C 5D`. Expect: legal = {`KS`, `3H`,
    `8C`} plus `draw`. `5D` is illegal."""
    g = position(
        PRESET,
        3,
        hands=[["KS", "3H", "8C", "5D"], ["4C", "6C"], ["7S", "9S"]],
        discard=["KH"],
        stock=["2D", "3D", "4D"],
    )
    assert g.phase == "play"
    assert legal_cards(g) == {"KS", "3H", "8C"}
    assert legal(g) == plays("KS 3H 8C") | {"draw"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play 5D")
    # an illegal action leaves the game unchanged
    assert g.current_player == 0
    assert multiset(g.hand(0)) == multiset(["KS", "3H", "8C", "5D"])
    assert g.top_card == "KH"


def _ce2_after_nomination():
    """CE-2 position: n=3 (CE-3 continues it with P2).  P0 plays 8C on 6H and
    nominates D.  Fillers: P0 keeps 2H so the 8C is not their last card."""
    g = position(
        PRESET,
        3,
        hands=[["8C", "2H"], ["QC", "8S", "4D", "KD"], ["5C", "9D"]],
        discard=["6H"],
        stock=["7H", "JS", "TS", "4S"],
    )
    g.step("play 8C")
    # the player of the 8 must nominate; any of the 4 suits (G6)
    assert g.current_player == 0
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit D")
    return g


def test_CE_2_nominated_suit_overrides_eight_suit():
    """CE-2: P0 plays `8C` and nominates D. P1 holds `QC 8S 4D KD`. Expect: legal =
    {`8S`, `4D`, `KD`} plus `draw`. `QC` is illegal even though it is a club."""
    g = _ce2_after_nomination()
    assert g.current_player == 1
    assert g.top_card == "8C"
    assert g.nominated_suit == "D"
    assert g.active_suit == "D"
    assert legal(g) == plays("8S 4D KD") | {"draw"}
    assert "play QC" not in legal(g)
    with pytest.raises(eights.IllegalActionError):
        g.step("play QC")


def test_CE_3_draw_ends_turn_and_nomination_persists():
    """CE-3 (G7): after CE-2, P1 chooses `draw` and gets `7H`. Expect: P1's turn
    ends at once (no play). P2, holding `5C 9D`, may play `9D` but not `5C`; the
    nomination D is still in force on top of `8C`."""
    g = _ce2_after_nomination()
    assert g.current_player == 1
    g.step("draw")
    # P1 got 7H (first stock card) and the turn passed straight to P2
    assert multiset(g.hand(1)) == multiset(["QC", "8S", "4D", "KD", "7H"])
    assert g.stock() == ["JS", "TS", "4S"]
    assert g.current_player == 2
    assert g.phase == "play"
    # G7: the nomination survives the draw; 8C is still on top
    assert g.top_card == "8C"
    assert g.discard_pile() == ["6H", "8C"]
    assert g.nominated_suit == "D"
    assert legal_cards(g) == {"9D"}
    assert legal(g) == {"play 9D", "draw"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play 5C")


def test_CE_4_eight_start_card_dealer_nominates():
    """CE-4: n=4, start card `8S`. Expect: before P0 acts, P3 (the dealer) gets a
    `nominate` decision. If P3 names H, P0's legal cards are hearts and 8s only."""
    # n=4 -> 5 cards each.  P0 holds a heart (3H), an 8 (8D), a spade (5S, the
    # start card's own suit, which the nomination H must rule out) and two
    # cards matching nothing (KC, 9D).
    hands = [
        ["3H", "8D", "5S", "KC", "9D"],
        ["2C", "4C", "6C", "7C", "9C"],
        ["TC", "JC", "QC", "2D", "3D"],
        ["4D", "5D", "6D", "7D", "TD"],
    ]
    g = dealt_game(PRESET, 4, hands=hands, start="8S", stock=["AS", "2S", "3S"])
    assert g.discard_pile() == ["8S"]
    assert g.current_player == 3
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit H")
    assert g.current_player == 0
    assert g.nominated_suit == "H"
    assert legal_cards(g) == {"3H", "8D"}
    assert legal(g) == plays("3H 8D") | {"draw"}


def test_CE_5_empty_stock_reshuffles_all_but_top():
    """CE-5: the stock is empty; the discard pile (bottom→top) is `3C 9C 5C`; P1
    must draw. Expect: `3C 9C` are shuffled into a new stock; the discard pile is
    just `5C`; P1 receives `3C` or `9C`; the stock then holds 1 card."""
    # n=2; P1's cards (4H 6H) can't be played on 5C, so drawing is P1's only
    # option (the rebuilt stock can supply a card, so pass is not legal).
    g = position(
        PRESET,
        2,
        hands=[["KD", "QD"], ["4H", "6H"]],
        discard=["3C", "9C", "5C"],
        stock=[],
        current_player=1,
    )
    assert g.stock_size == 0
    assert legal(g) == {"draw"}
    g.step("draw")
    assert g.discard_pile() == ["5C"]
    assert g.top_card == "5C"
    drawn = multiset(g.hand(1)) - multiset(["4H", "6H"])
    assert sum(drawn.values()) == 1 and len(g.hand(1)) == 3
    (card,) = drawn.elements()
    assert card in {"3C", "9C"}
    other = ({"3C", "9C"} - {card}).pop()
    assert g.stock_size == 1
    assert g.stock() == [other]
    assert g.current_player == 0


def test_CE_6_penalty_scoring():
    """CE-6: n=3, P0 plays their last card. P1 holds `8H KD 5S AC` and P2 holds
    `TD 2C`. Expect: P1 +66, P2 +12, P0 +0."""
    # P0's last card 3S is a plain card matching the top 9S by suit.
    g = position(
        PRESET,
        3,
        hands=[["3S"], ["8H", "KD", "5S", "AC"], ["TD", "2C"]],
        discard=["9S"],
        stock=["4D", "6D"],
    )
    g.step("play 3S")
    assert g.is_terminal
    assert g.winner == 0
    # 8H=50 KD=10 5S=5 AC=1 -> 66; TD=10 2C=2 -> 12
    assert list(g.hand_points) == [0, 66, 12]
    # first (and only) hand: the cumulative scores equal this hand's points
    assert list(g.scores) == [0, 66, 12]


# ------------------------------------------------ fidelity audit (docs/fidelity.md)
# The Pagat-style page's variations, each a documented variant of this preset.

_V_HANDS = [["8C", "KS", "3H", "5D"], ["QC", "8S", "4D", "KD"], ["2C", "3C"]]


def _variant(v, hands=_V_HANDS, top="KH", stock=("7H", "9C", "TS")):
    return position(PRESET, 3, hands=hands, discard=[top], stock=list(stock), rules={"variants": [v]})


def test_CE_fidelity_variant_eight_must_match():
    """Source: "Some play that you can only play an Eight that matches the previous
    card's suit or rank." Variant `eight_must_match`: on `KH` the `8C` is illegal."""
    g = _variant("eight_must_match")
    assert legal(g) == plays("KS 3H") | {"draw"}


def test_CE_fidelity_variant_no_nomination():
    """Source: "Some play that you can play an Eight at any time but when playing an
    Eight you do not nominate a suit. The next player must simply match the suit of
    the Eight you played or play another eight." Variant `no_nomination`."""
    g = _variant("no_nomination")
    g.step("play 8C")
    assert g.current_player == 1
    assert g.nominated_suit is None
    assert legal_cards(g) == {"QC", "8S"}


@pytest.mark.parametrize("top, nominates", [("KH", False), ("KC", True)])
def test_CE_fidelity_variant_nominate_only_if_matching(top, nominates):
    """Source (Szu Kay Wong): "an Eight can be played on any card, but the player can
    only nominate a different suit if the Eight matches the rank or suit of the
    previous card." Variant `nominate_only_if_matching`: `8C` on `KH` names nothing;
    on `KC` it nominates."""
    g = _variant("nominate_only_if_matching", top=top)
    g.step("play 8C")
    if nominates:
        assert g.current_player == 0
        assert legal(g) == ALL_SUIT_NOMINATIONS
    else:
        assert g.current_player == 1
        assert legal_cards(g) == {"QC", "8S"}


def test_CE_fidelity_variant_must_play_if_able():
    """Source: "some people play that you may only draw if you are unable to play -
    if you can play you must." Variant `must_play_if_able`: no draw with a legal
    card."""
    g = _variant("must_play_if_able")
    assert legal(g) == plays("8C KS 3H")


def test_CE_fidelity_variant_play_drawn_card():
    """Source: "Some allow the drawn card to be played immediately if it is a legal
    play." Variant `play_drawn_card`: P0 draws `9C` on `KC` and may play it (or
    pass); a drawn card that does not play ends the turn."""
    hands = [["2S", "4S", "3H", "5D"], ["QC", "8S", "4D", "KD"], ["2C", "3C"]]
    g = _variant("play_drawn_card", hands=hands, top="KC", stock=("9C", "7H", "TS"))
    g.step("draw")
    assert g.current_player == 0
    assert legal(g) == {"play 9C", "pass"}
    g = _variant("play_drawn_card", hands=hands, top="KC", stock=("7H", "9C", "TS"))
    g.step("draw")
    assert g.current_player == 1


def test_CE_fidelity_variant_draw_up_to_three():
    """Source: "Some allow more than one card to be drawn - either up to a fixed
    number of cards, after which if you still cannot (or will not) play the turn
    passes to the next player." Variant `draw_up_to_3`: P0 draws `7H`, `9D`, then
    `KH`, which may be played (or the turn passes)."""
    hands = [["2S", "4S", "3H", "5D"], ["QC", "8S", "4D", "KD"], ["2C", "3C"]]
    g = _variant("draw_up_to_3", hands=hands, top="KC", stock=("7H", "9D", "KH", "TS"))
    g.step("draw")
    g.step("draw")
    assert g.current_player == 0
    g.step("draw")
    assert g.current_player == 0
    assert legal(g) == {"play KH", "pass"}
    g.step("pass")
    assert g.current_player == 1
    assert g.stock() == ["TS"]


def test_CE_fidelity_variant_draw_until_playable():
    """Source: "Others require you to continue drawing until either you can play or
    the deck is exhausted." Variant `draw_until_playable`: one draw action takes
    `7H`, `9D`, `2H`, `KH` and stops at the playable `KH`."""
    hands = [["2S", "4S", "3H", "5D"], ["QC", "8S", "4D", "KD"], ["2C", "3C"]]
    stock = ("7H", "9D", "2H", "KH", "TS")
    g = _variant("draw_until_playable", hands=hands, top="KC", stock=stock)
    g.step("draw")
    assert multiset(g.hand(0)) == multiset(hands[0] + list(stock[:4]))
    assert g.stock() == ["TS"]
    assert "play KH" in legal(g)


def test_CE_fidelity_variant_jacks_wild():
    """Source: "a different card may be used to change suit - for example in the
    British game Switch it is often the Ace, and some other variants use the Jack or
    the Seven." Variant `jacks_wild`: `JD` plays on `KH` and nominates; `8C` is an
    ordinary card."""
    hands = [["JD", "4S", "3S", "8C"], ["QC", "8S", "4D", "KD"], ["2C", "3C"]]
    g = _variant("jacks_wild", hands=hands)
    assert legal(g) == plays("JD") | {"draw"}
    g.step("play JD")
    assert legal(g) == ALL_SUIT_NOMINATIONS


@pytest.mark.parametrize("variant,rank", [("aces_wild", "A"), ("sevens_wild", "7")])
def test_CE_fidelity_variant_aces_or_sevens_wild(variant, rank):
    """Source: "a different card may be used to change suit - for example in the
    British game Switch it is often the Ace, and some other variants use the Jack or
    the Seven." Variants `aces_wild` and `sevens_wild`: on `KH` the `{rank}D` plays
    (it matches neither suit nor rank) and its player names a suit; the `8C` is an
    ordinary card (illegal on `KH`). After spades are named, the next player may play
    a spade or another card of the wild rank, not a diamond or a king."""
    hands = [[f"{rank}D", "4S", "3S", "8C"], ["QC", "8S", "4D", "KD", f"{rank}C"], ["2C", "3C"]]
    g = _variant(variant, hands=hands)
    assert legal(g) == plays(f"{rank}D") | {"draw"}
    g.step(f"play {rank}D")
    assert g.current_player == 0
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit S")
    assert g.current_player == 1
    assert g.nominated_suit == "S"
    assert legal(g) == plays(f"8S {rank}C") | {"draw"}


@pytest.mark.parametrize("n", [2, 3])
def test_CE_fidelity_variant_hand_size_8(n):
    """Source: "The number of cards dealt to each player initially may vary. For
    example some begin with eight cards each." Variant `hand_size_8`."""
    g = eights.Game(PRESET, n, seed=4, rules={"variants": ["hand_size_8"]})
    g.reset(seed=4)
    assert list(g.hand_sizes) == [8] * n

"""Scenario checks OL-1 .. OL-6 (docs/rules_catalog.md#one_left-scenario-checks) for `one_left`.

Preset facts used (docs/rules_catalog.md#one_left): exactly 2 players, 1 pack, no jokers, P0
first; 2s and 3s may only be played on their own suit (`match.rank_blocked`);
A is wild at any time with a required nomination; drawing is not voluntary
(you must play if you can), one card, and a drawn playable card must be played
(R, A30); K (played by suit or rank) = the player gives the opponent one card
of their choice, the opponent is not skipped; 3 = the opponent draws 3 and
then takes their turn; 2 = the opponent draws 2 from the shuffled waste pile
(the discard pile minus the 2), the rest goes back face up with the 2 on top,
the stock is untouched; last card: `last_card.mode=action` (the preset
default), penalty 2, drawn at once after a play that leaves one card without
"announce".

Engine conventions: after "play KH" the phase is "give" with one "give X";
"announce" is its own action, taken before the play.
"""

import pytest

import eights
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    legal,
    legal_cards,
    multiset,
    plays,
    position,
)

PRESET = "one_left"
LAST_CARD_ACTION = {"last_card": {"mode": "action"}}
# OL-1 .. OL-5 are not about the last-card rule: it is switched off there so
# that neither a penalty draw nor an "announce" action enters the picture.
LAST_CARD_OFF = {"last_card": {"mode": "off"}}


def test_OL_1_king_gives_a_card_opponent_not_skipped():
    """OL-1: n=2, top `9H`, P0 holds `KH 3S 4C`. Expect: `draw` is illegal; P0 must
    play `KH`; P0 then chooses `give(4C)`; P1 holds `4C` and acts normally (not
    skipped)."""
    g = position(
        PRESET,
        2,
        hands=[["KH", "3S", "4C"], ["5H", "KD", "7S"]],
        discard=["9H"],
        stock=["2D", "5D", "6D"],
        rules=LAST_CARD_OFF,
    )
    assert legal(g) == {"play KH"}
    with pytest.raises(eights.IllegalActionError):
        g.step("draw")
    g.step("play KH")
    assert g.current_player == 0
    assert g.phase == "give"
    assert legal(g) == {"give 3S", "give 4C"}
    g.step("give 4C")
    assert g.hand(0) == ["3S"]
    assert multiset(g.hand(1)) == multiset(["5H", "KD", "7S", "4C"])
    assert g.stock() == ["2D", "5D", "6D"]
    # P1 is not skipped and plays normally on KH (hearts or a K)
    assert g.current_player == 1
    assert g.phase == "play"
    assert legal_cards(g) == {"5H", "KD"}
    assert legal(g) == plays("5H KD")


def test_OL_2_three_draw_three_then_suit_only():
    """OL-2: top `7H`. P0 plays `3H`. Expect: P1 draws 3 and then acts; on `3H`,
    P1's `3S` is illegal."""
    # The 3 drawn cards (6C 9S TC) are not playable on 3H either.
    g = position(
        PRESET,
        2,
        hands=[["3H", "9C", "TD", "4S"], ["3S", "5H", "8C"]],
        discard=["7H"],
        stock=["6C", "9S", "TC", "QD"],
        rules=LAST_CARD_OFF,
    )
    g.step("play 3H")
    assert multiset(g.hand(1)) == multiset(["3S", "5H", "8C", "6C", "9S", "TC"])
    assert g.stock() == ["QD"]
    assert g.current_player == 1
    assert g.phase == "play"
    assert g.top_card == "3H"
    # 3S matches the rank only, and 3s are played by suit only
    assert legal(g) == {"play 5H"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play 3S")


def test_OL_3_two_draws_from_shuffled_waste():
    """OL-3: top `5H` with 10 cards under it. P0 plays `2H`. Expect: those 10 cards
    are shuffled; P1 takes 2 of them; 8 go back face up with `2H` on top; the
    stock size is unchanged; P1 acts."""
    # Reading: "those 10 cards" is the waste pile under the 2H once it is
    # played, i.e. the discard pile minus the 2 (docs/rules_catalog.md#one_left), which here holds
    # 10 cards with 5H on top -- the counts 10 / 2 / 8 of the Expect.
    waste = ["3C", "4C", "5C", "6C", "7C", "9C", "TC", "JC", "QC", "5H"]
    stock = ["3D", "4D", "5D", "6D"]
    g = position(
        PRESET,
        2,
        hands=[["2H", "8D", "9D", "TD"], ["4S", "6S", "7S"]],
        discard=waste,
        stock=stock,
        rules=LAST_CARD_OFF,
    )
    g.step("play 2H")
    drawn = multiset(g.hand(1)) - multiset(["4S", "6S", "7S"])
    assert len(g.hand(1)) == 5
    assert sum(drawn.values()) == 2
    # both came from the waste pile
    assert not (drawn - multiset(waste))
    pile = g.discard_pile()
    assert len(pile) == 9
    assert g.discard_size == 9
    assert pile[-1] == "2H"
    assert g.top_card == "2H"
    # the other 8 lie face up under the 2H
    assert multiset(pile[:-1]) == multiset(waste) - drawn
    # the stock is untouched
    assert g.stock() == stock
    assert g.stock_size == 4
    assert multiset(g.hand(0)) == multiset(["8D", "9D", "TD"])
    assert g.current_player == 1


def test_OL_4_ace_nominates():
    """OL-4: P0 plays `AC` on `9H` and names S. Expect: P1 must play a spade or an
    ace."""
    # P1 holds a spade (4S), an ace (AD), a club (9C: the ace's own suit) and
    # 5H / 9D (they match the old top 9H only).
    g = position(
        PRESET,
        2,
        hands=[["AC", "5D", "6D", "7D"], ["4S", "AD", "9C", "5H", "9D"]],
        discard=["9H"],
        stock=["2S", "3S", "6S"],
        rules=LAST_CARD_OFF,
    )
    g.step("play AC")
    assert g.current_player == 0
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit S")
    assert g.current_player == 1
    assert g.nominated_suit == "S"
    # drawing is not voluntary
    assert legal(g) == plays("4S AD")


def test_OL_5_drawn_playable_card_must_be_played():
    """OL-5 (R): top `9H`; P0 has no legal card and draws `9D`. Expect: P0 must
    play `9D`."""
    g = position(
        PRESET,
        2,
        hands=[["4C", "5S", "6D"], ["7C", "8C", "TC"]],
        discard=["9H"],
        stock=["9D", "2S", "3S"],
        rules=LAST_CARD_OFF,
    )
    assert legal(g) == {"draw"}
    g.step("draw")
    assert multiset(g.hand(0)) == multiset(["4C", "5S", "6D", "9D"])
    assert g.current_player == 0
    assert legal(g) == {"play 9D"}
    g.step("play 9D")
    assert g.top_card == "9D"
    assert g.current_player == 1


def _ol6_position():
    # P0's 7C can't be played on 9H, so 5H is the only play.
    return position(
        PRESET,
        2,
        hands=[["5H", "7C"], ["4S", "6S", "8S"]],
        discard=["9H"],
        stock=["3D", "4D", "6C", "2C"],
        rules=LAST_CARD_ACTION,
    )


def test_OL_6_last_card_without_announce_draws_two():
    """OL-6: `last_card.mode=action`. P0 holds 2 cards and plays one without
    `announce`. Expect: P0 draws 2 at once."""
    g = _ol6_position()
    g.step("play 5H")
    assert multiset(g.hand(0)) == multiset(["7C", "3D", "4D"])
    assert g.stock() == ["6C", "2C"]
    assert g.top_card == "5H"
    assert g.current_player == 1


def test_OL_6_last_card_with_announce_no_penalty():
    """OL-6: `last_card.mode=action`. P0 holds 2 cards and plays one with
    `announce`. Expect: nothing happens."""
    g = _ol6_position()
    assert "announce" in legal(g)
    g.step("announce")
    assert g.current_player == 0
    assert "play 5H" in legal(g)
    g.step("play 5H")
    assert g.hand(0) == ["7C"]
    assert g.stock() == ["3D", "4D", "6C", "2C"]
    assert g.top_card == "5H"
    assert g.current_player == 1


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_OL_fidelity_win_by_depleting_the_hand():
    """Source (One Left): "You win when you deplete your hand."

    P0 plays its last card `5H` on `9H` and wins."""
    g = position(
        PRESET,
        2,
        hands=[["5H"], ["4C", "KC"]],
        discard=["9H"],
        stock=["2D", "3D"],
        rules={"series": {"match": False}},
    )
    g.step("play 5H")
    assert g.is_terminal
    assert g.winner == 0


def test_OL_fidelity_one_left_call_after_a_king_give():
    """OL-6: "When you only have one card left you must call "One Left". If your
    opponent calls it before you, you must draw 2 cards." (`last_card.timing =
    holding_one`.) P0 holds `KH 3S 4C`: the king and its give leave one card, so P0
    may call in the give phase, and is penalised only without the call."""
    for call in (True, False):
        g = position(
            PRESET,
            2,
            hands=[["KH", "3S", "4C"], ["5H", "KD", "7S"]],
            discard=["9H"],
            stock=["2D", "5D", "6D"],
            rules=LAST_CARD_ACTION,
        )
        assert legal(g) == {"play KH"}  # three cards: the play leaves two
        g.step("play KH")
        assert legal(g) == {"give 3S", "give 4C", "announce"}
        if call:
            g.step("announce")
        g.step("give 4C")
        assert g.current_player == 1
        if call:
            assert g.hand(0) == ["3S"]
        else:
            assert multiset(g.hand(0)) == multiset(["3S", "2D", "5D"])

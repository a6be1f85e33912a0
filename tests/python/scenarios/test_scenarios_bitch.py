"""Scenario checks BI-1 .. BI-6 (docs/rules_catalog.md#bitch-scenario-checks) for `bitch`.

Preset facts used (docs/rules_catalog.md#bitch, inheriting `crazy_eights_countdown` / `crazy_eights`): 1 pack + 2 jokers
(`RJ`, `BJ`); countdown scores (start 8; a player's wild rank is their score)
with a required nomination, and after a wild the next player plays the
nominated suit or their own wild; pick-up cards: every 2 = 2, `JH` = 5, `JS` =
5, `KH` = 7; facing a pick-up, any pick-up card answers whatever its suit
(`any_draw_card`) and the amounts add up; accepting ends the turn (R); wilds
can't answer a pick-up (R, `chain.wild_blocked`); a joker is playable on
anything: as a wild (nominate) or, facing a pick-up, as a blocker that clears
it (nobody draws) and then nominates a suit (R, A11); A = skip(1); a player
whose score is 2 plays 2s as pure wilds, never as pick-ups (R, A10); after
accepting a penalty the player may at once lay one drawn pick-up card, which
ignores matching and starts a new chain at its face value only (R, A10); a
pick-up card played with nothing pending must match normally (R); drawing is
voluntary; no multiples.

Engine conventions: the `scores=[...]` argument of `Game.from_position` sets
the countdown scores; a joker facing a pick-up is played with "play BJ" (it
blocks) and then "suit X"; after "accept" with a pick-up card among the drawn
cards, the player is in phase "after_draw" and may "play" one of them or
"pass".
"""

import pytest

import eights
from countdown_helpers import score_position
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    legal,
    legal_cards,
    multiset,
    plays,
)

PRESET = "bitch"
ALL_EIGHT = {3: [8, 8, 8], 4: [8, 8, 8, 8]}


def bi_position(n, **kw):
    kw.setdefault("scores", ALL_EIGHT[n])
    return score_position(PRESET, n, **kw)


def test_BI_1_pick_ups_cross_stack_by_value():
    """BI-1: n=4, top `5D`. P0 plays `2D`; P1 plays `KH`. Expect: P2 faces 9. P2
    plays `JS`. Expect: P3 faces 14."""
    # All scores 8.  P1 also holds 5H (matches nothing on a pick-up) and 8C (own
    # wild: can't answer).  P2 holds JC, which is not a pick-up card.
    g = bi_position(
        4,
        hands=[["2D", "3C", "9H"], ["KH", "5H", "8C"], ["JS", "JC", "3S"], ["4S", "6S"]],
        discard=["5D"],
        stock=["3D", "4D", "6D", "7D"],
    )
    g.step("play 2D")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play KH", "accept"}

    g.step("play KH")
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 9
    assert legal(g) == {"play JS", "accept"}

    g.step("play JS")
    assert g.current_player == 3
    assert g.phase == "chain"
    assert g.pending_draw == 14
    assert legal(g) == {"accept"}
    # nobody has drawn yet
    assert list(g.hand_sizes) == [2, 2, 2, 2]
    assert g.stock() == ["3D", "4D", "6D", "7D"]


def test_BI_2_four_pick_ups_round_the_table():
    """BI-2: n=4. P0 to P3 play `2C`, `2S`, `JS`, `KH` in turn. Expect: P0 faces
    16."""
    # 2 + 2 + 5 + 7 = 16.  P0 also holds JH, a pick-up that may answer.
    g = bi_position(
        4,
        hands=[["2C", "JH", "5D"], ["2S", "4D"], ["JS", "6D"], ["KH", "7D"]],
        discard=["9C"],
        stock=["3H", "4H", "5H"],
    )
    for p, card, total in ((0, "2C", 2), (1, "2S", 4), (2, "JS", 9), (3, "KH", 16)):
        assert g.current_player == p
        g.step(f"play {card}")
        assert g.pending_draw == total
    assert g.current_player == 0
    assert g.phase == "chain"
    assert g.pending_draw == 16
    assert legal(g) == {"play JH", "accept"}


def test_BI_3_joker_blocks_and_nominates():
    """BI-3 (R): P1, facing 9, plays `BJ` as a blocker and names S. Expect: nobody
    draws; P2 acts and must play a spade, their own wild, or a joker."""
    # n=3 (not stated).  P2 starts the pick-up with 2D, P0 adds KH, so P1 faces
    # 9.  Scores P0=8, P1=8, P2=6.  P1 holds BJ, 4C and 8D (own wild: can't
    # answer).  P2 then holds 7S (spade), 6H (own wild), RJ (a joker), 9D and
    # KC (matching only the cards under the joker).
    g = bi_position(
        3,
        hands=[["KH", "3C", "TC"], ["BJ", "4C", "8D"], ["2D", "7S", "6H", "RJ", "9D", "KC"]],
        discard=["5D"],
        stock=["3H", "4H", "5H", "7H", "9H", "TH", "QH", "AH", "3S", "4S"],
        scores=[8, 8, 6],
        current_player=2,
    )
    g.step("play 2D")
    assert g.current_player == 0
    g.step("play KH")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 9
    assert legal(g) == {"play BJ", "accept"}

    g.step("play BJ")
    assert g.current_player == 1
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit S")
    # blocked: nobody drew
    assert g.pending_draw == 0
    assert list(g.hand_sizes) == [2, 2, 5]
    assert len(g.stock()) == 10
    assert g.top_card == "BJ"
    assert g.nominated_suit == "S"
    assert g.current_player == 2
    assert g.phase == "play"
    assert legal_cards(g) == {"7S", "6H", "RJ"}
    assert legal(g) == plays("7S 6H RJ") | {"draw"}


def test_BI_4_ace_skips():
    """BI-4: P0 plays `AS` on `9S`. Expect: P1 is skipped."""
    # n=3 (not stated), scores 8 (the ace is nobody's wild).
    g = bi_position(
        3,
        hands=[["AS", "3D", "4D"], ["4C", "5C"], ["6H", "7H"]],
        discard=["9S"],
        stock=["2H", "3H"],
    )
    g.step("play AS")
    assert multiset(g.hand(1)) == multiset(["4C", "5C"])
    assert g.current_player == 2
    assert g.phase == "play"
    assert g.top_card == "AS"


def test_BI_5_two_is_a_pure_wild_on_score_two():
    """BI-5 (R): P0 (score 2) plays `2H`. Expect: it acts only as a wild; P0
    nominates and no pick-up is pending for P1."""
    # n=3 (not stated).  Top 9C, so the 2H is playable only as P0's wild.  P1
    # (score 8) holds 2S (a pick-up card, but neither a diamond nor P1's wild),
    # 4D (the nominated suit), 8C (own wild) and KH.
    g = bi_position(
        3,
        hands=[["2H", "5D", "TS"], ["2S", "4D", "8C", "KH"], ["6S", "7S"]],
        discard=["9C"],
        stock=["3H", "4H", "5H"],
        scores=[2, 8, 8],
    )
    assert "play 2H" in legal(g)
    g.step("play 2H")
    assert g.current_player == 0
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit D")
    assert g.current_player == 1
    assert g.pending_draw == 0
    assert g.phase == "play"
    assert "accept" not in legal(g)
    assert legal(g) == plays("4D 8C") | {"draw"}
    assert multiset(g.hand(1)) == multiset(["2S", "4D", "8C", "KH"])
    with pytest.raises(eights.IllegalActionError):
        g.step("play 2S")


def test_BI_5_a_pure_wild_two_does_not_answer_a_pending_pick_up():
    """Source (Bitch): "2 are pick up 2 unless you are on 2's." and "Jokers block pick
    ups." A player on 2's plays 2s as wilds only, and a wild card cannot go on a pending
    pick-up (`chain.wild_blocked`). n=3, P1 (score 2) faces P0's 2D holding 2H: its only
    move is to pick up the 2. (The engine once let 2H answer as a wild that added nothing:
    P1 drew nothing and the same 2 passed on to P2.)"""
    g = bi_position(
        3,
        hands=[["2D", "4S"], ["2H", "5H", "6H"], ["3S", "4D", "5S"]],
        discard=["5D"],
        stock=["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
        scores=[8, 2, 8],
    )
    g.step("play 2D")
    assert g.current_player == 1 and g.pending_draw == 2
    assert legal(g) == {"accept"}
    g.step("accept")
    assert multiset(g.hand(1)) == multiset(["2H", "5H", "6H", "3C", "4C"])
    assert g.pending_draw == 0


def _bi6():
    """n=4, P3 to move: P3 `2C`, P0 `JS`, P1 `2S`, so P2 faces 9 on top `2S`."""
    # The nine cards P2 draws hold exactly one pick-up card (JH), no 8 (P2's
    # wild) and nothing that matches 2S; P2's own 5S would match 2S normally.
    drawn = ["3D", "4D", "JH", "5D", "6D", "7D", "9D", "TD", "QD"]
    g = bi_position(
        4,
        hands=[["JS", "4H"], ["2S", "3H"], ["5S", "7C"], ["2C", "2H", "KS"]],
        discard=["9C"],
        stock=drawn + ["KD", "AD"],
        current_player=3,
    )
    for p, card, total in ((3, "2C", 2), (0, "JS", 7), (1, "2S", 9)):
        assert g.current_player == p
        g.step(f"play {card}")
        assert g.pending_draw == total
    assert g.current_player == 2
    assert g.phase == "chain"
    assert legal(g) == {"accept"}
    g.step("accept")
    assert multiset(g.hand(2)) == multiset(["5S", "7C"] + drawn)
    assert g.stock() == ["KD", "AD"]
    assert g.pending_draw == 0
    return g


def test_BI_6_lay_drawn_pick_up_at_face_value():
    """BI-6 (R): P2 accepts 9, and the drawn cards include `JH`. Expect: P2 may play
    `JH` at once whatever the top card is; P3 then faces 5, not 14."""
    g = _bi6()
    # JH does not match the top 2S, but may be laid at once.
    assert g.current_player == 2
    assert g.phase == "after_draw"
    assert g.top_card == "2S"
    assert legal(g) == {"play JH", "pass"}

    g.step("play JH")
    assert g.top_card == "JH"
    assert "JH" not in g.hand(2)
    assert g.current_player == 3
    assert g.phase == "chain"
    assert g.pending_draw == 5
    assert legal(g) == {"play 2H", "accept"}


def test_BI_6_declining_the_drawn_pick_up():
    """BI-6 (R), the other choice: P2 passes instead of laying `JH`. Expect: the
    turn ends and P3 plays normally on `2S` with nothing pending."""
    g = _bi6()
    assert g.phase == "after_draw"
    g.step("pass")
    assert "JH" in g.hand(2)
    assert g.current_player == 3
    assert g.pending_draw == 0
    assert g.phase == "play"
    assert g.top_card == "2S"
    # on 2S: 2H (a 2, starting a new pick-up) and KS (a spade)
    assert legal(g) == plays("2H KS") | {"draw"}


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_BI_fidelity_wild_ace_at_score_one_also_skips():
    """Source (Bitch): "A are miss a turn." The game "branches off" Crazy Eights
    Countdown, where "When a player's wild card rank also has a special effect, the
    player nominates a suit and the card also acts as a special effect card" (Wild /
    Skip: "The next player is skipped and the following player must play the
    nominated suit or a wild card"). The source's only exception is "2 are pick up 2
    unless you are on 2's".

    n=3, scores 1/8/8: P0 plays `AS` on `9C` (playable only as P0's wild) and names
    D. Expect: P1 is skipped; P2 must play a diamond or their own wild (8)."""
    g = bi_position(
        3,
        hands=[["AS", "3C", "4H"], ["4D", "5H"], ["6D", "8S", "7H"]],
        discard=["9C"],
        stock=["2H", "3H"],
        scores=[1, 8, 8],
    )
    assert "play AS" in legal(g)
    g.step("play AS")
    assert g.phase == "nominate"
    g.step("suit D")
    assert multiset(g.hand(1)) == multiset(["4D", "5H"])
    assert g.current_player == 2
    assert g.phase == "play"
    assert legal(g) == plays("6D 8S") | {"draw"}


@pytest.mark.parametrize("score, offered", [(2, False), (8, True)], ids=["on_twos", "on_eights"])
def test_BI_fidelity_a_drawn_two_is_no_pick_up_card_for_a_player_on_twos(score, offered):
    """Source (Bitch): "2 are pick up 2 unless you are on 2's." and "If you have to pick up,
    and you get a pick up card, you can lay it, but only at its original value." For a
    player on 2's a 2 is not a pick-up card, so a 2 drawn in paying a penalty is not laid
    again. n=3: P0's KH makes P1 pick up 7, and the cards drawn hold 2C. Expect: at score 2
    paying ends P1's turn (P2 plays, nothing pending); at score 8 P1 may lay 2C, a pick-up
    of 2 for P2. (The engine once offered 2C to the player on 2's, as a wild that named a
    suit and made nobody pick up.)"""
    g = bi_position(
        3,
        hands=[["KH", "5C", "9C"], ["7S", "8D", "9D"], ["5D", "6D", "9H"]],
        discard=["4D", "3H"],
        stock=["4C", "2C", "JC", "6S", "7C", "QD", "QS", "TC", "TD"],
        scores=[8, score, 8],
    )
    g.step("play KH")
    assert g.current_player == 1 and g.pending_draw == 7
    g.step("accept")
    assert "2C" in g.hand(1)
    if offered:
        assert g.phase == "after_draw" and legal(g) == {"play 2C", "pass"}
        g.step("play 2C")
        assert g.current_player == 2 and g.pending_draw == 2
    else:
        assert g.current_player == 2 and g.pending_draw == 0 and g.phase == "play"

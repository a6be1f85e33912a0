"""Scenario checks OC-1 .. OC-6 (docs/rules_catalog.md#one_card-scenario-checks) for `one_card`.

Preset facts used (docs/rules_catalog.md#one_card, A08/A42): 2-3 players, 1 pack + 2 jokers
(`RJ`, `BJ`); matching is suit or rank; a joker may be played at any time and
is transparent (the next player matches the card under it, or plays a joker),
with no nomination; drawing is voluntary, one card, and ends the turn;
A = attack: the next player may only shield with any 2, any 3, any A or a
joker, or pick up 5 (allowed even when holding a shield); after a shield or
the pick-up the following player must play the attacking ace's suit or a
joker (a shield never attacks again); Q = reverse (no effect with n=2);
J = skip(1), and with n=2 the same player continues with a J, a card of the
jack's suit or a joker, or picks up 1; K = optionally followed by one card of
the K's suit or another K (which may in turn be followed); 7 = the player
names a second suit other than the 7's suit, valid for the next player only.

Engine conventions: an ace attack puts the next player in phase "chain" with
`pending_draw == 5` (shields or "accept"); the J continuation with n=2 is
phase "play" for the same player ("draw" picks up 1 and ends the turn); the
K follow-on is phase "continue" ("end" stops); the 7's second suit is chosen
in phase "nominate" ("suit X").

None of OC-1 .. OC-6 is about the last-card call, so `last_card.mode` is
switched off in every test: neither an "announce" action nor a penalty draw
can then enter the legal sets or the hand sizes asserted here.
"""

import pytest

import eights
from scenario_helpers import (
    legal,
    multiset,
    plays,
    position,
)

PRESET = "one_card"
NO_LAST_CARD = {"last_card": {"mode": "off"}}


def _pos(n, hands, discard, stock, **kw):
    return position(
        PRESET,
        n,
        hands=hands,
        discard=discard,
        stock=stock,
        rules=NO_LAST_CARD,
        seed=11,
        **kw,
    )


# --------------------------------------------------------------------- OC-1

# P1 holds one card of every shield kind (2D, 3C, AS, RJ) and cards that are
# no shields: 7H (the ace's suit), 9S, QC.  P2 holds 3S (the rank of the 3C
# shield), 5C (its suit), AD (the rank of the attacking AH), 6H (the ace's
# suit) and BJ (a joker).
_OC1_HANDS = [
    ["AH", "KC", "5D"],
    ["2D", "3C", "AS", "RJ", "9S", "7H", "QC"],
    ["3S", "5C", "AD", "6H", "BJ"],
]
_OC1_PICKUP = ["4C", "4D", "6C", "6D", "7C"]
_OC1_STOCK = _OC1_PICKUP + ["8C", "TC"]


def _oc1_after_attack():
    g = _pos(3, _OC1_HANDS, ["9H"], _OC1_STOCK)
    g.step("play AH")
    return g


def test_OC_1a_ace_attack_shield_then_ace_suit():
    """OC-1: n=3. P0 plays `AH`. (a) Expect: P1's legal cards are 2s, 3s and aces
    of any suit, and jokers, plus `accept` 5. P1 plays `3C`. Expect: P2 must play
    a heart or a joker (`3S` and clubs are illegal)."""
    g = _oc1_after_attack()
    assert g.discard_pile() == ["9H", "AH"]
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 5
    # only shields (any suit) and the pick-up; 7H matches the ace but is no shield
    assert legal(g) == plays("2D 3C AS RJ") | {"accept"}
    for bad in ("play 7H", "play 9S", "play QC", "draw"):
        with pytest.raises(eights.IllegalActionError):
            g.step(bad)

    g.step("play 3C")
    assert g.discard_pile() == ["9H", "AH", "3C"]
    assert multiset(g.hand(1)) == multiset(["2D", "AS", "RJ", "9S", "7H", "QC"])
    assert g.stock() == _OC1_STOCK  # a shield draws nothing
    assert g.pending_draw == 0
    assert g.current_player == 2
    assert g.phase == "play"
    # hearts (the attacking ace's suit) or a joker; drawing stays voluntary.
    # 3S (rank of the shield), 5C (suit of the shield) and AD are illegal.
    assert legal(g) == plays("6H BJ") | {"draw"}
    for bad in ("3S", "5C", "AD"):
        with pytest.raises(eights.IllegalActionError):
            g.step(f"play {bad}")


def test_OC_1b_ace_attack_accepted_then_ace_suit():
    """OC-1: n=3. P0 plays `AH`. (b) If P1 accepts 5 instead, P2 must play a heart
    or a joker."""
    g = _oc1_after_attack()
    # A42: the pick-up is allowed although P1 holds shields.
    assert "accept" in legal(g)
    g.step("accept")
    assert multiset(g.hand(1)) == multiset(_OC1_HANDS[1] + _OC1_PICKUP)
    assert g.stock() == ["8C", "TC"]
    assert g.pending_draw == 0
    assert g.top_card == "AH"
    assert g.current_player == 2
    assert g.phase == "play"
    # AD would match the AH by rank in normal play, but after an attack only the
    # ace's suit or a joker may follow.
    assert legal(g) == plays("6H BJ") | {"draw"}
    for bad in ("AD", "3S", "5C"):
        with pytest.raises(eights.IllegalActionError):
            g.step(f"play {bad}")


# --------------------------------------------------------------------- OC-2


def test_OC_2_joker_is_transparent():
    """OC-2: top `3H`. P0 plays `RJ`. Expect: P1 must play a 3, a heart, or a
    joker."""
    # n=2 (not stated).  The card under 3H is 7C: only the card directly
    # before the joker counts, so P1's 7S is illegal.  QD matches nothing.
    g = _pos(
        2,
        [["RJ", "KC", "5D"], ["3S", "9H", "BJ", "7S", "QD"]],
        ["7C", "3H"],
        ["2C", "4C"],
    )
    g.step("play RJ")
    # a one_card joker names no suit (wild.nominate = none)
    assert g.current_player == 1
    assert g.phase == "play"
    assert g.nominated_suit is None
    assert g.discard_pile() == ["7C", "3H", "RJ"]
    assert g.top_card == "RJ"
    assert legal(g) == plays("3S 9H BJ") | {"draw"}
    for bad in ("7S", "QD"):
        with pytest.raises(eights.IllegalActionError):
            g.step(f"play {bad}")


# --------------------------------------------------------------------- OC-3


def test_OC_3_queen_reverses_with_three_players():
    """OC-3: n=3. P0 plays `QD`. Expect: `d=ccw` and P2 acts."""
    g = _pos(
        3,
        [["QD", "KC", "5S"], ["2C", "3C", "4C"], ["6H", "7H", "8H"]],
        ["9D"],
        ["TS", "JS", "2S"],
    )
    g.step("play QD")
    assert g.discard_pile() == ["9D", "QD"]
    assert g.direction == -1
    assert g.current_player == 2
    assert multiset(g.hand(1)) == multiset(["2C", "3C", "4C"])
    # counter-clockwise from P2 comes P1
    g.step("draw")
    assert multiset(g.hand(2)) == multiset(["6H", "7H", "8H", "TS"])
    assert g.current_player == 1


def test_OC_3_queen_no_effect_with_two_players():
    """OC-3: With n=2, P1 acts."""
    g = _pos(2, [["QD", "KC", "5S"], ["2C", "3C", "4C"]], ["9D"], ["TS", "JS"])
    g.step("play QD")
    assert g.discard_pile() == ["9D", "QD"]
    assert g.current_player == 1
    # "the Queen has no reverse effect": the direction is left unchanged
    assert g.direction == 1


# --------------------------------------------------------------------- OC-4


def test_OC_4a_jack_skips_with_three_players():
    """OC-4: n=3. P0 plays `JS`. Expect: P1 loses the turn and P2 acts."""
    g = _pos(
        3,
        [["JS", "KC", "5D"], ["2C", "3C", "4C"], ["6H", "7H", "8H"]],
        ["9S"],
        ["TD", "2D"],
    )
    g.step("play JS")
    assert g.discard_pile() == ["9S", "JS"]
    assert g.direction == 1
    assert g.current_player == 2
    assert g.phase == "play"
    assert multiset(g.hand(1)) == multiset(["2C", "3C", "4C"])
    assert g.stock() == ["TD", "2D"]
    # the skip is used up: after P2 the turn goes on to P0
    g.step("draw")
    assert g.current_player == 0


def test_OC_4b_jack_with_two_players_same_player_continues():
    """OC-4: n=2. P0 plays `JS`. Expect: P0 continues; P0 plays `JD`, continues
    again, and plays `5D`, which ends the turn."""
    # After JS: JD (a J), 4S (the jack's suit) and RJ (a joker) are playable;
    # 5D, 9C and QH are not.  After JD: 5D (diamond) and RJ; 4S no longer.
    g = _pos(
        2,
        [["JS", "JD", "5D", "4S", "RJ", "9C", "QH"], ["2C", "3C", "4C"]],
        ["9S"],
        ["TD", "2D"],
    )
    g.step("play JS")
    assert g.current_player == 0
    assert g.phase == "play"
    assert g.discard_pile() == ["9S", "JS"]
    assert legal(g) == plays("JD 4S RJ") | {"draw"}
    for bad in ("5D", "9C", "QH"):
        with pytest.raises(eights.IllegalActionError):
            g.step(f"play {bad}")

    g.step("play JD")
    assert g.current_player == 0
    assert g.phase == "play"
    assert g.discard_pile() == ["9S", "JS", "JD"]
    assert legal(g) == plays("5D RJ") | {"draw"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play 4S")

    g.step("play 5D")
    assert g.discard_pile() == ["9S", "JS", "JD", "5D"]
    assert multiset(g.hand(0)) == multiset(["4S", "RJ", "9C", "QH"])
    assert multiset(g.hand(1)) == multiset(["2C", "3C", "4C"])
    assert g.stock() == ["TD", "2D"]
    assert g.current_player == 1
    assert g.phase == "play"


def test_OC_4c_jack_with_two_players_nothing_to_follow_picks_up_one():
    """OC-4: n=2, but P0 holds no J, no spade and no joker after `JS`. Expect: P0
    picks up 1 and the turn ends."""
    # The picked-up card (2S) would be playable on JS; the turn still ends.
    g = _pos(
        2,
        [["JS", "5D", "9C", "QH"], ["2C", "3C", "4C"]],
        ["9S"],
        ["2S", "TD"],
    )
    g.step("play JS")
    assert g.current_player == 0
    assert g.phase == "play"
    assert legal(g) == {"draw"}
    g.step("draw")
    assert multiset(g.hand(0)) == multiset(["5D", "9C", "QH", "2S"])
    assert g.stock() == ["TD"]
    assert g.discard_pile() == ["9S", "JS"]
    assert multiset(g.hand(1)) == multiset(["2C", "3C", "4C"])
    assert g.current_player == 1


# --------------------------------------------------------------------- OC-5

_OC5_P0 = ["KH", "4H", "KS", "9S", "4S", "5C"]
_OC5_P1 = ["2D", "3D", "6D"]


def _oc5():
    # n=2 (not stated).  Top 7H: KH is legal by suit.
    g = _pos(2, [_OC5_P0, _OC5_P1], ["7H"], ["TD", "JD"])
    g.step("play KH")
    assert g.current_player == 0
    assert g.phase == "continue"
    # one card of the K's suit (4H) or another K (KS); 4S, 9S and 5C are not
    # offered, and drawing is no follow-on
    assert legal(g) == plays("4H KS") | {"end"}
    return g


def test_OC_5a_king_followed_by_a_card_of_its_suit():
    """OC-5: `KH 4H` is a legal single turn."""
    g = _oc5()
    g.step("play 4H")
    # a non-K follow-on is the only one: the turn is over
    assert g.current_player == 1
    assert g.discard_pile() == ["7H", "KH", "4H"]
    assert multiset(g.hand(0)) == multiset(["KS", "9S", "4S", "5C"])
    assert g.stock() == ["TD", "JD"]


def test_OC_5b_king_followed_by_a_king_followed_again():
    """OC-5: `KH KS 9S` is a legal single turn."""
    g = _oc5()
    g.step("play KS")
    assert g.current_player == 0
    assert g.phase == "continue"
    # the follow-on K may itself be followed by one spade (or another K)
    assert legal(g) == plays("9S 4S") | {"end"}
    g.step("play 9S")
    assert g.current_player == 1
    assert g.discard_pile() == ["7H", "KH", "KS", "9S"]
    assert multiset(g.hand(0)) == multiset(["4H", "4S", "5C"])


def test_OC_5c_king_alone():
    """OC-5: `KH` alone is a legal single turn."""
    g = _oc5()
    g.step("end")
    assert g.current_player == 1
    assert g.discard_pile() == ["7H", "KH"]
    assert multiset(g.hand(0)) == multiset(["4H", "KS", "9S", "4S", "5C"])
    assert g.stock() == ["TD", "JD"]


def test_OC_5d_king_followed_by_other_suit_is_illegal():
    """OC-5: `KH 4S` is illegal."""
    g = _oc5()
    with pytest.raises(eights.IllegalActionError):
        g.step("play 4S")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert g.discard_pile() == ["7H", "KH"]


# --------------------------------------------------------------------- OC-6


def test_OC_6_seven_second_suit_for_next_player_only():
    """OC-6: P0 plays `7S` and names C. Expect: P1 may play any 7, any spade, any
    club, or a joker. If P1 draws instead, P2 must follow `7S` (spades or 7s) and
    clubs are illegal."""
    # n=3 (P2 is named).  P1: 7D (a 7), 4S (spade), QC (club), RJ (joker),
    # 9H (rank of the card under the 7) and 2D.  P2: 7H (a 7), 6S (spade),
    # 3C and KC (clubs), BJ (a joker may be played at any time).
    g = _pos(
        3,
        [
            ["7S", "KD", "5H"],
            ["7D", "4S", "QC", "RJ", "9H", "2D"],
            ["7H", "6S", "3C", "BJ", "KC"],
        ],
        ["9S"],
        ["TD", "JD"],
    )
    g.step("play 7S")
    assert g.current_player == 0
    assert g.phase == "nominate"
    # the second suit must differ from the 7's suit
    assert legal(g) == {"suit C", "suit D", "suit H"}
    with pytest.raises(eights.IllegalActionError):
        g.step("suit S")
    g.step("suit C")

    assert g.current_player == 1
    assert g.phase == "play"
    assert g.top_card == "7S"
    assert legal(g) == plays("7D 4S QC RJ") | {"draw"}
    for bad in ("9H", "2D"):
        with pytest.raises(eights.IllegalActionError):
            g.step(f"play {bad}")

    g.step("draw")
    assert multiset(g.hand(1)) == multiset(["7D", "4S", "QC", "RJ", "9H", "2D", "TD"])
    assert g.stock() == ["JD"]
    assert g.current_player == 2
    assert g.phase == "play"
    # the option has lapsed: spades, 7s or a joker only
    assert legal(g) == plays("7H 6S BJ") | {"draw"}
    for bad in ("3C", "KC"):
        with pytest.raises(eights.IllegalActionError):
            g.step(f"play {bad}")


# ------------------------------------------------------- play for second place
# Source rule 14 (docs/rules_catalog.md#how-a-hand-ends, docs/rules_catalog.md#one_card): "If there are 3
# players and there is a winner already, the two remaining players may continue
# the game for 2nd place."  The first player out takes first place and leaves the
# hand; the card they went out with has no effect (G9, `last_special=ignored`);
# the hand ends when the second player goes out.  The reward is the finishing
# order (docs/rules_catalog.md#left-out-of-the-engine, betting and its 75/25 split): +1 / 0 / -1.
FOR_SECOND = {"variants": ["play_for_second"], "last_card": {"mode": "off"}}


def _pos2(n, hands, discard, stock, **kw):
    return position(PRESET, n, hands=hands, discard=discard, stock=stock, rules=FOR_SECOND, seed=11, **kw)


STOCK = ["4D", "6D", "8D", "9D", "TD"]


def test_OC_P2a_first_out_leaves_and_the_other_two_play_on():
    g = _pos2(3, [["5H"], ["5S", "9C", "4S"], ["TS", "6S", "4C"]], ["5C"], STOCK)
    g.step("play 5H")
    assert not g.is_terminal
    assert g.finishing_order == [0]
    assert g.current_player == 1 and g.phase == "play"
    g.step("play 5S")  # P1: 9C and 4S left
    assert g.current_player == 2  # P0 is out, so P2 follows P1
    g.step("play TS")
    assert g.current_player == 1  # and P1 follows P2, passing over P0
    g.step("draw")
    assert g.current_player == 2
    g.step("play 6S")
    g.step("play 4S")  # P1: 9C left
    g.step("play 4C")  # P2 is out second: the hand ends
    assert g.is_terminal
    assert g.finishing_order == [0, 2, 1]
    assert g.winner == 0
    assert list(g.returns()) == [1.0, -1.0, 0.0]


# The player out first "leaves the hand" (docs/rules_catalog.md#how-a-hand-ends): house rules that
# move cards between hands
# (a rule-space fuzz found these) pass that seat over, so its hand stays empty.


def _house(cards, hands):
    rules = {**FOR_SECOND, "cards": cards}
    return position(PRESET, 3, hands=hands, discard=["5C"], stock=STOCK, rules=rules, seed=11)


def test_OC_P2_house_a_give_card_passes_over_the_player_out():
    g = _house({"6": {"give": "one"}}, [["5H"], ["5S", "9C", "4S"], ["6S", "4C"]])
    g.step("play 5H")
    assert g.finishing_order == [0]
    g.step("play 5S")
    g.step("play 6S")  # P2's give card: the next player still in is P1
    assert g.phase == "give"
    g.step("give 4C")
    assert g.hand(0) == []
    assert sorted(g.hand(1)) == sorted(["9C", "4S", "4C"])


def test_OC_P2_house_each_other_gives_only_to_players_still_in():
    g = _house({"6": {"give": "each_other"}}, [["5H"], ["5S", "9C", "4S"], ["6S", "4C", "7C"]])
    g.step("play 5H")
    g.step("play 5S")
    g.step("play 6S")
    g.step("give 4C")  # one card: only P1 is still in beside P2
    assert g.phase != "give"
    assert g.hand(0) == []
    assert sorted(g.hand(2)) == ["7C"]


def test_OC_P2_house_every_other_player_draws_but_not_the_player_out():
    g = _house({"6": {"others_draw": 1}}, [["5H"], ["5S", "9C", "4S"], ["6S", "4C"]])
    g.step("play 5H")
    g.step("play 5S")
    g.step("play 6S")
    assert g.hand(0) == []
    assert len(g.hand(1)) == 3


def test_OC_P2_house_a_swap_card_cannot_target_the_player_out():
    g = _house({"6": {"swap_hand": True}}, [["5H"], ["5S", "9C", "4S"], ["6S", "4C", "7C"]])
    g.step("play 5H")
    g.step("play 5S")
    g.step("play 6S")
    assert g.phase == "target"
    # P2's targets: +1 is P0 (out), +2 is P1.
    assert "target +1" not in legal(g)
    assert "target +2" in legal(g)
    with pytest.raises(eights.IllegalActionError):
        g.step("target +1")
    g.step("target +2")
    assert g.hand(0) == []
    assert sorted(g.hand(2)) == sorted(["9C", "4S"])


def test_OC_P2b_going_out_with_a_jack_skips_nobody():
    g = _pos2(3, [["JH"], ["5H", "9C"], ["6H", "8C"]], ["5C", "4H"], STOCK)
    g.step("play JH")
    assert g.finishing_order == [0]
    assert g.current_player == 1  # the jack's skip is ignored


def test_OC_P2c_going_out_with_an_ace_attacks_nobody():
    g = _pos2(3, [["AH"], ["5H", "9C"], ["6H", "8C"]], ["4H"], STOCK)
    g.step("play AH")
    assert g.current_player == 1
    assert g.phase == "play" and g.pending_draw == 0


def test_OC_P2d_jack_with_two_left_skips_the_other_player_still_in():
    # P1 goes out first; then P0's jack makes the next player still in (P2) lose a
    # turn, so P0 plays again.
    g = _pos2(3, [["JH", "9H", "KC"], ["4H"], ["6H", "8C", "TC"]], ["5C", "4C"], STOCK, current_player=1)
    g.step("play 4H")
    assert g.finishing_order == [1]
    assert g.current_player == 2
    g.step("play 6H")
    assert g.current_player == 0
    g.step("play JH")
    assert g.current_player == 0 and g.phase == "play"
    assert not g.is_terminal


def test_OC_P2e_shield_as_last_card_then_the_ace_suit_is_followed():
    # P0 attacks with AS; P1 shields with its last card and takes first place; P2,
    # the next player still in, must follow the attacking ace's suit or play a joker.
    g = _pos2(3, [["AS", "9C"], ["2H"], ["4S", "6H", "8C", "RJ"]], ["5S"], STOCK)
    g.step("play AS")
    assert g.current_player == 1 and g.phase == "chain"
    g.step("play 2H")
    assert g.finishing_order == [1]
    assert g.current_player == 2
    assert {a for a in legal(g) if a.startswith("play ")} == plays("4S", "RJ")


def test_OC_P2f_without_the_variant_the_first_out_ends_the_hand():
    g = _pos(3, [["5H"], ["5S", "9C"], ["6H", "8C"]], ["5C"], STOCK)
    g.step("play 5H")
    assert g.is_terminal and g.winner == 0
    assert list(g.returns()) == [1.0, -0.5, -0.5]


def test_OC_P2g_with_two_players_the_variant_has_no_effect():
    g = _pos2(2, [["5H"], ["5S", "9C"]], ["5C"], STOCK)
    g.step("play 5H")
    assert g.is_terminal and g.winner == 0
    assert g.finishing_order == [0]
    assert list(g.returns()) == [1.0, -1.0]


def test_OC_P2h_mid_hand_snapshot_keeps_the_finishing_order():
    g = _pos2(3, [["5H"], ["5S", "9C", "4S"], ["TS", "6S", "8C"]], ["5C"], STOCK)
    g.step("play 5H")
    h = eights.Game.from_dict(g.to_dict())
    assert h.finishing_order == [0]
    assert h.current_player == 1
    h.step("play 5S")
    assert h.current_player == 2
    d = g.to_dict()
    d["finishing_order"] = [0, 0]
    with pytest.raises(ValueError):
        eights.Game.from_dict(d)


# ------------------------------------------------------- previous loser leads
# Source rule 4 (docs/rules_catalog.md#first-player-and-dealer): "The first to lay
# out a card should be either the loser of the previous game [...] The
# non-participant may also choose the initial direction of play (clockwise or
# counter-clockwise) if there are three players."  The engine takes the choice of
# direction as the parameter order.initial_direction (anticlockwise in the
# documented variant).  Loser: the last place when the finishing order is
# complete (play for second), else the player left with the most cards.  A
# previous hand exists only within a match; a first hand falls back to the
# dealer's choice (dealer's right when anticlockwise).
def _match(*variants, hands_in_match=2):
    return {
        "variants": list(variants),
        "last_card": {"mode": "off"},
        "series": {"match": True, "max_hands": hands_in_match},
    }


def test_OC_L1_last_place_leads_the_next_hand_in_the_chosen_direction():
    g = position(
        PRESET,
        3,
        hands=[["5H"], ["5S", "9C", "4S"], ["TS", "6S", "4C"]],
        discard=["5C"],
        stock=STOCK,
        rules=_match("play_for_second", "previous_loser"),
        seed=11,
    )
    for a in ["play 5H", "play 5S", "play TS", "draw", "play 6S", "play 4S", "play 4C"]:
        g.step(a)
    # P0 first, P2 second, P1 last: P1 leads hand 2, anticlockwise.
    assert g.hands_played == 1 and not g.is_terminal
    assert g.current_player == 1
    assert g.direction == -1
    assert g.top_card is None  # one_card has no start card: the leader plays any card


def test_OC_L2_without_play_for_second_the_most_cards_left_loses():
    g = position(
        PRESET,
        3,
        hands=[["5H"], ["5S", "9C"], ["TS", "6S", "4C"]],
        discard=["5C"],
        stock=STOCK,
        rules=_match("previous_loser"),
        seed=11,
    )
    g.step("play 5H")  # P0 wins; P2 holds 3 cards, P1 holds 2
    assert g.hands_played == 1
    assert g.current_player == 2


def test_OC_L3_two_players_the_other_player_leads():
    g = position(
        PRESET, 2, hands=[["5H"], ["5S", "9C"]], discard=["5C"], stock=STOCK, rules=_match("previous_loser"), seed=11
    )
    g.step("play 5H")
    assert g.hands_played == 1
    assert g.current_player == 1


def test_OC_L4_first_hand_falls_back_to_the_dealer_choice():
    g = eights.Game(PRESET, 3, seed=5, rules={"variants": ["previous_loser"]})
    # Dealer is seat 2; anticlockwise the dealer's right (seat 1) leads.
    assert g.dealer == 2
    assert g.current_player == 1 and g.direction == -1
    g = eights.Game(PRESET, 3, seed=5)
    assert g.current_player == 0 and g.direction == 1


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_OC_fidelity_variant_one_card_call_penalty_one():
    """Source (One Card, variations): "as soon as a player has one card left, he
    should say in a loud voice "One Card!" because if another player says "One
    card!" first, then the player with one card should pick another." Variant
    `last_card`: P0 plays down to one card without announcing and picks up 1."""
    g = position(
        PRESET,
        3,
        hands=[["5H", "9D"], ["4C", "6C", "3D"], ["7S", "7D", "3C"]],
        discard=["9S", "5S"],
        stock=["2D", "3S", "4H", "5D", "6D", "TD"],
        rules={"variants": ["last_card"]},
    )
    assert "announce" in legal(g)
    g.step("play 5H")
    g.step("draw")  # P1 takes a turn: the call was missed
    assert len(g.hand(0)) == 2


def test_OC_fidelity_two_player_jack_needs_no_setting_of_its_own():
    """OC rule 10: "If there are only two players, the same player who played the
    Jack can play another Jack or another card of the same suit." That is the
    ordinary turn a skip gives its player with two players (`test_OC_4b_...`,
    `test_OC_4c_...` play it), so the rules have no `two_player.skip` setting: the old
    field is refused by name."""
    with pytest.raises(eights.RulesError, match="two_player"):
        eights.Rules(PRESET, two_player__skip="restricted_continue")

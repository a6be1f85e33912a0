"""Scenario checks ZD-1 .. ZD-6 (docs/rules_catalog.md#zodiac-scenario-checks) for `zodiac`.

Preset facts used (docs/rules_catalog.md#zodiac, A07/A38): 1 pack, no jokers (R), deal 7;
the start card has no effect; a turn is a run: the first card matches the top
card by suit or rank (or is a wild 8), and each further card matches the face
value of the current top or is the next higher / lower card of the same suit,
A < 2 < ... < K with no wrap-around; an 8 played as the first and only card
is wild with a required nomination (no cards may follow it), an 8 inside a run
is an ordinary card, and a wild 8 can't be played on a played Zodiac card (a
turned-up one has no special property, D12); an ace
attacks only if it is the top card when the turn ends: the next player plays
aces or draws 2 per ace in the chain (2, 4, 6, 8) and forfeits the turn;
the Zodiac card (`JC` by default) makes the next player draw 7 and forfeit,
with no answer; drawing is not voluntary (R): a player draws one card only
when they have no legal play; a final ace / Zodiac card still makes the next
player draw, and those cards count; scoring: the winner gets 1 point per card
the opponents hold.

Engine conventions: the continuation cards of a run are offered in phase
"continue" ("end" stops); accepting an ace attack is "accept"; the Zodiac
card is `rules={"options": {"zodiac_card": "JC"}}` and its penalty is applied
at once when the play resolves (no decision of the victim).
"""

import pytest

import eights
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    dealt_game,
    hand_over,
    legal,
    multiset,
    play_turn,
    plays,
    position,
)

PRESET = "zodiac"
ZODIAC_JC = {"options": {"zodiac_card": "JC"}}
# One hand per episode, so that `is_terminal` marks the end of the hand.
ONE_HAND = {"series": {"match": False}}


def _zd1(top, p0_hand):
    # n=2 (not stated); P1's cards are fillers.
    return position(
        PRESET,
        2,
        hands=[p0_hand, ["5D", "6D"]],
        discard=[top],
        stock=["TD", "JD", "QD"],
    )


def test_ZD_1a_runs_by_value_and_sequence():
    """ZD-1: Top `2H`, P0 holds `2S 3S 3C 4C 7H 8H`. Expect: `2S 3S 3C 4C` is a
    legal single turn, and so is `7H 8H`."""
    hand = ["2S", "3S", "3C", "4C", "7H", "8H"]
    g = _zd1("2H", hand)
    # first card: 2S (rank), 7H (suit), 8H (suit / wild); no voluntary draw
    assert legal(g) == plays("2S 7H 8H")
    play_turn(g, "2S 3S 3C 4C")
    assert g.discard_pile() == ["2H", "2S", "3S", "3C", "4C"]
    assert multiset(g.hand(0)) == multiset(["7H", "8H"])
    assert g.current_player == 1

    g = _zd1("2H", hand)
    g.step("play 7H")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert "play 8H" in legal(g)
    g.step("play 8H")
    # an 8 inside a run is ordinary: no nomination
    if g.current_player == 0 and g.phase == "continue":
        g.step("end")
    assert g.current_player == 1
    assert g.nominated_suit is None
    assert g.discard_pile() == ["2H", "7H", "8H"]
    assert multiset(g.hand(0)) == multiset(["2S", "3S", "3C", "4C"])


def test_ZD_1b_ace_inside_a_run_is_not_an_attack():
    """ZD-1: On top `9D`, `AD 2D 2S 3S` is legal, and the `AD` is not an attack."""
    g = _zd1("9D", ["AD", "2D", "2S", "3S", "KC"])
    play_turn(g, "AD 2D 2S 3S")
    assert g.discard_pile() == ["9D", "AD", "2D", "2S", "3S"]
    assert g.hand(0) == ["KC"]
    assert g.current_player == 1
    assert g.phase == "play"
    assert g.pending_draw == 0
    assert multiset(g.hand(1)) == multiset(["5D", "6D"])


def test_ZD_1c_no_bicycle():
    """ZD-1: On top `QH`, `KH AH` is illegal (a bicycle), and `2H AH KH` is
    illegal."""
    # KS / AS keep a legal continuation in hand, so the turn is still open
    # when the wrapped card is refused.
    g = _zd1("QH", ["KH", "KS", "AH", "2H", "5C"])
    g.step("play KH")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play KS", "end"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play AH")

    g = _zd1("QH", ["2H", "AH", "AS", "KH", "5C"])
    g.step("play 2H")
    assert legal(g) == {"play AH", "end"}
    g.step("play AH")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play AS", "end"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play KH")


def test_ZD_2a_wild_eight_is_played_alone():
    """ZD-2: (a) P0 plays `8D` as the only card and names C. Expect: P1 must play an
    8 or a club; P0 may not add cards after a wild 8."""
    # n=2 (not stated).  P0 still holds 9D and 8C, which would continue a run.
    # P1: 8H (an 8), 4C (club), 5S (the old top's rank) and 7D.
    g = position(
        PRESET,
        2,
        hands=[["8D", "9D", "8C", "3S"], ["8H", "4C", "5S", "7D"]],
        discard=["5H"],
        stock=["TD", "JD"],
    )
    g.step("play 8D")
    assert g.current_player == 0
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    for c in ("9D", "8C"):
        with pytest.raises(eights.IllegalActionError):
            g.step(f"play {c}")
    g.step("suit C")
    assert g.current_player == 1
    assert g.nominated_suit == "C"
    assert multiset(g.hand(0)) == multiset(["9D", "8C", "3S"])
    assert legal(g) == plays("8H 4C")


def test_ZD_2b_eights_inside_a_run_make_no_nomination():
    """ZD-2: (b) Top `6H`; P0 plays `7H 8H 8S 9S`. Expect: no nomination; P1 must
    match `9S`."""
    # n=2 (not stated).  P1: 9C (rank), 2S (suit), 3H (the run's first suit)
    # and KD.
    g = position(
        PRESET,
        2,
        hands=[["7H", "8H", "8S", "9S", "4D"], ["9C", "2S", "3H", "KD"]],
        discard=["6H"],
        stock=["TD", "JD"],
    )
    play_turn(g, "7H 8H 8S 9S")
    assert g.discard_pile() == ["6H", "7H", "8H", "8S", "9S"]
    assert g.current_player == 1
    assert g.nominated_suit is None
    assert g.top_card == "9S"
    assert legal(g) == plays("9C 2S")


def test_ZD_3_ace_chain_grows_by_two():
    """ZD-3: n=3. P0 ends the turn with `AD` on top. P1 plays `AS`. Expect: P2 must
    play an ace or draw 4 and forfeit. P2 draws 4. Expect: P0 acts on `AS` with no
    chain."""
    # P1 also holds 7C and KH (no answer); P2 holds AC (answer), 9S (would match
    # AS normally) and 8S (a wild: no answer).
    g = position(
        PRESET,
        3,
        hands=[["AD", "5S", "3H", "KC"], ["AS", "7C", "KH"], ["AC", "9S", "8S"]],
        discard=["9D"],
        stock=["2D", "3D", "4D", "6D", "7D"],
    )
    play_turn(g, "AD")
    assert g.top_card == "AD"
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play AS", "accept"}

    play_turn(g, "AS")
    assert g.top_card == "AS"
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 4
    assert legal(g) == {"play AC", "accept"}

    g.step("accept")
    assert multiset(g.hand(2)) == multiset(["AC", "9S", "8S", "2D", "3D", "4D", "6D"])
    assert g.stock() == ["7D"]
    assert g.pending_draw == 0
    assert g.current_player == 0
    assert g.phase == "play"
    assert g.top_card == "AS"
    assert legal(g) == plays("5S")


def test_ZD_4_going_out_with_an_attacking_ace():
    """ZD-4: n=2. P0 goes out with `AH`, which is an attack. Expect: P1 draws 2; P0
    scores 1 point per card in P1's hand, the 2 drawn cards included."""
    # P1 holds no ace, so drawing is P1's only possibility.
    g = position(
        PRESET,
        2,
        hands=[["AH"], ["3C", "4C", "6D", "7S", "TD"]],
        discard=["9H"],
        stock=["2C", "3D", "5D"],
        rules=ONE_HAND,
    )
    g.step("play AH")
    # Either reading of "the next player has to pick up" is accepted here: the
    # engine applies the 2 cards itself, or it asks P1, whose only action is then
    # "accept".
    if not g.is_terminal and g.current_player == 1:
        assert legal(g) == {"accept"}
        g.step("accept")
    assert hand_over(g)
    assert g.winner == 0
    assert multiset(g.hand(1)) == multiset(["3C", "4C", "6D", "7S", "TD", "2C", "3D"])
    assert g.stock() == ["5D"]
    assert list(g.hand_points) == [7, 0]
    assert list(g.scores) == [7, 0]


def test_ZD_5_ace_start_card_is_no_attack():
    """ZD-5: the start card is `AS`. Expect: no attack; P0 must play an ace, a
    spade, or an 8."""
    # n=2, 7 cards each.
    hands = [
        ["AC", "5S", "8D", "3H", "4D", "6C", "TH"],
        ["2C", "3C", "9H", "JD", "QD", "KH", "7C"],
    ]
    g = dealt_game(PRESET, 2, hands=hands, start="AS", stock=["2D", "3D"])
    assert multiset(g.hand(0)) == multiset(hands[0])
    assert g.current_player == 0
    assert g.pending_draw == 0
    assert g.phase == "play"
    assert legal(g) == plays("AC 5S 8D")


def test_ZD_6_zodiac_card_draw_seven():
    """ZD-6: `zodiac.card=JC`, n=3. P0 plays `JC` on `4C`. Expect: P1 draws 7 and
    forfeits. P2 must play a club or a J; a wild 8 is illegal on `JC`."""
    # P1 holds JD (a J can't answer).  P2: 9C (club), JH (a J), 8D (only
    # playable as a wild) and 5S.
    penalty = ["2H", "3H", "4H", "7H", "9H", "TH", "QH"]
    g = position(
        PRESET,
        3,
        hands=[["JC", "5H", "6H"], ["2D", "3D", "JD"], ["9C", "JH", "8D", "5S"]],
        discard=["4C"],
        stock=penalty + ["KH", "AH"],
        rules=ZODIAC_JC,
    )
    play_turn(g, "JC")
    assert g.top_card == "JC"
    assert multiset(g.hand(1)) == multiset(["2D", "3D", "JD"] + penalty)
    assert g.stock() == ["KH", "AH"]
    assert g.pending_draw == 0
    assert g.current_player == 2
    assert g.phase == "play"
    assert legal(g) == plays("9C JH")
    with pytest.raises(eights.IllegalActionError):
        g.step("play 8D")


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_ZD_fidelity_wild_eight_not_on_the_zodiac_card():
    """Source (Zodiac): "Remember that you can play a single 8 at any time,
    regardless of the card facing up on the discard pile (except for the Zodiac
    card)."

    The Zodiac card `JC` is on top (no draw pending): P0's `8H` is illegal; `TC`
    (a club) is legal."""
    g = position(
        PRESET,
        3,
        hands=[["8H", "3H", "TC"], ["4C", "6C"], ["6D", "7D"]],
        discard=["5C", "JC"],
        stock=["2D", "3D"],
        rules=ZODIAC_JC,
    )
    assert "play 8H" not in legal(g)
    assert "play TC" in legal(g)


def test_ZD_fidelity_wild_eight_on_a_turned_up_zodiac_card():
    """Source (Zodiac): "NOTE: If the dealer turns over one of these "SPECIAL" cards to
    begin the discard pile, its special properties DO NOT APPLY. In that case, the person
    to the dealer's left begins play according to the normal rules: They must begin their
    turn by discarding a card that matches the overturned card's face value or suit. For
    example, if the dealer turns over the spadeA, then the first person must start by
    discarding an Ace, a Spade (spade), or an 8." and "You can play an 8 at any time as a
    wild card to change the suit."; the ban ("except for the Zodiac card") is the Zodiac
    card's own property, which a turned-up Zodiac card does not have (docs/fidelity.md,
    D12; docs/rules_catalog.md#zodiac).

    The start card is the Zodiac card `JC`: P0 draws nothing, and may play `9C` (suit),
    `JD` (face value) or the wild `8H`. When P0 cannot play and draws, P1 faces the same
    uncovered `JC` and may play a wild `8S` too. The played Zodiac card keeps the ban
    (`test_ZD_fidelity_wild_eight_not_on_the_zodiac_card`)."""
    hands = [
        ["9C", "JD", "8H", "3H", "4D", "6D", "TH"],
        ["2S", "3S", "9H", "5D", "QD", "KH", "8S"],
    ]
    g = dealt_game(PRESET, 2, hands=hands, start="JC", stock=["2D", "3D"], rules=ZODIAC_JC)
    assert multiset(g.hand(0)) == multiset(hands[0]), "the turned-up Zodiac card makes nobody draw"
    assert g.current_player == 0 and g.phase == "play"
    assert legal(g) == plays("9C JD 8H")
    g.step("play 8H")
    assert legal(g) == ALL_SUIT_NOMINATIONS
    hands = [
        ["2H", "3H", "4D", "6D", "TH", "5H", "7H"],
        ["2S", "3S", "9H", "5D", "QD", "KH", "8S"],
    ]
    g = dealt_game(PRESET, 2, hands=hands, start="JC", stock=["2D", "3D"], rules=ZODIAC_JC)
    assert legal(g) == {"draw"}
    g.step("draw")
    assert g.current_player == 1 and g.top_card == "JC"
    assert legal(g) == plays("8S")


def test_ZD_fidelity_going_out_with_the_zodiac_card_next_draws_seven_winner_counts_them():
    """Source (Zodiac): "If a player "goes out", i.e. plays all their cards and ends
    their hand by playing either an Ace or the Zodiac card, the next player in turn
    has to pick up the 2, 4, 6, 7, or 8 cards. The winner counts them toward his
    total." and "That player receives 1 point for each card his opponent(s) hold."

    n=3: P0's last card is `JC`; P1 draws 7 (9 cards), P2 holds 2: P0 scores 11."""
    stock = ["2D", "3D", "4D", "5D", "9C", "7S", "8S", "9S"]
    g = position(
        PRESET,
        3,
        hands=[["JC"], ["4H", "6H"], ["6D", "7D"]],
        discard=["5C"],
        stock=stock,
        rules={**ZODIAC_JC, **ONE_HAND},
    )
    g.step("play JC")
    assert hand_over(g)
    assert g.winner == 0
    assert multiset(g.hand(1)) == multiset(["4H", "6H"] + stock[:7])
    assert list(g.hand_points) == [11, 0, 0]


def test_ZD_fidelity_a_zodiac_card_inside_the_run_that_goes_out_still_draws_seven():
    """Source (Zodiac): "When a player discards this card, the next player must draw seven
    cards and must forfeit their turn." with "If a player "goes out" [...] by playing either
    an Ace or the Zodiac card, the next player in turn has to pick up the [...] cards. The
    winner counts them toward his total." The Zodiac card acts anywhere in a run (catalog
    A38, as during the hand).

    n=3: P0 goes out with the run `JC QC` on `TC`: P1 draws 7 (9 cards), P2 holds 3, and P0
    scores 12. (The engine applied the card inside a run during the hand, but not in the run
    that took its player out: P1 drew nothing and P0 scored 5.)"""
    stock = ["4C", "6C", "7C", "9C", "5D", "KC", "4S", "6S"]
    hands = [["JC", "QC"], ["9H", "KH"], ["2C", "QD", "QH"]]
    g = position(PRESET, 3, hands=hands, discard=["3C", "TC"], stock=stock, rules={**ZODIAC_JC, **ONE_HAND})
    g.step("play JC")
    g.step("play QC")
    assert hand_over(g) and g.winner == 0
    assert multiset(g.hand(1)) == multiset(["9H", "KH"] + stock[:7])
    assert list(g.hand_points) == [12, 0, 0]
    # The same run, not the player's last cards: P1 draws 7 and forfeits, as before.
    g = position(PRESET, 3, hands=[["JC", "QC", "5H"], *hands[1:]], discard=["3C", "TC"], stock=stock)
    g.step("play JC")
    g.step("play QC")
    if g.current_player == 0:  # a run may go on: end it
        g.step("end turn")
    assert len(g.hand(1)) == 9 and g.current_player == 2


def test_ZD_fidelity_draw_only_when_unable_to_discard():
    """Source (Zodiac): "If a player cannot discard at least 1 card, then he must draw
    1 card from the overturned deck, and play progresses to the next player on the
    left." Catalog (A38): no voluntary draw.

    Top `5D`: P0 holding `5C` and `9D` may not draw; holding nothing playable, P0
    draws 1 and the turn passes."""
    g = position(
        PRESET,
        3,
        hands=[["5C", "4H", "9D"], ["4C", "6C"], ["6D", "7D"]],
        discard=["5D"],
        stock=["2D", "3D"],
    )
    assert legal(g) == plays("5C 9D")
    g = position(
        PRESET,
        3,
        hands=[["3C", "4H", "9S"], ["4C", "6C"], ["6D", "7D"]],
        discard=["5D"],
        stock=["2S", "3D"],
    )
    assert legal(g) == {"draw"}
    g.step("draw")
    assert multiset(g.hand(0)) == multiset(["3C", "4H", "9S", "2S"])
    assert g.current_player == 1


# ------------------------------------------- Wild Instapik (variant `wild_instapik`)

INSTAPIK = {"variants": ["wild_instapik"]}
NUMBER_RANKS = set("23456789T")


def _instapik(hands, discard, wild_rank, **kw):
    g = eights.Game.from_position(
        PRESET,
        len(hands),
        hands=hands,
        discard=discard,
        stock=["TD", "QD", "9D", "2D"],
        rules={**INSTAPIK, **ZODIAC_JC},
        wild_rank=wild_rank,
        **kw,
    )
    assert g.wild_rank == wild_rank
    return g


def test_ZD_instapik_the_assigned_rank_is_wild_and_the_eights_are_ordinary():
    """Source: "Wild Instapik: The 8 can be assigned to any number card (2 to 10)." and
    "You can play an 8 at any time as a wild card to change the suit. When played in this
    manner, you must play the 8 as the FIRST and ONLY card played on that turn."

    Fives assigned: on `9H`, P0's `5C` plays as a wild (alone, then a suit is named) and
    `8S` is an ordinary card (illegal on `9H`). After diamonds are named P1 may play a
    diamond or a five, not its `8C`."""
    g = _instapik([["5C", "8S", "3D", "7C"], ["8C", "5S", "4D", "KC"], ["2S", "3S"]], ["9H"], "5")
    assert legal(g) == plays("5C")
    g.step("play 5C")
    assert g.current_player == 0
    assert legal(g) == ALL_SUIT_NOMINATIONS, "a wild five is the only card of its turn"
    g.step("suit D")
    assert g.current_player == 1
    assert g.nominated_suit == "D"
    assert legal(g) == plays("5S 4D")


def test_ZD_instapik_the_assigned_rank_inside_a_run_is_ordinary():
    """Source: "You can also play 8s "normally", like any other card. ... When played in
    this manner, 8s have no special power or meaning." (the assigned rank takes the 8's
    place). Sevens assigned: on `4H`, P0 plays `4S 5S 6S 7S`: the `7S` ends a run, so no
    suit is named and P1 must match the `7S`; the eights `8S` after it is an ordinary run
    card too."""
    g = _instapik([["4S", "5S", "6S", "7S", "8S", "KD"], ["7D", "3S", "9C"], ["2C", "3C"]], ["4H"], "7")
    play_turn(g, "4S 5S 6S 7S 8S")
    assert g.discard_pile() == ["4H", "4S", "5S", "6S", "7S", "8S"]
    assert g.nominated_suit is None
    assert g.current_player == 1
    # On 8S: a spade or an 8 matches; the 7D is the wild rank.
    assert legal(g) == plays("3S 7D")


def test_ZD_instapik_the_assigned_rank_is_not_wild_on_the_zodiac_card():
    """Source: "Remember that you can play a single 8 at any time, regardless of the card
    facing up on the discard pile (except for the Zodiac card)." With fours assigned, the
    `4D` is not wild on the Zodiac card `JC`; the `4C` still matches it by suit."""
    g = _instapik([["4D", "4C", "9H"], ["2S", "3S"]], ["5C", "JC"], "4")
    assert legal(g) == plays("4C")


def test_ZD_instapik_eights_assigned_play_as_the_plain_game():
    """Source: "The 8 can be assigned to any number card (2 to 10)." The draw may fall on
    the eights themselves: then they are wild as in the plain game."""
    g = _instapik([["8C", "5S", "3D"], ["2S", "3S"]], ["9H"], "8")
    assert legal(g) == plays("8C")
    g.step("play 8C")
    assert legal(g) == ALL_SUIT_NOMINATIONS


def test_ZD_instapik_the_rank_is_drawn_before_each_hand_from_2_to_10():
    """Source: "Before play, remove all J, Q, K and A cards and shuffle the deck. The
    dealer must "burn" the top card in the deck by discarding it face-down. The next card
    dealt from the top of the deck is the assigned "wild card". Place all J, Q, K, and A
    cards back into the deck, reshuffle all cards and proceed with normal play."

    The rank is a number rank (2 to 10), each of the nine can come up, the same seed gives
    the same rank, the deal is the normal one from the whole pack, and a new hand of a
    match draws again ("Before play": the dealer does it, and the deal rotates)."""
    seen = set()
    for seed in range(200):
        g = eights.Game(PRESET, 2, seed=seed, rules=INSTAPIK)
        assert g.wild_rank in NUMBER_RANKS
        seen.add(g.wild_rank)
        assert eights.Game(PRESET, 2, seed=seed, rules=INSTAPIK).wild_rank == g.wild_rank
        assert sum(g.hand_sizes) == 14
        assert sum(g.hand_sizes) + g.stock_size + g.discard_size == 52
    assert seen == NUMBER_RANKS
    assert eights.Game(PRESET, 2, seed=3).wild_rank is None, "not drawn without the variant"

    redrawn = 0
    rules = {"variants": ["wild_instapik", "match_to_55"]}
    for seed in range(20):
        g = position(PRESET, 2, hands=[["6H"], ["2C", "3C"]], discard=["6D"], stock=["9S"], rules=rules, seed=seed)
        first = g.wild_rank
        g.step("play 6H")
        assert not g.is_terminal and g.hands_played == 1
        assert g.wild_rank in NUMBER_RANKS
        redrawn += g.wild_rank != first
    assert redrawn > 0, "each hand draws its own wild rank"


def test_ZD_instapik_the_rank_is_public_and_survives_snapshots():
    """The assigned card is dealt face up before the game ("The next card dealt from the
    top of the deck is the assigned "wild card""), so every player knows the rank: it is
    the one-hot `wild_rank` slice of every player's observation (zero without the
    variant), `to_dict`/`from_dict` keep it, and a snapshot with a rank that cannot be
    assigned is refused."""
    g = _instapik([["5C", "8S"], ["8C", "5S"], ["2S", "3S"]], ["9H"], "6")
    a, b = g.observation_spec()["wild_rank"]
    assert b - a == 13
    for p in range(3):
        row = g.observation(p)[a:b]
        assert list(row) == [1.0 if r == "6" else 0.0 for r in "A23456789TJQK"]
    plain = position(PRESET, 2, hands=[["5C"], ["5S"]], discard=["9H"], stock=["2D"])
    assert not plain.observation(0)[a:b].any()
    # The per-card rule features show the hand's wild cards: the sixes, not the eights.
    wild = list(g.rules_feature_names()).index("wild")
    features = g.rules_features()
    face = lambda card: g.string_to_action(f"play {card}")  # noqa: E731
    assert [features[face(f"6{s}"), wild] for s in "CDHS"] == [1.0] * 4
    assert [features[face(f"8{s}"), wild] for s in "CDHS"] == [0.0] * 4
    assert plain.rules_features()[face("8C"), wild] == 1.0

    d = g.to_dict()
    g2 = eights.Game.from_dict(d)
    assert g2.wild_rank == "6"
    assert g2.legal_action_strings() == g.legal_action_strings()
    for bad in ("J", "A", "x"):
        with pytest.raises(ValueError, match="wild_rank"):
            eights.Game.from_dict({**d, "wild_rank": bad})
    missing = dict(d)
    del missing["wild_rank"]
    with pytest.raises(ValueError, match="wild_rank"):
        eights.Game.from_dict(missing)
    plain_d = plain.to_dict()
    assert "wild_rank" not in plain_d
    with pytest.raises(ValueError, match="wild_rank"):
        eights.Game.from_dict({**plain_d, "wild_rank": "5"})
    with pytest.raises(ValueError, match="wild_rank"):
        _instapik([["5C"], ["5S"]], ["9H"], "Q")
    with pytest.raises(ValueError, match="wild_rank"):
        eights.Game.from_position(PRESET, 2, hands=[["5C"], ["5S"]], discard=["9H"], wild_rank="5")


def test_ZD_instapik_is_described():
    """`describe()` states the option as a rule only when it is on (the preset's notes
    describe the variant either way)."""
    rule = "Wild Instapik: before each hand a number rank from 2 to 10 is drawn"
    assert rule in eights.Rules(PRESET, INSTAPIK).describe()
    assert rule not in eights.Rules(PRESET).describe()
    assert "variant `wild_instapik`" in eights.Rules(PRESET).describe()


def test_ZD_fidelity_a_zodiac_card_in_a_run_that_ends_on_an_attacking_ace():
    """Source (Zodiac): "When a player discards this card, the next player must draw seven
    cards and must forfeit their turn." with "When a player discards an ace, the next player
    must either play an ace or draw two cards and forfeit their turn." The Zodiac card acts
    anywhere in a run (catalog A38). A turn forfeited has no ace to answer with, so the next
    player draws both: 7 + 2, as when such a run goes out ("pick up the 2, 4, 6, 7, or 8
    cards"). The text gives no order for the two; this is the engine's reading.

    n=3, `JC` is the Zodiac card: P0 plays `JC` down to `AC` on `QC`, keeping `5H`. P1,
    holding `AH`, draws 9 and does not play; P2 acts. (The seven was lost: P1 faced only
    the ace, and could answer it.)"""
    run = "JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC".split()
    stock = ["4D", "6D", "7D", "9D", "5D", "KD", "4S", "6S", "7S", "9S", "TS", "QS"]
    g = position(
        PRESET,
        3,
        hands=[[*run, "5H"], ["9H", "KH", "AH"], ["2S", "QD", "QH"]],
        discard=["QC"],
        stock=stock,
        rules={**ZODIAC_JC, **ONE_HAND},
    )
    for c in run:
        g.step(f"play {c}")
    assert multiset(g.hand(1)) == multiset(["9H", "KH", "AH"] + stock[:9])
    assert g.current_player == 2
    assert g.pending_draw == 0
    assert g.phase == "play"

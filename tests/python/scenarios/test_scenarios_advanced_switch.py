"""Scenario checks AS-1 .. AS-6 (docs/rules_catalog.md#advanced_switch-scenario-checks) for `advanced_switch`.

Preset facts used (docs/rules_catalog.md#advanced_switch, A09/A36): 2 packs (two copies of every
card), no jokers, deal 5; suit-or-rank matching; A is wild (optional
nomination) but can't be played on a J or a 2 top card; J = the next player
must play a J, Q or K of any suit or draw 1 (the turn ends), after which the J
is an ordinary card; 8 = skip; 5 = every player passes their whole hand to
seat p-1 (the right), then next(p) plays; 2 = draw-two chain answered by a 2
(sum), accepting ends the turn (R); playing a card identical to the top card
makes every other player draw 1 in turn order and the player goes again;
drawing is not voluntary (R): only a player with no legal card draws, one
card, and may not play it; penalty scoring: spot cards face value, Q/K 10, A
22, J 20, 8 16, 5 10, 2 = 4 (R); the hand total doubles per 2 held and halves
per identical pair held, rounded down once at the end (R).

Engine conventions: the identical-card bonus draws are applied at once (no
decisions of the drawers); `g.hand_points` holds the last hand's points.
"""

import pytest

import eights
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    deal_deck,
    hand_over,
    legal,
    multiset,
    plays,
    position,
)

PRESET = "advanced_switch"
# One hand per episode, so that `is_terminal` marks the end of the hand.
ONE_HAND = {"series": {"match": False}}


def test_AS_1a_jack_forces_a_picture_card():
    """AS-1: n=4, top `9S`. P0 plays `JS`. Expect: P1, holding `QD AH 9H`, may play
    only `QD`."""
    g = position(
        PRESET,
        4,
        hands=[["JS", "4D", "6C"], ["QD", "AH", "9H"], ["2C", "3C"], ["4H", "6H"]],
        discard=["9S"],
        stock=["KC", "3D", "7D"],
    )
    g.step("play JS")
    assert g.current_player == 1
    assert g.phase == "play"
    # AH: aces can't be played on a J.  Drawing is not voluntary (R, A36), so
    # with QD playable "draw" is not offered either.
    assert legal(g) == {"play QD"}
    for c in ("AH", "9H"):
        with pytest.raises(eights.IllegalActionError):
            g.step(f"play {c}")


def test_AS_1b_no_picture_draw_then_jack_is_ordinary():
    """AS-1: If P1 held no J, Q or K, P1 would draw 1 and the turn would end; P2
    would then treat `JS` as ordinary (a spade or a J, but still not an ace)."""
    # P1 draws KC (a picture card) but may not play it: the turn ends.  P2
    # holds 5S (spade), JD (a J), AD (an ace: not on a J) and KH (a picture
    # card that no longer has to be played and matches nothing).
    g = position(
        PRESET,
        4,
        hands=[["JS", "4D", "6C"], ["3H", "9D", "AC"], ["5S", "JD", "AD", "KH"], ["4H", "6H"]],
        discard=["9S"],
        stock=["KC", "3D", "7D"],
    )
    g.step("play JS")
    assert g.current_player == 1
    assert legal(g) == {"draw"}
    g.step("draw")
    assert multiset(g.hand(1)) == multiset(["3H", "9D", "AC", "KC"])
    assert g.stock() == ["3D", "7D"]
    assert g.top_card == "JS"
    assert g.current_player == 2
    assert legal(g) == plays("5S JD")
    for c in ("AD", "KH"):
        with pytest.raises(eights.IllegalActionError):
            g.step(f"play {c}")


def test_AS_2_two_chain_accept_ends_turn():
    """AS-2: n=3. P0 plays `2C`; P1 takes 2. Expect: P1's turn ends; P2 may play a
    club or a 2 (a new chain), but not an ace."""
    # P1 holds no 2: 5D, AH (an ace can't answer, nor be played on a 2) and 9D.
    # P2 holds 7C (club), 2H (a 2), AC (an ace of the 2's suit: still illegal
    # on a 2) and TS.
    g = position(
        PRESET,
        3,
        hands=[["2C", "6H", "9S"], ["5D", "AH", "9D"], ["7C", "2H", "AC", "TS"]],
        discard=["5C"],
        stock=["3D", "4D", "6D", "7D"],
    )
    g.step("play 2C")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"accept"}

    g.step("accept")
    assert multiset(g.hand(1)) == multiset(["5D", "AH", "9D", "3D", "4D"])
    assert g.stock() == ["6D", "7D"]
    assert g.pending_draw == 0
    assert g.current_player == 2
    assert g.phase == "play"
    assert g.top_card == "2C"
    assert legal(g) == plays("7C 2H")
    with pytest.raises(eights.IllegalActionError):
        g.step("play AC")

    # a 2 now starts a new chain of 2 (not 4)
    g.step("play 2H")
    assert g.current_player == 0
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"accept"}


def test_AS_3_five_passes_hands_to_the_right():
    """AS-3: n=4. P0 plays `5H`. Expect: P0's hand goes to P3, P1's to P0, P2's to
    P1 and P3's to P2; then P1 acts."""
    # Hand sizes differ so that every move is visible.
    p0_rest = ["3C", "7D"]
    p1 = ["KC", "4S", "9C"]
    p2 = ["6D", "TC", "QS", "QD"]
    p3 = ["2S"]
    g = position(
        PRESET,
        4,
        hands=[["5H"] + p0_rest, p1, p2, p3],
        discard=["9H"],
        stock=["3D", "4D"],
    )
    g.step("play 5H")
    assert g.top_card == "5H"
    assert multiset(g.hand(3)) == multiset(p0_rest)
    assert multiset(g.hand(0)) == multiset(p1)
    assert multiset(g.hand(1)) == multiset(p2)
    assert multiset(g.hand(2)) == multiset(p3)
    assert list(g.hand_sizes) == [3, 4, 1, 2]
    assert g.stock() == ["3D", "4D"]
    assert g.direction == 1
    assert g.current_player == 1


def test_AS_4_identical_card_others_draw_and_play_again():
    """AS-4: n=4, top `7H` (played by P3). P0 plays the other `7H`. Expect: P1, P2
    and P3 each draw 1, in that order; P0 acts again on `7H`."""
    g = position(
        PRESET,
        4,
        hands=[["7H", "KH", "3S"], ["2C", "4C"], ["5S", "9S"], ["TD", "QC"]],
        discard=["9H", "7H"],
        stock=["3C", "4D", "6C", "9D"],
    )
    g.step("play 7H")
    assert g.discard_pile() == ["9H", "7H", "7H"]
    # one card each, in turn order from P1
    assert multiset(g.hand(1)) == multiset(["2C", "4C", "3C"])
    assert multiset(g.hand(2)) == multiset(["5S", "9S", "4D"])
    assert multiset(g.hand(3)) == multiset(["TD", "QC", "6C"])
    assert g.stock() == ["9D"]
    assert multiset(g.hand(0)) == multiset(["KH", "3S"])
    assert g.current_player == 0
    assert g.phase == "play"
    assert g.top_card == "7H"
    assert legal(g) == plays("KH")


def test_AS_5_no_voluntary_draw_and_drawn_card_not_played():
    """AS-5 (R): P0 holds a legal card. Expect: `draw` is illegal. If P0 has no legal
    card and draws `4H` onto top `4C`, P0 may not play it and P1 acts."""
    # n=2 (not stated).
    g = position(
        PRESET,
        2,
        hands=[["3C", "KD"], ["5S", "6S"]],
        discard=["9C"],
        stock=["4H", "TD"],
    )
    assert legal(g) == {"play 3C"}
    with pytest.raises(eights.IllegalActionError):
        g.step("draw")

    g = position(
        PRESET,
        2,
        hands=[["9D", "KH"], ["5S", "6S"]],
        discard=["4C"],
        stock=["4H", "TD"],
    )
    assert legal(g) == {"draw"}
    g.step("draw")
    assert multiset(g.hand(0)) == multiset(["9D", "KH", "4H"])
    assert g.top_card == "4C"
    assert g.current_player == 1


def test_AS_6_scoring_doubles_and_halves():
    """AS-6: P1 holds `AS 2D 7C 7C` at the end of the hand. Expect: 22+4+7+7 = 40,
    x2 = 80, /2 = 40 points."""
    # n=3 (not stated).  P0 goes out with 9H on 9S (an ordinary card); P2 holds
    # KD 6S = 10 + 6 = 16 (no 2, no identical pair).
    g = position(
        PRESET,
        3,
        hands=[["9H"], ["AS", "2D", "7C", "7C"], ["KD", "6S"]],
        discard=["9S"],
        stock=["3D", "4D"],
        rules=ONE_HAND,
    )
    g.step("play 9H")
    assert hand_over(g)
    assert g.winner == 0
    assert multiset(g.hand(1)) == multiset(["AS", "2D", "7C", "7C"])
    assert list(g.hand_points) == [0, 40, 16]
    assert list(g.scores) == [0, 40, 16]


# ----- option `advanced_switch.allow_500` (docs/rules_catalog.md#advanced_switch, A37) -------------------------
# "a player at or above 250 wins by reaching 500 before all but one exceed 250" (n >= 3),
# literal.  Without it the series ends when exactly one player is below 250, who wins.

MATCH = {"series": {"match": True}}
MATCH_500 = {"series": {"match": True}, "options": {"allow_500": True}}


def _hand_to_500(rules, scores):
    # P1 goes out with 9H on 9S; P0 holds KD (10 points), P2 holds 3C (3 points).
    g = position(
        PRESET,
        3,
        hands=[["KD"], ["9H"], ["3C"]],
        discard=["9S"],
        current_player=1,
        rules=rules,
        scores=scores,
    )
    g.step("play 9H")
    return g


def test_AS_500_rule_reaching_500_wins_the_match():
    g = _hand_to_500(MATCH_500, [490, 100, 200])
    # P0 reaches 500 while two players are still below 250: P0 wins.
    assert g.is_terminal
    assert list(g.scores) == [500, 100, 203]
    assert g.winner == 0


def test_AS_500_rule_off_the_match_goes_on():
    g = _hand_to_500(MATCH, [490, 100, 200])
    # Two players are below 250, so the series is not over.
    assert not g.is_terminal
    assert list(g.scores) == [500, 100, 203]
    assert g.winner is None


def test_AS_500_rule_below_500_the_match_goes_on():
    g = _hand_to_500(MATCH_500, [480, 100, 200])
    assert not g.is_terminal
    assert list(g.scores) == [490, 100, 203]


def test_AS_500_rule_last_below_250_still_wins_first():
    # P0 stays below 500 while P2 passes 250: only P1 is below 250 and wins.
    g = _hand_to_500(MATCH_500, [300, 100, 248])
    assert g.is_terminal
    assert list(g.scores) == [310, 100, 251]
    assert g.winner == 1


def test_AS_500_rule_needs_three_players_and_a_match():
    with pytest.raises(ValueError, match="allow_500"):
        eights.Game(PRESET, 2, rules=MATCH_500)
    with pytest.raises(ValueError, match="allow_500"):
        eights.Game(PRESET, 3, rules={"options": {"allow_500": True}})
    # The documented variant sets both.
    eights.Game(PRESET, 3, rules={"variants": ["allow_500"]})


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_AS_fidelity_ace_wild_with_optional_suit():
    """Source (Advanced Switch): "Aces: Wild cards that can be played at any time to
    the discard pack and a new suit may be selected."

    n=3, top `9H`: P0's `AS` is legal; P0 may name a suit or keep the current one;
    after "D" P1 must play a diamond or an ace."""
    g = position(
        PRESET,
        3,
        hands=[["AS", "3C", "4C"], ["4D", "6H", "AC", "7S"], ["6D", "7D"]],
        discard=["9H"],
        stock=["2D", "3D"],
    )
    assert "play AS" in legal(g)
    g.step("play AS")
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS | {"end"}
    g.step("suit D")
    assert g.current_player == 1
    assert legal(g) == plays("4D AC")  # no voluntary draw (R, A36)


@pytest.mark.parametrize("top", ["JH", "2H"])
def test_AS_fidelity_ace_not_on_a_jack_or_deuce(top):
    """Source (Advanced Switch): "Aces cannot be played to a Jack or deuce."

    Top `JH` or `2H` (no penalty pending): P0's `AS` is illegal."""
    g = position(
        PRESET,
        3,
        hands=[["AS", "QH", "2C"], ["4C", "5C"], ["6D", "7D"]],
        discard=["9H", top],
        stock=["2D", "3D"],
    )
    assert "play AS" not in legal(g)
    with pytest.raises(eights.IllegalActionError):
        g.step("play AS")


def test_AS_fidelity_eight_skips():
    """Source (Advanced Switch): "Eights: When an eight is played the next player
    misses a turn."

    n=3: P0 plays `8H` on `9H`; P1 is skipped and P2 acts."""
    g = position(
        PRESET,
        3,
        hands=[["8H", "3C", "4C"], ["4H", "5C"], ["6H", "7D"]],
        discard=["9H"],
        stock=["2D", "3D"],
    )
    g.step("play 8H")
    assert multiset(g.hand(1)) == multiset(["4H", "5C"])
    assert g.current_player == 2


_AS_START_HANDS = [
    ["3D", "4D", "6D", "7D", "9D"],
    ["3H", "4H", "6H", "7H", "9H"],
    ["3S", "4S", "6S", "7S", "9S"],
]


def _as_start(card):
    g = eights.Game(PRESET, 3, seed=3)
    g.reset(seed=3, deck=deal_deck(_AS_START_HANDS, card, ["TD", "TH", "TS", "KC"]))
    assert g.top_card == card
    return g


def test_AS_fidelity_special_start_cards_act():
    """Source (Advanced Switch): "If a special card is turned up on the deal it must
    be played as above." (treated as played by the dealer, P2 of 3)

    `8C`: P0 misses the turn, P1 acts. `2C`: P0 must take 2 (or play a 2). `JC`: P0
    must play a picture card, so with none only draws. `5C`: the hands pass to the
    right before P0 plays, so P0 holds P1's dealt hand."""
    g = _as_start("8C")
    assert g.current_player == 1
    g = _as_start("2C")
    assert g.current_player == 0
    assert g.pending_draw == 2
    assert legal(g) == {"accept"}
    g = _as_start("JC")
    assert g.current_player == 0
    assert legal(g) == {"draw"}
    g = _as_start("5C")
    assert g.current_player == 0
    assert multiset(g.hand(0)) == multiset(_AS_START_HANDS[1])
    assert multiset(g.hand(1)) == multiset(_AS_START_HANDS[2])
    assert multiset(g.hand(2)) == multiset(_AS_START_HANDS[0])


def test_AS_fidelity_identical_eight_skips_the_players_own_extra_turn():
    """Source (Advanced Switch): "If a card is played identical to the last card
    played then all other players add a card to their hand in turn and the person
    who played the card goes again. If the card is a special card then the player
    must play on it according to the above rules." (A09: an identical 8 skips the
    player's own extra turn)

    n=3, top `8H`: P0 plays the other `8H`; P1 and P2 draw 1 each, P0's extra turn
    is skipped, P1 acts."""
    g = position(
        PRESET,
        3,
        hands=[["8H", "3C", "4C"], ["4H", "5C"], ["6H", "7D"]],
        discard=["9H", "8H"],
        stock=["2D", "3D", "4D"],
    )
    g.step("play 8H")
    assert multiset(g.hand(1)) == multiset(["4H", "5C", "2D"])
    assert multiset(g.hand(2)) == multiset(["6H", "7D", "3D"])
    assert g.current_player == 1


def test_AS_fidelity_identical_deuce_the_player_must_answer_it():
    """Source (Advanced Switch): "If the card is a special card then the player must
    play on it according to the above rules." (A09: an identical 2 makes its own
    player play a 2 or take 2)

    n=3, top `2H` (its penalty already taken): P0 plays the other `2H`; the others
    draw 1 each and P0 must play `2C` or take 2."""
    g = position(
        PRESET,
        3,
        hands=[["2H", "3C", "2C"], ["4H", "5C"], ["6H", "7D"]],
        discard=["9H", "2H"],
        stock=["2D", "3D", "4D", "5D", "6D"],
    )
    g.step("play 2H")
    assert list(g.hand_sizes) == [2, 3, 3]
    assert g.current_player == 0
    assert g.pending_draw == 2
    assert legal(g) == {"play 2C", "accept"}


def test_AS_fidelity_ace_without_a_new_suit_is_followed_by_its_own():
    """Source (Advanced Switch): "Each player in turn discards a card of the same suit or
    rank on the last card played." and "Aces: Wild cards that can be played at any time to
    the discard pack and a new suit may be selected."

    No new suit selected, the ace is the last card played: its own suit is followed. `AS`
    on `9H` and `end`: P1 must play a spade or an ace (not a heart)."""
    g = position(
        PRESET,
        3,
        hands=[["AS", "3C", "4C"], ["4D", "6H", "AC", "7S"], ["6D", "7D"]],
        discard=["9H"],
        stock=["2D", "3D"],
    )
    g.step("play AS")
    g.step("end")
    assert g.nominated_suit is None
    assert g.active_suit == "S"
    assert legal(g) == plays("AC 7S")


def test_AS_fidelity_an_aces_named_suit_binds_the_next_player_only():
    """Source (Advanced Switch): "Aces: Wild cards that can be played at any time to the
    discard pack and a new suit may be selected." with "Special cards only affect the next
    person to play.  Other players treat it as an ordinary card." (docs/fidelity.md, D33)

    n=3. P0 plays `AS` on `9S` and selects hearts; P1 holds no heart (nor an ace) and draws.
    P2 then treats `AS` as an ordinary ace of spades: a spade or an ace, not a heart. The
    engine held P2 to hearts (`6H` only)."""
    g = position(
        PRESET,
        3,
        hands=[["AS", "3C", "4C"], ["4D", "5C"], ["6H", "7S", "9D", "AD"]],
        discard=["9S"],
        stock=["2D", "3D", "4D", "5D", "6D"],
    )
    g.step("play AS")
    g.step("suit H")
    assert g.current_player == 1 and g.active_suit == "H"
    assert legal(g) == {"draw"}  # the next person to play is bound by the hearts
    g.step("draw")
    assert g.current_player == 2 and g.top_card == "AS"
    assert g.nominated_suit is None and g.active_suit == "S"
    assert legal(g) == plays("7S AD")
    with pytest.raises(eights.IllegalActionError):
        g.step("play 6H")


def test_AS_fidelity_a_turned_up_aces_named_suit_binds_the_first_player_only():
    """Source (Advanced Switch): "If a special card is turned up on the deal it must be
    played as above." with "Special cards only affect the next person to play.  Other
    players treat it as an ordinary card." (D33)

    n=3, `AC` turned up: the dealer (P2) selects hearts; P0 holds no heart and draws; P1
    follows the ordinary ace of clubs: `9C`, not its hearts."""
    hands = [["3D", "4D", "6D", "7D", "9D"], ["3H", "4H", "6H", "7H", "9C"], ["3S", "4S", "6S", "7C", "9S"]]
    g = eights.Game(PRESET, 3, seed=7)
    g.reset(seed=7, deck=deal_deck(hands, "AC", ["2D", "5D", "KD", "QD"]))
    assert g.top_card == "AC" and legal(g) >= ALL_SUIT_NOMINATIONS  # the dealer selects
    g.step("suit H")
    assert g.current_player == 0 and legal(g) == {"draw"}
    g.step("draw")
    assert g.current_player == 1 and g.nominated_suit is None
    assert legal(g) == plays("9C")


def test_AS_fidelity_a_named_suit_still_binds_the_next_player_after_a_play():
    """The other side of D33: the next person to play is bound by the selected suit, and a
    card that follows it ends the selection as any card placed does (`AS` naming hearts, P1
    plays `4H`: P2 follows the four of hearts)."""
    g = position(
        PRESET,
        3,
        hands=[["AS", "3C", "4C"], ["4H", "5S"], ["6H", "7S", "4D"]],
        discard=["9S"],
        stock=["2D", "3D", "4D", "5D", "6D"],
    )
    g.step("play AS")
    g.step("suit H")
    assert legal(g) == plays("4H")  # 5S, a spade like the ordinary AS, is not allowed
    g.step("play 4H")
    assert legal(g) == plays("6H 4D")

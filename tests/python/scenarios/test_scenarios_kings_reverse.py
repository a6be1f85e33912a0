"""Scenario checks KR-1 .. KR-6 (docs/rules_catalog.md#kings_reverse-scenario-checks) for `kings_reverse`.

Preset facts used (docs/rules_catalog.md#kings_reverse): 2 packs + 4 jokers (two copies of every
card, RJ x2, BJ x2); J is wild at any time with no nomination (the suit becomes
the jack's); a joker is wild with a required nomination but playable only when
no other card in hand is playable (jacks count, other jokers don't, A21), and
the next player draws 4 and loses the turn (no answer); 7 = the next player
draws 2 and loses the turn (no answer); 8 = skip; K = reverse (n=2: a skip);
AS = give one card to each other player in order of play, the AS player
choosing each card (A19), players left without a card each draw 1 and the
hand ends if the AS player runs out; drawing is voluntary, one card, and a
drawn playable card must be played; the stock is never reshuffled; with an
empty stock a player who can't play passes and is done for the hand (A03);
7 and joker as the last card: the draws apply before scoring; penalty
scoring 7/8/K/AS=20, J=15, joker=25, the rest 5.

Engine conventions: unanswerable penalties are applied at once when the play
resolves (the victim's hand grows, the turn passes on, no decision is asked);
after "play AS" the phase is "give" and the player takes one "give X" per
recipient, next(p) first, while staying the current player.
"""

import pytest

import eights
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    deal_deck,
    dealt_game,
    hand_over,
    legal,
    legal_cards,
    multiset,
    plays,
    position,
)

PRESET = "kings_reverse"
# One hand per episode, so that `is_terminal` marks the end of the hand.
ONE_HAND = {"series": {"match": False}}
LAST_CARD_ACTION = {"last_card": {"mode": "action"}}


def gives(*cs):
    return {f"give {c}" for c in cs}


def test_KR_1a_joker_illegal_while_other_cards_play():
    """KR-1 (a): n=4, top `9C`. P0 holds `JH 9D RJ 4S`. Expect: legal = {`JH`,
    `9D`} plus `draw`; `RJ` is illegal."""
    g = position(
        PRESET,
        4,
        hands=[["JH", "9D", "RJ", "4S"], ["2H", "3H"], ["2D", "3D"], ["5S", "6S"]],
        discard=["9C"],
        stock=["4H", "5H", "6H"],
    )
    assert legal_cards(g) == {"JH", "9D"}
    assert legal(g) == plays("JH 9D") | {"draw"}
    with pytest.raises(eights.IllegalActionError):
        g.step("play RJ")


def _kr1b(p2_hand):
    """KR-1 (b) up to P2's turn: P0 plays RJ on 9C and names D."""
    g = position(
        PRESET,
        4,
        hands=[["RJ", "4S"], ["2H", "3H"], p2_hand, ["5S", "6S"]],
        discard=["9C"],
        stock=["4H", "5H", "6H", "TH", "QH", "2S"],
    )
    # RJ is legal: P0 has no other playable card (4S matches nothing)
    assert legal(g) == {"play RJ", "draw"}
    g.step("play RJ")
    assert g.current_player == 0
    assert g.phase == "nominate"
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit D")
    return g


def test_KR_1b_joker_when_nothing_else_draw_four():
    """KR-1 (b): P0 holds `RJ 4S`. Expect: `RJ` is legal. P0 plays it and names D.
    Expect: P1 draws 4 and loses the turn. P2 acts; their legal cards are
    diamonds and jacks, and a joker only if they hold neither."""
    # P2 holds a diamond (5D), a jack (JS), a joker (BJ: not legal, P2 has other
    # playable cards), 9C (matches the old top only) and 4H.
    g = _kr1b(["5D", "JS", "BJ", "9C", "4H"])
    # P1 drew 4 at once and was passed over
    assert multiset(g.hand(1)) == multiset(["2H", "3H", "4H", "5H", "6H", "TH"])
    assert g.stock() == ["QH", "2S"]
    assert g.pending_draw == 0
    assert g.current_player == 2
    assert g.top_card == "RJ"
    assert g.nominated_suit == "D"
    assert legal_cards(g) == {"5D", "JS"}
    assert legal(g) == plays("5D JS") | {"draw"}

    # P2 holding neither a diamond nor a jack may play the joker.
    g = _kr1b(["BJ", "9C", "4H"])
    assert g.current_player == 2
    assert legal(g) == {"play BJ", "draw"}


def test_KR_2_seven_draw_two_and_drawn_seven_must_be_played():
    """KR-2: n=4. P0 plays `7C` on `9C`. Expect: P1 draws 2 and misses the turn; no
    7 answer is offered. P2 has no legal card and draws `7S`. Expect: P2 must
    play `7S`; then P3 draws 2 and misses the turn, and P0 acts."""
    # P1 holds 7D (a 7 that could have answered if answers existed).  P2's
    # cards match nothing on 7C (no club, 7, jack or joker).
    g = position(
        PRESET,
        4,
        hands=[["7C", "3D", "5H"], ["7D", "4H"], ["4D", "6H", "2S"], ["3S", "TD"]],
        discard=["9C"],
        stock=["2H", "3H", "7S", "4C", "5C", "6C"],
    )
    g.step("play 7C")
    # P1 was not asked anything: the 2 cards were drawn and the turn moved on
    assert multiset(g.hand(1)) == multiset(["7D", "4H", "2H", "3H"])
    assert g.pending_draw == 0
    assert g.current_player == 2
    assert legal(g) == {"draw"}

    g.step("draw")
    assert multiset(g.hand(2)) == multiset(["4D", "6H", "2S", "7S"])
    assert g.current_player == 2
    # the drawn card is playable, so it must be played
    assert legal(g) == {"play 7S"}
    g.step("play 7S")
    assert multiset(g.hand(2)) == multiset(["4D", "6H", "2S"])
    assert multiset(g.hand(3)) == multiset(["3S", "TD", "4C", "5C"])
    assert g.stock() == ["6C"]
    assert g.current_player == 0


def test_KR_3a_king_reverses():
    """KR-3 (a): n=3. P0 plays `KH`. Expect: `d=ccw` and P2 acts."""
    g = position(
        PRESET,
        3,
        hands=[["KH", "3D", "9S"], ["2C", "4C"], ["5C", "6C"]],
        discard=["5H"],
        stock=["2D", "4D"],
    )
    g.step("play KH")
    assert g.direction == -1
    assert g.current_player == 2


def test_KR_3b_two_player_king_is_a_skip():
    """KR-3 (b): n=2. P0 plays `KC`. Expect: P1 misses the turn and P0 acts
    again."""
    g = position(
        PRESET,
        2,
        hands=[["KC", "3D", "9H"], ["2S", "4S"]],
        discard=["5C"],
        stock=["2D", "4D"],
    )
    g.step("play KC")
    assert g.current_player == 0
    assert g.phase == "play"
    assert multiset(g.hand(1)) == multiset(["2S", "4S"])
    assert g.top_card == "KC"


# KR-4 fillers: every card is worth 5 points.
_KR4_OTHERS = [["2C", "6D"], ["QC", "TC"], ["9H", "5C"]]


def test_KR_4a_ace_of_spades_gives_one_card_to_each():
    """KR-4 (a): n=4, top `4S`. P0 holds `AS 3H 5D 9C KD` and plays `AS`. Expect:
    P0 makes three `give` decisions, to P1, P2 and P3 in that order; P0 is left
    with 1 card; P1 acts."""
    g = position(
        PRESET,
        4,
        hands=[["AS", "3H", "5D", "9C", "KD"]] + _KR4_OTHERS,
        discard=["4S"],
        stock=["4D", "5D", "6C"],
    )
    g.step("play AS")
    assert g.current_player == 0
    assert g.phase == "give"
    assert legal(g) == gives("3H", "5D", "9C", "KD")

    g.step("give 3H")  # -> P1
    assert multiset(g.hand(1)) == multiset(["2C", "6D", "3H"])
    assert multiset(g.hand(2)) == multiset(["QC", "TC"])
    assert multiset(g.hand(3)) == multiset(["9H", "5C"])
    assert g.current_player == 0
    assert g.phase == "give"
    assert legal(g) == gives("5D", "9C", "KD")

    g.step("give 5D")  # -> P2
    assert multiset(g.hand(2)) == multiset(["QC", "TC", "5D"])
    assert multiset(g.hand(3)) == multiset(["9H", "5C"])
    assert g.current_player == 0
    assert g.phase == "give"
    assert legal(g) == gives("9C", "KD")

    g.step("give 9C")  # -> P3
    assert multiset(g.hand(3)) == multiset(["9H", "5C", "9C"])
    assert g.hand(0) == ["KD"]
    assert multiset(g.hand(1)) == multiset(["2C", "6D", "3H"])
    assert multiset(g.hand(2)) == multiset(["QC", "TC", "5D"])
    assert g.stock() == ["4D", "5D", "6C"]
    assert g.top_card == "AS"
    assert g.current_player == 1
    assert g.phase == "play"


def test_KR_4b_ace_of_spades_gives_out_last_cards():
    """KR-4 (b): P0 holds `AS 3H 5D 9C`. Expect: after the three gives P0 has 0
    cards and the hand ends (no one-card call needed)."""
    # last_card.mode=action, so a missing call would be penalised; P0 never
    # announces and must not draw.
    g = position(
        PRESET,
        4,
        hands=[["AS", "3H", "5D", "9C"]] + _KR4_OTHERS,
        discard=["4S"],
        stock=["4D", "5D", "6C"],
        rules={**ONE_HAND, **LAST_CARD_ACTION},
    )
    g.step("play AS")
    for card, recipient in (("3H", 1), ("5D", 2), ("9C", 3)):
        assert g.current_player == 0
        assert g.phase == "give"
        assert f"give {card}" in legal(g)
        g.step(f"give {card}")
        assert card in g.hand(recipient)
    assert hand_over(g)
    assert g.winner == 0
    assert g.hand(0) == []
    assert list(g.hand_sizes) == [0, 3, 3, 3]
    assert g.stock() == ["4D", "5D", "6C"]
    # every remaining card is worth 5
    assert list(g.hand_points) == [0, 15, 15, 15]


def test_KR_4c_ace_of_spades_short_of_cards_others_draw():
    """KR-4 (c): P0 holds `AS 3H`. Expect: `3H` goes to P1; P0 has gone out; P2
    and P3 each draw 1; the hand ends."""
    g = position(
        PRESET,
        4,
        hands=[["AS", "3H"]] + _KR4_OTHERS,
        discard=["4S"],
        stock=["4D", "5D", "6C"],
        rules=ONE_HAND,
    )
    g.step("play AS")
    assert g.current_player == 0
    assert g.phase == "give"
    assert legal(g) == gives("3H")
    g.step("give 3H")
    assert hand_over(g)
    assert g.winner == 0
    assert g.hand(0) == []
    assert multiset(g.hand(1)) == multiset(["2C", "6D", "3H"])
    drawn2 = multiset(g.hand(2)) - multiset(["QC", "TC"])
    drawn3 = multiset(g.hand(3)) - multiset(["9H", "5C"])
    assert list(g.hand_sizes) == [0, 3, 3, 3]
    assert drawn2 + drawn3 == multiset(["4D", "5D"])
    assert g.stock() == ["6C"]
    assert list(g.hand_points) == [0, 15, 15, 15]


def test_KR_5_seven_as_last_card_draws_before_scoring():
    """KR-5: n=3, top `7S`. P0's only card is `7H`; P1 holds `7D 8C KH AS JC`. P0
    plays `7H`. Expect: P1 draws 2 (say `RJ 4C`) before scoring, and P1 scores
    20+20+20+20+15+25+5 = 125."""
    g = position(
        PRESET,
        3,
        hands=[["7H"], ["7D", "8C", "KH", "AS", "JC"], ["3D", "QD"]],
        discard=["7S"],
        stock=["RJ", "4C", "2D"],
        rules=ONE_HAND,
    )
    g.step("play 7H")
    assert hand_over(g)
    assert g.winner == 0
    assert multiset(g.hand(1)) == multiset(["7D", "8C", "KH", "AS", "JC", "RJ", "4C"])
    assert multiset(g.hand(2)) == multiset(["3D", "QD"])
    assert g.stock() == ["2D"]
    # P2: 3D=5 QD=5 -> 10
    assert list(g.hand_points) == [0, 125, 10]
    assert list(g.scores) == [0, 125, 10]


def test_KR_6_taking_the_last_card_and_not_playing_it_is_a_final_pass():
    """Source (Kings Reverse): "if player A takes the last of the draw pack, he/she either
    plays it or passes. If player A passes, he/she is done". n=3: P0 draws the stock's last
    card, 4C, which cannot go on 9D, so its turn ends as that pass and P0 is done. After P1's
    9C and P2's pass, P0's 2C and 3C would be playable, but the turn goes to P1. (The engine
    once gave P0 its turn again.)"""
    g = position(
        PRESET,
        3,
        hands=[["2C", "3C"], ["4S", "9C"], ["5H", "6H"]],
        discard=["9D"],
        stock=["4C"],
        rules=ONE_HAND,
    )
    assert legal(g) == {"draw"}
    g.step("draw")
    assert g.stock() == [] and multiset(g.hand(0)) == multiset(["2C", "3C", "4C"])
    assert g.current_player == 1
    g.step("play 9C")
    assert g.current_player == 2 and legal(g) == {"pass"}
    g.step("pass")
    assert not hand_over(g)
    assert g.current_player == 1  # P0 is skipped for the rest of the hand


def test_KR_6_an_eight_skips_the_next_player_still_in_the_hand():
    """Source (Kings Reverse): "An 8 causes the next player to just miss his/her turn." with
    "If player A passes, he/she is done and play continues with players B, C, and D." n=4,
    the stock empty: P1 passes and is done. P0's 8D then skips P2, the next player who still
    has turns, and P3 plays. (The engine spent the skip on P1, who has no turn to miss, and
    P2 played; a seven's lost turn already went to P2.)"""
    for card, skipped, to_act in (("8D", 2, 3), ("7D", 2, 3)):
        g = position(
            PRESET,
            4,
            hands=[[card, "5C"], ["3C", "4C"], ["9D", "6H"], ["2D", "2H"]],
            discard=["2S", "9C"],
            stock=[],
            current_player=1,
            rules=ONE_HAND,
        )
        g.step("pass")  # P1 is done for the hand
        g.step("play 9D")
        g.step("play 2D")
        g.step(f"play {card}")
        assert g.current_player == to_act, (card, g.current_player)
        assert multiset(g.hand(skipped)) == multiset(["6H"])  # the stock is empty: nothing drawn


def test_KR_6_pass_is_final_with_empty_stock():
    """KR-6 (R): n=3, the stock is empty. P0 can't play and passes. Expect: P0 gets
    no more turns this hand. P1 and P2 go on until each has passed; then the
    hand ends and all three hands are scored."""
    # After P2's 4D, P0's 2D would be playable, but P0 is done: the turn goes
    # from P2 straight to P1.
    g = position(
        PRESET,
        3,
        hands=[["2D", "3H"], ["4C", "5S"], ["4D", "6S"]],
        discard=["9C"],
        stock=[],
        rules=ONE_HAND,
    )
    assert legal(g) == {"pass"}
    g.step("pass")
    assert g.current_player == 1
    g.step("play 4C")
    assert g.current_player == 2
    g.step("play 4D")
    assert not hand_over(g)
    assert g.current_player == 1  # P0 is skipped for the rest of the hand
    assert legal(g) == {"pass"}
    g.step("pass")
    assert not hand_over(g)
    assert g.current_player == 2
    assert legal(g) == {"pass"}
    g.step("pass")
    assert hand_over(g)
    assert multiset(g.hand(0)) == multiset(["2D", "3H"])
    # all scored: 2D 3H -> 10; 5S -> 5; 6S -> 5
    assert list(g.hand_points) == [10, 5, 5]
    assert list(g.scores) == [10, 5, 5]


# ----- optional joker bluff (docs/rules_catalog.md#kings_reverse, `kings_reverse.joker_bluff`) ---------------------
# When true a joker may be played even if other cards are playable, and next(p)
# chooses `challenge` or `no_challenge`.  An illegal joker is taken back; its player
# draws the 4 cards and misses their next turn, and the challenger then plays normally
# on the previous top card.  A legal joker means the challenger draws 4 + 2 and loses
# their turn.

BLUFF = {"options": {"joker_bluff": True}}
BLUFF_STOCK = ["4H", "5H", "6H", "TH", "QH", "2S", "3S", "8D"]


def _bluff_position(p0_hand, n=3):
    hands = [p0_hand, ["2C", "3H"], ["5C", "6S"]][:n]
    return position(PRESET, n, hands=hands, discard=["9C"], stock=BLUFF_STOCK, rules=BLUFF)


def test_KR_bluff_joker_playable_with_other_playable_cards_then_challenge_offered():
    g = _bluff_position(["JH", "9D", "RJ", "4S"])
    # Without the flag RJ would be illegal here (KR-1 a); with it RJ may be played.
    assert legal(g) == plays("JH 9D RJ") | {"draw"}
    g.step("play RJ")
    assert g.phase == "nominate"
    g.step("suit H")
    assert g.current_player == 1
    assert g.phase == "challenge"
    assert legal(g) == {"challenge", "no_challenge"}
    assert g.pending_draw == 4


def test_KR_bluff_not_challenged_joker_acts_as_usual():
    g = _bluff_position(["JH", "9D", "RJ", "4S"])
    g.step("play RJ")
    g.step("suit H")
    g.step("no_challenge")
    # P1 draws 4 and loses the turn; the joker and its nomination stand.
    assert multiset(g.hand(1)) == multiset(["2C", "3H", "4H", "5H", "6H", "TH"])
    assert g.current_player == 2
    assert g.phase == "play"
    assert g.top_card == "RJ"
    assert g.nominated_suit == "H"
    assert multiset(g.hand(0)) == multiset(["JH", "9D", "4S"])


def test_KR_bluff_illegal_joker_challenged_is_taken_back():
    g = _bluff_position(["JH", "9D", "RJ", "4S"])
    g.step("play RJ")
    g.step("suit H")
    g.step("challenge")
    # The joker goes back to P0, who draws the 4 cards.
    assert multiset(g.hand(0)) == multiset(["JH", "9D", "RJ", "4S", "4H", "5H", "6H", "TH"])
    assert multiset(g.hand(1)) == multiset(["2C", "3H"])
    # The challenger plays normally on the previous top card (no nomination).
    assert g.top_card == "9C"
    assert g.discard_pile() == ["9C"]
    assert g.nominated_suit is None
    assert g.current_player == 1
    assert g.phase == "play"
    assert legal(g) == plays("2C") | {"draw"}
    g.step("play 2C")
    assert g.current_player == 2
    g.step("play 5C")
    # P0 misses their next turn: play passes to P1.
    assert g.current_player == 1
    # ...only once: after P1 and P2, P0 plays again.  P1 draws QH and P2 draws 2S,
    # neither playable on 5C, so each turn ends.
    g.step("draw")
    assert g.current_player == 2
    g.step("draw")
    assert multiset(g.hand(2)) == multiset(["6S", "2S"])
    assert g.current_player == 0


def test_KR_bluff_legal_joker_challenged_costs_four_plus_two():
    g = _bluff_position(["RJ", "4S"])
    g.step("play RJ")
    g.step("suit D")
    assert g.phase == "challenge"
    g.step("challenge")
    # P1 draws 4 + 2 and loses the turn; the joker stays with its nomination.
    assert multiset(g.hand(1)) == multiset(["2C", "3H", "4H", "5H", "6H", "TH", "QH", "2S"])
    assert g.stock() == ["3S", "8D"]
    assert multiset(g.hand(0)) == multiset(["4S"])
    assert g.top_card == "RJ"
    assert g.nominated_suit == "D"
    assert g.current_player == 2


def test_KR_bluff_two_players_illegal_joker_challenger_plays_twice():
    g = _bluff_position(["JH", "9D", "RJ", "4S"], n=2)
    g.step("play RJ")
    g.step("suit H")
    assert g.current_player == 1 and g.phase == "challenge"
    g.step("challenge")
    assert g.current_player == 1
    g.step("play 2C")
    # P0 misses their next turn, so P1 plays again.
    assert g.current_player == 1
    assert g.phase == "play"


def test_KR_bluff_joker_as_last_card_is_not_challenged():
    g = _bluff_position(["RJ"])
    g.step("play RJ")
    # Going out ends the hand at once (no nomination, G9); the joker's draws apply
    # (last special `draws_apply`); a last joker is legal, so nothing to challenge.
    assert hand_over(g)
    assert g.winner == 0
    assert multiset(g.hand(1)) == multiset(["2C", "3H", "4H", "5H", "6H", "TH"])


def test_KR_bluff_documented_variant_enables_it():
    g = position(
        PRESET,
        3,
        hands=[["JH", "9D", "RJ", "4S"], ["2C", "3H"], ["5C", "6S"]],
        discard=["9C"],
        stock=BLUFF_STOCK,
        rules={"variants": ["joker_bluff"]},
    )
    assert "play RJ" in legal(g)


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_KR_fidelity_joker_turncard_is_returned_and_another_turned():
    """Source (Kings Reverse): "If a joker is the turncard, it is returned to the
    drawing pack and another turned instead."

    n=2, the card turned after the deal is `RJ`: it goes back into the stock and a
    card that is not a joker starts the discard pile; the hands are as dealt."""
    hands = [
        ["3C", "4C", "5C", "6C", "9C", "TC", "2D", "3D", "4D", "5D"],
        ["2H", "3H", "4H", "5H", "6H", "9H", "TH", "2S", "3S", "4S"],
    ]
    g = eights.Game(PRESET, 2, seed=3)
    g.reset(seed=3, deck=deal_deck(hands, "RJ", ["9D", "KC", "KD"]))
    pile = g.discard_pile()
    assert len(pile) == 1
    assert pile[0] not in ("RJ", "BJ")
    assert "RJ" in g.stock()
    assert sum(g.hand_sizes) + len(g.stock()) + len(pile) == 108
    for p in (0, 1):
        assert multiset(g.hand(p)) == multiset(hands[p])


def test_KR_fidelity_marriage_king_and_queen_of_one_suit_together():
    """Source (Kings Reverse): "A King and Queen of the same suit can be played at
    the same time in a marriage". Catalog (A20): the first card must be legal, the
    player chooses the top card, and the K's reverse applies.

    n=3, top `5H`: P0 plays `KH` and may add `QH` (not `QS`); the direction reverses
    and P2 acts on `QH`."""
    g = position(
        PRESET,
        3,
        hands=[["KH", "QH", "QS", "3C"], ["4C", "5C"], ["6D", "7D"]],
        discard=["5H"],
        stock=["2D", "3D"],
    )
    g.step("play KH")
    assert g.current_player == 0
    assert g.phase == "continue"
    assert legal(g) == {"play QH", "end"}
    g.step("play QH")
    assert g.discard_pile() == ["5H", "KH", "QH"]
    assert multiset(g.hand(0)) == multiset(["QS", "3C"])
    assert g.direction == -1
    assert g.current_player == 2


def test_KR_fidelity_eight_skips():
    """Source (Kings Reverse): "An 8 causes the next player to just miss his/her
    turn."

    n=3: P0 plays `8H` on `9H`; P1 misses the turn (draws nothing) and P2 acts."""
    g = position(
        PRESET,
        3,
        hands=[["8H", "3C", "4C"], ["4H", "5C"], ["6H", "7D"]],
        discard=["9H"],
        stock=["2D", "3D"],
    )
    g.step("play 8H")
    assert multiset(g.hand(1)) == multiset(["4H", "5C"])
    assert g.stock() == ["2D", "3D"]
    assert g.current_player == 2


def test_KR_fidelity_jack_wild_suit_becomes_the_jacks():
    """Source (Kings Reverse): "Jacks are wild cards and can be played on any other
    card regardless of suit. Thereafter, the suit is that of the jack played."

    P0 plays `JC` on `9H` (no nomination); P1 must follow clubs: `5C` is legal,
    `9H` and `4H` are not."""
    g = position(
        PRESET,
        3,
        hands=[["JC", "3D", "4D"], ["4H", "5C", "9H"], ["6H", "7D"]],
        discard=["9H"],
        stock=["2D", "3D"],
    )
    g.step("play JC")
    assert g.current_player == 1
    assert g.nominated_suit is None
    assert legal_cards(g) == {"5C"}


def test_KR_fidelity_joker_as_last_card_next_draws_four_before_scoring():
    """Source (Kings Reverse): "If a 7 or joker is played as the last card, the next
    player in sequence must draw the appropriate number of cards before the score is
    tallied." with "jokers are worth 25" … "all other cards are worth 5".

    n=3: P0's last card is `RJ`: P1 draws 4 and scores 7 cards x 5 = 35; P2 (6H 5,
    7D 20) scores 25."""
    stock = ["2D", "3D", "4D", "5D", "6D"]
    g = position(
        PRESET,
        3,
        hands=[["RJ"], ["4H", "5C", "9H"], ["6H", "7D"]],
        discard=["9H"],
        stock=stock,
        rules=ONE_HAND,
    )
    g.step("play RJ")
    assert hand_over(g)
    assert g.winner == 0
    assert multiset(g.hand(1)) == multiset(["4H", "5C", "9H"] + stock[:4])
    assert list(g.hand_points) == [0, 35, 25]


_KR_START_HANDS = [
    ["3C", "4C", "5C", "6C", "9C", "TC", "2D", "3D", "4D", "5D"],
    ["2H", "3H", "4H", "5H", "6H", "9H", "TH", "2S", "3S", "4S"],
    ["6D", "9D", "TD", "QD", "5S", "6S", "9S", "TS", "QS", "QC"],
]


@pytest.mark.parametrize(
    "start, first, direction, p0_extra",
    [
        ("7H", 1, 1, 2),  # P0 draws 2 and misses the turn
        ("8H", 1, 1, 0),  # P0 misses the turn
        ("KH", 1, -1, 0),  # reverse: the dealer's right (P1 of 3) starts
        ("JH", 0, 1, 0),  # the suit is hearts, nothing else
        ("AS", 0, 1, 0),  # no give at the start (A04)
    ],
)
def test_KR_fidelity_special_start_cards(start, first, direction, p0_extra):
    """Source (Kings Reverse): "The player to the dealer's left plays first, unless
    the first card on the discard pile is one of special cards (see below)."
    Catalog (A04): a special start card acts as if the dealer (P2) had played it,
    and an AS start gives nothing.

    n=3, start 7 / 8 / K / J / AS."""
    g = dealt_game(PRESET, 3, hands=_KR_START_HANDS, start=start, stock=["KC", "KD", "2C"])
    assert g.current_player == first
    assert g.direction == direction
    assert len(g.hand(0)) == 10 + p0_extra
    assert list(g.hand_sizes)[1:] == [10, 10]


def test_KR_fidelity_two_player_seven_draw_two_and_same_player_again():
    """Source (Kings Reverse): "A 7 causes the next player to miss his/her turn and
    also draw two cards." n=2: P1 draws 2 and P0 acts again."""
    g = position(
        PRESET,
        2,
        hands=[["7H", "3C", "4C"], ["4H", "5C"]],
        discard=["9H"],
        stock=["2D", "3D", "4D"],
    )
    g.step("play 7H")
    assert multiset(g.hand(1)) == multiset(["4H", "5C", "2D", "3D"])
    assert g.current_player == 0


def test_KR_bluff_with_nobody_left_to_challenge_is_not_offered():
    """docs/rules_catalog.md#kings_reverse, the joker bluff: "a joker may be played even with
    other cards playable, and the next player chooses to challenge it or not." With every other player out of the hand
    (each passed on the empty stock: "a player who passes is done for the hand"), next(p) is
    p itself: nobody can challenge, and the joker's penalty falls as for any joker (on an
    empty stock, no card). The state found by the rule-space fuzz asked p to challenge its
    own joker, a state that could not be saved and loaded."""
    g = position(PRESET, 2, hands=[["RJ", "5H", "9C"], ["6D", "7D"]], discard=["4H"], stock=[], rules=BLUFF)
    d = g.to_dict()
    d["done"] = 2  # seat 1 passed on the empty stock
    g = eights.Game.from_dict(d)
    assert legal(g) == plays("5H RJ") | {"pass"}
    g.step("play RJ")
    g.step("suit C")
    assert g.phase == "play" and g.current_player == 0
    assert legal(g) == plays("9C") | {"pass"}
    assert eights.Game.from_dict(g.to_dict()).to_dict() == g.to_dict()


def test_KR_fidelity_one_card_call_after_the_ace_of_spades_gives():
    """KR rule 20, scenario 3: "If the Ace of spades player holds more cards than
    there are other players, the game continues as usual (including the 'one card'
    rule, so, if after passing out penalty cards, the player has only one card left,
    he/she must call out 'one card!')". `last_card.timing = holding_one`: P0 holds
    `AS 3H 5D 9C KD`; the play leaves four cards and three gives are due, so P0
    may call in the give phase, and a call saves the penalty; without it, P0
    draws two."""
    for call in (True, False):
        g = position(
            PRESET,
            4,
            hands=[["AS", "3H", "5D", "9C", "KD"]] + _KR4_OTHERS,
            discard=["4S"],
            stock=["4D", "5H", "6C"],
            rules={**ONE_HAND, **LAST_CARD_ACTION},
        )
        assert "announce" not in legal(g)  # five cards: the play leaves four
        g.step("play AS")
        assert g.phase == "give"
        assert "announce" in legal(g)  # the three gives will leave one card
        if call:
            g.step("announce")
            assert "announce" not in legal(g)
        for c in ("3H", "5D", "9C"):
            g.step(f"give {c}")
        assert g.current_player == 1
        if call:
            assert g.hand(0) == ["KD"]
            assert g.stock() == ["4D", "5H", "6C"]
        else:
            assert multiset(g.hand(0)) == multiset(["KD", "4D", "5H"])
            assert g.stock() == ["6C"]


def test_KR_fidelity_penultimate_play_timing_owes_no_call_after_a_give():
    """`last_card.timing = on_penultimate_play` (switch_blackjack's "When you play
    your second-to-last card, you must state ... 'Last Card'"): the call is owed for
    the play of the second-to-last card, so a give that leaves one card owes none.
    The same position as above under that timing: no call offered, no penalty."""
    g = position(
        PRESET,
        4,
        hands=[["AS", "3H", "5D", "9C", "KD"]] + _KR4_OTHERS,
        discard=["4S"],
        stock=["4D", "5H", "6C"],
        rules={**ONE_HAND, "last_card": {"mode": "action", "timing": "on_penultimate_play"}},
    )
    g.step("play AS")
    for c in ("3H", "5D"):
        g.step(f"give {c}")
    assert "announce" not in legal(g)
    g.step("give 9C")
    assert g.hand(0) == ["KD"]
    assert g.stock() == ["4D", "5H", "6C"]


def test_KR_bluff_a_joker_taken_back_leaves_the_run_of_fives_it_interrupted():
    """House rules: the joker bluff with `end.four_of_a_kind` (from sevens_and_eights:
    "If all four cards of the same rank are played consecutively, then the hand ends").
    A challenged illegal joker is taken back, so it was never played: the fives under it
    are still the run. n=3, `5H 5D 5C` were played and a reshuffle left `5C` alone on
    the pile (a saved game states the run). P0 plays `RJ` with playable cards, P1
    challenges and then plays `5S`. Expect: four fives in a row end the hand."""
    rules = {"options": {"joker_bluff": True}, "end": {"four_of_a_kind": True}, "series": {"match": False}}
    g = position(
        PRESET,
        3,
        hands=[["RJ", "6C", "KD"], ["5S", "3H"], ["4D", "6S"]],
        discard=["5H", "5D", "5C"],
        stock=["7H", "8H", "9H", "TH", "QH"],
        rules=rules,
    )
    d = g.to_dict()
    assert d["rank_run"] == ["5H", "5D", "5C"]
    d["stock"] += ["5H", "5D"]
    d["discard"] = ["5C"]
    g = eights.Game.from_dict(d)
    g.step("play RJ")
    g.step("suit H")
    g.step("challenge")
    assert g.discard_pile() == ["5C"]
    assert g.current_player == 1
    g.step("play 5S")
    assert hand_over(g)
    # The pile alone shows two fives: the saved run is what ends the hand.
    d["rank_run"] = None
    g = eights.Game.from_dict(d)
    g.step("play RJ")
    g.step("suit H")
    g.step("challenge")
    g.step("play 5S")
    assert not hand_over(g)

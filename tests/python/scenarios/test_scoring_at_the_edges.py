"""Scoring sentences at the edges of a hand (audit round twelve, docs/fidelity.md): a short
stock when a hand-ending card makes someone draw, a direction reversed before the last card, a
shield played as a last card, four of a kind completed by a player still holding cards, and
targets that grow with the number of players. Each test ends a hand (or a match) and reads the
score; every expected value is worked out by hand from the sentence quoted beside it."""

import pytest

import eights
from scenario_helpers import position

ONE_HAND = {"series": {"match": False}}


def test_SE_a_hand_ending_seven_on_a_short_stock_draws_what_the_stock_holds():
    """Source (Sevens and Eights, rules 12 and 13): "If a player ends the hand by playing one or
    more Sevens, then the player after him draws two cards for each Seven played, and the hand
    ends." with "If the deck runs out of cards and all players are holding cards, then all the
    cards in the waste pile, except the top card, are shuffled and a new draw pile is formed."
    P0 goes out on 7D with one card (KC) in the stock: P0 holds no card, so the waste pile is not
    turned over; P1 draws KC only. P1: JS 50 + 3C 5 + KC 40 = 95; P2: 5S 5."""
    g = position(
        "sevens_and_eights",
        3,
        hands=[["7D"], ["JS", "3C"], ["5S"]],
        discard=["2D", "3D", "4D", "6D", "9D"],
        stock=["KC"],
        rules=ONE_HAND,
    )
    g.step("play 7D")
    assert g.is_terminal and g.winner == 0
    assert sorted(g.hand(1)) == sorted(["JS", "3C", "KC"])
    assert list(g.hand_points) == [0, 95, 5]
    assert g.stock_size == 0 and g.discard_size == 6  # the pile stays as it lies


def test_JN_a_hand_ending_joker_on_an_empty_stock_draws_nothing():
    """Source (Jokers and Nines, rules 3 and 5): "If a player ends the hand by playing a Joker,
    then the player after him draws two cards, and the hand ends." and "All other rules of
    Sevens and Eights apply", rule 13 among them: the pile is turned over only "If the deck
    runs out of cards and all players are holding cards". The stock is empty and P0 holds no
    card: P1 draws nothing. P1: JS 50 + 3C 5 = 55; P2: 5S 5."""
    g = position(
        "jokers_and_nines",
        3,
        hands=[["RJ"], ["JS", "3C"], ["5S"]],
        discard=["2D", "3D", "4D", "6D", "9D"],
        stock=[],
        rules=ONE_HAND,
    )
    g.step("play RJ")
    assert g.is_terminal and g.winner == 0
    assert sorted(g.hand(1)) == ["3C", "JS"]
    assert list(g.hand_points) == [0, 55, 5]


def test_SE_in_play_the_pile_is_still_turned_over_for_a_seven():
    """Source (Sevens and Eights, rule 13), the other side of the condition: while every player
    holds cards, "all the cards in the waste pile, except the top card, are shuffled and a new
    draw pile is formed". P0 plays 7D and keeps KD; the stock holds KC: P1 draws KC and one
    card of the turned pile (2D 3D 4D 6D 9D under 7D), four cards in all."""
    g = position(
        "sevens_and_eights",
        3,
        hands=[["7D", "KD"], ["JS", "3C"], ["5S"]],
        discard=["2D", "3D", "4D", "6D", "9D"],
        stock=["KC"],
        rules=ONE_HAND,
    )
    g.step("play 7D")
    assert not g.is_terminal
    held = set(g.hand(1))
    assert len(held) == 4 and {"JS", "3C", "KC"} <= held
    assert held - {"JS", "3C", "KC"} <= {"2D", "3D", "4D", "6D", "9D"}


def test_SE_completing_four_sevens_with_cards_left_the_next_player_draws_per_seven_played():
    """Source (Sevens and Eights, rule 12): "the player after him draws two cards for each Seven
    played ... It does not matter which of the two options stated in rules 10 and 11 he uses to
    end the hand." P0 plays 7H 7C onto 7D 7S (four sevens in a row) and still holds KD: P1 draws
    2 x 2 = 4. P1: JS 50 + 3D 5 + KC 40 + QC 30 + AC 15 + 2C 5 = 145; P2: 5S 5; P0 (did not
    go out, the engine's reading of rule 14): KD 40."""
    g = position(
        "sevens_and_eights",
        3,
        hands=[["7H", "7C", "KD"], ["JS", "3D"], ["5S"]],
        discard=["7D", "7S"],
        stock=["KC", "QC", "AC", "2C", "3C", "4C"],
        rules=ONE_HAND,
    )
    g.step("play 7H")
    g.step("play 7C")
    assert g.is_terminal
    assert list(g.hand_points) == [40, 145, 5]


def test_SE_four_of_a_kind_ending_names_the_lowest_hand_the_winner():
    """Source (Sevens and Eights, rule 10): "If all four cards of the same rank are played
    consecutively, then the hand ends." The text names no winner when nobody went out; the engine
    treats the hand as blocked and names the unique lowest hand (a reading). P0 completes 6D 6S 6C
    6H and holds KD (40); P1 JS 3C (55); P2 5S (5): P2 is named."""
    g = position(
        "sevens_and_eights",
        3,
        hands=[["6H", "KD"], ["JS", "3C"], ["5S"]],
        discard=["6D", "6S", "6C"],
        stock=["KC", "QC", "AC", "2C"],
        rules=ONE_HAND,
    )
    g.step("play 6H")
    assert g.is_terminal
    assert list(g.hand_points) == [40, 55, 5]
    assert g.winner == 2


@pytest.mark.parametrize("last", ["7H", "RJ"])
def test_JN_a_last_seven_or_joker_after_a_nine_the_player_after_him_in_the_new_direction_draws(last):
    """Source (Jokers and Nines, rule 3): "If a player ends the hand by playing a Joker, then the
    player after him draws two cards" (and the sevens of Sevens and Eights, rule 12), with rule 2,
    "If a Nine is played, the order of play is reversed." Play runs anticlockwise: P2 is after P0
    and draws KC QC. P1: JS 50 + 3D 5 = 55; P2: 5S 5 + KC 40 + QC 30 = 75."""
    g = position(
        "jokers_and_nines",
        3,
        hands=[[last], ["JS", "3D"], ["5S"]],
        discard=["7D"],
        stock=["KC", "QC", "AC", "2C"],
        direction=-1,
        rules=ONE_HAND,
    )
    g.step(f"play {last}")
    assert g.is_terminal and g.winner == 0
    assert list(g.hand_points) == [0, 55, 75]


def test_KR_ace_of_spades_as_the_very_last_card_everyone_else_takes_one():
    """Source (Kings Reverse): "2) If the player has fewer cards left than there are other
    players, he/she simply goes out after handing out his/her last card ... and the players who
    did not receive a penalty card must take a card from the pile, and the hand ends." with
    "Sevens, eights, kings, and the Ace of Spades are worth 20 points ... all other cards are
    worth 5." P0's only card is AS: nobody receives, P1 takes KC, P2 takes QC. P1: 4C 5S KC =
    5 + 5 + 20 = 30; P2: 3D QC = 10."""
    g = position(
        "kings_reverse",
        3,
        hands=[["AS"], ["4C", "5S"], ["3D"]],
        discard=["4S"],
        stock=["KC", "QC", "AC", "2C"],
        rules=ONE_HAND,
    )
    g.step("play AS")
    assert g.is_terminal and g.winner == 0
    assert list(g.hand_points) == [0, 30, 10]


def test_ZD_going_out_on_the_zodiac_card_with_a_short_stock_the_pile_is_turned_for_the_seven():
    """Source (Zodiac): "If a player "goes out" ... by playing either an Ace or the Zodiac card,
    the next player in turn has to pick up the 2, 4, 6, 7, or 8 cards. The winner counts them
    toward his total." with "If players use all the cards from the "draw" pile during a hand,
    then the dealer must set aside the card currently laying face up on top of the discard pile,
    and reshuffle the other cards". Three cards in the stock, six under JC: P1 picks up 7 (2 + 7
    = 9 cards) and P0 scores 9 + P2's 1 = 10."""
    g = position(
        "zodiac",
        3,
        hands=[["JC"], ["4H", "5H"], ["9D"]],
        discard=["6D", "7D", "TD", "2S", "3S", "3C"],
        stock=["2C", "4C", "5C"],
        rules=ONE_HAND,
    )
    g.step("play JC")
    if not g.is_terminal and g.current_player == 0 and g.phase == "continue":
        g.step("end")
    assert g.is_terminal and g.winner == 0
    assert len(g.hand(1)) == 9
    assert list(g.hand_points) == [10, 0, 0]


def test_CX_a_pass_through_shield_ten_as_a_second_players_last_card_ends_the_round():
    """Source (Crazy Eights Xtreme): "Once any player has played all their cards and they have
    no more cards in their hand the round ends." against "If a player's last card is a 2 the
    round doesn't end immediately ... Play continues the 2-chain in rotation order until no
    player can play a 2 and draws the required number of cards." and variation 6, "the defensive
    card only shields the player from the 2-chain, but does not end it". The engine's reading:
    P1 going out on its shield ten ends the round at once; P2 never faces the chain. Last card
    TH (tens double): P2 KC 5 + 5D 1 = 6. (The other reading: P2 draws 3C 9C first, 9.)"""
    g = position(
        "crazy_eights_xtreme",
        3,
        hands=[["2H"], ["TH"], ["KC", "5D"]],
        discard=["4H"],
        stock=["3C", "9C", "AC", "2C"],
        rules={**ONE_HAND, "variants": ["defensive_ten_shield"]},
    )
    g.step("play 2H")
    g.step("play TH")
    assert g.is_terminal and g.winner == 0
    assert list(g.hand_points) == [0, 0, 6]


@pytest.mark.parametrize("n, target", [(2, 100), (4, 200)])
def test_CW_the_target_is_fifty_points_per_player(n, target):
    """Source (How to Play Crazy Eights): "a good guideline is 50 points for every player in the
    game. For example, if two people are playing, it's the first player to 100 points, if there
    are three people playing it's the first to 150 points, for four players it's the first to 200
    points". P0 goes out on 9H; the others hold 3D (and 2D 4S with four): P0 collects 3 (or 9).
    Starting one collection short of the target, the match ends with P0 the winner; a point
    lower, it goes on."""
    others = [["3D"], ["2D"], ["4S"]][: n - 1]
    gain = {2: 3, 4: 9}[n]
    for start, over in [(target - gain, True), (target - gain - 1, False)]:
        g = position(
            "crazy_eights_winner_collects",
            n,
            hands=[["9H"], *others],
            discard=["9S"],
            stock=["3C", "9C", "4C", "2C", "5S", "6S", "7S", "4D"],
            rules={"series": {"match": True}},
            scores=[start] + [0] * (n - 1),
        )
        g.step("play 9H")
        assert list(g.scores)[0] == start + gain
        assert g.is_terminal == over
        if over:
            assert g.winner == 0


def test_CP_a_kicker_four_as_the_last_card_ends_the_game_with_no_draw():
    """Source (Crazy Pairs): "When one player has discarded all of his cards then the game is
    over." with "The next player to play must take four cards unless he also plays a four" and
    "all points are awarded to the player who won the round". P0 goes out on 4H: nobody takes
    four. P1 AD 4C 8H JS = 80, P2 7S KH TD 2D 9D = 5 + 10 + 10 + 5 + 5 = 35: P0 collects 115."""
    g = position(
        "crazy_pairs",
        3,
        hands=[["4H"], ["AD", "4C", "8H", "JS"], ["7S", "KH", "TD", "2D", "9D"]],
        discard=["3H"],
        stock=["5C", "6C", "9C", "TC", "QC"],
        rules=ONE_HAND,
    )
    g.step("play 4H")
    assert g.is_terminal and g.winner == 0
    assert len(g.hand(1)) == 4
    assert list(g.hand_points) == [115, 0, 0]


def test_a_player_who_left_the_hand_does_not_stop_the_refills():
    """`stock.no_refill_after_out` stops refills while a player of the hand holds no cards.
    Under `end.play_for_second` the first player out leaves the hand with none and the others
    play on: that player must not stop the refills, or the others draw nothing for ever (182
    of 300 random one_card games ran to the decision cap). With no card owed at the end of a
    one_card hand, the setting changes nothing there: the same games, move for move."""
    import random

    def play(flag, seed):
        rules = eights.Rules(
            "one_card", rules={"end": {"play_for_second": True}, "stock": {"no_refill_after_out": flag}}
        )
        g, rng = rules.game(3, seed=seed), random.Random(seed)
        while not (g.is_terminal or g.is_truncated):
            g.step(rng.choice(g.legal_actions()))
        return g.history(), g.is_truncated

    for seed in range(40):
        assert play(True, seed) == play(False, seed)

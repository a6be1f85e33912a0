"""The scoring sentences that no scenario test read at the end of a hand (audit round ten,
docs/fidelity.md): card values, doubling and halving, special last cards, blocked hands and
match ends. Each test ends a hand (or a match) and reads the score; every expected value is
worked out by hand from the sentence quoted beside it. The scenario files of each preset hold
the rest of its scoring checks."""

import pytest

from scenario_helpers import legal, position

ONE_HAND = {"series": {"match": False}}


def _out(preset, n, hands, top, stock=("6C", "7C", "9C", "TC"), rules=ONE_HAND):
    """P0 goes out with the first card of its hand on `top`; the hand's points."""
    g = position(preset, n, hands=hands, discard=[top], stock=list(stock), rules=rules)
    g.step(f"play {hands[0][0]}")
    assert g.is_terminal and g.winner == 0
    return list(g.hand_points)


# ----------------------------------------------------------------------------- card values


def test_crazy_eights_pictures_count_ten():
    """Source (Crazy Eights): "50 for an eight, 10 for a picture, and spot cards at face
    value". P1 holds JD QC 9H: 10 + 10 + 9 = 29."""
    assert _out("crazy_eights", 2, [["3S"], ["JD", "QC", "9H"]], "3H") == [0, 29]


def test_kings_reverse_jokers_twenty_five_and_other_cards_five():
    """Source (Kings Reverse): "Sevens, eights, kings, and the Ace of Spades are worth 20
    points, jacks are worth 15, jokers are worth 25, and all other cards are worth 5." P1
    holds RJ AH QC TD 2S 8D: 25 + 5 + 5 + 5 + 5 + 20 = 65 (an ace other than the ace of
    spades is an other card)."""
    assert _out("kings_reverse", 2, [["4H"], ["RJ", "AH", "QC", "TD", "2S", "8D"]], "4D") == [0, 65]


def test_sevens_and_eights_an_eight_a_ten_and_an_ace_held():
    """Source (Sevens and Eights, rule 14): "Sevens and Eights - 20 points each", "Aces - 15",
    "Tens - 10", "All others - 5". P1 holds 8C TD AC 6S 2S: 20 + 10 + 15 + 5 + 5 = 55."""
    assert _out("sevens_and_eights", 2, [["4H"], ["8C", "TD", "AC", "6S", "2S"]], "4D") == [0, 55]


def test_jokers_and_nines_a_joker_held_counts_fifty_and_a_nine_twenty():
    """Source (Jokers and Nines, rule 3): "Jokers count 50 points each, and Nines count 20
    points each." Three players: P1 holds RJ 9D (70), P2 holds BJ 3S (55)."""
    assert _out("jokers_and_nines", 3, [["4H"], ["RJ", "9D"], ["BJ", "3S"]], "4D") == [0, 70, 55]


def test_xtreme_card_points():
    """Source (Crazy Eights Xtreme): "Cards 2 - 5 : 1", "Cards 6 - 9 : 2", "Cards 10, Jack,
    Queen, King : 5", "Ace : 6". P0 goes out on 7D (no seven held): P1's 2S 5C AH TS QC JH 6S
    8S count 1 + 1 + 6 + 5 + 5 + 5 + 2 + 2 = 27."""
    hands = [["7D"], ["2S", "5C", "AH", "TS", "QC", "JH", "6S", "8S"]]
    assert _out("crazy_eights_xtreme", 2, hands, "4D", stock=("3C", "4C")) == [0, 27]


def test_xtreme_an_ace_last_doubles_the_aces():
    """Source (Crazy Eights Xtreme, "Double Score"): "all cards that have the same
    denomination as the last card played will have that point value doubled". Out on AD:
    P1's AC AH 2S TS count 12 + 12 + 1 + 5 = 30."""
    assert _out("crazy_eights_xtreme", 2, [["AD"], ["2S", "AC", "AH", "TS"]], "4D", stock=("3C", "4C")) == [0, 30]


@pytest.mark.parametrize(
    "last, held, points",
    [
        ("JD", ["JC", "QC", "3S"], 16),  # JC 10 + QC 5 + 3S 1
        ("QD", ["JC", "QC", "3S"], 16),  # QC 10 + JC 5 + 3S 1
        ("KD", ["JC", "KC", "3S"], 16),  # KC 10 + JC 5 + 3S 1
    ],
)
def test_xtreme_a_court_card_last_ends_the_round_and_doubles_its_rank(last, held, points):
    """Source (Crazy Eights Xtreme): "Once any player has played all their cards and they
    have no more cards in their hand the round ends." with "Double Score" for the last
    card's denomination. A jack last owes no follow-on card."""
    g = position("crazy_eights_xtreme", 2, hands=[[last], held], discard=["4D"], stock=["3C", "4C"], rules=ONE_HAND)
    g.step(f"play {last}")
    if not g.is_terminal and g.current_player == 0 and g.phase == "continue":
        g.step("end")
    assert g.is_terminal and g.winner == 0
    assert list(g.hand_points) == [0, points]


# ------------------------------------------------------ advanced_switch: doubling, halving


def _advanced_out(hand):
    g = position("advanced_switch", 2, hands=[["9H"], hand], discard=["9S"], stock=["3D", "4D"], rules=ONE_HAND)
    g.step("play 9H")
    assert g.is_terminal and g.winner == 0
    return list(g.hand_points)


def test_advanced_switch_special_cards_count_twice_face_value():
    """Source (Advanced Switch): "Special cards count twice their face value, i.e. aces count
    22, jacks count 20, eights count 16 and fives count 10." and "queens and kings count 10".
    JC 20 + 8D 16 + 5H 10 + QS 10 = 56."""
    assert _advanced_out(["JC", "8D", "5H", "QS"]) == [0, 56]


def test_advanced_switch_each_deuce_doubles_the_hand():
    """Source (Advanced Switch): "Deuces double the score of the entire hand. If there is more
    than one deuce in the hand each deuce doubles the score." 2D 4 + 2H 4 + 7C 7 = 15 (a
    deuce, special, counts twice its face value), doubled twice: 60."""
    assert _advanced_out(["2D", "2H", "7C"]) == [0, 60]


def test_advanced_switch_each_set_of_identical_cards_halves_the_hand():
    """Source (Advanced Switch): "If there are two identical cards in the hand the score is
    halved. More than one set of identical cards halves the score for each set." (two packs)
    7C 7C 3H 3H = 20, halved twice: 5; 7C 7D is no identical pair: 14."""
    assert _advanced_out(["7C", "7C", "3H", "3H"]) == [0, 5]
    assert _advanced_out(["7C", "7D"]) == [0, 14]


def test_advanced_switch_deuces_and_identical_cards_together():
    """The two sentences above together: 2D 2D = 8, doubled twice (32), one identical pair
    halves it: 16. An odd total is rounded down once, at the end (the catalog's resolution:
    the text gives no rounding): 7C 7C 3H = 17, halved: 8; 2C 7C 7C 3H 3H 9D = 33, doubled
    (66) and halved twice: 16."""
    assert _advanced_out(["2D", "2D"]) == [0, 16]
    assert _advanced_out(["7C", "7C", "3H"]) == [0, 8]
    assert _advanced_out(["2C", "7C", "7C", "3H", "3H", "9D"]) == [0, 16]


@pytest.mark.parametrize("last", ["5H", "2H", "8H", "JH"])
def test_advanced_switch_a_special_last_card_ends_the_hand_as_it_is(last):
    """Source (Advanced Switch): "When a player runs out of cards, the others each add the
    total value of cards remaining in their hands to their score." A special card played last
    acts no more (the catalog's resolution; the text is silent): a five passes no hands, a
    deuce makes nobody draw. P1 adds KD 10 + 9S 9 = 19, P2 3C 3."""
    g = position(
        "advanced_switch", 3, hands=[[last], ["9S", "KD"], ["3C"]], discard=["9H"], stock=["6C", "7C"], rules=ONE_HAND
    )
    g.step(f"play {last}")
    assert g.is_terminal and g.winner == 0
    assert list(g.hand_points) == [0, 19, 3]


def test_advanced_switch_an_identical_last_card_ends_the_hand_and_nobody_draws():
    """Source (Advanced Switch): "If a card is played identical to the last card played then
    all other players add a card to their hand in turn and the person who played the card goes
    again." and "When a player runs out of cards, the others each add the total value of cards
    remaining in their hands to their score." A reading (docs/fidelity.md, round eleven): as
    for a special card played last, the bonus acts no more when the identical card is the
    player's last (there is no "goes again" for an empty hand): nobody draws, and the hands
    are scored as they are. P1 adds 9D 9 + KC 10 + 3S 3 = 22, P2 4D 4 + 4S 4 = 8."""
    g = position(
        "advanced_switch",
        3,
        hands=[["9H"], ["9D", "KC", "3S"], ["4D", "4S"]],
        discard=["4C", "9H"],
        stock=["QD", "7C", "6C"],
        rules=ONE_HAND,
    )
    g.step("play 9H")
    assert g.is_terminal and g.winner == 0
    assert g.stock() == ["QD", "7C", "6C"]
    assert list(g.hand_points) == [0, 22, 8]


def _advanced_match(scores):
    g = position(
        "advanced_switch",
        3,
        hands=[["KD"], ["9H"], ["3C"]],
        discard=["9S"],
        current_player=1,
        rules={"series": {"match": True}},
        scores=scores,
    )
    g.step("play 9H")  # P0 adds KD 10, P2 adds 3C 3
    return g


def test_advanced_switch_the_last_player_below_250_wins_the_match():
    """Source (Advanced Switch): "250 (or more) points loses" ... "the player whose score is
    below 250 while all others are above 250 is the winner". P0 reaches exactly 250 and P2
    is past it: P1 wins. At 249 two players are below and the match goes on."""
    g = _advanced_match([240, 100, 300])
    assert list(g.scores) == [250, 100, 303]
    assert g.is_terminal and g.winner == 1
    g = _advanced_match([239, 100, 300])
    assert list(g.scores) == [249, 100, 303]
    assert not g.is_terminal


# ----------------------------------------------------------------- endings and winners


@pytest.mark.parametrize("last", ["JH", "QS", "RJ", "7H", "4H", "KH", "2H"])
def test_thirty_eights_a_special_last_card_stops_play_at_once(last):
    """Source (38's): "When someone goes out, play stops immediately, no one can speed in,
    and the hand ends." A special card played last acts no more: no trade (jack), no pick-up
    (QS), no draw (joker, deuce), no ask (seven), no skip or reverse. Points: P1's 5C 6C
    (5 + 5), P2's 9C and P3's 9D (10 each); nobody drew."""
    top = "TH" if last == "RJ" else "T" + last[1]
    g = position(
        "thirty_eights",
        4,
        hands=[[last], ["5C", "6C"], ["9C"], ["9D"]],
        discard=[top],
        stock=["6D", "7D", "5D", "3D"],
        rules={**ONE_HAND, "last_card": {"mode": "off"}},
    )
    g.step(f"play {last}")
    assert g.is_terminal and g.winner == 0
    assert list(g.hand_points) == [0, 10, 10, 10]


def test_zodiac_going_out_on_an_answering_ace_the_next_player_picks_up_four():
    """Source (Zodiac): "If a player "goes out", i.e. plays all their cards and ends their
    hand by playing either an Ace or the Zodiac card, the next player in turn has to pick up
    the 2, 4, 6, 7, or 8 cards. The winner counts them toward his total." with "That player
    receives 1 point for each card his opponent(s) hold." P1 goes out answering P0's ace:
    P2 picks up 4 (6 cards), and P1 scores P0's 1 + P2's 6 = 7."""
    g = position(
        "zodiac",
        3,
        hands=[["AS", "9D"], ["AD"], ["AH", "3C"]],
        discard=["5S"],
        stock=["6C", "7C", "9C", "TC", "5C", "3D"],
        rules=ONE_HAND,
    )
    g.step("play AS")
    if g.phase == "continue":
        g.step("end")
    g.step("play AD")
    assert g.is_terminal and g.winner == 1
    assert len(g.hand(2)) == 2 + 4
    assert list(g.hand_points) == [0, 7, 0]


@pytest.mark.parametrize(
    "preset",
    ["switch_blackjack", "grandads_game", "chase_the_ace", "blackjack_forum_house", "larby_switch", "fat_buddah"],
)
def test_the_first_player_out_wins(preset):
    """Source (Switch and Blackjack): "The aim of the game is to play out your hand, such
    that you have nothing left. You have then won." (and the games that inherit it); David
    Larby's Switch: "The basic aim is to get rid of all cards in the hand."; Fat Buddah, a
    variation of Uno: the first out wins."""
    g = position(
        preset,
        3,
        hands=[["9H"], ["4C", "5C"], ["6D", "4D"]],
        discard=["9S"],
        stock=["3C", "6C", "TC", "5D"],
        rules=ONE_HAND,
    )
    g.step("play 9H")
    assert g.is_terminal and g.winner == 0


@pytest.mark.parametrize("score, ends", [(1, True), (2, False)])
def test_bitch_the_first_player_to_reduce_their_score_to_zero_wins(score, ends):
    """Source (Bitch): "The winner of the game is the first player who reduces their score to
    zero." A player who goes out lowers their score by one and "is immediately dealt a new
    hand of cards equal in size to their new score": at 1 the game ends; at 2, one card."""
    g = position(
        "bitch",
        3,
        hands=[["9H"], ["4C", "5C"], ["6D", "7D"]],
        discard=["9S"],
        stock=["3C", "3D", "3H"],
        rules=ONE_HAND,
        scores=[score, 5, 5],
    )
    g.step("play 9H")
    assert list(g.scores) == [score - 1, 5, 5]
    assert g.is_terminal == ends
    if ends:
        assert g.winner == 0
    else:
        assert g.hand(0) == ["3C"]


def test_crazy_eights_a_blocked_hand_everyone_scores():
    """Source (Crazy Eights): "A player who cannot or does not wish to play just passes. If
    all pass, the game is blocked. Play stops and everyone scores for the cards remaining in
    their hands." (the `no_reshuffle` variant). P1 may pass holding a playable eight; then
    2D 3H = 5, 4H 8S = 54, KD 6S = 16. The text names no winner; the engine names the lowest
    hand (a reading, docs/fidelity.md round ten), none on a tie."""
    rules = {**ONE_HAND, "variants": ["no_reshuffle"]}
    g = position(
        "crazy_eights", 3, hands=[["2D", "3H"], ["4H", "8S"], ["KD", "6S"]], discard=["9C"], stock=[], rules=rules
    )
    g.step("pass")
    assert {"play 8S", "pass"} <= legal(g)
    g.step("pass")
    g.step("pass")
    assert g.is_terminal
    assert list(g.hand_points) == [5, 54, 16]
    assert g.winner == 0
    g = position(
        "crazy_eights", 3, hands=[["2D", "3H"], ["4H", "AS"], ["KD", "6S"]], discard=["9C"], stock=[], rules=rules
    )
    for _ in range(3):
        g.step("pass")
    assert list(g.hand_points) == [5, 5, 16]
    assert g.winner is None


def test_kings_reverse_a_blocked_hand_everyone_scores():
    """Source (Kings Reverse): "Play continues until player D has no card to play. At this
    point everyone counts their card values and adds to their score." With the stock out,
    P0 passes, P1 and P2 play, then nobody can. With "jacks are worth 15 ... all other cards
    are worth 5": 2D 3H = 10, 5S = 5, JS = 15; the lowest hand is named the winner (a
    reading: the text names none)."""
    g = position(
        "kings_reverse", 3, hands=[["2D", "3H"], ["4C", "5S"], ["4D", "JS"]], discard=["9C"], stock=[], rules=ONE_HAND
    )
    for a in ["pass", "play 4C", "play 4D", "pass", "pass"]:
        g.step(a)
    assert g.is_terminal
    assert list(g.hand_points) == [10, 5, 15]
    assert g.winner == 1

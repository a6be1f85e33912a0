"""Variants, one by one: crazy_eights_xtreme (docs/fidelity.md#variants-one-by-one).

The source's numbered variations and its single-deck rules, each a documented variant of
crazy_eights_xtreme (docs/rules_catalog.md#crazy_eights_xtreme), played from a chosen
position beside the same position without the variant. Preset points, from the source:
"Cards 2 - 5 : 1 point each", "Cards 6 - 9 : 2 points each", "Cards 10, Jack, Queen, King :
5 points each", "Aces : 6 points", "Jokers : 20 points", and every card of the last card's
rank counts double.
"""

import pytest

import eights
from scenario_helpers import ALL_SUIT_NOMINATIONS, legal, legal_cards, multiset, position

PRESET = "crazy_eights_xtreme"
STOCK = ["3C", "4C", "5C", "6C", "7C", "9C", "3S", "4S", "5S", "6S", "7S", "9S"]


def _pos(hands, top, *variants, stock=STOCK, scores=None):
    rules = {"variants": list(variants)} if variants else None
    if scores is None:
        return position(PRESET, len(hands), hands=hands, discard=[top], stock=stock, rules=rules)
    return eights.Game.from_position(
        PRESET, len(hands), hands=hands, discard=[top], stock=stock, rules=rules, scores=scores
    )


def test_winner_bonus():
    """Source (Xtreme, variation 1): "Winner Bonus. The player winning a round deducts 10
    from their total score." Variant `winner_bonus`: P0 goes out with `9D` and scores -10
    (0 without the variant); P1's `KD 3H` still scores 5 + 1 = 6."""
    for variants, p0 in (((), 0), (("winner_bonus",), -10)):
        g = _pos([["9D"], ["KD", "3H"]], "4D", *variants)
        g.step("play 9D")
        assert g.is_terminal
        assert list(g.hand_points) == [p0, 6], variants


def test_double_trouble():
    """Source (Xtreme, variation 4): "Double Trouble. ... If the last card played is a 6 - 9
    then cards 6 - 9 count double in scoring for that round. If the last card played is a
    face card then all face cards count double". Variant `double_trouble`: P0 goes out
    with `9D`; P1's `6S 7C KD 3H` score 4 + 4 + 5 + 1 = 14 (the preset doubles the nines
    only: 2 + 2 + 5 + 1 = 10). Out with `QD`, `KS 6S` score 10 + 2 = 12 (preset: 5 + 2)."""
    for variants, points in (((), 10), (("double_trouble",), 14)):
        g = _pos([["9D"], ["6S", "7C", "KD", "3H"]], "4D", *variants)
        g.step("play 9D")
        assert list(g.hand_points) == [0, points], variants
    for variants, points in (((), 7), (("double_trouble",), 12)):
        g = _pos([["QD"], ["KS", "6S"]], "4D", *variants)
        g.step("play QD")
        assert g.is_terminal
        assert list(g.hand_points) == [0, points], variants


@pytest.mark.parametrize(
    "last, p1, p2, plain, trouble",
    [
        # 2 - 5: "all cards 2 - 5 count double": 5D 2 + 2S 2 + 6S 2; QH 5 + 4H 2.
        ("3C", ["5D", "2S", "6S"], ["QH", "4H"], [0, 4, 6], [0, 6, 7]),
        # a face card: "all face cards count double" (J, Q, K; not the ten, not the ace):
        # TS 5 + JD 10 + 5D 1; QH 10 + AH 6 + 6S 2. The preset doubles the kings only.
        ("KC", ["TS", "JD", "5D"], ["QH", "AH", "6S"], [0, 11, 13], [0, 16, 18]),
        # a ten: "The doubling rules remain the same": the tens alone double, as in the
        # preset: KC 5 + TS 10 + 5D 1; QH 5 + AH 6 + 6S 2.
        ("TC", ["KC", "TS", "5D"], ["QH", "AH", "6S"], [0, 16, 13], [0, 16, 13]),
        # an ace: the aces alone double: AS 12 + KD 5 + 5D 1; QH 5 + 6S 2.
        ("AC", ["AS", "KD", "5D"], ["QH", "6S"], [0, 18, 7], [0, 18, 7]),
    ],
)
def test_double_trouble_ends_a_hand_on_each_kind_of_last_card(last, p1, p2, plain, trouble):
    """Source (Xtreme, variation 4): "Double Trouble. When the last card is played if it is a
    2 - 5 then all cards 2 - 5 count double in scoring for that round. If the last card played
    is a 6 - 9 then cards 6 - 9 count double in scoring for that round. If the last card
    played is a face card then all face cards count double when scoring that round. . The
    doubling rules remain the same when the last card is a 10, Ace or Joker." The doubling
    rules without the variant: "When scoring all cards that have the same denomination as the
    last card played will have that point value doubled for that round." Points: "Cards 2 - 5
    : 1 point each", "Cards 6 - 9 : 2 points each", "Cards 10, Jack, Queen, King : 5 points
    each", "Ace : 6 points each". Variant `double_trouble`: P0 goes out on `last` (on `4C`)
    and the hand ends; the scores of P1 and P2 with and without the variant, counted by
    hand in the parameters (a ten is not a face card: its group is its rank alone)."""
    for variants, points in (((), plain), (("double_trouble",), trouble)):
        g = _pos([[last], p1, p2], "4C", *variants)
        g.step(f"play {last}")
        assert g.is_terminal, variants
        assert list(g.hand_points) == points, variants


def test_double_trouble_a_joker_last_doubles_every_card():
    """Source (Xtreme, variation 4): "The doubling rules remain the same when the last card is
    a 10, Ace or Joker." with Double Score's "Unless the last card is a Joker then the points
    for all the cards held that round are doubled." Variant `double_trouble`: P0 goes out on
    `RJ` (naming clubs); P1's `TS 3D 9H` score (5 + 1 + 2) x 2 = 16, P2's `KD AH` (5 + 6) x 2
    = 22, with the variant and without it."""
    for variants in ((), ("double_trouble",)):
        g = _pos([["RJ"], ["TS", "3D", "9H"], ["KD", "AH"]], "4C", *variants)
        g.step("play RJ")
        if not g.is_terminal:
            g.step("suit C")
        assert g.is_terminal, variants
        assert list(g.hand_points) == [0, 16, 22], variants


def test_alternative_scoring():
    """Source (Xtreme, variation 5): "Alternative scoring. - A. Cards 2 - 10: Points value
    equals denomination. ... - B. Cards Jack, Queen, King: 10 points each. - C. Ace : 11
    points. - D. Joker: 50 points." Variant `alternative_scoring`: P0 goes out with `9D`;
    P1's `KC 6C AS RJ` score 10 + 6 + 11 + 50 = 77 (the preset: 5 + 2 + 6 + 20 = 33)."""
    for variants, points in (((), 33), (("alternative_scoring",), 77)):
        g = _pos([["9D"], ["KC", "6C", "AS", "RJ"]], "4D", *variants)
        g.step("play 9D")
        assert g.is_terminal, variants
        assert list(g.hand_points) == [0, points], variants


def test_alternative_scoring_game_to_500():
    """Source (Xtreme, variation 5): "E. Game ends when one player has reached 500 or more
    points." With `match_to_100` and `alternative_scoring`, P1 at 480 takes 10 + 6 = 16
    (496): the match goes on (with `match_to_100` alone it would have ended at 100)."""
    g = _pos([["9D"], ["KC", "6C"], ["3H"]], "4D", "match_to_100", "alternative_scoring", scores=[0, 480, 0])
    g.step("play 9D")
    assert list(g.scores) == [0, 496, 3]
    assert not g.is_terminal
    g = _pos([["9D"], ["KC", "6C"], ["3H"]], "4D", "match_to_100", scores=[0, 93, 0])
    g.step("play 9D")
    assert g.is_terminal and g.winner == 0


def test_match_to_100():
    """Source (Xtreme, Winning): "When any player's score has reached 100 points the game ends
    and the player with the lowest total game score is the winner." Variant
    `match_to_100`: P1 at 93 takes `KC 6C` (5 + 2 = 7) and reaches 100: the match ends, won
    by P0 (0); from 0 a new hand is dealt; without the variant the hand is the game."""
    g = _pos([["9D"], ["KC", "6C"], ["3H"]], "4D", "match_to_100", scores=[0, 93, 10])
    g.step("play 9D")
    assert list(g.scores) == [0, 100, 11]
    assert g.is_terminal and g.winner == 0
    g = _pos([["9D"], ["KC", "6C"], ["3H"]], "4D", "match_to_100", scores=[0, 0, 0])
    g.step("play 9D")
    assert not g.is_terminal
    g = _pos([["9D"], ["KC", "6C"], ["3H"]], "4D", scores=[0, 0, 0])
    g.step("play 9D")
    assert g.is_terminal


def test_silly_hat():
    """Source (Xtreme, variation 7): "If a player is the object of an Ace skip they receive
    the hat or the nick knack. ... The player wearing the hat or possessing the nick-knack at
    the end of the round receives minus 10 points to their score." (catalog A50: literally
    minus 10). Variant `silly_hat`: P0's `AH` skips P1, who gets the hat; P2 goes out with
    `5H`; P1's `KC 6C` score 7 - 10 = -3 (7 without the variant)."""
    for variants, p1 in (((), 7), (("silly_hat",), -3)):
        g = _pos([["AH", "4C", "9S"], ["KC", "6C"], ["5H"]], "4H", *variants)
        g.step("play AH")
        assert g.current_player == 2
        g.step("play 5H")
        assert g.is_terminal
        assert g.hand_points[1] == p1, variants


def test_single_pack():
    """Source (Xtreme, Single Deck Play): "If only 2 to 4 players then a single deck can be
    used. In this case the Jokers are removed. In this case Eights will be the wild cards.
    They then do not have to match the suit in order to be played. Also, they score 20
    points if held at the end of play." Variant `single_pack`: 52 cards (the preset: 108);
    `8C` goes on `KH` and names a suit (an ordinary card in the preset); an eight held
    scores 20 (2 in the preset); refused with five players."""
    for variants, size in (((), 108), (("single_pack",), 52)):
        g = eights.Game(PRESET, 3, seed=2, rules={"variants": list(variants)})
        g.reset(seed=2)
        every = [c for p in range(3) for c in g.hand(p)] + g.stock() + g.discard_pile()
        assert len(every) == size, variants
    hands = [["8C", "4S", "3S"], ["4D", "TS", "KD"], ["6S", "3D"]]
    stock = ["5C", "6C", "7C", "9C"]
    assert "8C" not in legal_cards(_pos(hands, "KH", stock=stock))
    g = _pos(hands, "KH", "single_pack", stock=stock)
    assert legal_cards(g) == {"8C"}
    g.step("play 8C")
    assert legal(g) == ALL_SUIT_NOMINATIONS
    for variants, points in (((), 2 + 1), (("single_pack",), 20 + 1)):
        g = _pos([["9D"], ["8S", "3H"]], "4D", *variants)
        g.step("play 9D")
        assert g.is_terminal, variants
        assert list(g.hand_points) == [0, points], variants
    with pytest.raises(ValueError):
        eights.Game(PRESET, 5, rules={"variants": ["single_pack"]})


def test_single_pack_with_alternative_scoring_asks_what_an_eight_scores():
    """Source (Xtreme): single deck, eights "score 20 points if held at the end of play";
    variation 5, "A. Cards 2 - 10: Points value equals denomination." Together the two
    sentences give an eight 20 or 8, and the text does not say which. Applying one variant's
    value after the other made the score depend on the order the variants were listed in;
    together they are now refused, naming the field, until the rules set it: then a hand that
    ends with `8S` held scores that value, in either order."""
    pair = ["single_pack", "alternative_scoring"]
    for variants in (pair, pair[::-1]):
        with pytest.raises(eights.RulesError, match=r"score\.values\.8 \(20 and 8\)|score\.values\.8 \(8 and 20\)"):
            eights.Rules(PRESET, variants=variants)
        for eight in (20, 8):
            rules = {"variants": variants, "score": {"values": {"8": eight}}}
            g = eights.Game.from_position(
                PRESET, 2, hands=[["9D"], ["8S", "3H"]], discard=["4D"], stock=STOCK, rules=rules
            )
            g.step("play 9D")
            assert g.is_terminal
            assert list(g.hand_points) == [0, eight + 3], (variants, eight)


def test_match_play_with_alternative_scoring_plays_to_500_in_either_order():
    """Source (Xtreme, variation 5): "E. Game ends when one player has reached 500 or more
    points." Variant `match_to_100` turns match play on at the preset's target, so with
    `alternative_scoring` the match is to 500 whichever is listed first."""
    for variants in (["match_to_100", "alternative_scoring"], ["alternative_scoring", "match_to_100"]):
        series = eights.Rules(PRESET, variants=variants).to_dict()["series"]
        assert (series["match"], series["target"], series["winner"]) == (True, 500, "lowest"), variants
    series = eights.Rules(PRESET, variants=["match_to_100"]).to_dict()["series"]
    assert (series["match"], series["target"]) == (True, 100)


def _two_on_p1(*variants, p1):
    g = _pos([["2H", "3D"], p1, ["2S", "4D"], ["5D", "6S", "QD"]], "5H", *variants)
    g.step("play 2H")
    assert g.current_player == 1 and g.pending_draw == 2
    return g


def test_defensive_ten():
    """Source (Xtreme, variation 6): "In one version a card may break a 2-chain without
    forcing the player to draw cards." and "In our rules the '10' is not used for anything so
    it might be used for that." Variant `defensive_ten`: P1 facing 2 plays `TC` (any ten):
    nobody draws and P2 plays normally. Without the variant P1 can only pick up."""
    assert legal(_two_on_p1(p1=["TH", "TC", "8S"])) == {"accept"}
    g = _two_on_p1("defensive_ten", p1=["TH", "TC", "8S"])
    assert legal(g) == {"play TH", "play TC", "accept"}
    g.step("play TC")
    assert g.pending_draw == 0
    assert multiset(g.hand(1)) == multiset(["TH", "8S"])
    assert g.current_player == 2
    assert g.phase == "play"
    assert g.stock() == STOCK


def test_defensive_ten_shield():
    """Source (Xtreme, variation 6): "Another version the defensive card only shields the
    player from the 2-chain, but does not end it. In this case if it matches the suit of the
    top card then it can be played where the 2-chain skips the player but continues going
    around the table." Variant `defensive_ten_shield`: P1 facing `2H` may play `TH` (not
    `TC`): P1 draws nothing and P2 faces the same 2."""
    assert legal(_two_on_p1(p1=["TH", "TC", "8S"])) == {"accept"}
    g = _two_on_p1("defensive_ten_shield", p1=["TH", "TC", "8S"])
    assert legal(g) == {"play TH", "accept"}
    g.step("play TH")
    assert multiset(g.hand(1)) == multiset(["TC", "8S"])
    assert g.current_player == 2
    assert g.pending_draw == 2
    assert legal(g) == {"play 2S", "accept"}

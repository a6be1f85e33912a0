"""Deal, deck size and stock reshuffle of the catalog presets, checked against the sources.

Part of the sentence-level fidelity audit (docs/fidelity.md): each row quotes the
source sentence that fixes the hand size and the number of cards in play, or names
the catalog resolution (the preset's section of docs/rules_catalog.md) where the source is silent.  The
expected numbers come from the sources, never from the engine.
"""

import pytest

import eights

# (preset, players, cards dealt to each seat (the dealer is the last seat),
#  cards in play, source sentence or catalog resolution)
DEALS = [
    (
        "crazy_eights",
        2,
        [7, 7],
        52,
        "five cards to each player (seven each if there are only two players); a standard 52 card pack",
    ),
    ("crazy_eights", 4, [5] * 4, 52, "The dealer deals (singly) five cards to each player"),
    (
        "crazy_eights",
        6,
        [5] * 6,
        104,
        "or two such packs shuffled together if there are a lot of players (R: from 6 players)",
    ),
    ("crazy_eights_specials", 3, [5] * 3, 52, "as crazy_eights (the same text)"),
    (
        "crazy_eights_winner_collects",
        3,
        [8] * 3,
        52,
        "Deal eight cards to each player. / A 52 cards standard deck is used.",
    ),
    (
        "crazy_eights_countdown",
        3,
        [8] * 3,
        52,
        "Each player begins the game with a score of 8, and eight cards are dealt to each player.",
    ),
    ("crazy_eights_countdown_blog", 3, [8] * 3, 52, "inherits the countdown deal"),
    (
        "crazy_eights_countdown",
        6,
        [8] * 6,
        104,
        "Crazy Eights is a game for two or more players; two such packs if there are a lot of players "
        "(R: from 6, as crazy_eights); the countdown is 'like normal Crazy Eights', 'Playing with a double deck'",
    ),
    ("crazy_eights_countdown", 10, [8] * 10, 104, "a game for two or more players (the engine's most: 10)"),
    ("crazy_eights_countdown_blog", 7, [8] * 7, 104, "inherits the countdown deal"),
    ("bitch", 6, [8] * 6, 54, "one pack and two jokers at every table (R), so six is the most"),
    (
        "bitch",
        3,
        [8] * 3,
        54,
        "branches off Crazy 8 Countdown (8 cards); jokers are used, their count is silent (R: 2)",
    ),
    (
        "kings_reverse",
        3,
        [10] * 3,
        108,
        "ten cards are dealt to each player; 2 packs of regular playing cards plus the 2 jokers from each pack",
    ),
    ("switch_blackjack", 3, [7] * 3, 52, "deals seven cards to each player (deck silent, R: 1 pack)"),
    ("grandads_game", 3, [7] * 3, 52, "inherits switch_blackjack"),
    ("chase_the_ace", 3, [7] * 3, 52, "inherits switch_blackjack"),
    ("blackjack_forum_house", 3, [7] * 3, 52, "inherits switch_blackjack (R)"),
    (
        "one_left",
        2,
        [7, 7],
        52,
        "You start by dealing 7 cards to both players. / A standard 52-card pack without jokers is used.",
    ),
    ("crazy_pairs", 3, [8] * 3, 52, "Each player receives 8 cards."),
    (
        "crazy_pairs",
        6,
        [8] * 6,
        104,
        "It can be played by any number of players and multiple decks can be used if required. "
        "(R: one pack per five players)",
    ),
    ("crazy_pairs", 10, [8] * 10, 104, "any number of players (the engine's most: 10)"),
    (
        "rose_mau",
        5,
        [7, 7, 7, 7, 9],
        52,
        "The dealer gives each player seven cards, one at a time, and then gives herself an additional two cards.",
    ),
    (
        "rose_mau",
        7,
        [7, 7, 7, 7, 7, 7, 9],
        104,
        "One or two standard 52 card decks / If this is not possible (or if chosen), player draws one card instead."
        " (one deck deals 51 cards to seven players and turns up the last: no card is left to draw)",
    ),
    ("advanced_switch", 3, [5] * 3, 104, "Deal 5 cards each from a double deck (104 cards)"),
    ("zodiac", 3, [7] * 3, 52, "Each player receives 7 cards. (deck silent, R: 1 pack)"),
    ("sevens_and_eights", 3, [5] * 3, 52, "Use a single deck of cards with no Jokers. / Deal 5 cards to each player"),
    ("jokers_and_nines", 3, [5] * 3, 54, "Add the two Jokers to the deck."),
    (
        "one_card",
        3,
        [7] * 3,
        54,
        "using a standard pack with two jokers - 54 cards in all. / Seven (or five) cards are dealt",
    ),
    (
        "thirty_eights",
        4,
        [8] * 4,
        216,
        "4 regular 52-card decks, with 2 jokers each. / 8 cards are dealt to each player.",
    ),
    (
        "larby_switch",
        3,
        [5] * 3,
        54,
        "Every player, up to a limit of 6, is dealt a hand of 5 cards. / Jokers can be included - or not.",
    ),
    (
        "fat_buddah",
        3,
        [7] * 3,
        108,
        "played with two decks of regular cards (jokers needed for the wild draw four; deal silent, R: 7)",
    ),
    (
        "crazy_eights_xtreme",
        3,
        [7] * 3,
        108,
        "Use two decks of 52 Cards plus 2 Jokers from each. / The dealer may choose to deal from 3 to 7 cards (R: 7)",
    ),
]


@pytest.mark.parametrize("preset, n, sizes, total, quote", DEALS, ids=[f"{d[0]}-{d[1]}" for d in DEALS])
def test_deal_and_deck_size_follow_the_source(preset, n, sizes, total, quote):
    """Each preset deals the hand size its source states and plays with the stated
    number of cards (the quote is in the parameter table)."""
    checked = 0
    for seed in range(1, 9):
        g = eights.Game(preset, n, seed=seed)
        g.reset(seed=seed)
        assert g.dealer == n - 1
        in_play = sum(g.hand_sizes) + len(g.stock()) + len(g.discard_pile())
        assert in_play == total, quote
        if g.current_player == 0 and g.phase == "play" and g.pending_draw == 0:
            # no start-card effect moved cards: the dealt sizes are visible as such
            assert list(g.hand_sizes) == sizes, quote
            checked += 1
    assert checked > 0, "no seed gave a plain start to check the dealt sizes"


def test_deal_stalin_five_each_and_one_red_card_to_the_rogue_pile():
    """Source (Stalin): "the dealer deals 5 cards to each player" and "they scramble
    to play any red card to the left of the deck ... Only the first card played is
    allowed" (simplified, R: the first red card in seat order from P0)."""
    g = eights.Game("stalin", 4, seed=5)
    g.reset(seed=5)
    sizes = list(g.hand_sizes)
    assert sum(sizes) == 4 * 5 - 1
    assert sorted(sizes) == [4, 5, 5, 5]
    # "as many standard 52-card decks as needed (no jokers)": R, one pack per 5 players
    for n, packs in ((4, 1), (6, 2)):
        g = eights.Game("stalin", n, seed=5)
        g.reset(seed=5)
        total = sum(g.hand_sizes) + len(g.stock()) + len(g.discard_pile()) + len(g.rogue_pile())
        assert total == 52 * packs


# (preset, source sentence)
RESHUFFLES = [
    ("crazy_pairs", "top card of the pile is set aside and the pile is shuffled and turned over to form a new stock"),
    ("zodiac", "the dealer must set aside the card currently laying face up on top of the discard pile, and reshuffle"),
    (
        "sevens_and_eights",
        "all the cards in the waste pile, except the top card, are shuffled and a new draw pile is formed",
    ),
    ("jokers_and_nines", "All other rules of Sevens and Eights apply."),
    ("one_card", "the played cards (except for the top card of the pile) must be shuffled and laid face down again"),
    ("crazy_eights_xtreme", "all cards from the discard pile except the top card, which remains, are shuffled"),
]


@pytest.mark.parametrize("preset, quote", RESHUFFLES, ids=[r[0] for r in RESHUFFLES])
def test_empty_stock_reshuffles_all_but_the_top_card(preset, quote):
    """With the stock empty, a draw turns the discard pile except its top card into a
    new stock (the quote is in the parameter table).

    n=3, pile `2H 3H 4H 5H 9S`, P0 holds `3C 4C` (nothing plays on `9S`) and draws."""
    pile = ["2H", "3H", "4H", "5H", "9S"]
    g = eights.Game.from_position(
        preset,
        3,
        hands=[["3C", "4C"], ["4D", "5C"], ["6D", "7D"]],
        discard=pile,
        stock=[],
        rules={"series": {"match": False}},
        seed=3,
    )
    assert g.stock() == []
    g.step("draw")
    assert g.discard_pile() == ["9S"], quote
    drawn = [c for c in g.hand(0) if c not in ("3C", "4C")]
    assert drawn and set(drawn) <= set(pile[:-1])
    assert sorted(drawn + g.stock()) == sorted(pile[:-1])

"""Variants, one by one: the Switch family (docs/fidelity.md#variants-one-by-one).

Every documented variant of switch_blackjack, chase_the_ace, grandads_game,
blackjack_forum_house, advanced_switch and larby_switch, played from a chosen position: each
test's docstring quotes the source sentence the variant comes from, and the test plays what
the variant changes (and, beside it, the preset without the variant, so that the check can
fail when the variant does nothing). Preset facts: docs/rules_catalog.md#switch_blackjack,
docs/rules_catalog.md#chase_the_ace, docs/rules_catalog.md#grandads_game,
docs/rules_catalog.md#blackjack_forum_house, docs/rules_catalog.md#advanced_switch,
docs/rules_catalog.md#larby_switch.
"""

import pytest

import eights
from scenario_helpers import ALL_SUIT_NOMINATIONS, dealt_game, legal, legal_cards, multiset, plays, position


def _rules(*variants, **extra):
    out = dict(extra)
    if variants:
        out["variants"] = list(variants)
    return out or None


# ----------------------------------------------------------------------------- aces_wild


@pytest.mark.parametrize("preset", ["switch_blackjack", "chase_the_ace"])
def test_aces_wild_an_ace_goes_on_anything_and_may_name_a_suit(preset):
    """Source (The Other Blackjack): "Aces - Playing an ace ends a players turn, but the
    player may nominate which suit the next card played is from"; the Pagat-style page:
    "in the British game Switch it is often the Ace" that changes suit (catalog A05: the
    preset's ace must match, "it matches for pip value, remember"; `aces_wild` makes it
    wild).

    Top `6H`: without the variant `AS` is illegal; with `aces_wild` it plays, its player
    may name a suit or keep the ace's own ("end"), and the turn ends. After clubs are
    named, P1 follows clubs or plays an ace."""
    hands = [["AS", "9C", "KD"], ["4C", "AD", "9S", "7H"], ["KC", "3C"]]
    plain = position(preset, 3, hands=hands, discard=["6H"], stock=["2D", "3D"])
    assert "play AS" not in legal(plain)
    g = position(preset, 3, hands=hands, discard=["6H"], stock=["2D", "3D"], rules=_rules("aces_wild"))
    assert legal(g) == plays("AS") | {"draw"}
    g.step("play AS")
    assert g.current_player == 0
    assert legal(g) == ALL_SUIT_NOMINATIONS | {"end"}
    g.step("suit C")
    assert g.current_player == 1
    assert g.nominated_suit == "C"
    assert legal_cards(g) == {"4C", "AD"}


@pytest.mark.parametrize("preset", ["switch_blackjack", "chase_the_ace", "grandads_game"])
def test_aces_wild_an_ace_does_not_answer_a_pick_up(preset):
    """Source (The Other Blackjack): "Twos - A two forces the next player to pick up two
    cards as a penalty, unless that player has a two themselves". A wild ace is still no
    answer to a pending two (`chain.wild_blocked`): with `aces_wild`, P1 facing `2H`
    holds `AH` and `AC` and may only play its two or pick up."""
    g = position(
        preset,
        3,
        hands=[["2H", "9C", "KD"], ["AH", "AC", "2S", "5H"], ["KC", "3C"]],
        discard=["6H"],
        stock=["2D", "3D", "4D"],
        rules=_rules("aces_wild"),
    )
    g.step("play 2H")
    assert g.current_player == 1
    assert g.pending_draw == 2
    assert legal(g) == {"play 2S", "accept"}


def test_aces_wild_chase_the_ace_a_wild_ace_on_an_ordinary_black_jack():
    """Source (Rachael's note): "Rachael knows a game very similar to this, but without
    the function of the jacks, as Chase the Ace." With `aces_wild`, an ace goes on a
    black jack (no pick-up in this game: nothing is pending) and names a suit."""
    g = position(
        "chase_the_ace",
        3,
        hands=[["JC", "AH", "5D"], ["4S", "9D", "7H"], ["KC", "3C"]],
        discard=["9C"],
        stock=["2D", "3D"],
        rules=_rules("aces_wild"),
    )
    g.step("play JC")
    assert g.pending_draw == 0
    assert g.current_player == 1
    g.step("draw")
    g.step("draw")  # P2 draws too
    assert g.current_player == 0
    assert "play AH" in legal(g)
    g.step("play AH")
    g.step("suit S")
    assert g.current_player == 1
    assert legal_cards(g) == {"4S"}


def test_aces_wild_grandads_game_an_ace_inside_a_run_ends_it_and_names_a_suit():
    """Source (Vitenka): "Only the top card took effect ever"; Pagat-style page: "in the
    British game Switch it is often the Ace" that changes suit. In grandads_game a turn is
    a run of cards each matching the one before; with `aces_wild` an ace goes on anything
    (`5H` then `AS`, which matches neither), and, as in the preset, an ace ends the turn:
    its player names a suit (or keeps spades) and P1 plays next."""
    hands = [["5H", "AS", "9C", "KD"], ["4C", "AD", "9S", "7H"], ["KC", "3C"]]
    plain = position("grandads_game", 3, hands=hands, discard=["6H"], stock=["2D", "3D"])
    plain.step("play 5H")
    assert "play AS" not in legal(plain)
    g = position("grandads_game", 3, hands=hands, discard=["6H"], stock=["2D", "3D"], rules=_rules("aces_wild"))
    g.step("play 5H")
    assert g.current_player == 0
    assert "play AS" in legal(g)
    g.step("play AS")
    assert legal(g) == ALL_SUIT_NOMINATIONS | {"end"}
    g.step("suit C")
    assert g.current_player == 1
    assert legal_cards(g) == {"4C", "AD"}


def test_aces_wild_blackjack_forum_house_makes_the_new_suit_optional():
    """Source (forum house list): "ace - change suit" (the preset: an ace is wild and its
    player names the suit). The variant `aces_wild`, inherited from switch_blackjack
    ("the player may nominate which suit the next card played is from"), leaves the ace
    wild and makes the nomination optional: "end" keeps the ace's own suit."""
    hands = [["AS", "9C", "KD"], ["4S", "AD", "9H", "7H"], ["KC", "3C"]]
    plain = position("blackjack_forum_house", 3, hands=hands, discard=["6H"], stock=["2D", "3D"])
    plain.step("play AS")
    assert legal(plain) == ALL_SUIT_NOMINATIONS
    g = position("blackjack_forum_house", 3, hands=hands, discard=["6H"], stock=["2D", "3D"], rules=_rules("aces_wild"))
    assert "play AS" in legal(g)
    g.step("play AS")
    assert legal(g) == ALL_SUIT_NOMINATIONS | {"end"}
    g.step("end")
    assert g.current_player == 1
    assert g.nominated_suit is None
    assert legal_cards(g) == {"4S", "AD"}


# ------------------------------------------------------------------------- grandads_game


def test_kings_wild_grandads_game_a_king_on_anything_names_a_suit_and_goes_again():
    """Source (Vitenka): "Kings allowed free change of suit without ending your turn. Or
    sometimes Kings counted as wildcards instead (even more powerful)". Variant
    `kings_wild`: on `6H` the `KC` (neither suit nor rank) is legal, its player names
    diamonds and plays again: a diamond or a king; without the variant the `KC` is
    illegal on `6H`."""
    hands = [["KC", "9D", "9S", "4C"], ["4D", "5S"], ["7C", "3C"]]
    plain = position("grandads_game", 3, hands=hands, discard=["6H"], stock=["2S", "3S"])
    assert "play KC" not in legal(plain)
    g = position("grandads_game", 3, hands=hands, discard=["6H"], stock=["2S", "3S"], rules=_rules("kings_wild"))
    assert legal_cards(g) == {"KC"}
    g.step("play KC")
    assert g.current_player == 0
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit D")
    assert g.current_player == 0
    assert legal_cards(g) == {"9D"}
    g.step("play 9D")
    # the extra turn is an ordinary grandads_game turn: a run may go on (9D, then 9S)
    assert legal(g) == {"play 9S", "end"}
    g.step("end")
    assert g.current_player == 1


def test_equal_rank_only_grandads_game_a_run_is_cards_of_one_rank():
    """Source (Vitenka): "2s worked culmulatively - so you could play 2 2 and next player
    pick up 4, but not 2 2 5 - player would just play on." The preset reads the turn as a
    run of cards each matching the one before (`2 2 5` is a run whose top `5` acts);
    `equal_rank_only` reads "not 2 2 5" as: only cards of one rank go together. P0 plays
    `2H` on `6H`: with the variant the run may go on with `2S`, not with `5H`; both
    twos still add up (P1 faces 4)."""
    hands = [["2H", "2S", "5H", "9C"], ["4D", "2C", "7S"], ["7C", "3C"]]
    plain = position("grandads_game", 3, hands=hands, discard=["6H"], stock=["3D", "4S", "5S", "6S"])
    plain.step("play 2H")
    assert {"play 2S", "play 5H"} <= legal(plain)
    g = position(
        "grandads_game",
        3,
        hands=hands,
        discard=["6H"],
        stock=["3D", "4S", "5S", "6S"],
        rules=_rules("equal_rank_only"),
    )
    g.step("play 2H")
    assert g.current_player == 0
    assert legal(g) == {"play 2S", "end"}
    g.step("play 2S")
    if g.current_player == 0:
        g.step("end")
    assert g.current_player == 1
    assert g.pending_draw == 4
    assert legal(g) == {"play 2C", "accept"}


# ----------------------------------------------------------------- blackjack_forum_house


def test_kings_cumulative_two_kings_keep_the_direction():
    """Source (forum house list): "If you play 3 Kings, only the top one takes effect so a
    player cannot reverse the play multiple times in a turn. ... Variation: Cumulative,
    so 2 kings maintains play in current order." n=3, P0 plays `KH KD` on `9H`: in the
    preset the direction reverses once (P2 plays next); with `kings_cumulative` the two
    reverses cancel (P1 plays next)."""
    hands = [["KH", "KD", "4C", "5C"], ["4D", "7S"], ["7C", "3C"]]
    for variants, direction, nxt in (((), -1, 2), (("kings_cumulative",), 1, 1)):
        g = position(
            "blackjack_forum_house", 3, hands=hands, discard=["9H"], stock=["3D", "4S"], rules=_rules(*variants)
        )
        g.step("play KH")
        g.step("play KD")
        if g.current_player == 0 and g.phase == "continue":
            g.step("end")
        assert g.direction == direction, variants
        assert g.current_player == nxt, variants


def test_kings_cumulative_other_pick_ups_still_count_once():
    """Source (forum house list): "2 - pick up 2 ... If you play 3 Kings, only the top one
    takes effect" (catalog A28: the same for every rank); the variation names kings only
    ("Cumulative, so 2 kings maintains play in current order"). With
    `kings_cumulative`, `2H 2D` played together still make P1 face 2, not 4, and
    `8H 8D` still skip one player."""
    g = position(
        "blackjack_forum_house",
        3,
        hands=[["2H", "2D", "4C", "5C"], ["4D", "7S"], ["7C", "3C"]],
        discard=["9H"],
        stock=["3D", "4S", "5S", "6S"],
        rules=_rules("kings_cumulative"),
    )
    g.step("play 2H")
    g.step("play 2D")
    if g.current_player == 0 and g.phase == "continue":
        g.step("end")
    assert g.current_player == 1
    assert g.pending_draw == 2
    g = position(
        "blackjack_forum_house",
        4,
        hands=[["8H", "8D", "4C", "5C"], ["4D", "7S"], ["7C", "3C"], ["6C", "6S"]],
        discard=["9H"],
        stock=["3D", "4S"],
        rules=_rules("kings_cumulative"),
    )
    g.step("play 8H")
    g.step("play 8D")
    if g.current_player == 0 and g.phase == "continue":
        g.step("end")
    assert g.current_player == 2


def test_kings_cumulative_pick_ups_answering_a_pending_pick_up_still_count_once():
    """The same sentences, on a pending pick-up: "2 - pick up 2 blackjack - pick up 5 ...
    jacks on 2's & vice versa" and "If you play 3 Kings, only the top one takes effect". n=3,
    P0 faces a pending 2 and answers with `2C 2H` (P1 then faces 4) or `JC JS` (7), as in the
    preset. Under `kings_cumulative` every card of the answer added (6 and 12)."""
    for variants in ((), ("kings_cumulative",)):
        for cards, want in ((["2C", "2H"], 4), (["JC", "JS"], 7)):
            g = position(
                "blackjack_forum_house",
                3,
                hands=[[*cards, "9S"], ["4D", "7S"], ["7C", "3C"]],
                discard=["5C", "2D"],
                stock=["4C", "6C", "7D", "9C", "TC", "3D", "4S"],
                pending_draw=2,
                rules=_rules(*variants),
            )
            for c in cards:
                g.step(f"play {c}")
            if g.current_player == 0 and g.phase == "continue":
                g.step("end")
            assert g.current_player == 1, (variants, cards)
            assert g.pending_draw == want, (variants, cards)


# ----------------------------------------------------------------------- advanced_switch

# Advanced Switch points: "All ordinary cards count their face value; queens and kings
# count 10." P0 goes out with `4H`; P1 holds `KC 9C` (19), P2 holds `3S` (3).
_AS_HANDS = [["4H"], ["KC", "9C"], ["3S"]]


def _as_finish(variants, scores):
    g = eights.Game.from_position(
        "advanced_switch",
        3,
        hands=_AS_HANDS,
        discard=["4D"],
        stock=["6C", "6D", "7H", "9H"],
        rules=_rules(*variants),
        scores=scores,
    )
    g.step("play 4H")
    assert list(g.hand_points) == [0, 19, 3]
    return g


def test_match_to_250_the_last_player_below_250_wins():
    """Source (Advanced Switch): "250 (or more) points loses" and "Otherwise the player
    whose score is below 250 while all others are above 250 is the winner." With
    `match_to_250`, scores 100 / 240 / 249: P1 reaches 259 and P2 252, so P0 is the last
    below 250 and wins the match; the same hand from 0 / 0 / 0 deals a new hand. Without
    the variant the hand is the whole game: it ends, won by the player who went out."""
    g = _as_finish(["match_to_250"], [100, 240, 249])
    assert list(g.scores) == [100, 259, 252]
    assert g.is_terminal
    assert g.winner == 0
    g = _as_finish(["match_to_250"], [0, 0, 0])
    assert not g.is_terminal, "nobody reached 250: a new hand is dealt"
    g = _as_finish([], [0, 0, 0])
    assert g.is_terminal
    assert g.winner == 0


def test_allow_500_a_player_over_250_wins_by_reaching_500():
    """Source (Advanced Switch): "For three or more players it is optional to allow a
    player whose score has exceeded 250 to win by reaching 500 before all but one player
    exceeds the 250 score line." With `allow_500`, P1 at 481 takes 19 (500) while P0 and
    P2 are below 250: P1 wins the match. With `match_to_250` alone the same hand goes on
    (two players are still below 250)."""
    g = _as_finish(["allow_500"], [100, 481, 10])
    assert list(g.scores) == [100, 500, 13]
    assert g.is_terminal
    assert g.winner == 1
    g = _as_finish(["match_to_250"], [100, 481, 10])
    assert not g.is_terminal


def test_allow_500_needs_three_players():
    """Source (Advanced Switch): "For three or more players it is optional to allow a
    player whose score has exceeded 250 to win by reaching 500". The variant refuses a
    two-player table (its preset allows two)."""
    eights.Game("advanced_switch", 2)
    with pytest.raises(ValueError):
        eights.Game("advanced_switch", 2, rules=_rules("allow_500"))


# -------------------------------------------------------------------------- larby_switch

_LS_OFF = {"last_card": {"mode": "off"}}


def test_no_jokers_larby_switch_deck_without_jokers():
    """Source (David Larby's Switch): "This variant of Switch ... uses a standard 52 deck or
    can use multiple decks. Jokers can be included - or not." The preset plays with a red
    and a black joker (54 cards with up to five players); `no_jokers` takes them out (52)."""
    for variants, size, jokers in (((), 54, 2), (("no_jokers",), 52, 0)):
        g = eights.Game("larby_switch", 3, seed=3, rules=_rules(*variants))
        g.reset(seed=3)
        every = [c for p in range(3) for c in g.hand(p)] + g.stock() + g.discard_pile()
        assert len(every) == size, variants
        assert sum(1 for c in every if c in ("RJ", "BJ")) == jokers, variants


def test_anticlockwise_larby_switch_the_dealers_right_starts():
    """Source (David Larby's Switch): "The the dealer decides whether play will begin
    clockwise, starting with the player to dealer's left, or anticlockwise, starting with
    the player to dealer's right." n=4, dealer P3: the preset starts with P0 clockwise;
    `anticlockwise` starts with P2 (the dealer's right), and the next turn is P1's."""
    hands = [
        ["4C", "5D", "6S", "9H", "TD"],
        ["4H", "5S", "6D", "9C", "TS"],
        ["4D", "5C", "6H", "9S", "TH"],
        ["4S", "5H", "6C", "9D", "TC"],
    ]
    for variants, first, direction, second in (((), 0, 1, 1), (("anticlockwise",), 2, -1, 1)):
        g = dealt_game(
            "larby_switch", 4, hands=hands, start="3C", stock=["7D", "7H", "7S"], rules=_rules(*variants, **_LS_OFF)
        )
        assert g.current_player == first, variants
        assert g.direction == direction, variants
        g.step("draw")
        assert g.current_player == second, variants


def test_aces_add_up_larby_switch_each_ace_adds_five():
    """Source (David Larby's Switch): "Ace (any suit): next player picks up 5 cards or plays
    an Ace. If a second Ace is played the next person picks up 5 cards, and so on." (the
    preset, catalog A06: the penalty stays 5). `aces_add_up` reads it as the twos' rule
    ("in which case the next person picks up 4"): 5, then 10. n=3, P0 plays `AH`, P1
    answers `AS`: P2 faces 10 and picks up 10."""
    hands = [["AH", "5D", "6S", "9D"], ["AS", "3C", "7D", "9S"], ["4H", "6H", "8H", "TC"]]
    # enough stock that the five-card rule (fewer than five left) does not start
    stock = ["2C", "3D", "4D", "5S", "6C", "7C", "9C", "TD", "JC", "JS", "KD", "QC", "2S", "3S", "4S", "5C", "6D"]
    for variants, faced in (((), 5), (("aces_add_up",), 10)):
        g = position("larby_switch", 3, hands=hands, discard=["9H"], stock=stock, rules=_rules(*variants, **_LS_OFF))
        g.step("play AH")
        assert g.pending_draw == 5
        g.step("play AS")
        assert g.current_player == 2
        assert g.pending_draw == faced, variants
        g.step("accept")
        assert multiset(g.hand(2)) == multiset(hands[2] + stock[:faced]), variants
        assert g.current_player == 0

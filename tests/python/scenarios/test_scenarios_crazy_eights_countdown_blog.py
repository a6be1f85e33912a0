"""Scenario checks CB-1 .. CB-4 (docs/rules_catalog.md#crazy_eights_countdown_blog-scenario-checks)
for `crazy_eights_countdown_blog`.

Preset facts used (docs/rules_catalog.md#crazy_eights_countdown_blog, inheriting
`crazy_eights_countdown` / `crazy_eights`): 1 pack, no jokers;
countdown scores (start 8; a player's wild rank is their score) with a
required nomination after a wild; J = skip(1); 2 = draw-two chain answered by
another 2, the amounts add up, accepting ends the turn and the next player
follows the top 2 normally; QS = the next player draws 5 and loses the turn,
with no answer (R, A18); no reverse card; several cards of one rank may be
played in one turn (the first one legal), every copy's effect counts
(`cumulate_all`), and the last card placed is the card to follow; drawing is
voluntary; wilds can't answer a chain.

Engine conventions: the `scores=[...]` argument of `Game.from_position` sets
the countdown scores; further cards of a multiple are offered in phase
"continue" ("end" stops); the QS penalty is applied at once when the play
resolves (no decision of the victim).
"""

import pytest

import eights
from countdown_helpers import score_position
from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    legal,
    legal_cards,
    multiset,
    play_turn,
    plays,
)

PRESET = "crazy_eights_countdown_blog"


def cb_position(n, **kw):
    return score_position(PRESET, n, **kw)


def test_CB_1_jack_skips():
    """CB-1: n=3, P0 (score 8) plays `JH` on `9H`. Expect: P1 is skipped and P2
    acts."""
    g = cb_position(
        3,
        hands=[["JH", "3C", "4S"], ["4C", "5C"], ["6D", "7D"]],
        discard=["9H"],
        stock=["2S", "3S"],
        scores=[8, 8, 8],
    )
    play_turn(g, "JH")
    assert g.top_card == "JH"
    assert multiset(g.hand(1)) == multiset(["4C", "5C"])
    assert g.direction == 1
    assert g.current_player == 2
    assert g.phase == "play"


def test_CB_2_two_twos_make_four_then_follow_top_two():
    """CB-2: n=3, top `7C`. P0 plays `2C 2D`. Expect: P1 must play a 2 or accept 4.
    If P1 accepts, P2 must follow `2D` (a diamond, a 2, or their own wild)."""
    # Scores P0=8, P1=8, P2=6 (so 2 is nobody's wild and P2's wild is 6).
    # P1 holds 2H (the answer), 8C (own wild: can't answer) and 7D (no answer).
    # P2 holds 9D (diamond), 2S (a 2), 6C (own wild), 7H (the old top's rank:
    # no longer relevant) and KH.
    g = cb_position(
        3,
        hands=[["2C", "2D", "5H"], ["2H", "8C", "7D"], ["9D", "2S", "6C", "7H", "KH"]],
        discard=["7C"],
        stock=["3S", "4S", "5S", "9S", "TS"],
        scores=[8, 8, 6],
    )
    play_turn(g, "2C 2D")
    assert g.discard_pile() == ["7C", "2C", "2D"]
    assert g.hand(0) == ["5H"]
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 4
    assert legal(g) == {"play 2H", "accept"}

    g.step("accept")
    assert multiset(g.hand(1)) == multiset(["2H", "8C", "7D", "3S", "4S", "5S", "9S"])
    assert g.stock() == ["TS"]
    assert g.pending_draw == 0
    assert g.current_player == 2
    assert g.phase == "play"
    assert g.top_card == "2D"
    assert legal_cards(g) == {"9D", "2S", "6C"}
    assert legal(g) == plays("9D 2S 6C") | {"draw"}


def test_CB_3_queen_of_spades_draw_five_unanswerable():
    """CB-3 (R): P0 plays `QS` on `4S`. Expect: P1 draws 5 and loses the turn (no
    answer is offered); P2 acts on `QS`."""
    # n=3 (not stated).  P1 holds QH and 2D: neither may answer.  P2 (score 8)
    # holds 9S (spade), QC (a queen), 8H (own wild) and 3H (no match).
    g = cb_position(
        3,
        hands=[["QS", "3D", "KC"], ["QH", "2D"], ["9S", "QC", "8H", "3H"]],
        discard=["4S"],
        stock=["4H", "5H", "6H", "7H", "9H", "TH"],
        scores=[8, 8, 8],
    )
    play_turn(g, "QS")
    # applied at once: P1 drew 5 and was passed over
    assert multiset(g.hand(1)) == multiset(["QH", "2D", "4H", "5H", "6H", "7H", "9H"])
    assert g.stock() == ["TH"]
    assert g.pending_draw == 0
    assert g.current_player == 2
    assert g.phase == "play"
    assert g.top_card == "QS"
    assert legal(g) == plays("9S QC 8H") | {"draw"}


def test_CB_4_two_jacks_skip_two():
    """CB-4: n=3, P0 plays `JC JS`. Expect: P1 and P2 are skipped and P0 acts
    again."""
    g = cb_position(
        3,
        hands=[["JC", "JS", "5S", "4H"], ["2D", "3D"], ["6D", "7D"]],
        discard=["9C"],
        stock=["2H", "3H"],
        scores=[8, 8, 8],
    )
    play_turn(g, "JC JS")
    assert g.discard_pile() == ["9C", "JC", "JS"]
    assert multiset(g.hand(1)) == multiset(["2D", "3D"])
    assert multiset(g.hand(2)) == multiset(["6D", "7D"])
    assert g.current_player == 0
    assert g.phase == "play"
    # P0 follows the top JS: a spade or a J (P0 holds no 8)
    assert legal(g) == plays("5S") | {"draw"}


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_CB_fidelity_wild_two_nominates_and_draws_two():
    """Source (Countdown, blog version): "Twos make the next player draw two cards or
    play another Two as usual" with the countdown rule "When a player's wild card rank
    also has a special effect, the player nominates a suit and the card also acts"
    (Wild / Draw Two: "The next player must either draw two cards or play a Two of the
    nominated suit").

    n=3, scores 2/8/8: P0 plays `2H` on `9C` and names D; P1 must take 2 or play
    `2D`."""
    g = cb_position(
        3,
        hands=[["2H", "5C", "TS"], ["2D", "4D", "8C", "KH"], ["6S", "7S"]],
        discard=["9C"],
        stock=["3H", "4H", "5H"],
        scores=[2, 8, 8],
    )
    g.step("play 2H")
    assert g.current_player == 0
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit D")
    assert g.current_player == 1
    assert g.pending_draw == 2
    assert legal(g) == {"accept", "play 2D"}


def test_CB_fidelity_going_out_with_a_jack_still_skips():
    """Source (Countdown): "When a player gets rid of all their cards, this does not
    end the play. Instead, the player subtracts 1 from their score, and is
    immediately dealt a new hand" with "Jacks skip the next player". Catalog (A17):
    a special card used to go out acts, since the game goes on.

    n=3, scores 8: P0 goes out with `JH`; P0 is dealt 7 and P1 is skipped."""
    stock = ["2D", "3D", "4D", "5D", "6D", "7D", "9D", "TD", "QD", "KD"]
    g = cb_position(
        3,
        hands=[["JH"], ["4C", "5C"], ["6S", "7S"]],
        discard=["9H"],
        stock=stock,
        scores=[8, 8, 8],
    )
    g.step("play JH")
    assert list(g.scores) == [7, 8, 8]
    assert multiset(g.hand(0)) == multiset(stock[:7])
    assert multiset(g.hand(1)) == multiset(["4C", "5C"])
    assert g.current_player == 2


def test_CB_fidelity_out_with_a_give_card_on_an_empty_stock_gives_nothing():
    """Source (Countdown): "When a player gets rid of all their cards, this does not end the
    play. Instead, the player subtracts 1 from their score, and is immediately dealt a new
    hand". With a house rule that a nine makes its player give a card to the next player, and
    no stock left to deal the new hand from (variant no_reshuffle), the player goes out with a
    nine, scores 7, is dealt nothing, and has nothing to give: the game goes on exactly as
    after a plain nine (the rule-space fuzz found the game asking the empty hand for a card,
    with no legal action)."""
    hands, stock = [["9S"], ["4C", "5C"], ["6S", "7S"]], []
    with_give = {"cards": {"9": {"give": "one"}}, "variants": ["no_reshuffle"]}
    g = score_position(PRESET, 3, hands=hands, discard=["9H"], stock=stock, scores=[8, 8, 8], rules=with_give)
    plain = score_position(
        PRESET, 3, hands=hands, discard=["9H"], stock=stock, scores=[8, 8, 8], rules={"variants": ["no_reshuffle"]}
    )
    g.step("play 9S")
    plain.step("play 9S")
    assert list(g.scores) == [7, 8, 8]
    assert g.phase != "give"
    assert (g.phase, g.current_player, g.winner, g.is_terminal) == (
        plain.phase,
        plain.current_player,
        plain.winner,
        plain.is_terminal,
    )
    assert [g.hand(p) for p in range(3)] == [plain.hand(p) for p in range(3)]
    assert eights.Game.from_dict(g.to_dict()).to_dict() == g.to_dict()


def test_CB_a_match_of_countdown_games_is_refused():
    """The countdown is its own match ("The first player to reach zero wins"): a series of
    hands to a points target would never end, and is refused naming series.match; crazy_eights'
    documented match_to_100 is dropped from the variants this preset inherits."""
    with pytest.raises(eights.RulesError, match="'series.match'"):
        eights.Rules(PRESET, series__match=True)
    assert "match_to_100" not in eights.Rules(PRESET).variants
    with pytest.raises(eights.RulesError, match="unknown variant"):
        eights.Rules(PRESET, variants=["match_to_100"])

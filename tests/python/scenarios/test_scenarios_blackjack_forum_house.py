"""Scenario checks BF-1 .. BF-4 (docs/rules_catalog.md#blackjack_forum_house-scenario-checks) for
`blackjack_forum_house`.

Preset facts used (docs/rules_catalog.md#blackjack_forum_house, inheriting switch_blackjack
`switch_blackjack` for the rest):
2 = draw-chain(2); black J (JC, JS) = draw-chain(5); a 2 and a black J answer
each other, adding up; a red J (JD, JH) cancels any pending chain; K = reverse,
several kings played together reverse once (only the top one acts), variation
`parity`; n=2: the reverse has no effect; Q = free play for the next player;
8 = skip; A wild with nomination (R); equal-rank multi-card plays (R);
drawing is voluntary.
"""

import pytest

from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    legal,
    legal_cards,
    multiset,
    play_turn,
    plays,
    position,
)

PRESET = "blackjack_forum_house"
# BF-2 variation `parity` ("Variation: Cumulative, so 2 kings maintains play in
# current order"): every king acts, so two kings cancel.  The preset documents
# it as the variant overlay "kings_cumulative".
PARITY_RULES = {"variants": ["kings_cumulative"]}


def test_BF_1_black_jack_on_two_then_red_jack_cancels():
    """BF-1: n=3. P0 plays `2H`; P1 plays `JS`. Expect: P2 faces 7. P2 plays `JH`.
    Expect: the chain is cancelled and P0 plays normally on `JH`."""
    # P1: 4H (heart, blocked by the chain).  P2: 2C (a 2 answers a black-J
    # chain too) and 6S (spade, blocked).  P0 keeps 7H (heart), JD (a jack),
    # 9C and 4S (no match on JH).
    g = position(
        PRESET,
        3,
        hands=[
            ["2H", "7H", "JD", "9C", "4S"],
            ["JS", "4H"],
            ["JH", "2C", "6S"],
        ],
        discard=["5H"],
        stock=["3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"],
    )
    g.step("play 2H")
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 2
    assert legal(g) == {"play JS", "accept"}

    g.step("play JS")
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == 7
    assert legal(g) == {"play JH", "play 2C", "accept"}

    g.step("play JH")
    assert g.pending_draw == 0
    assert list(g.hand_sizes) == [4, 1, 2]
    assert g.stock() == ["3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD"]
    assert g.top_card == "JH"
    assert g.current_player == 0
    assert g.phase == "play"
    assert legal_cards(g) == {"7H", "JD"}
    assert legal(g) == plays("7H JD") | {"draw"}


def _bf2_position(rules=None):
    return position(
        PRESET,
        3,
        hands=[["KH", "KS", "3D"], ["6C", "7C"], ["9C", "TC"]],
        discard=["5H"],
        stock=["2D", "4D"],
        rules=rules,
    )


def test_BF_2_kings_together_reverse_once():
    """BF-2: n=3. P0 plays `KH KS` together. Expect (default): one reverse, so P2
    acts."""
    g = _bf2_position()
    play_turn(g, "KH KS")
    assert g.discard_pile() == ["5H", "KH", "KS"]
    assert g.direction == -1
    assert g.current_player == 2


def test_BF_2_parity_variation_two_kings_cancel():
    """BF-2: n=3. P0 plays `KH KS` together. Expect (variation `parity`): the
    direction is unchanged and P1 acts."""
    g = _bf2_position(PARITY_RULES)
    play_turn(g, "KH KS")
    assert g.discard_pile() == ["5H", "KH", "KS"]
    assert g.direction == 1
    assert g.current_player == 1


def test_BF_3_queen_free_play():
    """BF-3: P0 plays `QC`. Expect: P1 may play any card."""
    # n=3 (not stated).  P1's cards match neither the Q's suit nor its rank.
    p1 = ["3D", "6H", "9S", "4D"]
    g = position(
        PRESET,
        3,
        hands=[["QC", "4H", "7S"], p1, ["TC", "JC"]],
        discard=["5C"],
        stock=["2S", "3S"],
    )
    play_turn(g, "QC")
    assert g.top_card == "QC"
    assert g.current_player == 1
    assert g.phase == "play"
    assert legal_cards(g) == set(p1)
    assert legal(g) == plays(p1) | {"draw"}


def test_BF_4_two_player_king_has_no_effect():
    """BF-4: n=2. P0 plays `KC`. Expect: P1 acts (the reverse has no effect)."""
    g = position(
        PRESET,
        2,
        hands=[["KC", "3D", "9H"], ["6S", "7S"]],
        discard=["5C"],
        stock=["2D", "4D"],
    )
    play_turn(g, "KC")
    assert g.top_card == "KC"
    assert g.current_player == 1
    assert g.phase == "play"
    assert multiset(g.hand(1)) == multiset(["6S", "7S"])


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


@pytest.mark.parametrize(
    "pair, top, single",
    [
        (["2H", "2S"], "5H", 2),  # "2 - pick up 2"
        (["JC", "JS"], "5C", 5),  # "blackjack - pick up 5"
    ],
    ids=["twos", "black_jacks"],
)
def test_BF_fidelity_pick_ups_together_only_the_top_one_acts(pair, top, single):
    """Source (forum house list): "2 - pick up 2", "blackjack - pick up 5"; "If you
    play 3 Kings, only the top one takes effect". The catalog's recorded decision
    (A28, multiples of other ranks): only the top card acts, as docs/presets.md says
    ("Several cards of one rank may be played together; only the top card acts").

    n=3: P0 plays two 2s (or both black jacks) together. Expect: P1 faces one card's
    penalty (2, or 5), not the sum."""
    stock = ["4D", "5D", "6D", "7D", "8D", "9H", "TH", "3H", "4H", "6S"]
    g = position(
        PRESET,
        3,
        hands=[pair + ["3D", "9C"], ["6C", "7C"], ["9D", "TC"]],
        discard=[top],
        stock=stock,
    )
    play_turn(g, pair)
    assert g.discard_pile() == [top] + pair
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == single
    g.step("accept")
    assert multiset(g.hand(1)) == multiset(["6C", "7C"] + stock[:single])
    assert g.stock() == stock[single:]


@pytest.mark.parametrize(
    "answer, faced",
    [
        (["2S", "2C"], 2 + 2),  # "2 - pick up 2": the top 2 adds 2
        (["JS", "JC"], 2 + 5),  # "blackjack - pick up 5", "jacks on 2's & vice versa"
    ],
    ids=["twos", "black_jacks"],
)
def test_BF_fidelity_answering_with_several_only_the_top_one_acts(answer, faced):
    """Source (forum house list): "2 - pick up 2", "blackjack - pick up 5", "jacks on
    2's & vice versa" and "If you play 3 Kings, only the top one takes effect"; catalog
    A28: for every rank only the top card of a multiple acts.

    n=3: P0 plays `2H`; P1 answers the pending 2 with two cards of one rank played
    together (two 2s, or both black jacks). Expect: only the top card adds to the
    penalty, so P2 faces 4 (or 7), and after accepting has drawn that many."""
    stock = ["4D", "5D", "6D", "7D", "8D", "9H", "TH", "3H", "4H", "6S"]
    g = position(
        PRESET,
        3,
        hands=[["2H", "3D", "9C"], answer + ["7C"], ["9D", "TC"]],
        discard=["5H"],
        stock=stock,
    )
    g.step("play 2H")
    assert g.current_player == 1
    assert g.pending_draw == 2
    play_turn(g, answer)
    assert g.discard_pile() == ["5H", "2H"] + answer
    assert g.current_player == 2
    assert g.phase == "chain"
    assert g.pending_draw == faced
    g.step("accept")
    assert multiset(g.hand(2)) == multiset(["9D", "TC"] + stock[:faced])
    assert g.stock() == stock[faced:]


@pytest.mark.parametrize(
    "answer, rules, faced",
    [
        (["JS", "JH"], None, 0),  # the red jack on top cancels what the black jack added to
        (["JH", "JS"], None, 2 + 5),  # the covered red jack does nothing: the black jack adds 5
        (["JS", "JH"], PARITY_RULES, 0),  # every card acts, in order: +5, then cancelled
        (["JH", "JS"], PARITY_RULES, 5),  # cancelled, then the black jack starts a new 5
        # every card acting, each black jack adding: +5, cancelled, then a new pick-up of 5
        (["JS", "JH", "JC"], {"multi": {"effects": "cumulate_all"}}, 5),
    ],
    ids=["red_on_top", "red_covered", "cumulative_red_on_top", "cumulative_red_covered", "cancel_then_black"],
)
def test_BF_fidelity_a_red_jack_among_the_jacks_of_an_answer(answer, rules, faced):
    """Source (forum house list): "blackjack - pick up 5 redjack - cancels pick up", "jacks
    on 2's & vice versa" and "If you play 3 Kings, only the top one takes effect" (catalog
    A28: for every rank only the top card of a multiple acts); its "Variation: Cumulative"
    makes every card act (`kings_cumulative`, where each black jack adds once).

    n=3: P0 plays `2S`; P1 answers with a black and a red jack together. Expect: with only
    the top card acting, a red jack on top cancels (P2 faces nothing) and a covered one does
    nothing (P2 faces 2 + 5); with every card acting, in the order laid, JS then JH ends in
    the cancel and JH then JS in a new pick-up of 5. (The red jack cancelled only as the
    first card of the answer: JS then JH left 7, JH then JS 5 under the top-card rule.)"""
    stock = ["KC", "KD", "AH", "AD", "AS", "3C", "3D", "4C", "9D", "4H", "5S", "5H"]
    g = position(
        PRESET,
        3,
        hands=[["2S", "5C"], answer + ["7S", "8D"], ["5D", "6D"]],
        discard=["4D", "3S"],
        stock=stock,
        rules=rules,
    )
    g.step("play 2S")
    play_turn(g, answer)
    assert g.discard_pile() == ["4D", "3S", "2S"] + answer
    assert g.current_player == 2
    assert g.pending_draw == faced
    if faced:
        assert g.phase == "chain"
        g.step("accept")
        assert multiset(g.hand(2)) == multiset(["5D", "6D"] + stock[:faced])
    else:
        assert g.phase == "play" and "accept" not in legal(g)


def test_BF_fidelity_eight_miss_a_turn():
    """Source (forum house list): "8 - miss a turn".

    n=3: P0 plays `8H` on `5H`; P1 misses the turn and P2 acts."""
    g = position(
        PRESET,
        3,
        hands=[["8H", "3D", "9C"], ["6H", "7C"], ["9H", "TC"]],
        discard=["5H"],
        stock=["4D", "5D"],
    )
    play_turn(g, "8H")
    assert multiset(g.hand(1)) == multiset(["6H", "7C"])
    assert g.current_player == 2


def test_BF_fidelity_ace_changes_suit():
    """Source (forum house list): "ace - change suit." Catalog (A28): the ace is
    wild and nominates.

    n=3, top `9C`: P0 plays `AS` (neither a club nor a 9) and names D; P1 must play
    a diamond or an ace."""
    g = position(
        PRESET,
        3,
        hands=[["AS", "3H", "4H"], ["4D", "6C", "AH", "9S"], ["9H", "TC"]],
        discard=["9C"],
        stock=["4S", "5S"],
    )
    assert "play AS" in legal(g)
    g.step("play AS")
    assert g.current_player == 0
    assert legal(g) == ALL_SUIT_NOMINATIONS
    g.step("suit D")
    assert g.current_player == 1
    assert legal_cards(g) == {"4D", "AH"}


def test_BF_fidelity_two_eights_together_skip_once():
    """Source (forum house list): "8 - miss a turn"; catalog A28: of several cards of
    one rank played together only the top card acts.

    n=4: P0 plays `8H 8S` together; only P1 misses a turn and P2 acts."""
    g = position(
        PRESET,
        4,
        hands=[["8H", "8S", "3D", "9C"], ["6C", "7C"], ["9D", "TC"], ["4S", "5S"]],
        discard=["5H"],
        stock=["4D", "5D"],
    )
    play_turn(g, "8H 8S")
    assert g.discard_pile() == ["5H", "8H", "8S"]
    assert g.current_player == 2

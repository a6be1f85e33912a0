"""Scenario checks GG-1 .. GG-4 (docs/rules_catalog.md#grandads_game-scenario-checks) for `grandads_game`.

Preset facts used (docs/rules_catalog.md#grandads_game, inheriting switch_blackjack `switch_blackjack`): only the
top card of a turn acts; Q and J are ordinary cards (no Q run, no black-jack
pick-up, no red-jack cancel); 2 = draw-chain(2) answered only by a 2, several
2s in one turn add up; multi-card runs where each card matches the previous
top by suit or rank (R, A26), only the top card acting except that 2s at the
top add up; K = the player names a suit and takes an extra turn bound by that
suit (or a K) (R, A27); drawing is voluntary, one card, and ends the turn;
chains block every other card (`chain.wild_blocked`).

Engine conventions: further cards of a run are offered in phase "continue";
after "play KH" the player answers "suit C" and then acts again in phase
"play".
"""

from scenario_helpers import (
    ALL_SUIT_NOMINATIONS,
    legal,
    legal_cards,
    multiset,
    play_turn,
    plays,
    position,
)

PRESET = "grandads_game"


def test_GG_1_two_twos_make_four():
    """GG-1: P0 plays `2H 2D`. Expect: P1 picks up 4 or plays a 2."""
    # n=3 (not stated).  P1 holds 2S (may answer), 6D (a diamond, blocked by
    # the chain) and KD (a K is no chain card).
    g = position(
        PRESET,
        3,
        hands=[["2H", "2D", "9C"], ["2S", "6D", "KD"], ["7C", "TC"]],
        discard=["5H"],
        stock=["3S", "4S", "5S", "6S", "7S"],
    )
    play_turn(g, "2H 2D")
    assert g.discard_pile() == ["5H", "2H", "2D"]
    assert g.current_player == 1
    assert g.phase == "chain"
    assert g.pending_draw == 4
    assert legal(g) == {"play 2S", "accept"}
    g.step("accept")
    assert multiset(g.hand(1)) == multiset(["2S", "6D", "KD", "3S", "4S", "5S", "6S"])
    assert g.current_player == 2


def test_GG_2_only_top_card_of_run_acts():
    """GG-2 (R): P0 plays `2H 2D 5D`. Expect: only `5D` acts; P1 plays normally."""
    # n=3 (not stated).  P1 holds 7D (diamond), 5S (a 5), 2C (a 2: matches
    # neither 5D's suit nor its rank) and 9S.
    p1 = ["7D", "5S", "2C", "9S"]
    g = position(
        PRESET,
        3,
        hands=[["2H", "2D", "5D", "9C"], p1, ["7C", "TC"]],
        discard=["5H"],
        stock=["3S", "4S", "6S"],
    )
    play_turn(g, "2H 2D 5D")
    assert g.discard_pile() == ["5H", "2H", "2D", "5D"]
    assert g.hand(0) == ["9C"]
    assert g.current_player == 1
    assert g.phase == "play"
    assert g.pending_draw == 0
    assert multiset(g.hand(1)) == multiset(p1)
    assert g.stock() == ["3S", "4S", "6S"]
    assert legal_cards(g) == {"7D", "5S"}
    assert legal(g) == plays("7D 5S") | {"draw"}


def test_GG_3_black_jack_is_ordinary():
    """GG-3: P0 plays `JS` on `9S`. Expect: no pick-up; P1 plays normally."""
    # n=3 (not stated).  P1 holds JC (the other black jack: an answer in
    # switch_blackjack, here just a J), 4S (spade) and 6H.
    p1 = ["JC", "4S", "6H"]
    g = position(
        PRESET,
        3,
        hands=[["JS", "3D", "4C"], p1, ["7C", "TC"]],
        discard=["9S"],
        stock=["2D", "5D", "6D"],
    )
    play_turn(g, "JS")
    assert g.top_card == "JS"
    assert g.current_player == 1
    assert g.phase == "play"
    assert g.pending_draw == 0
    assert multiset(g.hand(1)) == multiset(p1)
    assert legal_cards(g) == {"JC", "4S"}
    assert legal(g) == plays("JC 4S") | {"draw"}


def _gg4_after_nomination():
    # n=3 (not stated).  P0 holds a club (4C), a K (KD), 9D (matches the old
    # top's rank only) and 5H (the K's own suit, overridden by the nomination).
    g = position(
        PRESET,
        3,
        hands=[["KH", "4C", "KD", "9D", "5H"], ["7S", "TS"], ["3S", "6S"]],
        discard=["9H"],
        stock=["2D", "3D", "4D"],
    )
    g.step("play KH")
    assert g.current_player == 0
    assert g.phase == "nominate"
    # the four suits are offered (whether "end" may keep the suit is not
    # specified for the K; nothing else may be offered)
    assert ALL_SUIT_NOMINATIONS <= legal(g)
    assert legal(g) - ALL_SUIT_NOMINATIONS <= {"end"}
    g.step("suit C")
    return g


def test_GG_4_king_changes_suit_and_player_goes_again():
    """GG-4 (R): P0 plays `KH` on `9H` and names C. Expect: P0 acts again and must
    play a club or a K, or draw 1."""
    g = _gg4_after_nomination()
    assert g.current_player == 0
    assert g.phase == "play"
    assert g.nominated_suit == "C"
    assert g.top_card == "KH"
    assert legal_cards(g) == {"4C", "KD"}
    assert legal(g) == plays("4C KD") | {"draw"}

    # drawing takes exactly one card and ends the turn
    g = _gg4_after_nomination()
    g.step("draw")
    assert multiset(g.hand(0)) == multiset(["4C", "KD", "9D", "5H", "2D"])
    assert g.stock() == ["3D", "4D"]
    assert g.current_player == 1


# ------------------------------------------------ fidelity audit (docs/fidelity.md)


def test_GG_fidelity_variant_kings_wild():
    """Source (Vitenka): "Or sometimes Kings counted as wildcards instead (even more
    powerful)". Variant `kings_wild`: `KC` plays on `9H`."""
    g = position(
        PRESET,
        3,
        hands=[["KC", "3C", "4D"], ["4H", "5C", "9C"], ["6H", "7D"]],
        discard=["9H"],
        stock=["2D", "3D"],
        rules={"variants": ["kings_wild"]},
    )
    assert legal(g) == plays("KC") | {"draw"}

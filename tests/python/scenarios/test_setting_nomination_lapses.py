"""`match.nomination_lapses` turned on in presets that do not set it: the named suit binds the
next player who takes a turn, and lapses when that turn ends with no card placed
(docs/fidelity.md, D33 and D34, where advanced_switch and larby_switch set it). A player who
misses the turn takes none; a joker, with no suit of its own, keeps the suit it named; a bluffed
joker taken back ends its player's turn with no card placed."""

import eights

ON = {"match": {"nomination_lapses": True}}


def test_a_skipped_player_takes_no_turn_so_the_suit_binds_the_player_after():
    # crazy_eights_specials with wild jacks that skip: P0's JS names hearts and skips P1, so P2
    # is the next player to take a turn and is held to hearts; P2 draws, and P0 then follows
    # the jack of spades as an ordinary card (a spade or a jack: P0 holds neither).
    rules = eights.Rules("crazy_eights_specials").with_variants(["jacks_wild", "jack_skips"]).replace(ON)
    g = eights.Game.from_position(
        rules,
        3,
        hands=[["JS", "3C", "4C"], ["4D", "5H"], ["6H", "7S", "9D"]],
        discard=["9C"],
        stock=["2D", "3D", "8D", "5D", "6D"],
    )
    g.step("play JS")
    g.step("suit H")
    assert g.current_player == 2 and g.nominated_suit == "H"
    assert sorted(g.legal_action_strings()) == ["draw", "play 6H"]
    g.step("draw")
    assert g.current_player == 0 and g.nominated_suit is None and g.active_suit == "S"
    assert g.legal_action_strings() == ["draw"]


def test_a_joker_keeps_the_suit_it_named():
    # crazy_eights_xtreme: P0's red joker names hearts; P1 draws up to eight cards without a
    # heart and passes. A joker has no suit or rank to follow, so P2 is still held to hearts.
    g = eights.Game.from_position(
        "crazy_eights_xtreme",
        3,
        hands=[["RJ", "3C", "4C"], ["4D", "5S"], ["6H", "7S", "9D"]],
        discard=["9C"],
        stock=["2D", "3D", "8D", "5D", "6D", "7D", "9S", "TD"],
        rules=ON,
    )
    g.step("play RJ")
    g.step("suit H")
    while g.current_player == 1:
        assert g.legal_action_strings() == ["draw"]
        g.step("draw")
    assert len(g.hand(1)) == 8
    assert g.current_player == 2 and g.nominated_suit == "H"
    assert g.legal_action_strings() == ["play 6H"]


def test_a_bluffed_joker_taken_back_lets_the_suit_that_bound_its_player_lapse():
    # kings_reverse with the joker bluff: P0, held to hearts on 9C and holding 5H, plays a
    # joker; P1 challenges and the joker goes back. P0's turn ended with no card placed, so the
    # hearts lapse under the setting (P1 follows the nine of clubs) and stay without it.
    def after_the_challenge(rules):
        g = eights.Game.from_position(
            rules,
            3,
            hands=[["RJ", "5H", "4D"], ["4C", "6H", "9S"], ["6S", "7S", "9D", "AD"]],
            discard=["3C", "9C"],
            nominated_suit="H",
            stock=["2D", "3D", "4D", "5D", "6D", "2C", "3S", "7D"],
        )
        g.step("play RJ")
        g.step("suit D")
        g.step("challenge")
        assert g.current_player == 1 and g.top_card == "9C"
        return g

    bluff = eights.Rules("kings_reverse").with_variants(["joker_bluff"])
    g = after_the_challenge(bluff.replace(ON))
    assert g.nominated_suit is None
    assert sorted(g.legal_action_strings()) == ["draw", "play 4C", "play 9S"]
    assert after_the_challenge(bluff).nominated_suit == "H"

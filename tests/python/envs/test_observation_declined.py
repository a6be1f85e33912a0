"""The observation's ``declined`` slice: the suits each other seat's hand declined this hand.

The slice's definition (the observation table in ``src/observation/mod.rs``): "per seat offset
1..9, four suit flags (C, D, H, S): the suits that seat's hand declined this hand (in force
when it drew or passed instead of playing, and not played from it since)". The positions
below are built by hand; every expected flag follows from that sentence and the moves made.
The crazy_eights rules used: "A player may always draw one card instead of playing; the
drawn card cannot be played that turn" (so a draw ends the turn).
"""

import numpy as np

import eights
from scenario_helpers import position

SUITS = "CDHS"


def declined(g, observer):
    """The ``declined`` slice of ``observer``'s observation, as {offset: set of suits}."""
    a, b = g.observation_spec()["declined"]
    flags = np.asarray(g.observation(observer))[a:b].reshape(-1, 4)
    assert set(np.unique(flags)) <= {0.0, 1.0}
    return {k + 1: {SUITS[s] for s in range(4) if row[s]} for k, row in enumerate(flags) if row.any()}


def start():
    return position(
        "crazy_eights",
        2,
        hands=[["2C", "3C"], ["4H", "9H", "KH", "7D"]],
        discard=["9S"],
        stock=["KS", "QD", "JD", "TD"],
    )


def test_the_slice_is_36_flags_at_the_end_of_the_layout():
    g = start()
    spec = g.observation_spec()
    assert spec["declined"] == (g.observation_size - 36, g.observation_size)
    assert declined(g, 0) == {} and declined(g, 1) == {}


def test_a_draw_marks_the_suit_in_force_for_the_others_and_a_play_of_it_clears_it():
    g = start()
    g.step(g.string_to_action("draw"))  # P0 holds no spade, no 9, no 8: draws KS on 9S
    assert declined(g, 1) == {1: {"S"}}, "P1 sees P0 (offset 1) declined spades"
    assert declined(g, 0) == {}, "P1 has declined nothing"
    g.step(g.string_to_action("play 9H"))  # hearts in force
    g.step(g.string_to_action("draw"))  # P0 (2C 3C KS) draws again, on 9H
    assert declined(g, 1) == {1: {"S", "H"}}
    assert g.declined_suits(0) == ["H", "S"] and g.declined_suits(1) == []
    g.step(g.string_to_action("play KH"))
    g.step(g.string_to_action("play KS"))  # P0 plays a spade: spades no longer declined
    assert declined(g, 1) == {1: {"H"}}


def test_offsets_are_seat_relative():
    g = position(
        "crazy_eights",
        3,
        hands=[["2C", "3C"], ["4H", "9H"], ["5D", "6D"]],
        discard=["9S"],
        stock=["KS", "QD", "JD", "TD"],
    )
    g.step(g.string_to_action("draw"))  # P0 declines spades
    assert declined(g, 1) == {2: {"S"}}, "seat 0 is two seats clockwise from seat 1"
    assert declined(g, 2) == {1: {"S"}}, "seat 0 is the next seat clockwise from seat 2"
    assert declined(g, 0) == {}


def test_it_survives_a_snapshot_and_a_reset_clears_it():
    g = start()
    g.step(g.string_to_action("draw"))
    d = g.to_dict()
    back = eights.Game.from_dict(d)
    assert np.array_equal(back.observation(1), g.observation(1))
    assert declined(back, 1) == {1: {"S"}}
    older = {k: v for k, v in d.items() if k != "declined"}  # snapshots written before the slice
    assert declined(eights.Game.from_dict(older), 1) == {}
    g.reset(seed=3)
    assert all(declined(g, p) == {} for p in range(2))


def test_declined_suits_checks_the_seat():
    g = start()
    for bad in (2, -1):
        try:
            g.declined_suits(bad)
        except ValueError as e:
            assert "player" in str(e)
        else:
            raise AssertionError(f"seat {bad} was accepted")


def test_a_bad_snapshot_entry_is_a_clear_error():
    g = start()
    g.step(g.string_to_action("draw"))
    d = g.to_dict()
    for bad, why in (([8], "one entry per seat"), ([16, 0], "at most 15")):
        try:
            eights.Game.from_dict({**d, "declined": bad})
        except ValueError as e:
            assert why in str(e)
        else:
            raise AssertionError(f"declined={bad} was accepted")


def test_the_mark_follows_a_swapped_hand():
    """thirty_eights: "Jacks: The person who lays down a Jack may choose to ... trade his hand
    with any one other player's hand." The mark is about the hand, so it moves with it."""
    g = position(
        "thirty_eights",
        4,
        hands=[["JH", "4H"], ["JC", "6D"], ["KH", "2H"], ["6S", "TH"]],
        discard=["5C"],
        stock=["3D", "TC", "7D", "2S"],
    )
    g.step(g.string_to_action("draw"))  # P0 (no club, no 5, no 8) draws on 5C
    assert declined(g, 2) == {2: {"C"}}, "seat 0 is two seats clockwise from seat 2"
    g.step(g.string_to_action("play JC"))
    g.step(g.string_to_action("target +3"))  # P1 trades hands with P0
    assert sorted(g.hand(1)) == ["3D", "4H", "JH"], "P1 now holds P0's hand"
    assert declined(g, 2) == {3: {"C"}}, "the mark moved with the hand to seat 1 (offset 3)"

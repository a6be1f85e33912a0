"""A position or a saved state may hold a zone only where the rules have the mechanic that
fills it: a rogue pile outside stalin, a keep or ask phase without its card, a Silly Hat
without the option... are refused with a ValueError naming the field (fidelity and
hardening, round three)."""

import re

import pytest

import eights

HANDS2 = [["5C", "6C"], ["5D", "6D"]]


def test_rogue_pile_outside_stalin_is_refused():
    with pytest.raises(ValueError, match=r"rogue: only rules with a rogue pile"):
        eights.Game.from_position("crazy_eights", 2, hands=HANDS2, discard=["9C"], rogue=["AH"])


def test_rogue_pile_holds_red_cards_only():
    hands = [["5C", "6C"], ["5D", "6D"], ["7S", "8S"], ["7C", "8C"]]
    g = eights.Game.from_position("stalin", 4, hands=hands, discard=["9C"], rogue=["AH", "3D"])
    assert g.rogue_pile() == ["AH", "3D"]
    with pytest.raises(ValueError, match=r"rogue: the rogue pile holds red cards only, got AS"):
        eights.Game.from_position("stalin", 4, hands=hands, discard=["9C"], rogue=["AS"])


def _state(preset, n, seed=3, rules=None):
    return eights.Game(preset, n, seed=seed, rules=rules).to_dict()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("rogue", ["AH"], "rogue: only rules with a rogue pile"),
        ("hat", 1, "hat: only rules with the Silly Hat"),
        ("missed", 2, "missed: only rules with missed turns"),
        ("done", 2, "done: only rules with players out of the hand"),
        ("phase", "keep", "phase: only rules with a keep phase"),
        ("phase", "ask", 'phase: "ask" needs an ask card'),
        ("phase", "give", 'phase: "give" needs a give card'),
        ("phase", "target", 'phase: "target" needs a swap card'),
        ("phase", "second_suit", 'phase: "second_suit" needs the reserved second_suit phase'),
        ("restrict", {"ask": 3}, "restrict: Ask(3) is a constraint these rules never set"),
        ("restrict", "picture", "restrict: Picture is a constraint these rules never set"),
    ],
)
def test_zones_the_rules_lack_are_refused_in_saved_states(field, value, message):
    state = _state("crazy_eights", 3)
    state[field] = value
    with pytest.raises(ValueError, match=re.escape(message)):
        eights.Game.from_dict(state)


def test_zones_the_rules_have_still_load():
    # The same kinds of fields where the rules have the mechanic: a real game's states.
    for preset, n in [("stalin", 4), ("crazy_eights_xtreme", 3), ("thirty_eights", 4), ("kings_reverse", 3)]:
        g = eights.Game(preset, n, seed=5)
        bot = eights.RandomBot(5)
        for _ in range(300):
            if g.is_terminal or g.is_truncated:
                break
            g.step(bot.act(g))
            eights.Game.from_dict(g.to_dict())


def test_saved_states_keep_the_record_of_declined_plays():
    # The record of declined plays (the faces a hand held none of when it drew instead of
    # playing) is public; a saved state keeps it, so a restored game's search bots sample
    # the same worlds as the game it was saved from.
    g = eights.Game("crazy_eights", 2, seed=3)
    bot = eights.RandomBot(3)
    kept = 0
    for _ in range(400):
        if g.is_terminal or g.is_truncated:
            break
        g.step(bot.act(g))
        d = g.to_dict()
        if d.get("voids"):
            assert eights.Game.from_dict(d).to_dict()["voids"] == d["voids"]
            kept += 1
    assert kept > 10


@pytest.mark.parametrize(
    ("voids", "message"),
    [
        ([{"faces": ["AH"], "room": 0}], "voids must list one record per seat (or none)"),
        ([{"faces": ["RJ"], "room": 0}] * 3, "voids: a record names a face the deck does not hold"),
    ],
)
def test_bad_records_of_declined_plays_are_refused(voids, message):
    state = _state("crazy_eights", 3)
    state["voids"] = voids
    with pytest.raises(ValueError, match=re.escape(message)):
        eights.Game.from_dict(state)

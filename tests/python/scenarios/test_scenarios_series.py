"""Match targets of the presets whose source names one (issue #11, rules fidelity).

Each case is built from the source sentence that sets the target: a hand is
finished from a position whose match scores are set just below the target, so
that the hand's points bring one player exactly onto the target (the match ends,
with the winner the sentence names) or one point short of it (the match goes on
with a new hand). The card points are the source's own values, quoted beside
each case, never read from the engine.
"""

import pytest

import eights

# Each case: (preset, variants, n, hands, top card, the card P0 goes out with,
# scores before the hand, the hand's points as the source counts them).
# P0 always goes out; the other hands hold cards with no special effect.
CASES = {
    # kings_reverse: "When a player reaches 500, the game is over and the player with the
    # lowest score at that point is the winner." Points: "all other cards are worth 5",
    # "jacks are worth 15".
    "kings_reverse": dict(
        preset="kings_reverse",
        variants=["match_to_500"],
        n=3,
        hands=[["4H"], ["3C", "5C", "6S"], ["JD"]],
        top="4D",
        target=500,
        lowest_wins=True,
        # P1: 3 cards x 5 = 15; P2: a jack, 15.
        points=[0, 15, 15],
        scores=[300, 485, 100],
    ),
    # sevens_and_eights: "The game continues till one or more players have scored 500 or
    # more. The player with the lowest score then wins." Points: "Queens - 30 points each",
    # "All others - 5 points each".
    "sevens_and_eights": dict(
        preset="sevens_and_eights",
        variants=["match_to_500"],
        n=3,
        hands=[["4H"], ["QC", "3C"], ["5S"]],
        top="4D",
        target=500,
        lowest_wins=True,
        # P1: 30 + 5 = 35; P2: 5.
        points=[0, 35, 5],
        scores=[300, 465, 100],
    ),
    # jokers_and_nines: "All other rules of Sevens and Eights apply." (the 500 target).
    # Points as sevens_and_eights; "Nines count 20 points each" (with three players).
    "jokers_and_nines": dict(
        preset="jokers_and_nines",
        variants=["match_to_500"],
        n=3,
        hands=[["4H"], ["9C", "3C"], ["5S"]],
        top="4D",
        target=500,
        lowest_wins=True,
        # P1: 20 + 5 = 25; P2: 5.
        points=[0, 25, 5],
        scores=[300, 475, 100],
    ),
    # thirty_eights: "The game can be to any number of points determined at the beginning,
    # although 1,500 is a good game length." (catalog A43: penalty points, lowest wins).
    # Points: "Sixes: No special action. 5 points.", "Tens: No special action. 10 points."
    "thirty_eights": dict(
        preset="thirty_eights",
        variants=["match_to_1500"],
        n=4,
        hands=[["6H"], ["TC", "5C"], ["6S"], ["TS"]],
        top="6D",
        target=1500,
        lowest_wins=True,
        # P1: 10 + 5 = 15; P2: 5; P3: 10.
        points=[0, 15, 5, 10],
        scores=[900, 1485, 300, 700],
    ),
    # crazy_pairs: "all points are awarded to the player who won the round. The first
    # player who reaches 300 points wins the game." Points: "Face cards and tens: 10
    # points", "Two through nine - 5 points".
    "crazy_pairs": dict(
        preset="crazy_pairs",
        variants=["match_to_300"],
        n=3,
        hands=[["6H"], ["TC", "5C"], ["3S"]],
        top="6D",
        target=300,
        lowest_wins=False,
        # P0 collects 10 + 5 + 5 = 20.
        points=[20, 0, 0],
        scores=[280, 295, 0],
    ),
    # zodiac: "That player receives 1 point for each card his opponent(s) hold. The first
    # player to reach 55 points wins the game."
    "zodiac": dict(
        preset="zodiac",
        variants=["match_to_55"],
        n=3,
        hands=[["6H"], ["TC", "5C", "3D"], ["3S", "4S"]],
        top="6D",
        target=55,
        lowest_wins=False,
        # P0 collects 3 + 2 = 5 cards.
        points=[5, 0, 0],
        scores=[50, 54, 0],
    ),
    # crazy_eights_winner_collects: "The winner accrues all other player point." and "a good
    # guideline is 50 points for every player in the game" (150 with three players).
    # Points: "Numbered cards = face value", "Face card = 10".
    "crazy_eights_winner_collects": dict(
        preset="crazy_eights_winner_collects",
        variants=["match"],
        n=3,
        hands=[["4H"], ["KC", "5C"], ["3S"]],
        top="4D",
        target=150,
        lowest_wins=False,
        # P0 collects 10 + 5 + 3 = 18.
        points=[18, 0, 0],
        scores=[132, 140, 0],
    ),
    # crazy_eights_xtreme: "When any player's score has reached 100 points the game ends and
    # the player with the lowest total game score is the winner." Points: "Cards 6 - 9 : 2
    # points each.", "Cards 10, Jack, Queen, King : 5 points each." (none of the last card's
    # rank, so no double score).
    "crazy_eights_xtreme": dict(
        preset="crazy_eights_xtreme",
        variants=["match_to_100"],
        n=3,
        hands=[["5H"], ["TC", "6C"], ["9S"]],
        top="5D",
        target=100,
        lowest_wins=True,
        # P1: 5 + 2 = 7; P2: 2.
        points=[0, 7, 2],
        scores=[60, 93, 20],
    ),
    # crazy_eights_xtreme, variation 5: "E. Game ends when one player has reached 500 or
    # more points." Points: "A. Cards 2 - 10: Points value equals denomination.", "B. Cards
    # Jack, Queen, King: 10 points each."
    "crazy_eights_xtreme_alternative_scoring": dict(
        preset="crazy_eights_xtreme",
        variants=["match_to_100", "alternative_scoring"],
        n=3,
        hands=[["5H"], ["KC", "6C"], ["9S"]],
        top="5D",
        target=500,
        lowest_wins=True,
        # P1: 10 + 6 = 16; P2: 9.
        points=[0, 16, 9],
        scores=[300, 484, 100],
    ),
}


def _finish_hand(case, scores):
    """Build the position and let P0 go out with their one card."""
    g = eights.Game.from_position(
        case["preset"],
        case["n"],
        hands=case["hands"],
        discard=[case["top"]],
        stock=["2C", "2D", "2H", "2S", "3H", "4C", "7D"],
        rules={"variants": case["variants"]},
        scores=scores,
    )
    assert list(g.scores) == scores
    (card,) = case["hands"][0]
    g.step(f"play {card}")
    return g


@pytest.mark.parametrize("name", sorted(CASES))
def test_match_ends_exactly_at_the_sources_target(name):
    """The hand's points bring one player exactly onto the target: the match is over,
    and the winner is the one the source names (the lowest total, or the player who
    reached the target)."""
    case = CASES[name]
    scores = list(case["scores"])
    after = [s + p for s, p in zip(scores, case["points"])]
    assert max(after) == case["target"], "case built so that one player lands on the target"
    g = _finish_hand(case, scores)
    assert list(g.hand_points) == case["points"]
    assert list(g.scores) == after
    assert g.is_terminal, f"{name}: a player reached {case['target']}; the match is over"
    if case["lowest_wins"]:
        want = min(range(case["n"]), key=lambda p: after[p])
    else:
        want = max(range(case["n"]), key=lambda p: after[p])
    assert len({after[want]} & set(after[:want] + after[want + 1 :])) == 0, "no tie"
    assert g.winner == want


@pytest.mark.parametrize("name", sorted(CASES))
def test_match_goes_on_one_point_short_of_the_target(name):
    """The same hand one point lower: nobody reaches the target, so a new hand is dealt."""
    case = CASES[name]
    top = max(range(case["n"]), key=lambda p: case["scores"][p] + case["points"][p])
    scores = list(case["scores"])
    scores[top] -= 1
    g = _finish_hand(case, scores)
    after = [s + p for s, p in zip(scores, case["points"])]
    assert max(after) == case["target"] - 1
    assert list(g.scores) == after
    assert not g.is_terminal, f"{name}: nobody reached {case['target']}; the match goes on"
    assert g.winner is None
    assert g.hands_played == 1
    assert all(len(g.hand(p)) > 0 for p in range(case["n"])), "the next hand was dealt"

"""Position builder with countdown scores, for the countdown-family scenario tests.

``scenario_helpers.position`` has no ``scores`` argument; the countdown presets
(crazy_eights_countdown, crazy_eights_countdown_blog, bitch) need it because a
player's wild rank is their countdown score.  Same preconditions as
``position``, plus a check of the scores.
"""

import eights
from scenario_helpers import multiset


def score_position(
    preset,
    n,
    *,
    hands,
    discard,
    scores,
    stock=None,
    current_player=0,
    direction=1,
    nominated_suit=None,
    pending_draw=0,
    rules=None,
    seed=0,
):
    """``eights.Game.from_position`` with ``scores=[...]`` (the countdown scores).

    The preconditions only check that the position was built as requested, so a
    failure here points at position construction, not at the scenario.
    """
    hands = [list(h) for h in hands]
    discard = list(discard)
    g = eights.Game.from_position(
        preset,
        n,
        hands=hands,
        discard=discard,
        stock=None if stock is None else list(stock),
        current_player=current_player,
        direction=direction,
        nominated_suit=nominated_suit,
        pending_draw=pending_draw,
        scores=list(scores),
        seed=seed,
        rules=rules,
    )
    assert g.num_players == n
    for p, h in enumerate(hands):
        assert multiset(g.hand(p)) == multiset(h), f"P{p} hand not built as given"
    assert g.discard_pile() == discard, "discard pile not built as given"
    assert g.top_card == discard[-1]
    if stock is not None:
        assert g.stock() == list(stock), "stock not built as given"
    assert list(g.scores) == list(scores), "countdown scores not built as given"
    assert g.current_player == current_player
    assert g.direction == direction
    assert g.pending_draw == pending_draw
    assert not g.is_terminal
    return g

"""Position builder with countdown scores, for the countdown-family scenario tests.

A player's wild rank in the countdown presets (crazy_eights_countdown,
crazy_eights_countdown_blog, bitch) is their countdown score, so these scenarios
build positions with ``scores``; ``score_position`` is ``scenario_helpers.position``
with that argument required.
"""

from scenario_helpers import position


def score_position(preset, n, *, scores, **kwargs):
    """``position(...)`` with the countdown ``scores`` set and checked."""
    return position(preset, n, scores=scores, **kwargs)

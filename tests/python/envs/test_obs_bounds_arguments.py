"""ObservationBounds.union's argument: a list of ObservationBounds, else a TypeError naming it."""

import pytest

from eights.observation import ObservationBounds


@pytest.mark.parametrize(
    "bounds, message",
    [
        ([1], r"bounds\[0\] must be an ObservationBounds, got 1 \(type int\)"),  # was AttributeError: no 'copies'
        ("ab", "bounds must be a list of ObservationBounds, got 'ab'"),  # was AttributeError: no 'copies'
        (1, r"bounds must be a list of ObservationBounds, got 1 \(type int\)"),  # was TypeError: not subscriptable
    ],
)
def test_union_names_what_it_takes(bounds, message):
    with pytest.raises(TypeError, match=message):
        ObservationBounds.union(bounds)


def test_union_checks_every_entry_and_still_takes_a_tuple():
    one = ObservationBounds("crazy_eights")
    # A bad entry after a good one used to be AttributeError: 'NoneType' object has no attribute 'copies'.
    with pytest.raises(TypeError, match=r"bounds\[1\] must be an ObservationBounds, got None"):
        ObservationBounds.union([one, None])
    with pytest.raises(ValueError, match="at least one"):
        ObservationBounds.union([])
    assert ObservationBounds.union((one, ObservationBounds.any_rules())).deck_size == 216

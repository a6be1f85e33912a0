"""ObservationBounds.union's argument: a list of ObservationBounds, else a TypeError naming it."""

import numpy as np
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


@pytest.mark.parametrize(
    "obs", ["x", ["x"] * 346, [[0.0] * 346, [0.0]], None, {"observation": 0}, np.zeros(346, complex)]
)
def test_scale_names_the_array_it_takes(obs):
    # "x" was numpy's "could not convert string to float: 'x'"; a ragged list its "inhomogeneous
    # shape"; ["1"] * 346 was read as numbers.
    bounds = ObservationBounds("crazy_eights")
    with pytest.raises(TypeError, match=r"obs must be a numeric array of shape \(\.\.\., 346\), got "):
        bounds.scale(obs)
    for fine in (np.zeros(346, np.float32), [0] * 346, np.zeros((2, 346), np.uint8), np.zeros(346, bool)):
        assert bounds.scale(fine).dtype == np.float32

"""One seed range everywhere: every entry point that takes a seed accepts the integers in
[0, 2**64) (the engine's 64-bit seeds) and refuses the rest with the same message."""

from __future__ import annotations

import numpy as np
import pytest

import eights

pytest.importorskip("pettingzoo")
from eights.envs.pettingzoo import raw_env

ACCEPTED = [0, 1, 2**63 - 1, 2**63, 2**63 + 5, 2**64 - 1, np.uint64(2**64 - 1), np.int64(7)]
REFUSED = [
    (-1, ValueError),
    (2**64, ValueError),
    (2**70, ValueError),
    (1.0, TypeError),
    ("3", TypeError),
    (True, TypeError),
]


def _entry_points():
    """Each entry point as a function of a seed (constructors and resets)."""
    return {
        "Game": lambda s: eights.Game("crazy_eights", 2, seed=s),
        "Game.reset": lambda s: eights.Game("crazy_eights", 2, seed=0).reset(seed=s),
        "make": lambda s: eights.make("crazy_eights", num_players=2, seed=s),
        "make.reset": lambda s: eights.make("crazy_eights", num_players=2).reset(seed=s),
        "VecEnv": lambda s: eights.VecEnv("crazy_eights", num_envs=2, seed=s),
        "VecEnv.reset": lambda s: eights.VecEnv("crazy_eights", num_envs=2).reset(seed=s),
        "pettingzoo.reset": lambda s: raw_env("crazy_eights", 2).reset(seed=s),
    }


@pytest.mark.parametrize("name", sorted(_entry_points()))
@pytest.mark.parametrize("seed", ACCEPTED, ids=repr)
def test_every_entry_point_accepts_the_seed_range(name, seed):
    _entry_points()[name](seed)


@pytest.mark.parametrize("name", sorted(_entry_points()))
@pytest.mark.parametrize("seed,error", REFUSED, ids=repr)
def test_every_entry_point_refuses_the_same_seeds(name, seed, error):
    with pytest.raises(error, match="seed"):
        _entry_points()[name](seed)


def test_out_of_range_message_is_the_same_everywhere():
    messages = set()
    for call in _entry_points().values():
        with pytest.raises(ValueError) as info:
            call(2**64)
        messages.add(str(info.value))
    assert messages == {"seed must be in [0, 2**64), got 18446744073709551616"}

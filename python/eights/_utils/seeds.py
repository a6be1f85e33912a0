"""The one seed range of the package.  Every entry point that takes a seed (``eights.Game``,
``eights.make``, ``eights.VecEnv``, the PettingZoo and RLlib envs, the arena, the command
line) accepts an integer in ``[0, 2**64)`` (the engine's 64-bit seeds) and refuses anything
else with the same message, through :func:`check_seed`."""

from __future__ import annotations

from typing import Any, Optional

from .checks import as_int

__all__ = ["SEED_BOUND", "DRAW_BOUND", "check_seed", "check_optional_seed"]

#: Seeds are integers in ``[0, SEED_BOUND)``: the engine's 64-bit unsigned seeds.
SEED_BOUND = 2**64

#: Exclusive upper bound of the seeds an environment draws from its own generator for each
#: episode (kept below ``2**63`` so that seeded runs reproduce those of earlier versions).
DRAW_BOUND = 2**63 - 1


def check_seed(seed: Any, name: str = "seed") -> int:
    """``seed`` as a Python ``int`` in ``[0, 2**64)``: ``TypeError`` for a non-integer,
    ``ValueError`` naming ``name`` and the range for one outside it."""
    value = as_int(seed, name)
    if not 0 <= value < SEED_BOUND:
        raise ValueError(f"{name} must be in [0, 2**64), got {value}")
    return value


def check_optional_seed(seed: Any, name: str = "seed") -> Optional[int]:
    """``None`` or :func:`check_seed`."""
    return None if seed is None else check_seed(seed, name)

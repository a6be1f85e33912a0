"""The environments: Gymnasium (:mod:`.gym`, :class:`EightsEnv`), the batched
:class:`VecEnv` stepped in Rust (:mod:`.vector`), PettingZoo's AEC and parallel APIs
(:mod:`.pettingzoo`, imported on demand since it needs the ``pettingzoo`` extra), their
action spaces (:mod:`.spaces`) and the Gymnasium registration (:mod:`.registration`)."""

from .gym import EightsEnv, make
from .vector import VecEnv

__all__ = ["EightsEnv", "VecEnv", "make"]

"""The old import path of :mod:`eights.envs.gym` (the Gymnasium environment), kept as a thin re-export:
every name of that module, private ones included, is reachable here."""

from typing import Any as _Any

from .envs import gym as _module
from .envs.gym import *  # noqa: F401,F403


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

"""The old import path of :mod:`eights.envs.pettingzoo` (the PettingZoo environments), kept as a thin re-export:
every name of that module, private ones included, is reachable here."""

from typing import Any as _Any

from .envs import pettingzoo as _module
from .envs.pettingzoo import *  # noqa: F401,F403


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

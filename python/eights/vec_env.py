"""The old import path of :mod:`eights.envs.vector` (the batched environment), kept as a thin re-export:
every name of that module, private ones included, is reachable here."""

from typing import Any as _Any

from .envs import vector as _module
from .envs.vector import *  # noqa: F401,F403


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

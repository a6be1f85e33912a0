"""The old import path of :mod:`eights.integrations.rllib` (the RLlib multi-agent env), kept as a thin re-export:
every name of that module, private ones included, is reachable here."""

from typing import Any as _Any

from .integrations import rllib as _module
from .integrations.rllib import *  # noqa: F401,F403


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

"""The old import path of :mod:`eights.integrations.sb3` (the stable-baselines3 vector env), kept as a thin re-export:
every name of that module, private ones included, is reachable here."""

from typing import Any as _Any

from .integrations import sb3 as _module
from .integrations.sb3 import *  # noqa: F401,F403


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

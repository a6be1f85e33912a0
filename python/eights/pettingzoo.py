"""Deprecated: the old import path of :mod:`eights.envs.pettingzoo` (the PettingZoo environments); import
``eights.envs.pettingzoo`` instead. Importing this module warns (``DeprecationWarning``); every name of
``eights.envs.pettingzoo``, private ones included, is still reachable here."""

import warnings as _warnings
from typing import Any as _Any

from .envs import pettingzoo as _module
from .envs.pettingzoo import *  # noqa: F401,F403

_warnings.warn(
    "eights.pettingzoo is deprecated and will be removed; import eights.envs.pettingzoo instead",
    DeprecationWarning,
    stacklevel=2,
)


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

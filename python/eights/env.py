"""Deprecated: the old import path of :mod:`eights.envs.gym` (the Gymnasium environment); import
``eights.envs.gym`` instead. Importing this module warns (``DeprecationWarning``); every name of
``eights.envs.gym``, private ones included, is still reachable here."""

import warnings as _warnings
from typing import Any as _Any

from .envs import gym as _module
from .envs.gym import *  # noqa: F401,F403

_warnings.warn(
    "eights.env is deprecated and will be removed; import eights.envs.gym instead",
    DeprecationWarning,
    stacklevel=2,
)


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

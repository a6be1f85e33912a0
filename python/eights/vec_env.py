"""Deprecated: the old import path of :mod:`eights.envs.vector` (the batched environment); import
``eights.envs.vector`` instead. Importing this module warns (``DeprecationWarning``); every name of
``eights.envs.vector``, private ones included, is still reachable here."""

import warnings as _warnings
from typing import Any as _Any

from .envs import vector as _module
from .envs.vector import *  # noqa: F401,F403

_warnings.warn(
    "eights.vec_env is deprecated and will be removed; import eights.envs.vector instead",
    DeprecationWarning,
    stacklevel=2,
)


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

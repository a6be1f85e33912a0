"""Deprecated: the old import path of :mod:`eights.integrations.sb3` (the stable-baselines3 vector env); import
``eights.integrations.sb3`` instead. Importing this module warns (``DeprecationWarning``); every name of
``eights.integrations.sb3``, private ones included, is still reachable here."""

import warnings as _warnings
from typing import Any as _Any

from .integrations import sb3 as _module
from .integrations.sb3 import *  # noqa: F401,F403

_warnings.warn(
    "eights.sb3 is deprecated and will be removed; import eights.integrations.sb3 instead",
    DeprecationWarning,
    stacklevel=2,
)


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

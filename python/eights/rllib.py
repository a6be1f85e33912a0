"""Deprecated: the old import path of :mod:`eights.integrations.rllib` (the RLlib multi-agent env); import
``eights.integrations.rllib`` instead. Importing this module warns (``DeprecationWarning``); every name of
``eights.integrations.rllib``, private ones included, is still reachable here."""

import warnings as _warnings
from typing import Any as _Any

from .integrations import rllib as _module
from .integrations.rllib import *  # noqa: F401,F403

_warnings.warn(
    "eights.rllib is deprecated and will be removed; import eights.integrations.rllib instead",
    DeprecationWarning,
    stacklevel=2,
)


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

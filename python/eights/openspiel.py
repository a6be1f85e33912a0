"""Deprecated: the old import path of :mod:`eights.integrations.openspiel` (the OpenSpiel bridge); import
``eights.integrations.openspiel`` instead. Importing this module warns (``DeprecationWarning``); every name of
``eights.integrations.openspiel``, private ones included, is still reachable here."""

import warnings as _warnings
from typing import Any as _Any

from .integrations import openspiel as _module
from .integrations.openspiel import *  # noqa: F401,F403

_warnings.warn(
    "eights.openspiel is deprecated and will be removed; import eights.integrations.openspiel instead",
    DeprecationWarning,
    stacklevel=2,
)


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

"""Deprecated: the old import path of :mod:`eights.records` (game records: saving, loading,
stepping through them); import ``eights.records`` instead. The replay viewers are
:mod:`eights.render.replay_viewer`. Importing this module warns (``DeprecationWarning``); every name of
``eights.records``, private ones included, is still reachable here."""

import warnings as _warnings
from typing import Any as _Any

from . import records as _module
from .records import *  # noqa: F401,F403

_warnings.warn(
    "eights.replay is deprecated and will be removed; import eights.records instead",
    DeprecationWarning,
    stacklevel=2,
)


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

"""The old import path of :mod:`eights.records` (game records), kept as a thin re-export:
every name of that module, private ones included, is reachable here."""

from typing import Any as _Any

from . import records as _module
from .records import *  # noqa: F401,F403


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

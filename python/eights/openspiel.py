"""The old import path of :mod:`eights.integrations.openspiel` (the OpenSpiel bridge), kept as a thin re-export:
every name of that module, private ones included, is reachable here."""

from typing import Any as _Any

from .integrations import openspiel as _module
from .integrations.openspiel import *  # noqa: F401,F403


def __getattr__(name: str) -> _Any:
    return getattr(_module, name)

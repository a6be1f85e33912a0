"""Benchmark policies against the built-in bots with duplicate deals (the code lives in
:mod:`eights.arena.run` while the package is split by concern; this file re-exports it)."""

from . import run as _run
from .run import (
    AGENT_HELP,
    Z95,
    Agent,
    EvalResult,
    TournamentResult,
    _play_python,
    as_agent,
    bradley_terry,
    evaluate,
    play,
    tournament,
    wilson_interval,
)

__doc__ = _run.__doc__
__all__ = list(_run.__all__)
_REEXPORTED = (AGENT_HELP, Z95, _play_python)

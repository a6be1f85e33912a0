"""The Python opponents of a batch (:class:`eights.VecEnv`): the argument read into one
opponent per seat (a built-in bot name, an :class:`eights.OpponentPool`, or a batched policy).
"""

from __future__ import annotations

import os
from typing import Any, Dict

from .._utils.checks import describe as _describe
from .._utils.checks import opponents_per_seat, other_seats
from ..agents.pool import OpponentPool
from ..agents.spec import AgentSpec, as_agent

__all__ = ["normalise_opponents"]


def normalise_opponents(opponents: Any, num_players: int, learner_seat: int) -> Dict[int, Any]:
    """Python opponents per seat; empty for the built-in Rust bots."""
    if isinstance(opponents, str) and opponents.strip().lower() == "random":
        other_seats(num_players, learner_seat)  # ValueError for a learner_seat off the table
        return {}
    return opponents_per_seat(opponents, num_players, learner_seat, check_opponent)


def check_opponent(spec: Any, seat: int) -> Any:
    """A Python opponent of the batch: a built-in bot name (canonicalised), an
    :class:`OpponentPool`, or a batched policy.  Here a plain callable is batched,
    ``f(obs, masks) -> actions``; anything else goes through the one agent specification
    (:func:`eights.agents.as_agent`): an object with ``act_batch`` plays by it, one with only
    ``act`` row by row."""
    if isinstance(spec, OpponentPool):
        return spec
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)  # a weights file's path, a bot name
    if callable(spec) and not isinstance(spec, AgentSpec) and not callable(getattr(spec, "act_batch", None)):
        return spec
    if not isinstance(spec, (str, AgentSpec)) and not callable(getattr(spec, "act", None)):
        raise TypeError(
            f"opponent for seat {seat} must be a built-in bot name, a batched callable "
            f"f(obs, mask) -> actions, an object with act_batch or act, or an OpponentPool, got {_describe(spec)}"
        )
    try:
        agent = as_agent(spec, f"opponent for seat {seat}")
    except ValueError as exc:
        raise ValueError(
            f"{exc}; or a batched callable f(obs, mask) -> actions, an OpponentPool, or a list of those per seat"
        ) from None
    if agent.is_builtin:
        return agent.bot
    return agent.batch_policy if agent.batch_policy is not None else agent.act_batch

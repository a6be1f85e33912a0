"""The Python opponents of a batch (:class:`eights.VecEnv`): the argument read into one
opponent per seat (a built-in bot name, an :class:`eights.OpponentPool`, or a batched policy),
and the loop that plays them between the learner's steps.
"""

from __future__ import annotations

import os
from typing import Any, Dict

import numpy as np
from gymnasium.vector import AutoresetMode

from .._core import IllegalActionError
from .._utils.checks import describe as _describe
from .._utils.checks import opponents_per_seat, other_seats
from ..agents.pool import OpponentPool
from ..agents.pool import check_batch_actions as _check_batch_actions
from ..agents.spec import AgentSpec, as_agent

__all__ = ["MAX_OPPONENT_ROUNDS", "normalise_opponents", "play_opponents"]


def normalise_opponents(opponents: Any, num_players: int, learner_seat: int, obs_rules: bool = False) -> Dict[int, Any]:
    """Python opponents per seat; empty for the built-in Rust bots. ``obs_rules``: the batch
    gives its Python opponents the rules too (an opponent that reads them needs it)."""
    if isinstance(opponents, str) and opponents.strip().lower() == "random":
        other_seats(num_players, learner_seat)  # ValueError for a learner_seat off the table
        return {}
    return opponents_per_seat(
        opponents, num_players, learner_seat, lambda spec, seat: check_opponent(spec, seat, obs_rules)
    )


def check_opponent(spec: Any, seat: int, obs_rules: bool = False) -> Any:
    """A Python opponent of the batch: a built-in bot name (canonicalised), an
    :class:`OpponentPool`, or a batched policy.  Here a plain callable is batched,
    ``f(obs, masks) -> actions``; anything else goes through the one agent specification
    (:func:`eights.agents.as_agent`): an object with ``act_batch`` plays by it, one with only
    ``act`` row by row. An agent that reads the rules (``obs_rules = True`` on it) is refused
    by a batch without ``obs_rules``, which has no rules to give it."""
    if isinstance(spec, OpponentPool):
        return spec
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)  # a weights file's path, a bot name
    if callable(spec) and not isinstance(spec, AgentSpec) and not callable(getattr(spec, "act_batch", None)):
        if getattr(spec, "obs_rules", False) is True and not obs_rules:  # it was given bare observations
            raise ValueError(_needs_rules(seat, getattr(spec, "__name__", type(spec).__name__)))
        return spec
    plays = callable(getattr(spec, "act", None)) or callable(getattr(spec, "act_batch", None))
    if not isinstance(spec, (str, AgentSpec)) and not plays:
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
    if agent.obs_rules and not obs_rules:
        raise ValueError(_needs_rules(seat, agent.label))
    return agent.batch_policy if agent.batch_policy is not None else agent.act_batch


def _needs_rules(seat: int, label: str) -> str:
    """The refusal of an opponent that reads the rules by a batch that has none to give."""
    return (
        f"opponent for seat {seat}: {label!r} reads the rules beside the observation (obs_rules = True "
        "on it); make the VecEnv with obs_rules=True, so that its opponents are given them"
    )


#: Opponent rounds per step before giving up on a Python opponent loop.
MAX_OPPONENT_ROUNDS = 10_000


def play_opponents(env: Any) -> None:
    """Call the Python opponents of ``env`` (an :class:`eights.VecEnv`), a batch per seat
    (and snapshot), until every game has the learner to act or has ended."""
    core = env._core
    acts = env._opp_actions
    for _ in range(MAX_OPPONENT_ROUNDS):
        if not core.opponents_to_act():
            return
        acts.fill(-1)
        to_act = env._to_act
        for seat, opp in env._py_opponents.items():
            rows = np.flatnonzero(to_act == seat)
            if rows.size == 0:
                continue
            if isinstance(opp, str):  # a built-in bot reads the games in Rust
                acts[rows] = core.bot_actions(opp, rows)
                continue
            obs, mask = env._obs[rows], env._mask[rows]
            if env.scale_obs:
                obs = env.obs_bounds.scale(obs)
            if env._rules_enc is not None:  # obs_rules: the policies read the rules too
                obs = {"obs": obs, "rules": env._rules_enc[rows]}
            if isinstance(opp, OpponentPool):

                def builtin(name: str, sub: np.ndarray, seed: Any = None, rows: np.ndarray = rows) -> np.ndarray:
                    if seed is None:
                        return core.bot_actions(name, rows[sub])
                    return core.bot_actions(name, rows[sub], seed)

                acts[rows] = opp.act(obs, mask, env._pool_choice[seat][rows], builtin=builtin)
            else:
                acts[rows] = _check_batch_actions(
                    opp(obs, mask), len(rows), f"the actions of the opponent at seat {seat}"
                )
        before = (env._terminated | env._truncated) if env._pool_choice else None
        try:
            core.step_opponents(acts)
        except (ValueError, IllegalActionError) as exc:
            raise type(exc)(f"an opponent policy returned a bad action: {exc}") from exc
        if before is not None and env.autoreset_mode == AutoresetMode.SAME_STEP:
            env._resample((env._terminated | env._truncated) & ~before)
    raise RuntimeError(f"the opponents did not finish within {MAX_OPPONENT_ROUNDS} rounds")

"""The PettingZoo wrappers of :func:`eights.envs.pettingzoo.env` and ``parallel_env``:
PettingZoo's own (``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``,
``OrderEnforcingWrapper``, ``turn_based_aec_to_parallel``) with the checks the package adds,
and with the attributes an agent loop reads at every step (``agents``, ``agent_selection``,
``rewards``, ...) read from the bare env directly: PettingZoo's ``BaseWrapper`` finds them
only through ``__getattr__`` after ordinary lookup fails, wrapper by wrapper, which was most
of the wrapped env's time (about 50 failed lookups a step)."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any, Dict, Optional, Tuple

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper

from .._core import NUM_ACTIONS, IllegalActionError
from .._utils.checks import as_action as _as_action
from .._utils.checks import describe as _describe
from .._utils.checks import shown_path

#: Why ``step`` and ``last`` refuse once every agent has left (the hand is over and each
#: done agent was stepped with None): there is no agent to act or to report on.
GAME_OVER = "the game is over and every agent has been stepped with None (agents is empty): call reset()"


class _ReadThrough:
    """An attribute of the bare env read from it directly, not through each wrapper's
    ``__getattr__``. No wrapper in the chain holds these names, so the value is the one the
    chain gave. Until the wrapper's ``_raw`` is set (:class:`OrderEnforcing`: at ``reset``)
    the read falls back to ``__getattr__``, which answers as before (the order enforcer's
    "call reset() first"). A non-data descriptor: a value set on the wrapper itself still
    hides it, as before."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, wrapper: Any, owner: Optional[type] = None) -> Any:
        if wrapper is None:
            return self
        raw = wrapper._raw
        if raw is None:
            raise AttributeError(self.name)  # Python then calls __getattr__
        return getattr(raw, self.name)


class ReadsThrough:
    """Mixin for a PettingZoo wrapper: the attributes read at every step come from the bare
    env (:class:`_ReadThrough`)."""

    _raw: Optional[AECEnv] = None
    agents = _ReadThrough()
    agent_selection = _ReadThrough()
    rewards = _ReadThrough()
    terminations = _ReadThrough()
    truncations = _ReadThrough()
    infos = _ReadThrough()
    _cumulative_rewards = _ReadThrough()


class TerminateIllegal(ReadsThrough, wrappers.TerminateIllegalWrapper):
    """PettingZoo's ``TerminateIllegalWrapper``, reading through to the bare env."""

    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward=illegal_reward)
        self._raw = env.unwrapped


class AssertOutOfBounds(ReadsThrough, wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's ``AssertOutOfBoundsWrapper``, reading through to the bare env. An action
    that is a plain ``int`` in range is in the space and goes straight on: ``env()``'s
    ``OrderEnforcing`` hands every live agent's action down as one, and the space's
    ``contains`` only repeated that check; anything else gets PettingZoo's assertion."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped

    def step(self, action: Any) -> None:
        if type(action) is int and 0 <= action < NUM_ACTIONS:
            self.env.step(action)
        else:
            super().step(action)


def checked_action(action: Any) -> int:
    """An agent's action as an int in ``[0, NUM_ACTIONS)``: ``TypeError`` or ``IllegalActionError``."""
    action = _as_action(action)
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(f"action {action} is out of range; actions are integers in [0, {NUM_ACTIONS})")
    return action


class OrderEnforcing(ReadsThrough, wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` (``step`` once every agent has left warns and
    does nothing, as PettingZoo's own envs), whose ``last()`` then says the game is over
    instead of failing on the agent that has left (``KeyError``). Calls before ``reset`` get
    ``raw_env``'s ``RuntimeError``, and ``step`` checks the action as ``raw_env`` does before
    PettingZoo's wrappers see it: their ``assert`` named no argument (and ``python -O`` drops
    it), and a bool indexed the action mask as a mask."""

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        super().reset(seed=seed, options=options)
        self._raw = self.env.unwrapped  # reads go through to it from now on

    def _require_reset(self, what: str) -> None:
        if not self._has_reset:
            raise RuntimeError(f"call reset() before {what}()")

    def step(self, action: Any) -> None:
        self._require_reset("step")
        agent = self.agent_selection if self.agents else None
        if agent is not None and not (self.terminations[agent] or self.truncations[agent]):
            action = checked_action(action)
        super().step(action)

    def observe(self, agent: Any) -> Any:
        self._require_reset("observe")
        return super().observe(agent)

    def last(self, observe: bool = True) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        self._require_reset("last")
        if not self.agents:
            raise RuntimeError(GAME_OVER)
        return super().last(observe)

    def __str__(self) -> str:
        return str(self.env)


def _names(keys: Any) -> str:
    """The keys of an actions dict that name no live agent, as a message lists them: the first
    five, each shortened past 120 characters (never a huge name echoed whole), then how many more."""
    shown = ", ".join(shown_path(k) if isinstance(k, str) else _describe(k) for k in keys[:5])
    return shown if len(keys) <= 5 else f"{shown} and {len(keys) - 5:,} more"


class TurnBasedParallel(turn_based_aec_to_parallel_wrapper):
    """PettingZoo's ``turn_based_aec_to_parallel`` wrapper with ``step`` checked: before
    ``reset`` a ``RuntimeError``; ``actions`` must be a dict holding one action per live
    agent (``TypeError``, ``ValueError`` naming the missing and unknown agents); once every
    agent has left, PettingZoo's warning and five empty dicts (the wrapper returned four).

    The infos of ``reset`` and ``step`` are new dicts at every call, each live agent's naming
    the agent to act (``"active_agent"``), and none once the hand is over. PettingZoo's
    wrapper wrote that key into the AEC env's own info dicts and returned those, so the
    infos a step returned changed at the next step, and it named no agent at ``reset``."""

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Any]:
        observations, _ = super().reset(seed=seed, options=options)
        return observations, self._infos(self.aec_env.infos)

    def step(self, actions: Any) -> Tuple[Dict[str, Any], ...]:
        agents = getattr(self, "agents", None)
        if agents is None:
            raise RuntimeError("call reset() before step()")
        if not agents:
            warnings.warn("step() called after all agents are terminated or truncated: call reset()", stacklevel=2)
            return {}, {}, {}, {}, {}
        if not isinstance(actions, Mapping):
            raise TypeError(
                f"actions must be a dict with one action per live agent ({', '.join(agents)}), got {_describe(actions)}"
            )
        missing = [a for a in agents if a not in actions]
        unknown = [a for a in actions if a not in agents]
        if missing or unknown:
            parts = ([f"no action for {', '.join(map(repr, missing))}"] if missing else []) + (
                [f"actions for agents that are not live: {_names(unknown)}"] if unknown else []
            )
            raise ValueError(
                f"actions must be a dict with one action per live agent ({', '.join(agents)}): " + "; ".join(parts)
            )
        aec = self.aec_env
        aec.step(actions[aec.agent_selection])
        rewards, terminations, truncations = dict(aec.rewards), dict(aec.terminations), dict(aec.truncations)
        infos = dict(aec.infos)  # before the agents that are done are stepped with None (and leave it)
        observations = {agent: aec.observe(agent) for agent in aec.agents}
        while aec.agents and (aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]):
            aec.step(None)
        self.agents = aec.agents[:]
        return observations, rewards, terminations, truncations, self._infos(infos)

    def _infos(self, infos: Dict[str, Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
        """Copies of the AEC env's ``infos``, each live agent's naming the agent to act."""
        aec = self.aec_env
        live = set(aec.agents)
        return {
            a: {**info, "active_agent": aec.agent_selection} if a in live else dict(info) for a, info in infos.items()
        }

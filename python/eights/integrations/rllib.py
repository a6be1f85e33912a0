"""Ray RLlib multi-agent environment for eights games (new API stack).

:class:`EightsMultiAgentEnv` is a ``ray.rllib.env.multi_agent_env.MultiAgentEnv``: every
seat is an agent (``"player_0"`` .. ``"player_{n-1}"``) and the game is turn based, so
each ``step`` returns an observation only for the agent that decides next. RLlib
scales it the usual way: more env runners (``config.env_runners(num_env_runners=...)``)
on one machine or on a Ray cluster.

Conventions

* Observations are dicts ``{"observations": float32 (OBS_SIZE,), "action_mask": float32
  (NUM_ACTIONS,)}``, the layout RLlib's action-masking module expects (1.0 = legal).
  :func:`action_masking_module_spec` returns an ``RLModuleSpec`` that builds such a module
  (PPO, PyTorch; :mod:`eights.integrations.rllib_module`): it adds ``log(mask)`` to the
  logits so illegal actions are never sampled.
* Actions are ``Discrete(197)`` ids (``eights.NUM_ACTIONS``, the fixed action layout);
  ``action_space.sample()`` draws a legal action of the agent to act.
* Rewards are 0 during the hand; when it ends every agent that has acted receives its
  entry of ``game.returns(reward)`` (``"win_loss"``: winner +1, others ``-1/(n-1)``;
  ``"score"``: the normalised score) with its final observation, and
  ``terminateds["__all__"]`` is True. A hand stopped at the engine's decision cap
  ends with ``truncateds["__all__"] = True``.
* An action that is not an integer (a float, a string, a bool, None) is a ``TypeError`` naming
  the agent, as the Gymnasium env's; an illegal action raises :class:`eights.IllegalActionError`
  (a ``ValueError``); with the masking module it never happens.
* Seeds: ``reset(seed=s)`` deals the same hand for the same ``s``; ``reset()`` without a
  seed continues the env's own seeded stream (``env_config["seed"]``, default 0, offset
  by the env runner and vector index when RLlib passes an ``EnvContext``), so runs
  reproduce.

``env_config`` keys: ``preset`` (default ``"crazy_eights"``; a preset name, a path to a
TOML rules file or an :class:`eights.Rules`, or with ``obs_rules`` a list of them or an
:class:`eights.RuleSpace`, drawn at every reset), ``num_players`` (2), ``rules`` (a dict of overrides, or an
:class:`eights.Rules` in place of ``preset``), ``reward`` (``"win_loss"``), ``seed`` (0, in
the package's seed range ``[0, 2**64)``), ``obs_rules`` (False: with True each agent's
observation dict gains ``"rules"``, the rules encoding, which the masking module of
:func:`action_masking_module_spec` reads beside ``"observations"``).

Example (building the algorithm starts Ray, so the doctests stop before it):

>>> from ray.rllib.algorithms.ppo import PPOConfig
>>> from eights.integrations import rllib
>>> rllib.register()  # registers the env name, and returns it
'eights'
>>> config = (
...     PPOConfig()
...     .environment("eights", env_config={"preset": "crazy_eights", "num_players": 2})
...     .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
...     .rl_module(rl_module_spec=rllib.action_masking_module_spec(["shared"]))
...     .env_runners(num_env_runners=2)
... )
>>> algo = config.build_algo()  # doctest: +SKIP
>>> runners = algo.train()["env_runners"]  # doctest: +SKIP
>>> print(runners["episode_return_mean"])  # doctest: +SKIP

See ``examples/rllib_selfplay.py`` in the repository for a full self-play run.
"""

from __future__ import annotations

from .._utils.optional import require
from .._utils.seeds import check_optional_seed, check_seed

require(["ray.rllib", "torch"], "rllib", "eights.integrations.rllib")

from typing import Any, Dict, Iterable, Mapping, Optional, Tuple

import gymnasium
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.typing import MultiAgentDict

from .._core import NUM_ACTIONS
from .._utils.checks import as_action, describe
from ..envs._common import Table, check_flag, reset_deck
from ..envs._rulesets import obs_rules_space
from ..envs.gym import RESET_OPTIONS
from ..envs.spaces import BindsItsActionSpace, LegalActionSpace
from ..rules import Rules

__all__ = ["ENV_NAME", "EightsMultiAgentEnv", "action_masking_module_spec", "agent_id", "register"]

#: The name :func:`register` gives the environment in Ray Tune's registry.
ENV_NAME = "eights"

_CONFIG_KEYS = ("preset", "num_players", "rules", "reward", "seed", "obs_rules")
_REWARDS = ("win_loss", "score")


def agent_id(seat: int) -> str:
    """The agent id of a seat: ``"player_<seat>"``."""
    return f"player_{seat}"


class EightsMultiAgentEnv(BindsItsActionSpace, MultiAgentEnv):
    """Every seat of an eights game as an RLlib agent (see the module documentation)."""

    def __init__(self, config: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__()
        if config is not None and not isinstance(config, Mapping):  # an EnvContext is a dict
            raise TypeError(f"env_config must be a dict (mapping) of settings or None, got {describe(config)}")
        # An EnvContext (what RLlib passes) tells which runner and sub-env this is: give
        # each its own stream so parallel runners do not play the same deals.
        worker = int(getattr(config, "worker_index", 0))
        vector = int(getattr(config, "vector_index", 0))
        config = dict(config or {})
        unknown = sorted(set(config) - set(_CONFIG_KEYS))
        if unknown:
            raise ValueError(f"unknown env_config keys {unknown}; allowed: {list(_CONFIG_KEYS)}")
        preset = config.get("preset", "crazy_eights")
        num_players = config.get("num_players", 2)
        rules = config.get("rules")
        self.reward_kind = config.get("reward", "win_loss")
        if self.reward_kind not in _REWARDS:
            raise ValueError(f"unknown reward {self.reward_kind!r}; allowed: {list(_REWARDS)}")
        seed = check_seed(config.get("seed", 0), "env_config['seed']")
        self._rng = np.random.default_rng([seed, worker, vector])
        if isinstance(rules, Rules):  # an eights.Rules given as ``rules`` stands for the preset
            preset, rules = rules, None
        self.obs_rules = check_flag(config.get("obs_rules", False), "env_config['obs_rules']")
        self._table = Table(preset, num_players, rules, {})
        self.game = self._table.game
        self.num_players = int(num_players)
        self.agents = self.possible_agents = [agent_id(s) for s in range(self.num_players)]
        parts: Dict[str, gymnasium.spaces.Space] = {
            # Finite bounds from the dealt pack (see eights.observation).
            "observations": self._table.obs_bounds.space,
            "action_mask": gymnasium.spaces.Box(0.0, 1.0, (NUM_ACTIONS,), np.float32),
        }
        if self.obs_rules:
            parts["rules"] = obs_rules_space(parts["observations"])["rules"]
        obs_space = gymnasium.spaces.Dict(parts)
        self.observation_spaces = {a: obs_space for a in self.agents}
        # Like the Gymnasium env's: sample() without a mask draws a legal action (RLlib's env
        # checker steps sampled actions).
        action_space = LegalActionSpace(NUM_ACTIONS, self)
        self.action_spaces = {a: action_space for a in self.agents}
        self._acted: set = set()
        self._started = False

    # ------------------------------------------------------------------ API

    def reset(  # type: ignore[override]  # RLlib's multi-agent form
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Deal a new hand.  ``seed`` (in ``[0, 2**64)``) reseeds the env's generator; ``options``
        may hold ``"deck"`` (card strings fixing the first cards of the pack), as the Gymnasium
        env's; another key is refused."""
        # Every argument is checked before anything changes (the generator, the game): a call
        # that raises leaves the env exactly as it was.
        seed = check_optional_seed(seed)
        deck = reset_deck(self.game, options, RESET_OPTIONS)
        self._table.check_deck(deck)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = self._table.deal(int(self._rng.integers(2**63)), deck)
        self._acted = set()
        self._started = True
        seat = self.game.current_player
        return {agent_id(seat): self._obs(seat)}, {}

    def step(  # type: ignore[override]  # RLlib's multi-agent form
        self, action_dict: MultiAgentDict
    ) -> Tuple[Dict[str, Any], Dict[str, float], Dict[str, bool], Dict[str, bool], Dict[str, Any]]:
        if not self._started:  # the game is the template dealt from seed 0, not an episode
            raise RuntimeError("call reset() before step()")
        if not isinstance(action_dict, Mapping):
            raise TypeError(f"action_dict must be a dict of agent id to action, got {describe(action_dict)}")
        seat = self.game.current_player
        if seat < 0:
            raise ValueError("the hand is over: call reset() before step()")
        me = agent_id(seat)
        if me not in action_dict:
            raise ValueError(f"it is {me}'s turn; action_dict has {sorted(map(str, action_dict))}")
        # The Gymnasium env's check: a float, string, bool or None is a TypeError, never truncated or parsed.
        self.game.step(as_action(action_dict[me], f"action_dict[{me!r}]"))
        self._acted.add(seat)
        if self.game.is_terminal or self.game.is_truncated:
            returns = self.game.returns(self.reward_kind)
            seats = sorted(self._acted)
            obs = {agent_id(s): self._obs(s) for s in seats}
            rewards = {agent_id(s): float(returns[s]) for s in seats}
            done = {"__all__": bool(self.game.is_terminal)}
            cut = {"__all__": bool(self.game.is_truncated and not self.game.is_terminal)}
            return obs, rewards, done, cut, {}
        nxt = self.game.current_player
        return {agent_id(nxt): self._obs(nxt)}, {me: 0.0}, {"__all__": False}, {"__all__": False}, {}

    def render(self) -> str:  # type: ignore[override]  # a text frame
        return self.game.render()

    # ------------------------------------------------------------- helpers

    def _sampling_mask(self) -> Optional[np.ndarray]:
        if not self._started or self.game.current_player < 0:
            return None
        return self.game.action_mask()

    def _obs(self, seat: int) -> Dict[str, np.ndarray]:
        mask = self.game.action_mask() if self.game.current_player == seat else np.zeros(NUM_ACTIONS, bool)
        out = self._table.observation(seat, False, self.obs_rules)
        if self.obs_rules:
            return {"observations": out["obs"], "action_mask": mask.astype(np.float32), "rules": out["rules"]}
        return {"observations": out, "action_mask": mask.astype(np.float32)}


def _make(config: Any) -> EightsMultiAgentEnv:
    return EightsMultiAgentEnv(config)


def register(name: str = ENV_NAME) -> str:
    """Register :class:`EightsMultiAgentEnv` with Ray Tune under ``name`` and return it.

    Importing this module registers it as :data:`ENV_NAME` already (as ``import eights``
    registers the Gymnasium ids), so an algorithm restored from a checkpoint
    (``Algorithm.from_checkpoint``) finds the env; call this for another name."""
    from ray.tune.registry import register_env

    register_env(name, _make)
    return name


def action_masking_module_spec(policies: Iterable[str] = ("shared",), hidden: Tuple[int, ...] = (256, 256)) -> Any:
    """A ``MultiRLModuleSpec`` with one action-masking PPO module (PyTorch) per policy id.

    The module class is :class:`eights.integrations.rllib_module.ActionMaskingPPOModule`,
    RLlib's default PPO module with the action mask applied to its logits; with
    ``env_config={"obs_rules": True}`` it reads the rules encoding beside the observation.
    ``hidden`` sets the sizes of its hidden layers.
    """
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from .rllib_module import ActionMaskingPPOModule

    model_config = DefaultModelConfig(fcnet_hiddens=list(hidden), head_fcnet_hiddens=[])
    return MultiRLModuleSpec(
        rl_module_specs={
            p: RLModuleSpec(module_class=ActionMaskingPPOModule, model_config=model_config) for p in policies
        }
    )


register()  # the env's name for RLlib, known wherever this module is imported

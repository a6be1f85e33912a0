"""A stable-baselines3 ``VecEnv`` over the batched Rust engine.

This module owns :class:`SB3VecEnv`, a :class:`stable_baselines3.common.vec_env.VecEnv` whose
``num_envs`` games are one :class:`eights.VecEnv` (stepped together in Rust) instead of
``num_envs`` Python envs in a ``DummyVecEnv``.  It has ``action_masks()``, so
sb3-contrib's ``MaskablePPO`` trains on it directly.  Needs stable-baselines3
(``pip install 'eights[sb3]'``).

Example (the doctests build the model but skip the training):

>>> from sb3_contrib import MaskablePPO
>>> from stable_baselines3.common.vec_env import VecMonitor
>>> from eights.integrations import sb3
>>> venv = VecMonitor(sb3.SB3VecEnv("crazy_eights", num_envs=16, seed=0))
>>> model = MaskablePPO("MlpPolicy", venv, n_steps=128, seed=0)
>>> model.learn(10_000)  # doctest: +SKIP

Conventions (those of SB3's ``DummyVecEnv``): ``reset()`` returns the observations only;
``step`` returns ``(obs, rewards, dones, infos)`` with ``dones = terminated | truncated``;
a game that ended is dealt again inside the same step, its last observation is
``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]`` tells a
truncation (the engine's decision cap) from a real end.  Observations are copies (safe
to keep).  Actions are integers, ``num_envs`` of them (shape ``(num_envs,)``, or
``(num_envs, 1)`` as SB3's ``DummyVecEnv`` takes), checked as :meth:`eights.VecEnv.step`
checks them, and must be legal (an illegal one raises ``IllegalActionError``, the batch left
as it was): train with a masking algorithm.
"""

from __future__ import annotations

from .._utils.optional import require

require("stable_baselines3", "sb3", "eights.integrations.sb3")

import numbers
from collections.abc import Iterable, Mapping
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv as _BaseVecEnv

from .._core import NUM_ACTIONS, IllegalActionError
from .._utils.checks import as_int, describe
from .._utils.seeds import check_optional_seed
from ..agents.pool import check_batch_actions
from ..envs.vector import VecEnv as _EightsVecEnv

__all__ = ["SB3VecEnv"]

#: What an illegal action's error adds: an algorithm without masks needs another env.
_LEGAL_ONLY = (
    "an SB3VecEnv takes legal actions only: train on it with a masking algorithm (sb3-contrib's MaskablePPO reads "
    "action_masks()); PPO, A2C or DQN without masks train on DummyVecEnv([eights.make, ...]), whose "
    "illegal_action='terminate' ends the episode instead"
)


class SB3VecEnv(_BaseVecEnv):
    """``num_envs`` games of one preset as an SB3 vector env (learner mode: the agent plays
    ``learner_seat``, ``opponents`` the other seats, as in :class:`eights.VecEnv`).

    Args:
        preset: rules preset name.
        num_envs: number of games.
        num_players: seats per table.
        opponents: as for :class:`eights.VecEnv` (``"random"`` by default, played in Rust).
        learner_seat: the agent's seat.
        seed: seed of the first reset (``model.learn`` seeds through :meth:`seed` too).
        num_threads: Rust threads (``None`` = all cores).
        reward: ``"win_loss"`` or ``"score"``.
        scale_obs: observations scaled to ``[0, 1]`` (see :mod:`eights.observation`).
        obs_rules: observations ``{"obs": ..., "rules": ...}`` with the rules encoding (a
            ``Dict`` space: train with ``"MultiInputPolicy"``); ``preset`` may then be a list
            of rule sets or an :class:`eights.RuleSpace`, drawn at every episode.
        rules / **rule_overrides: rule overrides, as for :func:`eights.make`.
    """

    def __init__(
        self,
        preset: Any = "crazy_eights",
        num_envs: int = 8,
        num_players: int = 2,
        opponents: Any = "random",
        *,
        learner_seat: int = 0,
        seed: Optional[int] = None,
        num_threads: Optional[int] = None,
        reward: str = "win_loss",
        scale_obs: bool = False,
        obs_rules: bool = False,
        rules: Optional[Dict[str, Any]] = None,
        **rule_overrides: Any,
    ) -> None:
        self.venv = _EightsVecEnv(
            preset,
            num_envs,
            num_players,
            opponents,
            learner_seat=learner_seat,
            num_threads=num_threads,
            autoreset="same_step",
            reward=reward,
            seed=seed,
            scale_obs=scale_obs,
            obs_rules=obs_rules,
            rules=rules,
            **rule_overrides,
        )
        self.render_mode = None
        self._actions = np.zeros(num_envs, dtype=np.int64)
        super().__init__(num_envs, self.venv.single_observation_space, spaces.Discrete(NUM_ACTIONS))

    # ------------------------------------------------------------ SB3 API

    def reset(self) -> np.ndarray:
        obs, _ = self.venv.reset(seed=self._seeds[0])  # checked by seed(): None or in [0, 2**64)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return _copy(obs)

    def seed(self, seed: Optional[int] = None) -> Sequence[Union[None, int]]:
        """SB3's seeding: the next :meth:`reset` deals from ``seed``, an integer in the package's
        seed range ``[0, 2**64)`` (None: a random one, as SB3 draws).  Anything else is refused
        here (``TypeError``/``ValueError`` naming ``seed``), the seed in force left as it was."""
        return super().seed(check_optional_seed(seed))

    def step_async(self, actions: np.ndarray) -> None:
        # Shape (num_envs, 1), which DummyVecEnv takes, or one action for one env is read as
        # (num_envs,); then VecEnv.step's own check (a float, bool or string array, a wrong size,
        # an unsigned value past int64: TypeError/ValueError naming ``actions``), before anything is kept.
        arr = check_batch_actions(_flat(actions, self.num_envs), self.num_envs, "actions", step=True)
        np.copyto(self._actions, arr, casting="unsafe")  # unsigned values past int64 were refused

    def step_wait(self) -> Any:
        try:
            obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        except IllegalActionError as exc:  # checked before any game moved: the batch is as it was
            raise IllegalActionError(f"{exc}; {_LEGAL_ONLY}") from None
        dones = terminated | truncated
        infos: List[Dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = info["final_obs"]
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = _copy(final, int(i))
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return _copy(obs), np.array(rewards, dtype=np.float32), dones.copy(), infos

    def set_options(self, options: Union[List[Dict[str, Any]], Dict[str, Any], None] = None) -> None:
        """SB3's reset options, one dict per env (or one for all).  The games of this batch are
        dealt from its seed and take no option (a Gymnasium env's ``deck`` fixes one game's
        deal), so only empty options are accepted; any other is refused here rather than
        dropped at the next reset, and the options in force are left as they were."""
        rows = list(options) if isinstance(options, (list, tuple)) else [options]
        if isinstance(options, (list, tuple)) and len(rows) != self.num_envs:
            raise ValueError(f"set_options: a list needs one dict per env ({self.num_envs}), got {len(rows)}")
        for i, opts in enumerate(rows):
            if opts is not None and not isinstance(opts, dict):
                raise TypeError(f"set_options: options must be dicts or None, got {type(opts).__name__}")
            if opts:
                where = f" for env {i}" if isinstance(options, (list, tuple)) else ""
                raise ValueError(
                    f"set_options: an SB3VecEnv's games take no reset option, got {sorted(opts)}{where}; they are "
                    "dealt from the batch's seed (a fixed deck needs DummyVecEnv([eights.make, ...]))"
                )
        super().set_options(options)

    def action_masks(self) -> np.ndarray:
        """Legal-action masks of the learner in every game, shape ``(num_envs, 197)``."""
        return self.venv.action_masks().copy()

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> List[Any]:
        # This wrapper's attribute (the per-game spaces), else the batch's (num_players, preset,
        # ...): one value for every game, which share them; AttributeError when neither has
        # it, as SB3 expects.
        value = getattr(self, attr_name) if hasattr(self, attr_name) else getattr(self.venv, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(
            f"eights.integrations.sb3.SB3VecEnv shares one batch of games; cannot set {attr_name!r} per env"
        )

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> List[Any]:
        rows = self._indices(indices)
        if method_name == "action_masks":  # what sb3-contrib's get_action_masks calls
            masks = self.venv.action_masks()
            return [masks[i].copy() for i in rows]
        if sorted(rows) != list(range(self.num_envs)):
            # One call acts on the whole batch: env_method("reset", indices=[0]) reset them all.
            raise ValueError(
                f"env_method({method_name!r}, indices={indices!r}): the games of an SB3VecEnv are one batch, and a "
                "method acts on all of them; call it without indices (only 'action_masks' is read per game)"
            )
        method = getattr(self, method_name)
        result = method(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> List[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[Optional[np.ndarray]]:
        return [None for _ in range(self.num_envs)]

    def _indices(self, indices: Any) -> List[int]:
        """SB3's ``indices`` (None for every env, one index, or an iterable of them) as a list of
        env indices, each checked against ``num_envs`` (``TypeError``/``ValueError`` naming it);
        a negative index counts from the end, as in DummyVecEnv's list of envs."""
        if indices is None:
            return list(range(self.num_envs))
        n = self.num_envs
        if isinstance(indices, np.ndarray) and indices.ndim == 0:
            indices = indices.item()
        if isinstance(indices, (numbers.Integral, np.bool_)):
            return [as_int(indices, "indices", -n, n - 1) % n]
        if isinstance(indices, (str, bytes, Mapping)) or not isinstance(indices, Iterable):
            raise TypeError(f"indices must be None, an env index or a list of env indices, got {describe(indices)}")
        return [as_int(i, f"indices[{k}]", -n, n - 1) % n for k, i in enumerate(indices)]


def _flat(actions: Any, n: int) -> Any:
    """``actions`` of ``n`` envs in another shape holding ``n`` values (``(n, 1)``, which
    DummyVecEnv takes, or one action when ``n`` is 1) as shape ``(n,)``; anything else as
    given, for the check to name."""
    try:
        arr = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
    except (TypeError, ValueError, RuntimeError):  # ragged, or a tensor numpy cannot read: the check says
        return actions
    return arr.reshape(n) if arr.ndim != 1 and arr.size == n else actions


def _copy(obs: Any, i: Optional[int] = None) -> Any:
    """A copy of a batch of observations (or of row ``i``): an array, or a dict of arrays
    (``obs_rules``)."""
    if isinstance(obs, dict):
        return {k: _copy(v, i) for k, v in obs.items()}
    return np.array(obs if i is None else obs[i], copy=True)

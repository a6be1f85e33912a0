"""The spaces of the environments: the action spaces, ``Discrete(NUM_ACTIONS)`` and a batch of
them whose default ``sample()`` draws a legal action (from the env's current mask), so generic
code that samples the action space plays legal moves; and the observation options a batch
accepts (its dtypes, scaling, the rules beside the observation)."""

from __future__ import annotations

import copy
import weakref
from typing import Any, Dict, Optional, Protocol, Tuple

import numpy as np
from gymnasium import spaces

from .._core import NUM_ACTIONS, OBS_SIZE
from .._utils.checks import describe as _describe
from ._rulesets import obs_rules_space


class MaskedBatch(Protocol):
    """What the batched space reads of its :class:`eights.VecEnv`: whether it was reset,
    and its current action masks (the env's own buffer)."""

    _started: bool
    _mask: np.ndarray


__all__ = ["ActionSpace", "LegalActionSpace", "LegalMultiDiscrete", "OBS_DTYPES", "batched_spaces", "check_obs_options"]

#: Accepted observation dtypes (compact types keep the layout; values saturate).
OBS_DTYPES = ("float32", "uint8", "int8")


class ActionSpace(spaces.Discrete):
    """``Discrete(NUM_ACTIONS)`` whose :meth:`contains` answers ``False`` for an ``int`` out of
    range, however large: Gymnasium before 1.4 cast a Python ``int`` to ``int64`` first, an
    ``OverflowError`` past 64 bits (``contains(2**64)``)."""

    def contains(self, x: Any) -> bool:
        if isinstance(x, int) and not int(self.start) <= x < int(self.start) + int(self.n):
            return False
        return bool(super().contains(x))


class LegalActionSpace(ActionSpace):
    """``Discrete(NUM_ACTIONS)`` whose default :meth:`sample` is legal.

    Called without ``mask``/``probability``, :meth:`sample` draws uniformly
    from the legal actions of the environment's current state (falling back to
    a plain uniform draw when there are none, e.g. after the episode ended).
    With an explicit ``mask`` or ``probability`` it is exactly
    :meth:`gymnasium.spaces.Discrete.sample`.  The space only holds a weak
    reference to its environment; a pickled or orphaned copy behaves like a
    plain ``Discrete`` space.
    """

    def __init__(self, n: int, env: Optional[Any] = None) -> None:
        # ``env`` is any environment with a ``_sampling_mask()`` method (EightsEnv, the
        # RLlib env of eights.integrations.rllib).
        super().__init__(n)
        self._env_ref = weakref.ref(env) if env is not None else None

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self._env_ref is not None:
            env = self._env_ref()
            legal_mask = env._sampling_mask() if env is not None else None
            if legal_mask is not None and legal_mask.any():
                mask = legal_mask.astype(np.int8)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state["_env_ref"] = None
        return state


class BindsItsActionSpace:
    """Mixed into an environment whose action spaces are :class:`LegalActionSpace`: a copy
    (``pickle``, ``copy.deepcopy``) binds the copied spaces to the copy, so that its
    ``action_space.sample()`` draws the copy's legal actions, as the original's does (a space
    pickled on its own still samples as a plain ``Discrete``)."""

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        # A space of its own (a shallow copy.copy shares the original's): one per space held.
        own: Dict[int, LegalActionSpace] = {}

        def bound(space: Any) -> Any:
            if not isinstance(space, LegalActionSpace):
                return space
            if id(space) not in own:
                own[id(space)] = copy.copy(space)
                own[id(space)]._env_ref = weakref.ref(self)
            return own[id(space)]

        # Written through __dict__, as the state was: the mixin declares no attribute of its
        # own, so it agrees with whatever type each environment's base class gives them.
        if "action_space" in state:
            self.__dict__["action_space"] = bound(state["action_space"])
        if isinstance(state.get("action_spaces"), dict):
            self.__dict__["action_spaces"] = {a: bound(s) for a, s in state["action_spaces"].items()}


# --------------------------------------------------------------------------
# The environment
# --------------------------------------------------------------------------


class LegalMultiDiscrete(spaces.MultiDiscrete):
    """``MultiDiscrete([197] * num_envs)`` whose :meth:`sample` draws legal actions.

    * ``sample()`` draws, for every game, uniformly from the legal actions of the
      environment's current masks (0 for a game with none, e.g. one whose episode just
      ended: next-step autoreset ignores its action);
    * ``sample(mask=m)`` with a boolean (or 0/1) array ``m`` of shape
      ``(num_envs, 197)`` draws uniformly from the true entries of each row;
    * ``sample(mask=tuple_of_int8_masks)`` or ``probability=...`` is exactly
      :meth:`gymnasium.spaces.MultiDiscrete.sample`.

    Before the first ``reset`` (no masks yet) ``sample()`` raises ``RuntimeError``:
    use ``envs.random_actions()`` (legal, drawn in Rust) or reset first.  The space holds
    only a weak reference to its environment; a pickled copy samples with a mask only.
    """

    def __init__(self, num_envs: int, env: Optional[MaskedBatch] = None) -> None:
        super().__init__(np.full(num_envs, NUM_ACTIONS))
        self._env_ref = weakref.ref(env) if env is not None else None

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        if probability is not None or isinstance(mask, tuple):
            return super().sample(mask=mask, probability=probability)
        n = int(self.nvec.shape[0])
        if mask is None:
            env = self._env_ref() if self._env_ref is not None else None
            if env is None or not env._started:
                raise RuntimeError(
                    "VecEnv.action_space.sample() draws legal actions from the envs' current masks, "
                    "and there are none before reset(); call reset() first, pass mask=<bool array of "
                    f"shape ({n}, {NUM_ACTIONS})>, or use envs.random_actions()"
                )
            mask = env._mask
        arr = np.asarray(mask)
        if arr.shape != (n, NUM_ACTIONS) or arr.dtype.kind not in "biu":
            raise ValueError(
                f"mask must be a boolean or 0/1 array of shape ({n}, {NUM_ACTIONS}) (or a tuple of int8 "
                f"masks, as for MultiDiscrete), got shape {arr.shape} and dtype {arr.dtype}"
            )
        # argmax of uniform noise over the legal entries: a uniform legal choice per row.
        noise = self.np_random.random((n, NUM_ACTIONS))
        noise[arr == 0] = -1.0
        out = noise.argmax(axis=1).astype(self.dtype)
        out[~arr.any(axis=1)] = 0
        return out

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state["_env_ref"] = None
        return state


def check_obs_options(obs_dtype: Any, scale_obs: Any, obs_rules: Any) -> str:
    """The observation dtype's name, with ``scale_obs`` and ``obs_rules`` checked."""
    given = obs_dtype
    try:
        # A numpy dtype or type names itself; None is not a dtype here (numpy reads it as float64).
        obs_dtype = obs_dtype if isinstance(obs_dtype, str) or obs_dtype is None else np.dtype(obs_dtype).name
    except (TypeError, ValueError):
        pass
    if obs_dtype not in OBS_DTYPES:
        raise ValueError(f"obs_dtype must be one of {OBS_DTYPES}, got {_describe(given)}")
    for name, flag in (("scale_obs", scale_obs), ("obs_rules", obs_rules)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {_describe(flag)}")
    if scale_obs and obs_dtype != "float32":
        raise ValueError(f"scale_obs=True needs obs_dtype='float32', got {obs_dtype!r}")
    return obs_dtype


def batched_spaces(env: Any, obs_dtype: str) -> Tuple[spaces.Space, spaces.Discrete, spaces.Space, Any]:
    """A :class:`~eights.VecEnv`'s spaces for its dtype, scaling and rules encoding: the single
    observation and action spaces, then the batched ones (``num_envs`` rows)."""
    num_envs = env.num_envs
    low: Any
    high: Any
    if env.scale_obs:
        low, high = np.float32(0.0), np.float32(1.0)
    elif obs_dtype == "float32":
        low, high = env.obs_bounds.low, env.obs_bounds.high
    else:
        info = np.iinfo(obs_dtype)
        low, high = info.min, info.max
    # gymnasium before 1.4 annotates `dtype` as a scalar type, so the scalar type is given.
    dtype = np.dtype(obs_dtype).type
    single: spaces.Space = spaces.Box(low, high, shape=(OBS_SIZE,), dtype=dtype)
    batched: spaces.Space = spaces.Box(
        np.broadcast_to(low, (num_envs, OBS_SIZE)),
        np.broadcast_to(high, (num_envs, OBS_SIZE)),
        shape=(num_envs, OBS_SIZE),
        dtype=dtype,
    )
    if env.obs_rules:
        single, batched = obs_rules_space(single), obs_rules_space(batched, num_envs)
    return single, ActionSpace(NUM_ACTIONS), batched, LegalMultiDiscrete(num_envs, env)

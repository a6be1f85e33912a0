"""Gymnasium registration: every preset as ``eights/<preset>-v1`` (``gymnasium.make``), its
batched form the Rust :class:`eights.VecEnv` (``gymnasium.make_vec``).  Run once when
:mod:`eights` is imported.

The version goes up when what an agent sees or meets changes (the observation, the actions,
the rewards, the built-in opponents); ``docs/envs.md`` keeps the history.  The ``-v0`` ids
stay registered and make the same environment as ``-v1``; since a newer version of the same
name is registered, ``gymnasium.make`` and ``gymnasium.make_vec`` warn on them (a
``DeprecationWarning`` saying that ``v1`` is current).

A preset for four players or more (``stalin``) is registered with its fewest players, so that
every id builds with no arguments.  ``gymnasium.make_vec`` returns copies of the batch's
arrays, as Gymnasium's own vector envs do (``copy=False`` hands out the buffers, faster);
it refuses the single env's ``render_mode`` and ``max_episode_steps``, naming them."""

from __future__ import annotations

from typing import Any

from .._core import presets
from ..rules import Rules

__all__ = ["ENV_VERSION", "GYMNASIUM_NAMESPACE", "register_envs", "make_vec_env"]

#: Namespace of the Gymnasium ids registered by this package.
GYMNASIUM_NAMESPACE = "eights"

#: The current version of every registered id (``eights/<preset>-v1``).
ENV_VERSION = 1

#: Earlier versions still registered; Gymnasium warns that they are out of date.
_DEPRECATED_VERSIONS = (0,)


def register_envs() -> None:
    """Register ``eights/<preset>-v1`` and the deprecated ``-v0`` for every preset (idempotent)."""
    from gymnasium.envs.registration import register, registry

    for preset in presets():
        kwargs: dict = {"preset": preset}
        fewest = Rules(preset).players.start
        if fewest > 2:  # the envs' default is two players
            kwargs["num_players"] = fewest
        for version in (*_DEPRECATED_VERSIONS, ENV_VERSION):
            env_id = f"{GYMNASIUM_NAMESPACE}/{preset}-v{version}"
            if env_id in registry:  # already registered, e.g. importlib.reload
                continue
            register(
                id=env_id,
                entry_point="eights.envs.gym:EightsEnv",
                # gymnasium.make_vec(id, num_envs=n) returns the batched Rust eights.VecEnv.
                vector_entry_point="eights.envs.registration:make_vec_env",
                kwargs=kwargs,
            )


def make_vec_env(num_envs: int, copy: bool = True, render_mode: Any = None, **kwargs: Any) -> Any:
    """``gymnasium.make_vec``'s entry point: an :class:`eights.VecEnv` of ``num_envs`` games
    that returns copies of its arrays unless ``copy=False`` (an ``(obs, next_obs)`` pair kept
    across a step stays two arrays, as with Gymnasium's ``SyncVectorEnv``).  ``render_mode``
    other than None and ``max_episode_steps`` are refused with a ``TypeError`` naming them
    (the batch neither renders nor counts steps: ``vectorization_mode="sync"`` does both)."""
    from .vector import VecEnv

    if render_mode is not None:
        raise TypeError(
            f"render_mode={render_mode!r}: the batched eights.VecEnv does not render; make the env with "
            "vectorization_mode='sync' to render its games, or render one with envs.game(i).render()"
        )
    if "max_episode_steps" in kwargs:
        raise TypeError(
            f"max_episode_steps={kwargs['max_episode_steps']!r}: the batched eights.VecEnv does not count steps; "
            "cap a game's decisions with rules={'limits': {'max_decisions': N}}, or use vectorization_mode='sync'"
        )
    return VecEnv(num_envs=num_envs, copy=copy, **kwargs)

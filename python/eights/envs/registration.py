"""Gymnasium registration: every preset as ``eights/<preset>-v1`` (``gymnasium.make``), its
batched form the Rust :class:`eights.VecEnv` (``gymnasium.make_vec``).  Run once when
:mod:`eights` is imported.

The version goes up when what an agent sees or meets changes (the observation, the actions,
the rewards, the built-in opponents); ``docs/envs.md`` keeps the history.  The ``-v0`` ids
stay registered and make the same environment as ``-v1``; since a newer version of the same
name is registered, ``gymnasium.make`` and ``gymnasium.make_vec`` warn on them (a
``DeprecationWarning`` saying that ``v1`` is current)."""

from __future__ import annotations

from .._core import presets

__all__ = ["ENV_VERSION", "GYMNASIUM_NAMESPACE", "register_envs"]

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
        for version in (*_DEPRECATED_VERSIONS, ENV_VERSION):
            env_id = f"{GYMNASIUM_NAMESPACE}/{preset}-v{version}"
            if env_id in registry:  # already registered, e.g. importlib.reload
                continue
            register(
                id=env_id,
                entry_point="eights.envs.gym:EightsEnv",
                # gymnasium.make_vec(id, num_envs=n) returns the batched Rust eights.VecEnv.
                vector_entry_point="eights.envs.vector:VecEnv",
                kwargs={"preset": preset},
            )

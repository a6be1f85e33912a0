"""Gymnasium registration: every preset as ``eights/<preset>-v0`` (``gymnasium.make``), its
batched form the Rust :class:`eights.VecEnv` (``gymnasium.make_vec``).  Run once when
:mod:`eights` is imported."""

from __future__ import annotations

from .._core import presets

__all__ = ["GYMNASIUM_NAMESPACE", "register_envs"]

#: Namespace of the Gymnasium ids registered by this package.
GYMNASIUM_NAMESPACE = "eights"


def register_envs() -> None:
    """Register ``eights/<preset>-v0`` for every preset (idempotent)."""
    from gymnasium.envs.registration import register, registry

    for preset in presets():
        env_id = f"{GYMNASIUM_NAMESPACE}/{preset}-v0"
        if env_id in registry:  # already registered, e.g. importlib.reload
            continue
        register(
            id=env_id,
            # The entry points name the old module paths, which stay as re-exports: ids
            # saved in other projects' configurations keep resolving.
            entry_point="eights.env:EightsEnv",
            # gymnasium.make_vec(id, num_envs=n) returns the batched Rust eights.VecEnv.
            vector_entry_point="eights.vec_env:VecEnv",
            kwargs={"preset": preset},
        )

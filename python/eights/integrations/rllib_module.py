"""The action-masking PPO module of :mod:`eights.integrations.rllib` (PyTorch, RLlib's new API
stack).

:class:`ActionMaskingPPOModule` is RLlib's default PPO module (``DefaultPPOTorchRLModule``: its
encoder, policy and value heads, sized by the ``model_config``) over the env's
``"observations"``, and the rules encoding beside them when the env has ``obs_rules``
(``"rules"``, concatenated after the observation: the module reads the rules too). It adds
``log(action_mask)`` (clamped) to the policy's logits, so an illegal action is never sampled nor
taken greedily. RLlib's example module of the same purpose derives from a class RLlib has
deprecated; this one derives from the current one and owns nothing else.
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

__all__ = ["ActionMaskingPPOModule"]


class ActionMaskingPPOModule(DefaultPPOTorchRLModule):
    """PPO over ``observations`` (and ``rules`` when the space has them), with the
    ``action_mask`` of the observation dict applied to the logits.

    Raises:
        ValueError: an observation space that is not a ``Dict`` holding ``"observations"``
            and ``"action_mask"`` (the env of :mod:`eights.integrations.rllib` gives one).
    """

    def __init__(self, *, observation_space: Any = None, **kwargs: Any) -> None:
        parts: Dict[str, Any] = dict(observation_space.spaces) if isinstance(observation_space, gym.spaces.Dict) else {}
        if not {"observations", "action_mask"} <= parts.keys():
            raise ValueError(
                "ActionMaskingPPOModule needs a Dict observation space with 'observations' and 'action_mask' "
                f"(and optionally 'rules'), as eights.integrations.rllib's env gives; got {observation_space!r}"
            )
        inputs = ("observations", "rules") if "rules" in parts else ("observations",)
        size = sum(int(np.prod(parts[k].shape)) for k in inputs)
        # Set before the base class's __init__, which builds the networks (setup) for the
        # flat input; the dict space is restored after, for RLlib's connectors.
        self._space_with_mask = observation_space
        self._inputs = inputs
        flat = gym.spaces.Box(-np.inf, np.inf, (size,), np.float32)
        super().__init__(observation_space=flat, **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self._space_with_mask

    def _split(self, batch: Dict[str, Any]) -> Tuple[Any, Dict[str, Any]]:
        """The action mask, and the batch with the flat input in place of the dict (a new
        dict: the caller's batch is left as it was)."""
        obs = batch[Columns.OBS]
        flat = torch.cat([obs[k] for k in self._inputs], dim=-1) if len(self._inputs) > 1 else obs["observations"]
        return obs["action_mask"], {**batch, Columns.OBS: flat}

    @staticmethod
    def _masked(out: Dict[str, Any], mask: Any) -> Dict[str, Any]:
        out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + torch.clamp(torch.log(mask), min=FLOAT_MIN)
        return out

    def _forward(self, batch: Dict[str, Any], **kwargs: Any) -> Dict[str, Any]:
        mask, flat = self._split(batch)
        return self._masked(super()._forward(flat, **kwargs), mask)

    def _forward_train(self, batch: Dict[str, Any], **kwargs: Any) -> Dict[str, Any]:
        mask, flat = self._split(batch)
        return self._masked(super()._forward_train(flat, **kwargs), mask)

    def compute_values(self, batch: Dict[str, Any], embeddings: Any = None) -> Any:
        if isinstance(batch[Columns.OBS], dict):
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)

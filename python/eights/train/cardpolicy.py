"""The card network (:class:`~eights.train.cardnet.CardNet`, the one the ``net`` bot plays) as
a policy of the package's PPO at one table: :class:`CardPolicy` reads the rules encoding of
the table's rules once and answers ``logits_value(obs, mask)`` as :class:`~eights.train.PolicyNet`
does, so :class:`~eights.train.SelfPlay`, :class:`~eights.train.Rollout` and
:func:`~eights.train.ppo_update` train it unchanged (``eights train --init net``). Its
normaliser is a no-op (the card network squashes its inputs instead), and its ``trunk`` and
``v`` let PPO's value warm-up train the new value head alone. :func:`shipped_card_policy`
starts from the weights compiled into the extension; the file it is saved to is an
``eights-net-v2`` file, which plays any rules.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
import torch
import torch.nn as nn

from .._core import OBS_SIZE
from .cardnet import CardNet, from_checkpoint, shipped
from .files import FileFormatError, check_state
from .model import MaskedPolicy

__all__ = ["CardPolicy", "shipped_card_policy"]


class _NoNormalizer(nn.Module):
    """The normaliser PPO updates after every rollout; the card network keeps none."""

    def update(self, x: torch.Tensor) -> None:
        return None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x


class CardPolicy(MaskedPolicy):
    """``net`` playing the rules whose encoding is ``rules`` (``(RULES_SIZE,)``, from
    :meth:`eights.Rules.encode` at the table's size) in every row."""

    rules: torch.Tensor

    def __init__(self, net: CardNet, rules: np.ndarray):
        super().__init__()
        self.net = net
        self.norm = _NoNormalizer()
        self.v = net.v
        self.register_buffer("rules", torch.as_tensor(np.asarray(rules, np.float32))[None])

    @property
    def obs_size(self) -> int:
        """The card network reads whole observations."""
        return OBS_SIZE

    def _ridx(self, obs: torch.Tensor) -> torch.Tensor:
        return torch.zeros(obs.shape[0], dtype=torch.long, device=obs.device)

    def _parts(self) -> Optional[tuple]:
        """:meth:`CardNet.parts` of the table's rules, kept between calls without gradients
        (a rollout's forward passes, a frozen snapshot's), recomputed once any weight or the
        rules change (their tensors' versions, storage and identities); ``None`` where
        gradients flow."""
        if torch.is_grad_enabled():
            return None
        try:
            tensors = (self.rules, *self.net.parameters(), *self.net.buffers())
            key = tuple((id(t), t.data_ptr(), t._version) for t in tensors)
        except RuntimeError:  # tensors made under inference mode keep no version
            return None
        kept = getattr(self, "_kept_parts", None)
        if kept is None or kept[0] != key:
            kept = (key, self.net.parts(self.rules))
            self._kept_parts = kept
        return kept[1]

    def trunk(self, obs: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        """The context the value head reads."""
        if mask is None:
            raise ValueError("the card network's features read the action mask: pass mask")
        return self.net.features(obs, mask, self.rules, self._ridx(obs), self._parts())[1]

    def logits_value(self, obs: torch.Tensor, mask: torch.Tensor):
        """Masked logits (illegal actions at -1e9) and state values."""
        return self.net(obs, mask, self.rules, self._ridx(obs), self._parts())

    def config(self) -> Dict[str, Any]:
        """The architecture, as a checkpoint records it to rebuild the network."""
        return {"width": self.net.width, "context": self.net.context}

    @classmethod
    def from_state(cls, state: Dict[str, torch.Tensor], config: Dict[str, Any], name: str = "checkpoint") -> CardPolicy:
        """The policy a checkpoint's state dict and :meth:`config` describe, checked before the
        network is built (:func:`~eights.train.cardnet.from_checkpoint`: widths in [1, 4096],
        every tensor of the shape the architecture calls for); a
        :class:`~eights.train.files.FileFormatError` naming the file ``name`` otherwise."""
        bad = f"{name}: not a checkpoint of this kind: its"
        if not isinstance(config, dict) or "width" not in config or "context" not in config:
            raise FileFormatError(f"{bad} arch is not a dict with a 'width' and a 'context'")
        if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
            raise FileFormatError(f"{bad} model is not a dict of named tensors")
        rules = state.get("rules")
        if not isinstance(rules, torch.Tensor) or rules.dim() != 2 or rules.shape[0] != 1 or rules.shape[1] > 1 << 20:
            raise FileFormatError(f"{bad} model's 'rules' is not a rules encoding of shape [1, n]")
        net_state = {k[4:]: v for k, v in state.items() if k.startswith("net.")}
        net = from_checkpoint(net_state, config["width"], config["context"], name)
        expected = {"rules": tuple(rules.shape), **{f"net.{k}": v for k, v in net.state_dict().items()}}
        expected.update({f"v.{k}": v for k, v in net.v.state_dict().items()})
        check_state(state, expected, name)
        policy = cls(net, rules[0].numpy())
        policy.load_state_dict(state)
        return policy


def shipped_card_policy(rules: np.ndarray) -> CardPolicy:
    """The ``net`` bot's own network (the weights compiled into the extension, a new value
    head) at the rules encoded as ``rules``."""
    return CardPolicy(shipped(), rules)

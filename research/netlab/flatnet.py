"""The flat baseline that :class:`~eights.train.cardnet.CardNet` is measured against: an MLP over
the whole observation and the whole rules encoding, with the same inputs, the same
``squash`` transform and the same call signature, so the imitation stage
(:func:`netlab.warmstart.warm_start`, ``arch="flat:H"``) trains either network on the same
stream of labelled decisions.

    logits, value = FlatNet(hidden)(obs, mask, rules, ridx)

``[squash(obs), squash(rules[ridx])]`` (346 + 4,299 values) through two ReLU layers ``hidden``
wide, then a linear policy head over the 197 actions (masked) and a value head. The part of the
first layer that reads the rules depends only on the rule set, so it runs once per distinct
rules encoding of a batch, as :class:`CardNet`'s rules part does (:meth:`FlatNet.parts`).
This network plays only in PyTorch; the shipped ``net`` is always a :class:`CardNet`.
"""

from __future__ import annotations

from typing import Dict, Optional

import torch
import torch.nn as nn

from eights import NUM_ACTIONS, OBS_SIZE, RULES_SIZE
from eights.train.cardnet import squash
from eights.train.model import layer

__all__ = ["FlatNet", "build"]


class FlatNet(nn.Module):
    """An MLP over the observation and the rules encoding (see the module documentation)."""

    def __init__(self, hidden: int = 256):
        super().__init__()
        self.hidden = hidden
        self.obs_in = layer(OBS_SIZE, hidden)
        self.rules_in = layer(RULES_SIZE, hidden)
        nn.init.zeros_(self.rules_in.bias)
        self.fc2 = layer(hidden, hidden)
        self.pi = layer(hidden, NUM_ACTIONS, 0.01)
        self.v = layer(hidden, 1, 1.0)

    def parts(self, rules: torch.Tensor):
        """The first layer's rules term for rules encodings ``(K, RULES_SIZE)``: ``(K, hidden)``."""
        return (self.rules_in(squash(rules)),)

    def forward(
        self,
        obs: torch.Tensor,
        mask: torch.Tensor,
        rules: torch.Tensor,
        ridx: torch.Tensor,
        parts: Optional[tuple] = None,
    ):
        """Masked logits ``(B, NUM_ACTIONS)`` (illegal at -1e9) and values ``(B,)``, with the
        arguments of :meth:`CardNet.forward`."""
        (r,) = self.parts(rules) if parts is None else parts
        x = torch.relu(self.obs_in(squash(obs)) + r[ridx])
        x = torch.relu(self.fc2(x))
        return self.pi(x).masked_fill(~mask, -1e9), self.v(x).squeeze(-1)

    def config(self) -> Dict[str, str]:
        return {"arch": f"flat:{self.hidden}"}


def build(arch: str, width: int, context: int) -> nn.Module:
    """The network an imitation run trains: ``"card"`` (a :class:`CardNet` of ``width`` and
    ``context``) or ``"flat:H"`` (a :class:`FlatNet` ``H`` wide)."""
    from eights.train.cardnet import CardNet

    if arch == "card":
        return CardNet(width, context)
    kind, _, hidden = arch.partition(":")
    if kind != "flat" or not hidden.isdigit() or int(hidden) < 1:
        raise ValueError(f"arch must be 'card' or 'flat:H' with H a positive width, got {arch!r}")
    return FlatNet(int(hidden))

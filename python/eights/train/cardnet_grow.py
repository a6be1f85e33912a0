"""Growing a trained :class:`eights.train.cardnet.CardNet` without changing how it plays, so
that training can go on from its weights with more to learn with: more units per card and in
the context (:func:`widen`), or the attention layer among the cards in hand and the top card
(:func:`attend`). The new parts start silent: their outgoing weights are zero."""

from __future__ import annotations

import torch

from .cardnet import CardNet

__all__ = ["attend", "widen"]


@torch.no_grad()
def attend(net: CardNet, seed: int = 0) -> CardNet:
    """``net`` with the attention layer among the cards in hand and the top card, playing
    exactly as before: its value-output matrix ``B`` starts at zero, so the layer adds nothing
    until training moves it."""
    if net.attention:
        return net
    torch.manual_seed(seed)
    new = CardNet(net.width, net.context, net.table_width, net.card_columns, net.table_columns, attention=True)
    new.load_state_dict(net.state_dict(), strict=False)
    return new


@torch.no_grad()
def widen(net: CardNet, width: int, context: int, seed: int = 0) -> CardNet:
    """``net`` with ``width`` units per card and ``context`` context units (at least its own),
    playing exactly as before: the new units get fresh incoming weights and zero outgoing ones,
    so they start silent and grow as training moves their outgoing weights."""
    if net.attention:
        raise ValueError("widen: a network with attention cannot be widened")
    if width < net.width or context < net.context:
        raise ValueError(f"widen: width and context may only grow, from {net.width} and {net.context}")
    torch.manual_seed(seed)
    new = CardNet(width, context, net.table_width, net.card_columns, net.table_columns)
    old, w0, c0, w = net.state_dict(), net.width, net.context, width
    sd = new.state_dict()
    # The fresh net's weights stand for the new units; the old ones are copied in place, and
    # every weight from a new unit into an old path is zeroed.
    fresh_c1 = sd["c1.weight"].clone()  # its old columns move (below), so it is built apart
    for name in ("r1", "t1", "d", "c1", "c2", "u", "x", "a", "o", "v", "r2"):
        wt, b = sd[f"{name}.weight"], sd[f"{name}.bias"]
        ow, ob = old[f"{name}.weight"], old[f"{name}.bias"]
        wt[: ow.shape[0], : ow.shape[1]] = ow
        b[: ob.shape[0]] = ob
    # Inputs that are new units: zero their columns wherever they reach an output.
    sd["r2.weight"][:, w0:] = 0.0
    sd["u.weight"][:, w0:] = 0.0
    sd["a.weight"][:, w0:] = 0.0
    sd["c2.weight"][:, c0:] = 0.0
    sd["x.weight"][:, c0:] = 0.0
    sd["o.weight"][:, c0:] = 0.0
    sd["v.weight"][:, c0:] = 0.0
    # c1 reads [mean h, max h, weighted mean h, g, T]: the old columns move to their block.
    c1, ow = fresh_c1, old["c1.weight"]
    c1[:c0] = 0.0
    for k in range(3):
        c1[:c0, k * w : k * w + w0] = ow[:, k * w0 : (k + 1) * w0]
    c1[:c0, 3 * w :] = ow[:, 3 * w0 :]
    sd["c1.weight"] = c1
    new.load_state_dict(sd)
    return new

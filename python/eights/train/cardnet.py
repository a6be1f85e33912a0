"""The network of the ``net`` bot that plays every rule set: one token per card face, built from
the card's values in the observation and its row of the rules encoding, a small MLP shared by
the 54 faces, a pooled context, and per-card action heads (:class:`CardNet`).

The layout of its inputs (what :func:`card_inputs` reads from an observation, its action mask
and the rules encoding) is the contract with the Rust forward pass in ``src/bots/net/mod.rs``;
the two agree to 1e-5 (``tests/python/train/test_cardnet.py``).

* Every input goes through ``squash(x) = sign(x) * ln(1 + |x|)``: counts, pile sizes and the
  rules' large limits all land in a small range with no statistics to keep.
* **Per rule set** (computed once per distinct rules encoding of a batch): for each face *c*,
  ``R[c] = W_r2 relu(W_r1 [squash(rules row c), identity(c)] + b_r1) + b_r2`` (``identity``:
  suit one-hot, joker flag, rank one-hot), and the table-wide values give
  ``T = relu(W_t squash(table) + b_t)``.
* **Per decision**: each face's dynamic values ``d[c]`` (:data:`CARD_DYNAMIC`, 12 values) give
  ``h[c] = relu(W_d squash(d[c]) + R[c])``; the context is
  ``ctx = relu(W_2 relu(W_1 [mean_c h, max_c h, hand-weighted mean h, squash(g), T] + b_1) + b_2)``
  where ``g`` is the table-wide part of the observation and the mask of the actions that are
  not about one card.
* **Attention** (``attention=True``): the faces in the observer's hand and the top card see
  each other before the pooling: for each such face ``i``,
  ``h[i] += sum_j softmax_j(h[i]^T A h[j]) (h[j]^T B)`` over the same faces ``j`` (one head,
  a bilinear score and a value-output matrix, ``W x W`` each; the other faces keep ``h``).
  ``B`` starts at zero (:func:`eights.train.cardnet_grow.attend`), so a network given
  attention plays as before.
* **Heads**: ``u[c] = relu(W_u h[c] + W_x ctx + b_u)``; the logits of "play *c*", "give *c*"
  and "keep *c*" are ``W_a u[c] + b_a``; the 35 other actions' logits ``W_o ctx + b_o``; the
  value ``W_v ctx + b_v``.

One set of weights serves every preset, variant, house rule and table of 2 to 10 seats. The
rules encoding's per-card columns are read by name (:data:`CardNet.card_columns`), so columns
added to the encoding later are ignored by a network trained before them.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence

import numpy as np
import torch
import torch.nn as nn

from .._core import NUM_ACTIONS, OBS_SIZE, observation_spec
from ..rules.encoding import CARD_FEATURE_NAMES, NUM_FACES, TABLE_FEATURE_NAMES
from . import cardnet_io
from .cardnet_io import ATTENTION, EXPORTED_LAYERS, FORMAT, FORMAT_ATTENTION, check_shapes, read_exported, read_file
from .files import FileFormatError
from .model import layer

__all__ = [
    "CardNet",
    "CardNetAgent",
    "export",
    "from_checkpoint",
    "load",
    "load_path",
    "shipped",
    "card_inputs",
    "OTHER_ACTIONS",
    "CARD_DYNAMIC",
    "GLOBAL_OBS",
    "squash",
    "identity",
]

# Observation offsets, read from the engine's layout (`eights._core.observation_spec()`).
_START = {name: start for name, (start, _) in observation_spec().items()}
HAND, TOP, ACTIVE, SCORES = _START["hand"], _START["top_card"], _START["active_suit"], _START["scores"]
PLAYED, ROGUE, ASKED, WILD_RANK = _START["played"], _START["rogue_top"], _START["asked"], _START["wild_rank"]
CONSTRAINT_SUIT = _START["constraint_suit"]
#: The table-wide rules column that says the scores count down and set each player's wild rank.
COUNTDOWN_COLUMN = TABLE_FEATURE_NAMES.index("countdown")
#: The observation's per-card slices (hand, top_card, played, rogue_top); the rest is table-wide.
CARD_SLICES = (HAND, TOP, PLAYED, ROGUE)
#: The observation indices of the table-wide values (every index outside the per-card slices).
GLOBAL_OBS = np.array([i for i in range(OBS_SIZE) if not any(s <= i < s + NUM_FACES for s in CARD_SLICES)], np.int64)
#: The actions that are not about one card (nominate, draw, accept, pass, end, target, ask,
#: challenge, announce): ids 54..61 and 170..196.
OTHER_ACTIONS = np.array(list(range(54, 62)) + list(range(170, NUM_ACTIONS)), np.int64)
#: The names of each face's dynamic values, in order.
CARD_DYNAMIC = (
    "hand",  # copies in the observer's hand
    "top",  # it is the top card
    "played",  # copies in the discard pile
    "rogue_top",  # it tops stalin's rogue pile
    "can_play",  # "play c" is legal
    "can_give",  # "give c" is legal
    "can_keep",  # "keep c" is legal
    "suit_active",  # its suit is the suit to follow
    "rank_on_top",  # the top card has its rank (jokers: the top card is a joker)
    "wild_rank",  # its rank is wild for the observer (zodiac's wild_instapik; a countdown's own wild)
    "asked",  # it is the card asked for (thirty_eights' seven)
    "constraint_suit",  # its suit is the one-turn constraint's suit
)
NUM_DYNAMIC = len(CARD_DYNAMIC)
NUM_IDENTITY = 4 + 1 + 13


def squash(x: torch.Tensor) -> torch.Tensor:
    """``sign(x) * ln(1 + |x|)``, the transform every input goes through."""
    return torch.sign(x) * torch.log1p(torch.abs(x))


def identity() -> np.ndarray:
    """``(54, 18)``: each face's suit one-hot (C D H S), joker flag and rank one-hot (A..K)."""
    out = np.zeros((NUM_FACES, NUM_IDENTITY), np.float32)
    for c in range(NUM_FACES):
        if c >= 52:
            out[c, 4] = 1.0
        else:
            out[c, c // 13] = 1.0
            out[c, 5 + c % 13] = 1.0
    return out


def _rank_matrix() -> np.ndarray:
    """``(54, 54)``: ``M[c, t] = 1`` when a top card ``t`` has face ``c``'s rank (jokers: both jokers)."""
    m = np.zeros((NUM_FACES, NUM_FACES), np.float32)
    for c in range(NUM_FACES):
        for t in range(NUM_FACES):
            if (c >= 52 and t >= 52) or (c < 52 and t < 52 and c % 13 == t % 13):
                m[c, t] = 1.0
    return m


def _suit_matrix() -> np.ndarray:
    """``(54, 4)``: ``M[c, s] = 1`` when face ``c`` has suit ``s`` (jokers: none)."""
    m = np.zeros((NUM_FACES, 4), np.float32)
    for c in range(52):
        m[c, c // 13] = 1.0
    return m


def _asked_matrix() -> np.ndarray:
    """``(54, 15)``: which entry of the ``asked`` slice (ranks A..K, QS, joker) names face ``c``."""
    m = np.zeros((NUM_FACES, 15), np.float32)
    for c in range(52):
        m[c, c % 13] = 1.0
    m[3 * 13 + 11, 13] = 1.0  # QS
    m[52, 14] = m[53, 14] = 1.0
    return m


_RANK, _SUIT, _ASKED = (torch.from_numpy(f()) for f in (_rank_matrix, _suit_matrix, _asked_matrix))


def own_wild_rank(obs: torch.Tensor, countdown: torch.Tensor) -> torch.Tensor:
    """``(B, 13)``: the one-hot rank of the observer's own countdown wild (rank = its score,
    1 = ace; none outside 1..13) where ``countdown`` (``(B,)``, the rules' ``countdown`` column)
    is set; zeros elsewhere."""
    score = torch.round(obs[:, SCORES] * 100.0)
    ranks = torch.arange(1, 14, dtype=obs.dtype, device=obs.device)
    return (score[:, None] == ranks[None, :]).to(obs.dtype) * (countdown[:, None] > 0.5).to(obs.dtype)


def card_inputs(obs: torch.Tensor, mask: torch.Tensor, countdown: Optional[torch.Tensor] = None) -> torch.Tensor:
    """``(B, 54, 12)``: each face's dynamic values (:data:`CARD_DYNAMIC`), before ``squash``.
    ``countdown`` (``(B,)``, the rules' ``countdown`` column) adds the observer's own countdown
    wild rank to ``wild_rank``."""
    m = mask.to(obs.dtype)
    suit, rank, asked = (x.to(device=obs.device, dtype=obs.dtype) for x in (_SUIT, _RANK, _ASKED))
    hand, top = obs[:, HAND : HAND + 54], obs[:, TOP : TOP + 54]
    wild = obs[:, WILD_RANK : WILD_RANK + 13]
    if countdown is not None:
        wild = torch.maximum(wild, own_wild_rank(obs, countdown))
    cols = [
        hand,
        top,
        obs[:, PLAYED : PLAYED + 54],
        obs[:, ROGUE : ROGUE + 54],
        m[:, 0:54],
        m[:, 62:116],
        m[:, 116:170],
        obs[:, ACTIVE : ACTIVE + 4] @ suit.T,
        top @ rank.T,
        torch.cat([wild, wild, wild, wild, torch.zeros_like(wild[:, :2])], 1),
        obs[:, ASKED : ASKED + 15] @ asked.T,
        obs[:, CONSTRAINT_SUIT : CONSTRAINT_SUIT + 4] @ suit.T,
    ]
    return torch.stack(cols, -1)


def _action_order() -> np.ndarray:
    """The column of each action id in ``[card logits (54 x play, give, keep), other logits]``."""
    order = np.zeros(NUM_ACTIONS, np.int64)
    for c in range(NUM_FACES):
        order[c], order[62 + c], order[116 + c] = 3 * c, 3 * c + 1, 3 * c + 2
    order[OTHER_ACTIONS] = 3 * NUM_FACES + np.arange(len(OTHER_ACTIONS))
    return order


class CardNet(nn.Module):
    """The per-card policy and value network (see the module documentation).

    Args:
        width: units per card (``h``, ``u``, ``R``).
        context: units of the context layers.
        table_width: units of the table-wide rules summary ``T``.
        card_columns: the per-card rules-encoding columns read (default: all of today's).
        table_columns: the table-wide rules-encoding columns read (default: all of today's).
        attention: the cards in hand and the top card see each other (one attention layer).
    """

    card_idx: torch.Tensor
    table_idx: torch.Tensor
    ident: torch.Tensor
    global_obs: torch.Tensor
    other_actions: torch.Tensor
    action_order: torch.Tensor

    def __init__(
        self,
        width: int = 32,
        context: int = 96,
        table_width: int = 32,
        card_columns: Optional[Sequence[str]] = None,
        table_columns: Optional[Sequence[str]] = None,
        attention: bool = False,
    ):
        super().__init__()
        self.width, self.context, self.table_width = width, context, table_width
        self.attention = attention
        self.card_columns: List[str] = list(card_columns or CARD_FEATURE_NAMES)
        self.table_columns: List[str] = list(table_columns or TABLE_FEATURE_NAMES)
        self.register_buffer("card_idx", torch.tensor([CARD_FEATURE_NAMES.index(n) for n in self.card_columns]))
        self.register_buffer("table_idx", torch.tensor([TABLE_FEATURE_NAMES.index(n) for n in self.table_columns]))
        self.register_buffer("ident", torch.from_numpy(identity()))
        self.register_buffer("global_obs", torch.from_numpy(GLOBAL_OBS))
        self.register_buffer("other_actions", torch.from_numpy(OTHER_ACTIONS))
        self.register_buffer("action_order", torch.from_numpy(_action_order()))
        k = len(self.card_columns)
        self.r1 = layer(k + NUM_IDENTITY, width)
        self.r2 = layer(width, width)
        self.t1 = layer(len(self.table_columns), table_width)
        self.d = layer(NUM_DYNAMIC, width)
        g = len(GLOBAL_OBS) + len(OTHER_ACTIONS)
        self.c1 = layer(3 * width + g + table_width, context)
        self.c2 = layer(context, context)
        self.u = layer(width, width)
        self.x = layer(context, width)
        self.a = layer(width, 3, 0.01)
        self.o = layer(context, len(OTHER_ACTIONS), 0.01)
        self.v = layer(context, 1, 1.0)
        if attention:
            self.att_a = nn.Parameter(torch.zeros(width, width))
            self.att_b = nn.Parameter(torch.zeros(width, width))
            nn.init.orthogonal_(self.att_a, 1.0 / float(np.sqrt(width)))

    def rules_part(self, rules: torch.Tensor):
        """``(R, T)`` for rules encodings ``(K, RULES_SIZE)``: per-card ``(K, 54, width)`` and
        table-wide ``(K, table_width)`` summaries."""
        ncard = len(CARD_FEATURE_NAMES)
        cards = rules[:, : NUM_FACES * ncard].reshape(-1, NUM_FACES, ncard)[:, :, self.card_idx]
        table = rules[:, NUM_FACES * ncard :][:, self.table_idx]
        ident = self.ident.expand(cards.shape[0], -1, -1)
        r = self.r2(torch.relu(self.r1(torch.cat([squash(cards), ident], -1))))
        return r, torch.relu(self.t1(squash(table)))

    def parts(self, rules: torch.Tensor):
        """``(R, T, countdown)``: :meth:`rules_part` of rules encodings ``(K, RULES_SIZE)`` and
        their ``countdown`` column ``(K,)``, what :meth:`forward` reads of the rules."""
        r, t = self.rules_part(rules)
        return r, t, rules[:, NUM_FACES * len(CARD_FEATURE_NAMES) + COUNTDOWN_COLUMN]

    def features(
        self,
        obs: torch.Tensor,
        mask: torch.Tensor,
        rules: torch.Tensor,
        ridx: torch.Tensor,
        parts: Optional[tuple] = None,
    ):
        """The per-card features ``h`` ``(B, 54, width)`` and the context ``(B, context)`` that
        the heads of :meth:`forward` read (its arguments)."""
        r, t, countdown = self.parts(rules) if parts is None else parts
        r, t, countdown = r[ridx], t[ridx], countdown[ridx]
        h = torch.relu(self.d(squash(card_inputs(obs, mask, countdown))) + r)  # (B, 54, W)
        if self.attention:
            h = self._attend(h, obs)
        hand = obs[:, HAND : HAND + 54].clamp(min=0.0)
        wmean = (h * hand[..., None]).sum(1) / hand.sum(1, keepdim=True).clamp(min=1.0)
        g = torch.cat([obs[:, self.global_obs], mask[:, self.other_actions].to(obs.dtype)], 1)
        z = torch.cat([h.mean(1), h.amax(1), wmean, squash(g), t], 1)
        ctx = torch.relu(self.c2(torch.relu(self.c1(z))))
        return h, ctx

    def forward(
        self,
        obs: torch.Tensor,
        mask: torch.Tensor,
        rules: torch.Tensor,
        ridx: torch.Tensor,
        parts: Optional[tuple] = None,
    ):
        """Masked logits ``(B, NUM_ACTIONS)`` (illegal at -1e9) and values ``(B,)`` of
        observations ``(B, OBS_SIZE)``, bool masks, the distinct rules encodings of the batch
        ``(K, RULES_SIZE)`` and each row's index into them ``(B,)``. ``parts``: the
        :meth:`parts` of ``rules`` when the caller keeps them (``rules`` is then not read)."""
        h, ctx = self.features(obs, mask, rules, ridx, parts)
        # The card heads run only where one of the card's actions is legal.
        legal = mask[:, 0:54] | mask[:, 62:116] | mask[:, 116:170]
        b, c = legal.nonzero(as_tuple=True)
        u = torch.relu(self.u(h[b, c]) + self.x(ctx)[b])
        card_logits = torch.full((obs.shape[0], NUM_FACES, 3), -1e9, dtype=obs.dtype, device=obs.device)
        card_logits = card_logits.index_put((b, c), self.a(u))
        logits = torch.cat([card_logits.reshape(obs.shape[0], -1), self.o(ctx)], 1)[:, self.action_order]
        return logits.masked_fill(~mask, -1e9), self.v(ctx).squeeze(-1)

    def _attend(self, h: torch.Tensor, obs: torch.Tensor) -> torch.Tensor:
        """``h`` after the faces in hand and the top card attend to each other (the module
        documentation). The faces are gathered into ``K`` slots, ``K`` the most a row holds."""
        seen = (obs[:, HAND : HAND + 54] > 0) | (obs[:, TOP : TOP + 54] > 0)
        k = max(int(seen.sum(1).max()), 1)
        order = torch.sort(seen.to(torch.int8), dim=1, descending=True, stable=True).indices[:, :k]
        valid = seen.gather(1, order)  # (B, K)
        idx = order[..., None].expand(-1, -1, h.shape[2])
        hs = h.gather(1, idx)  # (B, K, W)
        scores = torch.bmm(hs @ self.att_a, hs.transpose(1, 2)).masked_fill(~valid[:, None, :], -1e9)
        delta = torch.bmm(scores.softmax(-1), hs @ self.att_b) * valid[..., None].to(h.dtype)
        return h.scatter_add(1, idx, delta)

    def config(self) -> Dict[str, str]:
        """The architecture as strings (the metadata of an exported file)."""
        extra = {"attention": "bilinear"} if self.attention else {}
        return {
            **extra,
            "width": str(self.width),
            "context": str(self.context),
            "table_width": str(self.table_width),
            "card_columns": ",".join(self.card_columns),
            "table_columns": ",".join(self.table_columns),
        }


def from_checkpoint(state: Dict[str, torch.Tensor], width: int, context: int, name: str = "checkpoint") -> CardNet:
    """A :class:`CardNet` holding a checkpoint's weights, reading the columns it was trained on
    (the checkpoint stores their indices; the encoding only ever appends columns, so an index
    names the same column in every later version). Its widths (1 to 4096), columns and every
    tensor's shape are checked before it is built: a ``FileFormatError`` naming ``name``."""
    from .cardnet_io import DIM_RANGE
    from .files import check_state, checked_count, checked_indices

    if not isinstance(state, dict) or getattr(state.get("t1.weight"), "ndim", 0) != 2:
        raise FileFormatError(f"{name}: not a checkpoint of this kind: its network has no 2-D 't1.weight'")
    given = {"width": width, "context": context, "table width": state["t1.weight"].shape[0]}
    w, c, t = (checked_count(v, name, k, DIM_RANGE[1], low=DIM_RANGE[0]) for k, v in given.items())
    cards = checked_indices(state.get("card_idx"), len(CARD_FEATURE_NAMES), name, "network's 'card_idx'")
    table = checked_indices(state.get("table_idx"), len(TABLE_FEATURE_NAMES), name, "network's 'table_idx'")
    args = (w, c, t, [CARD_FEATURE_NAMES[i] for i in cards], [TABLE_FEATURE_NAMES[i] for i in table])
    with torch.device("meta"):  # the shapes the architecture calls for, nothing allocated
        check_state(state, CardNet(*args, attention="att_a" in state).state_dict(), name, "network")
    net = CardNet(*args, attention="att_a" in state)
    net.load_state_dict(state)
    return net


def export(
    net: CardNet, path: str, record: Optional[Dict[str, str]] = None, dtype: torch.dtype = torch.float16
) -> None:
    """Write ``net`` as a safetensors file (format ``eights-net-v2``, or ``eights-net-v3`` with
    the attention layer): its layers in ``dtype``, the architecture (:meth:`CardNet.config`)
    and ``record`` (strings of your choice, e.g. how it was trained; the shipped file records
    its training stages) as metadata."""
    path, record = cardnet_io.check_export(net, CardNet, path, record, dtype)
    from safetensors.torch import save_file

    sd = net.state_dict()
    names = [f"{k}.{p}" for k in EXPORTED_LAYERS for p in ("weight", "bias")]
    names += list(ATTENTION) if net.attention else []
    tensors = {k: sd[k].detach().to("cpu", dtype).contiguous() for k in names}
    fmt = FORMAT_ATTENTION if net.attention else FORMAT
    save_file(tensors, path, metadata={**record, "format": fmt, **net.config()})


def load(data: bytes, name: str = "net weights") -> CardNet:
    """A :class:`CardNet` from the bytes of an exported file (float32 values; the value head
    is new, untrained), refused with a :class:`~eights.train.files.FileFormatError` (a
    ``ValueError``) naming ``name`` where the Rust loader refuses it, or where it holds a
    tensor the architecture does not call for (:func:`eights.train.cardnet_io.read_exported`).
    Every tensor's shape is compared with what the metadata calls for before the network is
    built, so that a few bytes of metadata cannot ask for gigabytes."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be the bytes of an exported file, got {type(data).__name__}")
    arch, tensors = read_exported(bytes(data), name)
    with torch.device("meta"):  # the shapes the architecture calls for, nothing allocated
        check_shapes(CardNet(**arch).state_dict(), tensors, name)
    try:
        net = CardNet(**arch)
        net.load_state_dict({k: v.float() for k, v in tensors.items()}, strict=False)  # the value head stays new
    except (MemoryError, RuntimeError) as exc:  # PyTorch's allocation failures
        why = " ".join(str(exc).split())[:160]
        raise FileFormatError(f"{name}: its network cannot be built ({type(exc).__name__}: {why})") from None
    return net


def shipped() -> CardNet:
    """The network of the ``net`` bot, as compiled into the extension (float32 values, a new
    value head): the starting point for fine-tuning it on your rules."""
    from .._core import card_net_weights

    return load(card_net_weights(), "the net bot's weights")


def load_path(path: str) -> CardNet:
    """:func:`load` of the file at ``path`` (its errors naming the file; a folder, a FIFO, a
    device or a file over :data:`~eights.train.cardnet_io.MAX_FILE_BYTES` is refused unread)."""
    path = cardnet_io.as_path(path, "path")
    return load(read_file(path), path)


class CardNetAgent:
    """A :class:`CardNet` as an arena agent that reads the rules (``obs_rules = True``): each
    row's greedy legal action. ``rules``, when given, replaces every row's rules encoding (to ask
    what the network plays when told other rules than the game's). With ``net=None`` the Rust
    forward pass of the bot's own weights answers (``eights._core.card_net_logits``; faster)."""

    obs_rules = True

    def __init__(self, net: Optional[CardNet], name: str = "net", rules: Optional[np.ndarray] = None):
        self.net, self.name = (None if net is None else net.eval()), name
        self.rules = None if rules is None else np.asarray(rules, np.float32)

    def act_batch(self, obs: Dict[str, np.ndarray], masks: np.ndarray) -> np.ndarray:
        if self.net is None:
            from .._core import card_net_logits

            enc = obs["rules"] if self.rules is None else np.broadcast_to(self.rules, (len(masks), len(self.rules)))
            o = np.ascontiguousarray(obs["obs"], np.float32)
            logits = card_net_logits(o, np.ascontiguousarray(masks, bool), np.ascontiguousarray(enc, np.float32))
            return logits.argmax(1)
        enc = obs["rules"] if self.rules is None else self.rules[None]
        distinct, inverse = np.unique(np.asarray(enc, np.float32), axis=0, return_inverse=True)
        if self.rules is not None:
            inverse = np.zeros(len(masks), np.int64)
        with torch.no_grad():
            logits, _ = self.net(
                torch.from_numpy(np.ascontiguousarray(obs["obs"], np.float32)),
                torch.from_numpy(np.ascontiguousarray(masks, bool)),
                torch.from_numpy(distinct),
                torch.from_numpy(inverse.reshape(-1).astype(np.int64)),
            )
        return logits.argmax(1).numpy()

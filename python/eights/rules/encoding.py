"""The rules encoding: a rule set as a fixed-size float32 vector an agent can read.

:meth:`eights.Rules.encode` (and ``Game.rules_encoding()``, the ``"rules"`` part of the
envs' observations with ``obs_rules=True``) returns :data:`RULES_SIZE` values: 54 rows of
:data:`CARD_FEATURES` per-card values, one row per face in card order (``AC`` .. ``KS``,
``RJ``, ``BJ``), then :data:`TABLE_FEATURES` table-wide values.  Every value is a flag, a
one-hot column (named ``group=value``; the default choice of a group is all zeros) or a
number over a fixed scale; :func:`bounds` gives the finite bounds of every entry.  The
layout table is in ``docs/layouts.md``.

>>> x = eights.Rules("switch_blackjack").encode(2)
>>> cards, table = split(x)
>>> cards.shape, table.shape
((54, 78), (90,))
>>> float(cards[face("2H"), CARD_FEATURE_NAMES.index("chain_amount")] * 16)  # a draw-two chain
2.0
"""

from __future__ import annotations

from typing import List, Tuple

import numpy as np

from .._core import RULES_SIZE, rules_encoding_layout

__all__ = ["RULES_SIZE", "CARD_FEATURE_NAMES", "TABLE_FEATURE_NAMES", "NUM_FACES", "bounds", "split", "face"]

_LAYOUT = rules_encoding_layout()

#: Names of the per-card columns, in order.
CARD_FEATURE_NAMES: List[str] = list(_LAYOUT["card_features"])
#: Names of the table-wide values, in order.
TABLE_FEATURE_NAMES: List[str] = list(_LAYOUT["table_features"])
#: Rows of the per-card part (one per face, jokers last).
NUM_FACES: int = int(_LAYOUT["num_faces"])

_SUITS = "CDHS"
_RANKS = "A23456789TJQK"


def face(card: str) -> int:
    """The row of a card (``"8H"``, ``"10D"``, ``"RJ"``, ``"BJ"``) in the per-card part."""
    c = card.strip().upper().replace("10", "T")
    if c in ("RJ", "BJ"):
        return 52 + (c == "BJ")
    if len(c) != 2 or c[0] not in _RANKS or c[1] not in _SUITS:
        raise ValueError(f"card must be a rank and a suit such as '8H', or 'RJ'/'BJ', got {card!r}")
    return _SUITS.index(c[1]) * 13 + _RANKS.index(c[0])


def bounds() -> Tuple[np.ndarray, np.ndarray]:
    """The lower and upper bound of every entry (float32 arrays of :data:`RULES_SIZE`)."""
    return np.array(_LAYOUT["low"], dtype=np.float32), np.array(_LAYOUT["high"], dtype=np.float32)


def split(encoding: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Views of an encoding (or a batch, ``(..., RULES_SIZE)``) as its per-card rows
    ``(..., 54, CARD_FEATURES)`` and its table-wide part ``(..., TABLE_FEATURES)``."""
    x = np.asarray(encoding)
    if x.shape[-1:] != (RULES_SIZE,):
        raise ValueError(f"encoding must have {RULES_SIZE} values in its last axis, got shape {x.shape}")
    k = len(CARD_FEATURE_NAMES)
    cards = x[..., : NUM_FACES * k].reshape(x.shape[:-1] + (NUM_FACES, k))
    return cards, x[..., NUM_FACES * k :]

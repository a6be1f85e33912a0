"""Bounds of the observation vector, and its scaled form in [0, 1].

This module owns :class:`ObservationBounds`: for one rule set and player count, the finite
``low``/``high`` of every slice of the observation (see ``Game.observation_spec()`` and
the table below), derived from the deck the rules deal (its size and the copies of each
face) and from the engine's counters, and :meth:`ObservationBounds.scale`, which maps an
observation to ``[0, 1]`` slice by slice (the ``scale_obs=True`` option of the envs).

==================  ==========================  =====================================
slice               raw bounds                  scaled to [0, 1]
==================  ==========================  =====================================
hand, played        0 .. copies of the face     count / copies (0 for absent faces)
                    in the deck (1 if absent)
top_card, flags,    0 .. 1 (one-hot / 0-1)      unchanged
one-hots
direction           -1 .. 1                     (direction + 1) / 2
hand_sizes,         0 .. deck size              count / deck size
stock_size,
discard_size
pending_draw        0 .. 65535 (engine counter) min(count, deck size) / deck size
turn_cards,         0 .. 255 (engine counter)   min(count, deck size) / deck size
turn_drawn
scores              ±2**31 / 100 (engine        (s / (1 + |s|) + 1) / 2, with s the
                    score / 100)                raw value (score / 100)
==================  ==========================  =====================================

Nobody can hold, draw or be made to draw more cards than the deck has, so the clipping
of ``pending_draw``, ``turn_cards`` and ``turn_drawn`` at the deck size loses nothing
a player could act on; scores have no rule-given bound (matches add hands up), so they
are squashed, which keeps their order.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

import numpy as np
from gymnasium import spaces

from ._core import OBS_SIZE

__all__ = ["ObservationBounds"]

# The engine's counters: pending_draw is a u16, the per-turn counters are u8, scores i32.
_PENDING_MAX = float(2**16 - 1)
_TURN_MAX = float(2**8 - 1)
_SCORE_MAX = float(2**31) / 100.0

_FLAGS = (
    "top_card", "active_suit", "nominated", "free_play", "pending_kind", "phase", "to_act",
    "seats", "announced", "constraint", "constraint_suit", "rogue_top", "asked", "wild_rank",
    "declined",
)


def _deck_counts(game: Any) -> Tuple[Dict[str, int], int]:
    """Copies of every face in the pack the rules deal, and the pack size."""
    counts: Dict[str, int] = {}
    cards = list(game.stock()) + list(game.discard_pile()) + list(game.rogue_pile())
    for p in range(game.num_players):
        cards += list(game.hand(p))
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts, len(cards)


class ObservationBounds:
    """Finite bounds of the observation for a rule set and player count, and its scaling.

    Args:
        preset: a preset name or an :class:`eights.Rules`.
        num_players: seats at the table.
        rules: rule overrides (as for :func:`eights.make`).

    Attributes:
        low, high: ``float32`` arrays of length ``OBS_SIZE`` (the raw bounds).
        deck_size: cards in the pack; ``copies``: copies of each face (by card string).
        space: ``Box(low, high)`` of the raw observation; ``scaled_space``:
            ``Box(0, 1)`` of :meth:`scale`'s output.
    """

    def __init__(self, preset: Union[str, Any], num_players: int = 2, rules: Optional[Dict[str, Any]] = None) -> None:
        from .rules import Game

        game = Game(preset, num_players, seed=0, rules=rules)  # validates the arguments
        self.spec: Dict[str, Tuple[int, int]] = dict(game.observation_spec())
        self.copies, self.deck_size = _deck_counts(game)
        faces = [game.action_to_string(a)[len("play "):] for a in range(54)]
        face_copies = np.array([self.copies.get(face, 0) for face in faces], dtype=np.float32)

        low = np.zeros(OBS_SIZE, dtype=np.float32)
        high = np.ones(OBS_SIZE, dtype=np.float32)
        # Scaling: obs * mul + add, then the clip/squash rules below.
        mul = np.ones(OBS_SIZE, dtype=np.float32)
        add = np.zeros(OBS_SIZE, dtype=np.float32)
        deck = float(self.deck_size)
        clip = np.zeros(OBS_SIZE, dtype=bool)
        for name in ("hand", "played"):
            a, b = self.spec[name]
            # A face the deck lacks stays 0; its bound is kept at 1 (not 0) so that no
            # entry has low == high, which checkers flag.
            high[a:b] = np.maximum(face_copies, 1.0)
            mul[a:b] = np.where(face_copies > 0, 1.0 / np.maximum(face_copies, 1.0), 0.0)
        a, b = self.spec["direction"]
        low[a:b], add[a:b], mul[a:b] = -1.0, 0.5, 0.5
        for name in ("hand_sizes", "stock_size", "discard_size"):
            a, b = self.spec[name]
            high[a:b], mul[a:b] = deck, 1.0 / deck
        for name, top in (("pending_draw", _PENDING_MAX), ("turn_cards", _TURN_MAX), ("turn_drawn", _TURN_MAX)):
            a, b = self.spec[name]
            high[a:b], mul[a:b], clip[a:b] = top, 1.0 / deck, True
        a, b = self.spec["scores"]
        low[a:b], high[a:b] = -_SCORE_MAX, _SCORE_MAX
        self._scores = slice(a, b)
        covered = {"hand", "played", "direction", "hand_sizes", "stock_size", "discard_size",
                   "pending_draw", "turn_cards", "turn_drawn", "scores", *_FLAGS}
        missing = set(self.spec) - covered
        if missing:  # a new slice in the engine must get its bounds here
            raise RuntimeError(f"no bounds known for the observation slices {sorted(missing)}")
        self.low, self.high = low, high
        self._mul, self._add, self._clip = mul, add, clip
        self.space = spaces.Box(low, high, dtype=np.float32)
        self.scaled_space = spaces.Box(0.0, 1.0, shape=(OBS_SIZE,), dtype=np.float32)

    def scale(self, obs: np.ndarray) -> np.ndarray:
        """``obs`` (shape ``(..., OBS_SIZE)``) mapped into ``[0, 1]``, as a new ``float32``
        array (see the module table)."""
        x = np.asarray(obs, dtype=np.float32)
        if x.shape[-1:] != (OBS_SIZE,):
            raise ValueError(f"observations must have {OBS_SIZE} entries in the last axis, got shape {x.shape}")
        out = x * self._mul + self._add
        np.minimum(out, 1.0, out=out, where=self._clip)
        s = x[..., self._scores]
        out[..., self._scores] = (s / (1.0 + np.abs(s)) + 1.0) * 0.5
        return out.astype(np.float32, copy=False)

"""Bounds of the observation vector, and its scaled form in [0, 1].

This module owns :class:`ObservationBounds`: for one rule set and player count, the finite
``low``/``high`` of every slice of the observation (see ``Game.observation_spec()`` and
the table below), derived from the deck the rules deal (its size and the copies of each
face) and from the engine's counters, and :meth:`ObservationBounds.scale`, which maps an
observation to ``[0, 1]`` slice by slice (the ``scale_obs=True`` option of the envs).
The engine computes the bounds and the scaling coefficients (``src/observation/bounds.rs``,
``eights._core.observation_bounds``); this class holds them as numpy arrays and applies them.
The layout's named slices, ``name -> (start, stop)`` without a game, are
:func:`observation_spec` (from the engine, as ``Game.observation_spec()``).

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

from ._core import OBS_SIZE, observation_bounds, observation_spec
from ._utils.checks import describe

__all__ = ["ObservationBounds", "observation_spec"]


class ObservationBounds:
    """Finite bounds of the observation for a rule set and player count, and its scaling.

    Args:
        preset: a preset name, a path to a TOML rules file or an :class:`eights.Rules`.
        num_players: seats at the table.
        rules: rule overrides (as for :func:`eights.make`).

    Attributes:
        low, high: ``float32`` arrays of length ``OBS_SIZE`` (the raw bounds).
        deck_size: cards in the pack; ``copies``: copies of each face (by card string).
        space: ``Box(low, high)`` of the raw observation; ``scaled_space``:
            ``Box(0, 1)`` of :meth:`scale`'s output.
    """

    def __init__(
        self, preset: Union[str, Any, None], num_players: int = 2, rules: Optional[Dict[str, Any]] = None
    ) -> None:
        b = observation_bounds(preset, num_players, rules)  # validates the arguments
        self._set(b)

    def _set(self, b: Dict[str, Any]) -> None:
        self.spec: Dict[str, Tuple[int, int]] = b["spec"]
        self.copies: Dict[str, int] = b["copies"]
        self.deck_size: int = b["deck_size"]
        self.low: np.ndarray = b["low"]
        self.high: np.ndarray = b["high"]
        # Scaling: obs * mul + add, at most 1 where clip, the scores squashed.
        self._mul, self._add, self._clip = b["mul"], b["add"], b["clip"]
        self._scores = slice(*self.spec["scores"])
        self.space = spaces.Box(self.low, self.high, dtype=np.float32)
        self.scaled_space = spaces.Box(0.0, 1.0, shape=(OBS_SIZE,), dtype=np.float32)

    @classmethod
    def any_rules(cls) -> ObservationBounds:
        """Bounds that hold under every rule set (the largest deck the rules model deals:
        four copies of every face, 216 cards), for rules drawn from a space."""
        return cls(None)

    @classmethod
    def union(cls, bounds: list[ObservationBounds]) -> ObservationBounds:
        """Bounds that hold under each of several rule sets (a batch of mixed rules): the
        widest bounds, and a scaling that keeps every one of them in ``[0, 1]``.  ``bounds``
        is a non-empty list (or tuple) of :class:`ObservationBounds`."""
        if not isinstance(bounds, (list, tuple)):
            raise TypeError(f"bounds must be a list of ObservationBounds, got {describe(bounds)}")
        if not bounds:
            raise ValueError("union needs at least one ObservationBounds")
        for k, b in enumerate(bounds):
            if not isinstance(b, ObservationBounds):
                raise TypeError(f"bounds[{k}] must be an ObservationBounds, got {describe(b)}")
        first = bounds[0]
        copies: Dict[str, int] = {}
        for b in bounds:
            for card, k in b.copies.items():
                copies[card] = max(copies.get(card, 0), k)
        out = cls.__new__(cls)
        out._set(
            dict(
                spec=first.spec,
                copies=copies,
                deck_size=max(b.deck_size for b in bounds),
                low=np.minimum.reduce([b.low for b in bounds]),
                high=np.maximum.reduce([b.high for b in bounds]),
                # The smallest positive factor (the largest deck or copy count) for counts; 0
                # only where every rule set lacks the face.
                mul=np.min([np.where(b._mul > 0, b._mul, np.inf) for b in bounds], axis=0),
                add=first._add,
                clip=np.logical_or.reduce([b._clip for b in bounds]),
            )
        )
        out._mul = np.where(np.isinf(out._mul), 0.0, out._mul).astype(np.float32)
        return out

    def scale(self, obs: np.ndarray) -> np.ndarray:
        """``obs`` (shape ``(..., OBS_SIZE)``) mapped into ``[0, 1]``, as a new ``float32``
        array (see the module table); ``TypeError`` for anything but an array of numbers."""
        try:
            x = obs if isinstance(obs, np.ndarray) else np.asarray(obs)
        except (TypeError, ValueError):  # a ragged list
            x = np.asarray(None)
        if x.dtype.kind not in "biuf":  # a string was numpy's "could not convert string to float"
            raise TypeError(f"obs must be a numeric array of shape (..., {OBS_SIZE}), got {describe(obs)}")
        x = x.astype(np.float32, copy=False)
        if x.shape[-1:] != (OBS_SIZE,):
            raise ValueError(f"observations must have {OBS_SIZE} entries in the last axis, got shape {x.shape}")
        out = x * self._mul + self._add
        np.minimum(out, 1.0, out=out, where=self._clip)
        s = x[..., self._scores]
        out[..., self._scores] = (s / (1.0 + np.abs(s)) + 1.0) * 0.5
        return out.astype(np.float32, copy=False)

"""Pools of frozen opponents for self-play training: :class:`OpponentPool` samples one
snapshot (a batched policy or a built-in bot name) per game and episode; a
:class:`eights.VecEnv` seats it as an opponent."""

from __future__ import annotations

import os
from typing import Any, Callable, List, Optional, Sequence, Union

import numpy as np

from .._core import NUM_ACTIONS, bot_file_metadata, parse_bot
from .._utils.checks import as_int, as_real
from .._utils.checks import describe as _describe
from .._utils.seeds import check_optional_seed

#: The most indices one :meth:`OpponentPool.sample` draws (a batch of games takes at most 2**20).
MAX_SAMPLE = 2**31 - 1

__all__ = ["BatchPolicy", "OpponentPool", "SampledNet", "check_batch_actions"]

#: The formats of the card network's files (:class:`SampledNet`).
CARD_FORMATS = ("eights-net-v2", "eights-net-v3")

#: A batched policy: observations ``(k, obs_size)`` and masks ``(k, NUM_ACTIONS)`` to ``k`` actions.
BatchPolicy = Callable[[np.ndarray, np.ndarray], Any]


def check_batch_actions(
    actions: Any, n: int, who: str, allowed: str = f"action ids are in [0, {NUM_ACTIONS - 1}]", step: bool = False
) -> np.ndarray:
    """``actions`` as an int array of shape ``(n,)``; TypeError/ValueError otherwise (``allowed``
    says what the values may be; ``step``: they were given to a batch's ``step``, not returned
    by a batch's policy, which a refused single action's message says)."""
    try:
        arr = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
    except (ValueError, TypeError):  # ragged or nested: numpy's message names nothing
        raise TypeError(_not_actions(actions, n, who)) from None
    if arr.dtype.kind == "O" and arr.shape == (n,) and all(type(a) is int or isinstance(a, np.integer) for a in arr):
        # Integers in an object array: made so by hand, or Python ints past the int64 and uint64 range.
        lo, hi = np.iinfo(np.int64).min, np.iinfo(np.int64).max
        if any(not lo <= int(a) <= hi for a in arr):
            raise ValueError(f"{who} are out of range: {allowed}, got {max(arr, key=abs)}")
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise TypeError(_not_actions(actions, n, who, f"dtype {arr.dtype}"))
    if arr.shape != (n,):
        if _predict_pair(actions, n):
            raise TypeError(_not_actions(actions, n, who))
        if arr.shape != ():
            one = ""
        elif step:
            one = f" (one action: step takes an action for each of the {n} games of the batch)"
        else:
            one = (
                " (one action: a batch's policy gets every waiting game's rows, obs (k, ...) and masks (k, "
                f"{NUM_ACTIONS}), and returns k actions; a policy of one game goes in eights.make)"
            )
        raise ValueError(f"{who} must have shape ({n},), got {arr.shape}{one}")
    if arr.dtype.kind == "u" and arr.size and arr.max() > np.iinfo(np.int64).max:
        # Cast to the engine's int64 ids, 2**64 - 1 would read as action -1.
        raise ValueError(f"{who} are out of range: {allowed}, got {int(arr.max())}")
    return arr


def _predict_pair(actions: Any, n: int) -> bool:
    """Whether ``actions`` is what Stable-Baselines3's ``predict`` returns: ``(actions, state)``."""
    return isinstance(actions, tuple) and len(actions) == 2 and np.ndim(actions[0]) == 1 and len(actions[0]) == n


def _not_actions(actions: Any, n: int, who: str, got: str = "") -> str:
    """Why ``actions`` are no batch of ``n`` actions (a message naming ``who``)."""
    wanted = f"{who} must be integers (an int numpy array of shape ({n},))"
    if _predict_pair(actions, n):
        return f"{wanted}, got a pair (actions, state), as model.predict returns: return the actions alone"
    return f"{wanted}, got {got or _describe(actions)}"


def _batch_rows(obs: Any, mask: Any) -> int:
    """Rows of a batch: those of ``mask`` (2-d, a column per action), which ``obs`` (or each
    array of its dict) shares."""
    shape = np.shape(mask)
    if len(shape) != 2 or shape[1] != NUM_ACTIONS:  # a narrower mask reached the policies
        raise ValueError(f"mask must have shape (rows, NUM_ACTIONS) = (rows, {NUM_ACTIONS}), got shape {shape}")
    for part in obs.values() if isinstance(obs, dict) else [obs]:
        if np.shape(part)[:1] != shape[:1]:
            raise ValueError(f"obs must have one row per row of mask ({shape[0]}), got shape {np.shape(part)}")
    return shape[0]


class SampledNet:
    """A card network's weights file (``eights-net-v2``/``v3``) as a pool snapshot that draws
    its moves from its policy, in Rust, on a :class:`VecEnv`'s games
    (:meth:`eights.VecEnv.bot_actions` with a seed), where the file as a bot name plays its
    greedy move. Each call draws a fresh seed from the snapshot's own generator (``seed``),
    so the games do not depend on the others that share the batch. :class:`eights.train.SelfPlay`
    plays its card network's snapshots this way: a tenth of the cost of PyTorch's forward pass
    on a few dozen games."""

    def __init__(self, path: Union[str, os.PathLike[str]], seed: Optional[int] = None) -> None:
        self.path = parse_bot(os.fspath(path))  # ValueError naming the file and what is wrong
        if self.path.lower().endswith(".safetensors"):
            fmt = bot_file_metadata(self.path).get("format", "a file of no format")
        else:
            fmt = self.path  # a built-in bot's name
        if fmt not in ("net", *CARD_FORMATS):
            raise ValueError(
                f"SampledNet needs the card network (net, or a file of format {' or '.join(CARD_FORMATS)}); "
                f"{self.path!r} is {fmt!r}"
            )
        self.rng = np.random.default_rng(check_optional_seed(seed))

    def next_seed(self) -> int:
        """The seed of the next call's draws."""
        return int(self.rng.integers(0, 2**63))

    def __repr__(self) -> str:
        return f"SampledNet({self.path!r})"


class OpponentPool:
    """Frozen policy snapshots; one is sampled per game and episode.

    Each snapshot is a batched policy ``f(obs, mask) -> actions`` taking
    observations of shape ``(k, obs_size)`` and boolean masks of shape
    ``(k, NUM_ACTIONS)`` and returning ``k`` integer actions, or the name of a
    built-in Rust bot (``"heuristic"``, ``"random"``, ``"ismcts:N"``,
    ``"pimc:N"``, ``"net"``, the path of a ``.safetensors`` weights file), which a
    :class:`VecEnv` plays on the real game state.  Give a pool as
    an opponent of :class:`VecEnv` (each seat keeps its own draw per game,
    resampled when the game's episode starts), or drive it yourself in
    self-play: ``choice = pool.sample(num_envs)`` at episode starts, then
    ``pool.act(obs, mask, choice)``.

    Args:
        snapshots: initial policies.
        weights: sampling weights (default uniform); need not sum to 1.
        seed: seed of the pool's sampling RNG.
    """

    def __init__(
        self,
        snapshots: Sequence[Union[BatchPolicy, str]] = (),
        weights: Optional[Sequence[float]] = None,
        seed: Optional[int] = None,
    ) -> None:
        self._policies: List[Union[BatchPolicy, str, SampledNet]] = []
        self._weights: List[float] = []
        if isinstance(snapshots, str) or not isinstance(snapshots, Sequence):
            raise TypeError(
                f"snapshots must be a list of snapshots (callables or bot names, e.g. ['heuristic']), "
                f"got {_describe(snapshots)}"
            )
        if weights is not None and (isinstance(weights, (str, bytes, bytearray)) or not isinstance(weights, Sequence)):
            raise TypeError(f"weights must be a list of numbers, one per snapshot, got {_describe(weights)}")
        if weights is not None and len(weights) != len(snapshots):
            raise ValueError(f"weights must have one entry per snapshot ({len(snapshots)}), got {len(weights)}")
        seed = check_optional_seed(seed)
        for k, policy in enumerate(snapshots):
            self.add(policy, 1.0 if weights is None else weights[k])
        self.rng = np.random.default_rng(seed)

    def add(self, snapshot: Union[BatchPolicy, str, SampledNet], weight: float = 1.0) -> int:
        """Add a frozen snapshot (a callable), a built-in bot name or a :class:`SampledNet`;
        returns its index."""
        if isinstance(snapshot, os.PathLike):
            snapshot = os.fspath(snapshot)  # a weights file, played in Rust
        if isinstance(snapshot, SampledNet):
            pass
        elif isinstance(snapshot, str):
            snapshot = parse_bot(snapshot)  # ValueError naming the allowed bots (or the file's error)
        elif not callable(snapshot):
            raise TypeError(
                f"a snapshot must be callable f(obs, mask) -> actions or a built-in bot name, got {_describe(snapshot)}"
            )
        weight = as_real(weight, "snapshot weight")
        if not weight > 0:
            raise ValueError(f"snapshot weights must be positive and finite, got {weight}")
        self._policies.append(snapshot)
        self._weights.append(weight)
        return len(self._policies) - 1

    def __len__(self) -> int:
        return len(self._policies)

    def __getitem__(self, k: int) -> Union[BatchPolicy, str, SampledNet]:
        return self._policies[k]

    def sample(self, size: int) -> np.ndarray:
        """Draw ``size`` snapshot indices according to the weights."""
        size = as_int(size, "size", 0, MAX_SAMPLE)
        if not self._policies:
            raise ValueError("the opponent pool is empty; add() a snapshot first")
        # Scaled by the largest first: weights near the float limit would sum to inf.
        w = np.asarray(self._weights, dtype=np.float64)
        w = w / w.max()
        p = w / w.sum()
        return self.rng.choice(len(self._policies), size=size, p=p)

    def act(
        self,
        obs: np.ndarray,
        mask: np.ndarray,
        choice: np.ndarray,
        builtin: Optional[Callable[..., np.ndarray]] = None,
    ) -> np.ndarray:
        """Actions for a batch, each row from the snapshot ``choice[row]``.

        ``choice`` holds one snapshot index in ``[0, len(pool))`` per row of ``mask`` (an
        int array, as :meth:`sample` draws); ``obs`` is an array of those rows, or a dict of
        them (``obs_rules``: each policy gets the dict of its rows).  Rows whose snapshot is a
        built-in bot name are answered by ``builtin(name, rows)``, those of a
        :class:`SampledNet` by ``builtin(path, rows, seed)`` (a :class:`VecEnv` passes its
        Rust games)."""
        choice = self._check_choice(choice, _batch_rows(obs, mask))
        out = np.empty(len(choice), dtype=np.int64)
        for k in np.unique(choice):
            rows = np.flatnonzero(choice == k)
            policy = self._policies[int(k)]
            if isinstance(policy, (str, SampledNet)):
                if builtin is None:
                    raise ValueError(
                        f"snapshot {int(k)} is the built-in bot {policy!r}, which needs the game state: "
                        "use the pool as an opponent of a VecEnv"
                    )
                if isinstance(policy, SampledNet):
                    out[rows] = builtin(policy.path, rows, policy.next_seed())
                else:
                    out[rows] = builtin(policy, rows)
            else:
                sub: Any = {key: v[rows] for key, v in obs.items()} if isinstance(obs, dict) else obs[rows]
                out[rows] = check_batch_actions(policy(sub, mask[rows]), len(rows), f"the actions of snapshot {int(k)}")
        return out

    def _check_choice(self, choice: Any, rows: int) -> np.ndarray:
        """``choice`` as an int array of ``rows`` snapshot indices of this pool."""
        n = len(self._policies)
        arr = check_batch_actions(choice, rows, "choice", f"snapshot indices are in [0, {n}) for a pool of {n}")
        bad = arr[(arr < 0) | (arr >= len(self._policies))]
        if bad.size:
            raise ValueError(
                f"choice must hold snapshot indices in [0, {len(self._policies)}) "
                f"for a pool of {len(self._policies)}, got {bad[0]}"
            )
        return arr

"""Behaviour cloning of a built-in bot across the rule space, with DAgger-style mixing: the
warm start of :class:`eights.train.cardnet.CardNet`.

:class:`Collector` plays self-play ``VecEnv`` batches over a :class:`eights.RuleSpace` at
several table sizes; at every decision the teacher (the Rust ``heuristic`` by default) labels
the state, and the game moves on by the teacher's action or, with probability ``beta``, by the
student's own sampled action (so the student is also taught on the states it reaches). Rule
sets in ``exclude`` (the generalization benchmark's held-out house rules) are never stored.

:class:`ReplayBuffer` keeps the latest samples: the observation (float16 is exact for every
value the layout holds but the fractions of match scores), the packed action mask, the teacher's
action and the row of its rules encoding in a table of the distinct encodings. Its minibatches
are blocks of samples that share a rule set, so the network's rules part runs once per block.
"""

from __future__ import annotations

import hashlib
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy as np
import torch

from eights import NUM_ACTIONS, OBS_SIZE, RULES_SIZE
from eights.envs.vector import VecEnv
from eights.rules import RuleSpace

__all__ = ["Collector", "ReplayBuffer", "digest"]


def digest(encoding: np.ndarray) -> bytes:
    """A short key of a rules encoding (equal encodings, equal keys)."""
    return hashlib.blake2b(np.ascontiguousarray(encoding, np.float32).tobytes(), digest_size=16).digest()


class RulesTable:
    """The distinct rules encodings seen, by key, as rows of a growing float32 array."""

    def __init__(self, capacity: int = 1024):
        self.rows = np.zeros((capacity, RULES_SIZE), np.float32)
        self.index: Dict[bytes, int] = {}

    def add(self, encoding: np.ndarray, key: Optional[bytes] = None) -> int:
        """The row of ``encoding`` (added if new); ``key``: its :func:`digest` when known."""
        key = digest(encoding) if key is None else key
        i = self.index.get(key)
        if i is None:
            i = len(self.index)
            if i == len(self.rows):
                self.rows = np.concatenate([self.rows, np.zeros_like(self.rows)])
            self.rows[i] = encoding
            self.index[key] = i
        return i


class ReplayBuffer:
    """The latest ``capacity`` labelled samples (see the module documentation)."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.obs = np.zeros((capacity, OBS_SIZE), np.float16)
        self.mask = np.zeros((capacity, (NUM_ACTIONS + 7) // 8), np.uint8)
        self.label = np.zeros(capacity, np.int16)
        self.ridx = np.zeros(capacity, np.int32)
        self.rules = RulesTable()
        self.size = 0
        self.next = 0
        self.added = 0

    def add(self, obs: np.ndarray, mask: np.ndarray, label: np.ndarray, ridx: np.ndarray) -> None:
        n = len(label)
        at = (self.next + np.arange(n)) % self.capacity
        self.obs[at] = obs
        self.mask[at] = np.packbits(mask, axis=1)
        self.label[at] = label
        self.ridx[at] = ridx
        self.next = int((self.next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)
        self.added += n

    def blocks(self, rng: np.random.Generator, block: int) -> np.ndarray:
        """Sample indices sorted by rule set and cut into blocks of ``block`` (``(k, block)``),
        in random order."""
        order = np.argsort(self.ridx[: self.size], kind="stable")
        k = len(order) // block
        return rng.permutation(order[: k * block].reshape(k, block))

    def batch(self, idx: np.ndarray) -> Tuple[torch.Tensor, ...]:
        """Tensors ``(obs, mask, label, rules, ridx)`` of the samples ``idx``: ``rules`` holds the
        distinct encodings of the batch and ``ridx`` each sample's row in it."""
        distinct, inverse = np.unique(self.ridx[idx], return_inverse=True)
        mask = np.unpackbits(self.mask[idx], axis=1, count=NUM_ACTIONS).astype(bool)
        return (
            torch.from_numpy(self.obs[idx].astype(np.float32)),
            torch.from_numpy(mask),
            torch.from_numpy(self.label[idx].astype(np.int64)),
            torch.from_numpy(self.rules.rows[distinct]),
            torch.from_numpy(inverse.astype(np.int64)),
        )


class Collector:
    """Labelled decisions from self-play over rule spaces (see the module documentation).

    Args:
        games: games per table size, e.g. ``{2: 512, 4: 256}``.
        seed: the seed of the first deal (every batch's stream is derived from it).
        teacher: the built-in bot that labels the states.
        exclude: rules encodings never to store, by table size (``{n: [encoding, ...]}``).
        space: a function ``n -> RuleSpace`` (default: every preset that allows ``n``).
    """

    def __init__(
        self,
        games: Dict[int, int],
        seed: int,
        teacher: str = "heuristic",
        exclude: Optional[Mapping[int, Iterable[np.ndarray]]] = None,
        space=None,
        threads: int = 1,
    ):
        self.teacher = teacher
        self.excluded = {n: {digest(e) for e in encs} for n, encs in (exclude or {}).items()}
        make = space or (lambda n: RuleSpace(num_players=n))
        self.envs: List[VecEnv] = []
        self.state: List[Dict[str, Any]] = []
        for k, (n, count) in enumerate(sorted(games.items())):
            env = VecEnv(make(n), count, n, self_play=True, obs_rules=True, num_threads=threads)
            obs, info = env.reset(seed=seed + k)
            self.envs.append(env)
            self.state.append(
                {
                    "obs": obs["obs"],
                    "rules": obs["rules"],
                    "rules_id": np.full(count, -1, np.int64),
                    "row": np.zeros(count, np.int64),
                    "skip": np.zeros(count, bool),
                    "info": info,
                }  # fmt: skip
            )
        self.rng = np.random.default_rng(seed)
        self.episodes = 0
        self.skipped = 0

    def _rows(self, k: int, buffer: ReplayBuffer) -> None:
        """Refresh the rules rows of the games of batch ``k`` that dealt new rules."""
        st, env = self.state[k], self.envs[k]
        ids = np.asarray(st["info"]["rules_id"], np.int64)
        for g in np.flatnonzero(ids != st["rules_id"]):
            enc = st["rules"][g]
            st["skip"][g] = digest(enc) in self.excluded.get(env.num_players, ())
            st["row"][g] = -1 if st["skip"][g] else buffer.rules.add(enc)
            self.episodes += 1
            self.skipped += int(st["skip"][g])
        st["rules_id"] = ids.copy()

    def collect(self, buffer: ReplayBuffer, decisions: int, student=None, beta: float = 0.0) -> int:
        """Step every batch until about ``decisions`` labelled samples were added; the games
        follow the student's sampled actions (``student(obs, mask, rules, ridx) -> actions``,
        on the buffer's rules rows) with probability ``beta`` per game and decision, the
        teacher's otherwise. Returns the samples added."""
        added = 0
        while added < decisions:
            for k, env in enumerate(self.envs):
                st = self.state[k]
                self._rows(k, buffer)
                mask = env.action_masks()
                live = np.flatnonzero(mask.any(1) & ~st["skip"])
                labels = env.bot_actions(self.teacher)
                if len(live):
                    buffer.add(st["obs"][live], mask[live], labels[live], st["row"][live])
                    added += len(live)
                actions = labels.copy()
                if student is not None and beta > 0 and len(live):
                    mine = live[self.rng.random(len(live)) < beta]
                    if len(mine):
                        actions[mine] = student(st["obs"][mine], mask[mine], buffer.rules.rows, st["row"][mine])
                actions[actions < 0] = 0
                obs, _, _, _, info = env.step(actions)
                st["obs"], st["rules"], st["info"] = obs["obs"], obs["rules"], info
        return added


def heldout_encodings(counts: Sequence[int]) -> Dict[int, List[np.ndarray]]:
    """The generalization benchmark's held-out house rules, encoded at each table size they
    allow (to keep them out of training)."""
    from eights.generalization.splits import HOUSE_RULES_COUNT, split  # noqa: F401

    out: Dict[int, List[np.ndarray]] = {}
    sets = split("heldout_house", 2)
    for n in counts:
        out[n] = [r.encode(n) for r in sets if n in r.players]
    return out

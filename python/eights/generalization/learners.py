"""The learners of the generalization baseline (``scripts/generalization_baseline.py``; needs the
``train`` extra): the
package's PPO (:mod:`eights.train`) against a built-in bot on one preset or on a rule space,
with or without the rules in the observation, and the greedy arena agent of a trained network.

A network that reads the rules (:class:`RulesPolicyNet`) sees ``[observation, rules row]``:
the 346 observation values and the index of the episode's rules encoding in a
:class:`RulesTable`. A rollout then stores 347 values per decision rather than 4,644, and the
rules part of the network runs once per distinct rule set of a batch (a batch of 2,048
decisions holds about a hundred), which makes training with the rules about as fast as without.
The table holds the encodings that the envs' current episodes play, and is compacted before
every rollout.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

import numpy as np

from .._utils.optional import require

require(["torch", "safetensors"], "train", "eights.generalization.learners")

import torch  # noqa: E402

from .._core import NUM_ACTIONS, OBS_SIZE, derive_seed  # noqa: E402
from ..envs.vector import VecEnv  # noqa: E402
from ..rules import RULES_SIZE  # noqa: E402
from ..rules.encoding import CARD_FEATURE_NAMES, NUM_FACES, TABLE_FEATURE_NAMES  # noqa: E402
from ..train import PolicyNet, Rollout, layer  # noqa: E402
from ..train.best_response import BestResponse  # noqa: E402

CARD_FEATURES, TABLE_FEATURES = len(CARD_FEATURE_NAMES), len(TABLE_FEATURE_NAMES)


class RulesTable:
    """Rules encodings by row index (a float32 array that grows by doubling)."""

    def __init__(self, capacity: int = 256):
        self.rows = np.zeros((capacity, RULES_SIZE), np.float32)
        self.size = 0

    def add(self, encodings: np.ndarray) -> np.ndarray:
        """Append rows; returns their indices."""
        k = len(encodings)
        if self.size + k > len(self.rows):
            grown = np.zeros((max(2 * len(self.rows), self.size + k), RULES_SIZE), np.float32)
            grown[: self.size] = self.rows[: self.size]
            self.rows = grown
        self.rows[self.size : self.size + k] = encodings
        self.size += k
        return np.arange(self.size - k, self.size)

    def keep(self, used: np.ndarray) -> np.ndarray:
        """Keep only the rows ``used`` (in that order); returns the map old index -> new."""
        used = np.unique(used)
        remap = np.full(max(self.size, 1), -1, np.int64)
        remap[used] = np.arange(len(used))
        self.rows[: len(used)] = self.rows[used]
        self.size = len(used)
        return remap

    def lookup(self, index: torch.Tensor) -> torch.Tensor:
        return torch.from_numpy(self.rows[index.cpu().numpy()]).to(index.device)


class RulesPolicyNet(PolicyNet):
    """:class:`eights.train.PolicyNet` reading ``[obs, rules row]``: the rules encoding (values
    in [0, 1], not normalised) goes through a per-card projection shared by the 54 cards
    (``card_width`` ReLU units each), then with the table-wide settings through a ReLU layer of
    ``rules_width`` units, concatenated to the normalised observation before the first hidden
    layer. ``table`` (a :class:`RulesTable`) is set by whoever feeds it."""

    table: RulesTable

    def __init__(self, hidden: int, rules_width: int, card_width: int = 8):
        super().__init__(OBS_SIZE, NUM_ACTIONS, hidden)
        self.card_proj = layer(CARD_FEATURES, card_width)
        self.rules_proj = layer(NUM_FACES * card_width + TABLE_FEATURES, rules_width)
        self.fc1 = layer(OBS_SIZE + rules_width, hidden)
        self.table = RulesTable()

    def rules_features(self, encodings: torch.Tensor) -> torch.Tensor:
        """The rules part of the network for rows of rules encodings."""
        cards = encodings[:, : NUM_FACES * CARD_FEATURES].reshape(-1, NUM_FACES, CARD_FEATURES)
        c = torch.relu(self.card_proj(cards)).flatten(1)
        return torch.relu(self.rules_proj(torch.cat([c, encodings[:, NUM_FACES * CARD_FEATURES :]], -1)))

    def trunk(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        """The hidden features of ``[obs, rules row]`` rows (``mask`` is not read)."""
        distinct, inverse = torch.unique(x[:, OBS_SIZE].long(), return_inverse=True)
        r = self.rules_features(self.table.lookup(distinct))[inverse]
        return torch.relu(self.fc2(torch.relu(self.fc1(torch.cat([self.norm(x), r], -1)))))


class IndexedRules:
    """A VecEnv with ``obs_rules=True`` seen as ``[obs, rules row]`` rows: an episode's
    encoding enters ``table`` when the game's ``info["rules_id"]`` changes (at a deal)."""

    def __init__(self, env: VecEnv, table: RulesTable):
        self.env, self.table, self.num_envs = env, table, env.num_envs
        self.ids = np.full(env.num_envs, -1, np.int64)  # the rules_id of each game's rows
        self.rows = np.zeros(env.num_envs, np.int64)  # their row in the table

    def _flat(self, o: Any, info: Dict[str, Any]) -> np.ndarray:
        """``o``: the VecEnv's observation dict (``obs_rules=True``)."""
        ids = np.asarray(info["rules_id"], np.int64)
        new = np.flatnonzero(ids != self.ids)
        if len(new):
            self.rows[new] = self.table.add(o["rules"][new])
            self.ids[new] = ids[new]
        return np.concatenate([o["obs"], self.rows[:, None].astype(np.float32)], 1)

    def reset(self):
        o, info = self.env.reset()
        self.ids[:] = -1
        return self._flat(o, info), info

    def step(self, actions: np.ndarray):
        o, r, term, trunc, info = self.env.step(actions)
        return self._flat(o, info), r, term, trunc, info

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


class Learner(BestResponse):
    """A PPO learner against a built-in bot (``opponent``) on one preset or a rule space; with
    ``rules_width`` it reads the rules (:class:`RulesPolicyNet`)."""

    def __init__(self, rules_width: int, *args: Any, **kw: Any):
        super().__init__(*args, **kw)
        self.rules_width = rules_width
        self.envs: List[IndexedRules] = []
        if rules_width:
            self.rules_net = RulesPolicyNet(self.cfg.hidden, rules_width).to(self.device)
            self.net = self.rules_net
            self.optimizer = torch.optim.Adam(self.net.parameters(), lr=self.cfg.learning_rate, eps=1e-5)

    def _rollout(self) -> Rollout:
        if not self.rules_width:
            return super()._rollout()
        n, per_seat = self.num_players, max(1, self.cfg.num_envs // self.num_players)
        start = derive_seed(self.seed, self.updates)
        self.envs = [
            IndexedRules(
                VecEnv(
                    self.preset,
                    per_seat,
                    n,
                    opponents=self.opponent.bot,
                    learner_seat=s,
                    num_threads=self.env_threads,
                    seed=derive_seed(start, s),
                    obs_rules=True,
                ),
                self.rules_net.table,
            )  # fmt: skip
            for s in range(n)
        ]
        rollout = Rollout(self.envs, self.cfg.num_steps, OBS_SIZE + 1, self.device)
        first = rollout.reset()
        if self.updates == 0:
            self.net.norm.update(first)
        return rollout

    def _update(self, rollout: Rollout, p: float, stop: Optional[Callable[[], bool]] = None) -> Dict[str, float]:
        if self.rules_width:  # keep the table to the rows the games play now
            remap = self.rules_net.table.keep(np.concatenate([e.rows for e in self.envs]))
            for e in self.envs:
                e.rows = remap[e.rows]
            idx = rollout.next_obs[:, OBS_SIZE].long().cpu().numpy()
            rollout.next_obs[:, OBS_SIZE] = torch.from_numpy(remap[idx].astype(np.float32)).to(rollout.dev)
        return super()._update(rollout, p, stop)


class Greedy:
    """A trained network as an arena agent: its most likely legal action. With ``obs_rules``
    the arena hands it ``{"obs", "rules"}``; the batch's distinct encodings become the rows of
    the network's table."""

    def __init__(self, net: Any, name: str, obs_rules: bool):
        self.net, self.name, self.obs_rules = net.eval(), name, obs_rules

    def act_batch(self, obs: Any, masks: np.ndarray) -> np.ndarray:
        if isinstance(obs, dict):
            first: Dict[bytes, int] = {}
            rows = np.array([first.setdefault(r.tobytes(), len(first)) for r in obs["rules"]], np.float32)
            self.net.table = RulesTable(len(first))
            self.net.table.add(np.frombuffer(b"".join(first), np.float32).reshape(len(first), RULES_SIZE))
            obs = np.concatenate([obs["obs"], rows[:, None]], 1)
        return self.net.act(np.ascontiguousarray(obs, np.float32), np.ascontiguousarray(masks, bool), greedy=True)

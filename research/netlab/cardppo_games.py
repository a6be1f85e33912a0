"""What a PPO stage of the rules-reading ``net`` (:mod:`netlab.cardppo`) plays and keeps
beside the network: the groups of mixed-rules ``VecEnv`` games (:class:`MixedGames`, parsed by
:func:`parse_tables`), the network's rules part per rule set (:class:`PartsCache`), the shaping
potential on hand sizes (:func:`potential`) and the search teacher's labels
(:class:`SearchLabels`)."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, List, Optional, Tuple

import numpy as np
import torch

from eights import NUM_ACTIONS, RULES_SIZE, presets
from eights.envs.vector import VecEnv
from eights.observation import observation_spec
from eights.rules import RuleSpace
from eights.rules.encoding import NUM_FACES
from eights.train.cardnet import CardNet
from netlab.imitation import ReplayBuffer, RulesTable, digest, heldout_encodings

__all__ = ["MixedGames", "PartsCache", "SearchLabels", "parse_tables", "potential", "SPACES"]


def parse_tables(spec: str) -> List[Tuple[int, str, int, str]]:
    """``"2:heuristic:256,4:net:64:presets"`` as
    ``[(2, "heuristic", 256, "all"), (4, "net", 64, "presets")]``: players, opponent, games and
    the rule sets dealt (``all``: the whole rule space, presets with their variants and house
    rules; ``presets``: the presets as written; a preset's name: that preset alone, as
    written)."""
    out = []
    names = set(presets())
    for part in spec.split(","):
        fields = part.strip().split(":")
        if len(fields) not in (3, 4) or (len(fields) == 4 and fields[3] not in SPACES and fields[3] not in names):
            raise ValueError(
                f"tables: each group is players:opponent:games[:all|presets|<preset>], got {part.strip()!r}"
            )
        out.append((int(fields[0]), fields[1], int(fields[2]), fields[3] if len(fields) == 4 else "all"))
    return out


#: The rule sets a group deals, by name.
SPACES = {
    "all": lambda n: RuleSpace(num_players=n),
    "presets": lambda n: RuleSpace(num_players=n, variant_prob=0.0, house_prob=0.0),
}


def _space(space: str, n: int) -> RuleSpace:
    """The rule sets a group with ``space`` (:func:`parse_tables`) deals at ``n`` players."""
    if space in SPACES:
        return SPACES[space](n)
    return RuleSpace([space], num_players=n, variant_prob=0.0, house_prob=0.0)


class MixedGames:
    """The VecEnvs of every group of ``tables`` (:func:`parse_tables`) and seat, stacked, and
    the per-game rules bookkeeping. With ``env_threads`` above 1 the envs (a few hundred
    games each, one thread each) are stepped side by side on that many Python threads (a
    step releases the GIL), not one after another on threads of their own: a few dozen envs
    with a crew of every core each left hundreds of threads polling for work on the same
    cores. The games are the same either way. With ``copies``
    above 1 every (group, seat) env comes that many times, reset with the same seed, so game
    ``i`` of each copy is dealt the same rules and cards (:attr:`pair` names the games that
    share a deal)."""

    def __init__(self, tables: str, env_threads: int, seed: int, table: RulesTable, copies: int = 1):
        if copies < 1:
            raise ValueError(f"copies: at least 1, got {copies}")
        self.envs: List[VecEnv] = []
        self.group: List[int] = []  # the group of each env
        self.base: List[int] = []  # the (group, seat) of each env, shared by its copies
        self.copies = copies
        self.groups = parse_tables(tables)
        excluded = heldout_encodings(sorted({g[0] for g in self.groups}))
        self.excluded = {n: {digest(e) for e in encs} for n, encs in excluded.items()}
        for gi, (n, opp, games, space) in enumerate(self.groups):
            for seat in range(n):
                for _copy in range(copies):
                    env = VecEnv(
                        _space(space, n),
                        max(1, games // n),
                        n,
                        opponents=opp,
                        learner_seat=seat,
                        obs_rules=True,
                        num_threads=1,
                    )
                    self.envs.append(env)
                    self.group.append(gi)
                    self.base.append(len(self.base) // copies)
        self.pool = ThreadPoolExecutor(min(env_threads, len(self.envs))) if env_threads > 1 else None
        self.sizes = [e.num_envs for e in self.envs]
        self.N = sum(self.sizes)
        self.offsets = np.concatenate([[0], np.cumsum(self.sizes)])
        self.game_env = np.concatenate([np.full(s, i) for i, s in enumerate(self.sizes)])
        self.game_group = np.concatenate([np.full(s, self.group[i]) for i, s in enumerate(self.sizes)])
        #: The deal of each game: the same number for game ``i`` of every copy of an env.
        self.pair = np.concatenate(
            [(self.base[k] * 1_000_000 + np.arange(s)) for k, s in enumerate(self.sizes)]
        ).astype(np.int64)
        self.table = table
        self.seed = seed
        self.row = np.zeros(self.N, np.int64)
        self.skip = np.zeros(self.N, bool)
        self.rules_id = np.full(self.N, -1, np.int64)
        self.enc = np.zeros((self.N, RULES_SIZE), np.float32)
        self.obs_size = int(self.envs[0].single_observation_space["obs"].shape[0])
        self.key: List[bytes] = [b""] * self.N  # the digest of each game's rules, taken once a deal

    def retable(self, table: RulesTable) -> None:
        """Start a new rules table holding the rules of the games as they are now."""
        self.table = table
        for g in range(self.N):
            self.row[g] = table.add(self.enc[g], self.key[g])

    def reset(self, seed: Optional[int] = None):
        """Deal new games (``seed``: in place of the one given at construction)."""
        start: int = self.seed if seed is None else seed
        self._gather(lambda k: self.envs[k].reset(seed=start + 7 * self.base[k]))
        return self.obs, self.mask

    def _gather(self, call) -> Tuple[np.ndarray, np.ndarray, List[int]]:
        """Run ``call(k)`` (a reset or step of env ``k``, returning what the env does) for every
        env, and take in the outputs: each env's thread copies its rows into the batch's arrays
        and digests the rules of its games that dealt new ones (the copies and the digests
        release the GIL, so they run side by side as the steps do); then, on this thread and in
        the order of the games, those rules join the table. Returns the rewards, the ends
        (False after a reset) and the rows of the table that are new."""
        N, off = self.N, self.offsets
        obs = np.empty((N, self.obs_size), np.float32)
        mask = np.empty((N, NUM_ACTIONS), bool)
        rew, done = np.zeros(N, np.float32), np.zeros(N, bool)

        def one(k: int):
            out = call(k)
            o, info = (out[0], out[1]) if len(out) == 2 else (out[0], out[4])
            s = slice(off[k], off[k + 1])
            obs[s], mask[s] = o["obs"], info["action_mask"]
            if len(out) == 5:
                rew[s], done[s] = out[1], out[2] | out[3]
            ids = np.array(info["rules_id"], np.int64)  # a copy, as every output kept here
            local = np.flatnonzero(ids != self.rules_id[s])
            encs = o["rules"][local]  # a copy: the env's buffer moves on at its next step
            return ids, local, encs, [digest(e) for e in encs]

        outs = self._map(one)
        self.obs, self.mask = obs, mask
        new_rows: List[int] = []
        for k, (ids, local, encs, keys) in enumerate(outs):
            n = self.groups[self.group[k]][0]
            for g, enc, key in zip(local + off[k], encs, keys):
                self.enc[g], self.key[g] = enc, key
                self.skip[g] = key in self.excluded.get(n, ())
                before = len(self.table.index)
                self.row[g] = self.table.add(enc, key)
                if len(self.table.index) > before:
                    new_rows.append(int(self.row[g]))
            self.rules_id[off[k] : off[k + 1]] = ids
        return rew, done, new_rows

    def labels(self, teacher: str = "heuristic") -> np.ndarray:
        """The teacher's action in every game (-1 where it has none), each env's on a thread."""
        return np.concatenate(self._map(lambda k: self.envs[k].bot_actions(teacher)))

    def _by_env(self, games: np.ndarray):
        """The games ``games`` (global indices) split by env: ``(k, positions, rows)`` for each
        env ``k`` they touch, ``positions`` into ``games`` and ``rows`` the env's own indices."""
        env_of = self.game_env[games]
        for k in np.unique(env_of):
            sel = np.flatnonzero(env_of == k)
            yield k, sel, (games[sel] - self.offsets[k]).astype(np.int64)

    def labels_of(self, teacher: str, games: np.ndarray) -> np.ndarray:
        """The teacher's actions in the games ``games`` (global indices; -1 where it has none)."""
        out = np.full(len(games), -1, np.int64)
        for k, sel, rows in self._by_env(games):
            out[sel] = self.envs[k].bot_actions(teacher, rows)
        return out

    def policies_of(self, teacher: str, games: np.ndarray, root: Optional[np.ndarray] = None) -> np.ndarray:
        """The teacher's policies in the games ``games`` (global indices; ``(K, NUM_ACTIONS)``,
        a zero row where it has none); ``root``: the action a search's root favours in each
        (-1: the heuristic's)."""
        out = np.zeros((len(games), NUM_ACTIONS), np.float32)
        for k, sel, rows in self._by_env(games):
            favour = None if root is None else np.ascontiguousarray(root[sel], np.int64)
            out[sel] = self.envs[k].bot_policies(teacher, rows, favour)
        return out

    def _map(self, f) -> List[Any]:
        """``[f(k) for k in range(len(self.envs))]``, on the pool's threads when there is one."""
        if self.pool is None:
            return [f(k) for k in range(len(self.envs))]
        return list(self.pool.map(f, range(len(self.envs))))

    def step(self, actions: np.ndarray):
        """Step every game with its action: the rewards, the ends and the new rows of the
        table (:meth:`_gather`)."""
        off = self.offsets
        return self._gather(lambda k: self.envs[k].step(actions[off[k] : off[k + 1]]))


class PartsCache:
    """:meth:`CardNet.parts` of every row of a rules table, kept while the weights stay: what
    depends on the rules alone is computed once per rule set dealt, on the network's device."""

    def __init__(self, net: CardNet, table: RulesTable):
        self.net, self.table = net, table
        self.device = next(net.parameters()).device
        self.r = torch.zeros(0, 54, net.width, device=self.device)
        self.t = torch.zeros(0, net.table_width, device=self.device)
        self.cd = torch.zeros(0, device=self.device)
        self.size = 0  # the rows filled; the arrays grow by doubling, ahead of the table

    @property
    def parts(self):
        return self.r, self.t, self.cd

    @torch.no_grad()
    def refresh(self, table: RulesTable) -> None:
        self.table, self.size = table, 0
        self.extend()

    @torch.no_grad()
    def extend(self) -> None:
        n = len(self.table.index)
        if n > self.r.shape[0]:
            more = max(n, 2 * self.r.shape[0], 1024) - self.r.shape[0]
            self.r = torch.cat([self.r, self.r.new_zeros(more, *self.r.shape[1:])])
            self.t = torch.cat([self.t, self.t.new_zeros(more, *self.t.shape[1:])])
            self.cd = torch.cat([self.cd, self.cd.new_zeros(more)])
        for i in range(self.size, n, 4096):
            j = min(n, i + 4096)
            rows = torch.from_numpy(self.table.rows[i:j]).to(self.device)
            self.r[i:j], self.t[i:j], self.cd[i:j] = self.net.parts(rows)
        self.size = n


#: The starts of the observation's ``hand``, ``hand_sizes`` and ``seats`` slices (``observation_spec()``).
HAND, HAND_SIZES, SEATS = (observation_spec()[n][0] for n in ("hand", "hand_sizes", "seats"))


def potential(obs: np.ndarray, coef: float) -> np.ndarray:
    """``coef * clip((mean opponent hand - own hand) / 10, -1, 1)`` of each observation row
    (the shaping potential; see the module documentation)."""
    if coef == 0.0:
        return np.zeros(len(obs), np.float32)
    mine = obs[:, HAND : HAND + NUM_FACES].sum(1)
    seats = obs[:, SEATS : SEATS + 9]
    opp = (obs[:, HAND_SIZES : HAND_SIZES + 9] * seats).sum(1) / np.maximum(seats.sum(1), 1.0)
    return (coef * np.clip((opp - mine) / 10.0, -1.0, 1.0)).astype(np.float32)


class SearchLabels:
    """The search teacher's policies on the learner's own states: ``teacher`` (a built-in bot
    name) is asked about up to ``per_rollout`` of them each rollout, at the groups of ``games``
    with a table size in ``players`` (comma separated) that deal the presets as written. Its
    answer is a policy (:meth:`eights.VecEnv.bot_policies`: ``ismcts:N``'s root visit
    shares, a one-hot row for other bots). With ``keep`` above 0, a state is kept only where the
    teacher is sure (its top share at least ``keep``) and disagrees with the network's greedy
    action; with 0, every state asked about is kept. With ``root = "learner"`` the search's
    root favours the network's greedy action where it would favour the heuristic's, so the
    search leaves the network's move only on evidence. The latest ``capacity`` are kept in a
    replay buffer saved to ``path`` and reloaded on resume, and minibatches of ``batch`` are
    drawn once it holds ``start``, and at least four minibatches."""

    def __init__(
        self,
        teacher: str,
        players: str,
        per_rollout: int,
        capacity: int,
        batch: int,
        games: MixedGames,
        path: str,
        seed: int,
        keep: float = 0.0,
        root: str = "heuristic",
        start: int = 0,
    ):
        if root not in ("heuristic", "learner"):
            raise ValueError(f"root: 'heuristic' or 'learner', got {root!r}")
        players_set = {int(x) for x in players.split(",") if x.strip()}
        # Only the preset groups: the buffer's table of rules encodings stays small.
        groups = [n in players_set and space == "presets" for n, _, _, space in games.groups]
        self.eligible = np.array([groups[g] for g in games.game_group])
        self.teacher, self.per_rollout, self.batch, self.keep, self.root = teacher, per_rollout, batch, keep, root
        self.start = max(start, 4 * batch)
        self.games, self.path = games, path
        self.rng = np.random.default_rng(seed)
        self.buffer = ReplayBuffer(capacity)
        self.target = np.zeros((capacity, NUM_ACTIONS), np.float16)
        if os.path.exists(path):
            with np.load(path) as z:
                b = self.buffer
                n = int(z["size"])
                b.obs[:n], b.mask[:n], b.label[:n], b.ridx[:n] = z["obs"], z["mask"], z["label"], z["ridx"]
                if "target" in z:
                    self.target[:n] = z["target"]
                else:  # a buffer of hard labels (before the policies were kept)
                    self.target[np.arange(n), b.label[:n]] = 1.0
                b.size, b.next, b.added = n, int(z["next"]), int(z["added"])
                for row in z["rules"]:
                    b.rules.add(row)
        self.seconds = 0.0
        self.asked = 0

    def label(self, valid: np.ndarray, per_step: int, greedy: np.ndarray) -> None:
        """Ask the teacher about up to ``per_step`` of the eligible games that wait on the
        learner now (``greedy``: the network's greedy action in every game) and keep its answers
        by the filter."""
        pool = np.flatnonzero(valid & self.eligible)
        if not len(pool):
            return
        t0 = time.time()
        rows = np.sort(self.rng.choice(pool, size=min(per_step, len(pool)), replace=False))
        pol = self.games.policies_of(self.teacher, rows, greedy[rows] if self.root == "learner" else None)
        self.asked += len(rows)
        top = pol.argmax(1)
        ok = pol.sum(1) > 0.5
        if self.keep > 0:
            ok &= (pol.max(1) >= self.keep) & (top != greedy[rows])
        rows, pol, top = rows[ok], pol[ok], top[ok]
        if len(rows):
            at = (self.buffer.next + np.arange(len(rows))) % self.buffer.capacity
            self.target[at] = pol
            ridx = np.array([self.buffer.rules.add(self.games.enc[g]) for g in rows], np.int32)
            self.buffer.add(self.games.obs[rows], self.games.mask[rows], top, ridx)
        self.seconds += time.time() - t0

    def ready(self) -> bool:
        return self.buffer.size >= self.start

    def batch_of(self, idx: np.ndarray, top: bool = False):
        """The buffer's tensors of samples ``idx`` (:meth:`ReplayBuffer.batch`) with the
        teacher's policies in place of the labels (``top``: one-hot on the teacher's top
        action)."""
        obs, mask, label, rules, inverse = self.buffer.batch(idx)
        if top:
            return obs, mask, torch.nn.functional.one_hot(label, NUM_ACTIONS).float(), rules, inverse
        return obs, mask, torch.from_numpy(self.target[idx].astype(np.float32)), rules, inverse

    def save(self) -> None:
        b = self.buffer
        n = b.size
        with open(self.path + ".tmp", "wb") as f:
            np.savez(
                f,
                obs=b.obs[:n],
                mask=b.mask[:n],
                label=b.label[:n],
                target=self.target[:n],
                ridx=b.ridx[:n],
                rules=b.rules.rows[: len(b.rules.index)],
                size=n,
                next=b.next,
                added=b.added,
            )
        os.replace(self.path + ".tmp", self.path)

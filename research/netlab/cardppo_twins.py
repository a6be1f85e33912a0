"""Twin deals for the PPO stage of the rules-reading ``net`` (:mod:`netlab.cardppo` with
``copies`` above 1): every game is played ``copies`` times over the same deal (the same rules,
cards and opponents; :class:`netlab.cardppo_games.MixedGames` resets the copies with one
seed), each copy by the network's own sampled moves; :class:`TwinBook` keeps each deal's
decisions until every copy has finished it.

The copies play alike until the network samples different moves in them. From that decision
on, a copy's moves are credited with its return minus the mean return of the other copies:
the luck of the deal (the cards dealt, the order of the stock, the opponents' hands) is in
every copy's return and cancels, as in the duplicate deals the arena scores with, where a
learned value could only guess it from what the learner sees. The other copies' returns do not
depend on this copy's moves, so the baseline leaves the policy gradient unbiased.

Left out of the update, as they carry no gradient: the decisions before the copies part (the
same state and move in every copy, with advantages that sum to zero), the copies whose return
equals the others' mean, the decisions with one legal move, the deals of the held-out rule
sets (never stored) and those some copy had not finished when every game was dealt anew.
"""

from __future__ import annotations

from typing import Dict, Tuple

import numpy as np

from netlab.cardppo_games import MixedGames
from netlab.imitation import RulesTable

__all__ = ["TwinBook", "twin_advantages"]


class TwinBook:
    """The decisions of the copies of every deal, kept across rollouts until every copy of the
    deal has finished it. The games run on from rollout to rollout (:func:`netlab.cardppo`'s
    ``_rollout``), so the copies reach the end of a deal at different rollouts; episode ``k`` of
    game ``i`` is the same deal in every copy (the envs' episode seeds follow the game and the
    episode count). Games differ in length, so the copies drift apart, as far as a random walk
    goes: :meth:`restart` (after the caller deals every game anew) drops the deals not
    finished by every copy and starts the count again. ``most``: the most episodes a game may
    finish between restarts (one per step at most: the steps between restarts will do)."""

    def __init__(self, games: MixedGames, most: int):
        self.games, self.most = games, most
        n = games.N
        self.copies = games.copies
        # The copies of each deal, in copy order, and each game's deal.
        self.deal_games = np.argsort(games.pair, kind="stable").reshape(n // self.copies, self.copies)
        self.deal_of = np.zeros(n, np.int64)
        self.deal_of[self.deal_games] = np.arange(len(self.deal_games))[:, None]
        self.copy_of = np.zeros(n, np.int64)
        self.copy_of[self.deal_games] = np.arange(self.copies)[None, :]
        self.returns = np.zeros((n, most), np.float32)  # each game's return of each episode
        self.restart()

    def restart(self) -> None:
        """Forget the deals not handed out, for games dealt anew."""
        n = self.games.N
        self.episode = np.zeros(n, np.int64)  # the episode each game is in
        self.step = np.zeros(n, np.int64)  # its decisions so far in that episode
        self.acc = np.zeros(n, np.float32)  # its return so far
        self.table = RulesTable()
        self.held: Dict[str, np.ndarray] = {}

    def add(self, buf: Dict[str, np.ndarray], table: RulesTable, pending: np.ndarray):
        """Take a rollout's buffers (``(T, N)`` arrays, their ``ridx`` rows of ``table``;
        ``pending``: the games whose first step in it was the dummy step after an ended game)
        and return the decisions of the deals that every copy has now finished, as flat arrays
        with ``adv`` (their ``ridx``: rows of the rules table returned), that table and the
        statistics of :func:`twin_advantages`."""
        T = buf["valid"].shape[0]
        rows: Dict[str, list] = {k: [] for k in ("obs", "mask", "act", "logp", "label", "ridx", "game", "k", "t")}
        real = ~pending  # a game's step is a real one, not the dummy after its end
        for t in range(T):
            g = np.flatnonzero(buf["valid"][t])
            for key in ("obs", "mask", "act", "logp", "label", "ridx"):
                rows[key].append(buf[key][t][g])
            rows["game"].append(g)
            rows["k"].append(self.episode[g])
            rows["t"].append(self.step[g])
            self.step[g] += 1
            self.acc[g] += buf["rew"][t][g]
            ended = np.flatnonzero((buf["done"][t] > 0) & real)
            if len(ended) and self.episode[ended].max() >= self.most:
                raise RuntimeError(f"a game finished {self.most} episodes since the restart: restart sooner")
            self.returns[ended, self.episode[ended]] = self.acc[ended]
            self.episode[ended] += 1
            self.step[ended] = 0
            self.acc[ended] = 0.0
            real = ~((buf["done"][t] > 0) & real)
        new = {k: np.concatenate(x) for k, x in rows.items()}
        distinct, inverse = np.unique(new["ridx"], return_inverse=True)  # as rows of the book's table
        local = np.array([self.table.add(table.rows[r]) for r in distinct], np.int64)
        new["ridx"] = local[inverse.reshape(-1)]
        self.held = new if not self.held else {k: np.concatenate([self.held[k], new[k]]) for k in new}
        return self._hand_out()

    def _hand_out(self):
        h = self.held
        deal = self.deal_of[h["game"]]
        complete = h["k"] < self.episode[self.deal_games].min(1)[deal]  # every copy finished it
        samples = {k: v[complete] for k, v in h.items()}
        # Each copy's episode of a deal handed out as one game of twin_advantages. Every
        # episode starts at a learner decision, so every copy has decisions here.
        keys, inv = np.unique(deal[complete] * (1 << 32) + samples["k"], return_inverse=True)
        virtual = inv.reshape(-1) * self.copies + self.copy_of[samples["game"]]
        m = len(keys) * self.copies
        ret = np.zeros(m, np.float32)
        ret[virtual] = self.returns[samples["game"], samples["k"]]
        samples["game"] = virtual
        ones = np.ones(m, bool)
        pair = np.repeat(np.arange(len(keys)), self.copies)
        samples["adv"], samples["valid"], stats = twin_advantages(samples, ret, ones, ones, pair, self.copies)
        # Keep what still waits, on a table of the rows it uses.
        self.held = {k: v[~complete] for k, v in h.items()}
        distinct, inverse = np.unique(self.held["ridx"], return_inverse=True)
        table = RulesTable(max(16, len(distinct)))
        for r in distinct:
            table.add(self.table.rows[r])
        self.held["ridx"] = inverse.reshape(-1).astype(np.int64)
        out_table, self.table = self.table, table
        return samples, out_table, stats


def twin_advantages(
    samples: Dict[str, np.ndarray],
    ret: np.ndarray,
    finished: np.ndarray,
    counted: np.ndarray,
    pair: np.ndarray,
    copies: int,
) -> Tuple[np.ndarray, np.ndarray, Dict[str, float]]:
    """Each decision's advantage (its copy's return minus the mean of the other copies of its
    deal), which decisions the update keeps (see the module documentation), and statistics:
    the deals compared, the share whose copies parted, the share whose returns differ, and the
    mean decision at which the copies parted."""
    n = len(ret)
    deals = np.argsort(pair, kind="stable").reshape(n // copies, copies)  # the games of each deal
    if not (pair[deals] == pair[deals[:, :1]]).all():
        raise ValueError("every deal needs exactly `copies` games")
    ok = np.asarray(finished[deals].all(1) & counted[deals].all(1))
    R = ret[deals]
    adv_game = np.zeros(n, np.float32)
    adv_game[deals] = R - (R.sum(1, keepdims=True) - R) / (copies - 1)
    # The decision at which the copies of a deal part: the first where their moves differ (a
    # copy that has ended counts as move -1).
    steps = int(samples["t"].max()) + 2 if len(samples["t"]) else 1
    moves = np.full((n, steps), -1, np.int64)
    moves[samples["game"], samples["t"]] = samples["act"]
    same = (moves[deals] == moves[deals][:, :1]).all(1)  # (deals, steps)
    parted = ~same.all(1)
    first = np.where(parted, (~same).argmax(1), steps)
    first_of_game = np.zeros(n, np.int64)
    first_of_game[deals] = first[:, None]
    ok_game = np.zeros(n, bool)
    ok_game[deals] = ok[:, None]
    g = samples["game"]
    keep = ok_game[g] & (samples["t"] >= first_of_game[g]) & (adv_game[g] != 0) & (samples["mask"].sum(1) > 1)
    differ = (R != R[:, :1]).any(1)
    stats = {
        "deals": int(ok.sum()),
        "parted": round(float(parted[ok].mean()), 4) if ok.any() else 0.0,
        "differ": round(float(differ[ok].mean()), 4) if ok.any() else 0.0,
        "parted_at": round(float(first[ok & parted].mean()), 2) if (ok & parted).any() else 0.0,
    }
    return adv_game[g], keep, stats

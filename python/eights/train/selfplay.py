"""The self-play loop: one learner trained by the package's PPO on :class:`eights.VecEnv`
against a league of opponents, as the training examples and the ``net1`` recipe run it.

:class:`League` is the opponent pool of every learner seat: the Rust ``random`` and
``heuristic`` bots, optionally a search bot, and the latest frozen snapshots of the learner,
drawn per game (when its episode starts) by the shares of a :class:`LeagueConfig`, with the
random bot's share moving linearly with the training progress ``p`` in [0, 1]. Until the
first snapshot exists, the snapshots' share goes to the random bot.

:class:`SelfPlay` holds one run: the learner plays every seat (one VecEnv per learner seat),
and each update is a rollout, GAE, PPO's epochs (:func:`~eights.train.ppo_update`), a snapshot
every ``snapshot_every`` updates, then the caller's ``on_update`` hook (logging,
checkpoints). The learning rate is annealed linearly to ``lr_floor * learning_rate`` with the
progress. With a ``teacher`` (:class:`~eights.train.PPOConfig`), each update also pulls the
policy towards that bot's moves at the learner's decisions, with a weight that falls to 0 at
``teacher_until`` of the budget (kickstarting: the learner starts from the teacher's play and
PPO takes it on from there). A run resumes from its counters and snapshots (:meth:`SelfPlay.state`), and a
resumed run does not replay the same deals.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import shutil
import tempfile
import time
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np
import torch

from .._utils.checks import as_minutes
from ..agents.pool import OpponentPool, SampledNet
from ..envs.vector import VecEnv
from .model import PolicyNet
from .ppo import PPOConfig, Rollout, ppo_update

__all__ = ["League", "LeagueConfig", "SelfPlay"]


@dataclass
class LeagueConfig:
    """The opponents of self-play and their shares of the games. The snapshots of the learner
    get what the shares in play leave; where those add up to more than 1 (the search bot and
    more opponents beside the default shares, say), they are scaled to add up to 1 and the
    snapshots get no games."""

    heuristic_share: float = 0.3
    """share of games against the heuristic bot"""
    random_share_start: float = 0.15
    """share of games against the random bot at the start"""
    random_share_end: float = 0.0
    """share of games against the random bot at the end"""
    search_bot: str = ""
    """an extra built-in opponent (a cheap search bot such as ``ismcts:50``); empty: none"""
    search_share: float = 0.15
    """share of games against search_bot"""
    opponents: str = ""
    """more opponents, comma separated: built-in bot names or saved agents (an agent file or a run folder)"""
    opponents_share: float = 0.2
    """share of games against the opponents (split evenly among them)"""
    snapshot_every: int = 10
    """updates between snapshots added to the league"""
    pool_size: int = 12
    """the latest snapshots that are played"""

    def check(self) -> None:
        """``ValueError`` naming the first setting out of its range (``TypeError`` for a wrong
        type): every share in [0, 1], at least one update between snapshots and one snapshot
        played."""
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type in ("str", str):
                if not isinstance(value, str):
                    raise TypeError(f"LeagueConfig.{f.name} must be a str, got {value!r}")
            elif f.type in ("int", int):
                if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                    raise TypeError(f"LeagueConfig.{f.name} must be an integer, got {value!r}")
                if value < 1:
                    raise ValueError(f"LeagueConfig.{f.name} must be >= 1, got {value}")
            else:
                if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
                    raise TypeError(f"LeagueConfig.{f.name} must be a number, got {value!r}")
                if not 0 <= value <= 1:  # NaN fails too
                    raise ValueError(f"LeagueConfig.{f.name} must be in [0, 1], got {value}")


class League(OpponentPool):
    """Entry 0: random bot, 1: heuristic bot, (2: search bot,) the others, then frozen
    snapshots. ``others`` are the opponents of ``config.opponents`` as the pool plays them (a
    bot name or a batched policy), ``names`` their names."""

    def __init__(self, config: LeagueConfig, seed: int, others: Sequence[Any] = (), names: Sequence[str] = ()):
        fixed = ["random", "heuristic"] + ([config.search_bot] if config.search_bot else [])
        self.names = ["random", "heuristic"] + (["search"] if config.search_bot else []) + list(names)
        self.first_other = len(fixed)
        super().__init__(fixed + list(others), seed=seed)
        self.config, self.progress, self.fixed = config, 0.0, len(fixed) + len(others)

    def kinds(self) -> List[str]:
        """The kinds of opponent, as :meth:`kind` names them."""
        return self.names + ["snapshots"]

    def kind(self, k: int) -> str:
        """The kind of opponent entry ``k`` is."""
        return self.names[k] if k < self.fixed else "snapshots"

    def sample(self, size: int) -> np.ndarray:
        a, p = self.config, self.progress
        rnd = a.random_share_start + (a.random_share_end - a.random_share_start) * p
        search = a.search_share if a.search_bot else 0.0
        n_others = self.fixed - self.first_other
        others = a.opponents_share if n_others else 0.0
        live = list(range(max(self.fixed, len(self) - a.pool_size), len(self)))
        rest = max(0.0, 1.0 - a.heuristic_share - rnd - search - others)
        w = np.zeros(len(self))
        w[0] = rnd + (0.0 if live else rest)
        w[1] = a.heuristic_share
        if a.search_bot:
            w[2] = search
        if n_others:
            w[self.first_other : self.fixed] = others / n_others
        snap = rest if live else 0.0
        if live:
            w[live] = snap / len(live)
        return self.rng.choice(len(self), size=size, p=w / w.sum())


class SelfPlay:
    """One learner's PPO self-play on ``preset`` (see the module docstring).

    ``agent`` is a :class:`~eights.train.PolicyNet` (on ``device``) and ``optimizer`` its
    optimiser; ``update``, ``step``, ``seconds`` and ``snapshots`` (state dicts, oldest first)
    resume a run where :meth:`state` left it. Attributes the ``on_update`` hook of
    :meth:`run` reads: ``update``, ``step`` (learner decisions), :meth:`elapsed`, ``stats``
    (the update's pg, v, ent and kl), ``results`` (kind of opponent -> outcomes of the games
    that ended since the hook last cleared them, True for a win; from three players, only the
    games whose opponents were all of that kind), ``progress``,
    ``rollout_seconds`` and ``update_seconds``."""

    def __init__(
        self,
        agent: PolicyNet,
        optimizer: torch.optim.Optimizer,
        preset: Any,
        ppo: PPOConfig,
        league: LeagueConfig,
        *,
        num_players: int = 2,
        seed: int = 1,
        env_threads: int = 1,
        device: Any = "cpu",
        update: int = 0,
        step: int = 0,
        seconds: float = 0.0,
        snapshots: Sequence[Dict[str, torch.Tensor]] = (),
        seats: Optional[Sequence[int]] = None,
        others: Sequence[Any] = (),
        other_names: Sequence[str] = (),
    ):
        ppo.check()  # as train() checks them: a bad setting here failed inside torch, or trained NaN
        league.check()
        self.agent, self.optimizer, self.ppo, self.league = agent, optimizer, ppo, league
        self.update, self.step, self.spent = update, step, seconds
        self.snapshots = list(snapshots)
        self.device = torch.device(device)
        seed = seed + 7919 * update  # a resumed run does not replay the same deals
        self.seats = list(range(num_players)) if seats is None else [int(s) for s in seats]
        self.num_players = num_players
        played = max(1, ppo.num_envs // len(self.seats)) * len(self.seats) * ppo.num_steps
        if ppo.num_minibatches > played:
            raise ValueError(
                f"PPOConfig.num_minibatches must be at most the decisions of a rollout, {played} here "
                f"({ppo.num_envs // len(self.seats) or 1} games for each of {len(self.seats)} learner seats, "
                f"{ppo.num_steps} steps), got {ppo.num_minibatches}"
            )
        self.pools = [League(league, seed * 100 + s, others, other_names) for s in self.seats]
        self._seed, self._snapshot_files = seed, 0
        self._snapshot_dir: Optional[str] = None
        for sd in self.snapshots:
            net = copy.deepcopy(agent)
            net.load_state_dict(sd)
            self._add_to_pools(net.eval())
        self.envs = [
            VecEnv(
                preset,
                max(1, ppo.num_envs // len(self.seats)),
                num_players,
                opponents=self.pools[i],
                learner_seat=s,
                num_threads=env_threads,
                seed=seed * 1000 + s,
            )
            for i, s in enumerate(self.seats)
        ]
        self.rollout = Rollout(self.envs, ppo.num_steps, agent.obs_size, self.device)
        self.results: Dict[str, List[bool]] = {k: [] for k in self.pools[0].kinds()}
        self.stats: Dict[str, float] = {}
        self.progress = 0.0
        self.rollout_seconds = self.update_seconds = 0.0
        self._start = time.time() - seconds

    def _add_to_pools(self, net: PolicyNet) -> None:
        """Add the frozen ``net`` to every seat's league: a card network as a file whose moves
        Rust draws from its policy (:class:`~eights.agents.pool.SampledNet`, a tenth of the
        cost of PyTorch's forward pass on a few dozen games), a flat network as its PyTorch
        ``act`` (Rust's forward pass of a flat network costs what PyTorch's does)."""
        path = self._snapshot_file(net)
        for i, pool in enumerate(self.pools):
            if path is None:
                pool.add(net.act)
            else:
                seq = np.random.SeedSequence([self._seed, self._snapshot_files, self.seats[i]])
                pool.add(SampledNet(path, seed=int(seq.generate_state(1, np.uint64)[0])))

    def _snapshot_file(self, net: Any) -> Optional[str]:
        """A card network's snapshot written (float32) to a folder of the run's own, removed
        with this object; ``None`` for a flat network."""
        from .cardpolicy import CardPolicy

        if not isinstance(net, CardPolicy):
            return None
        from .cardnet import export

        folder = self._snapshot_dir
        if folder is None:
            folder = self._snapshot_dir = tempfile.mkdtemp(prefix="eights-snapshots-")
            weakref.finalize(self, shutil.rmtree, folder, True)
        self._snapshot_files += 1
        path = os.path.join(folder, f"snapshot_{self._snapshot_files}.safetensors")
        export(net.net, path, {"snapshot": str(self._snapshot_files)}, dtype=torch.float32)
        return path

    def _record(self, s: int, env: Any, rows: np.ndarray, r: np.ndarray) -> None:
        """The outcome of each game that ended, by the kind of opponent it was drawn against:
        from three players, only a game whose opponents were all of one kind counts (each seat
        draws its own; a game was filed under the next seat's kind alone, so at three players
        the curve's "random" was 0.53 where the arena gave 0.955 against random bots)."""
        choices = env.pool_choices()  # the finished episodes' draws, by seat
        drawn = [choices[p] for p in range(self.num_players) if p != self.seats[s]]
        for i in rows:
            kinds = {self.pools[s].kind(int(c[i])) for c in drawn}
            if len(kinds) == 1:
                self.results[kinds.pop()].append(bool(r[i] > 0))

    def teacher_weight(self, progress: float) -> float:
        """The weight of the teacher's cross-entropy at ``progress`` (the budget's fraction
        spent): ``teacher_coef`` at the start, falling linearly to 0 at ``teacher_until``; 0
        without a teacher."""
        ppo = self.ppo
        if not ppo.teacher or ppo.teacher_until <= 0:
            return 0.0
        return ppo.teacher_coef * max(0.0, 1.0 - progress / ppo.teacher_until)

    def elapsed(self) -> float:
        """Seconds of training, those of the runs this one resumes included."""
        return time.time() - self._start

    def state(self) -> Dict[str, Any]:
        """What a checkpoint keeps to resume the run (the model and optimiser state dicts, the
        counters and the league's latest snapshots)."""
        return {
            "model": self.agent.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "step": self.step,
            "update": self.update,
            "seconds": self.elapsed(),
            "snapshots": self.snapshots[-self.league.pool_size :],
        }

    def run(
        self,
        minutes: Optional[float],
        max_steps: Optional[int] = None,
        *,
        init_norm: bool = True,
        anneal_lr: bool = True,
        value_warmup: int = 0,
        on_update: Optional[Callable[[SelfPlay], None]] = None,
    ) -> None:
        """Train until ``minutes`` of wall time (those already spent included; less than 1e7)
        or ``max_steps`` learner decisions, whichever comes first (``minutes <= 0`` or
        ``max_steps <= 0``: no update; ``minutes=None``: ``max_steps`` alone, which must then
        be given). ``init_norm``: fold the first deals into the normaliser's statistics (a new
        network). ``value_warmup``: the first updates train the value head alone (after a
        warm start from a policy without one)."""
        if minutes is None and max_steps is None:
            raise ValueError("SelfPlay.run needs minutes or max_steps (or both), got neither")
        budget = float("inf") if minutes is None else as_minutes(minutes, "minutes", none_left=True) * 60
        agent, ppo = self.agent, self.ppo
        next_obs = self.rollout.reset()
        if init_norm:
            agent.norm.update(next_obs)  # initial statistics from the first deals

        def progress() -> float:
            if budget <= 0 or (max_steps is not None and max_steps <= 0):
                return 1.0
            p = self.elapsed() / budget
            if max_steps is not None:
                p = max(self.step / max_steps, p)
            return min(1.0, p)

        while True:
            p = progress()
            if p >= 1.0:
                break
            self.update += 1
            self.progress = p
            if anneal_lr:
                self.optimizer.param_groups[0]["lr"] = ppo.learning_rate * (1.0 - (1.0 - ppo.lr_floor) * p)
            for pool in self.pools:
                pool.progress = p
            teacher_coef = self.teacher_weight(p)
            t0 = time.time()
            agent.eval()
            self.step += self.rollout.collect(agent, self._record, teacher=ppo.teacher if teacher_coef > 0 else "")
            self.rollout_seconds += time.time() - t0
            # GAE (a dummy step always follows a done one, so it is never bootstrapped from)
            adv, ret = self.rollout.advantages(agent, ppo.gamma, ppo.gae_lambda)
            t0 = time.time()
            agent.train()
            batch = self.rollout.batch(adv, ret)
            self.stats = ppo_update(
                agent, self.optimizer, batch, ppo, value_only=self.update <= value_warmup, teacher_coef=teacher_coef
            )
            self.update_seconds += time.time() - t0
            if self.update % self.league.snapshot_every == 0:
                snap = copy.deepcopy(agent).eval()
                self.snapshots.append({k: v.detach().cpu().clone() for k, v in snap.state_dict().items()})
                self.snapshots = self.snapshots[-self.league.pool_size :]
                self._add_to_pools(snap)
            if on_update is not None:
                on_update(self)

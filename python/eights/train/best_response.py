"""The learner behind :func:`eights.train.exploit`: an approximate best response to a frozen
agent, trained by the package's PPO (:mod:`.ppo`) with the frozen agent in every other seat.

:class:`BestResponse` owns the network, its optimiser, the budget spent (learner decisions,
wall and CPU seconds, updates) and the learning curve (the learner's score in its training
games, which are fresh deals against the frozen agent). It plays every seat in turn (one
:class:`eights.VecEnv` per learner seat), saves and resumes checkpoints, and stops at the end
of its budget or on Ctrl-C (``KeyboardInterrupt``), keeping what the completed updates learnt.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import platform
import signal
import threading
import time
from typing import Any, Callable, Dict, List, Optional

import numpy as np
import torch

from .._core import NUM_ACTIONS, OBS_SIZE, derive_seed
from ..agents.spec import AgentSpec
from ..arena.budget import Budget
from ..arena.stats import wilson_interval
from ..envs.vector import VecEnv
from .files import (
    MAX_UPDATES,
    FileFormatError,
    checked_count,
    checked_curve,
    checked_seconds,
    load_checkpoint,
    restoring,
    save_checkpoint,
)
from .model import PolicyNet, net_state_dict
from .ppo import PPOConfig, Rollout, ppo_update

__all__ = ["BestResponse", "hardware"]

#: What a checkpoint must match to be resumed by a run (and how results name it).
IDENTITY_KEYS = ("agent", "preset", "num_players", "seed", "warm_start")

#: What a checkpoint of a best response holds (:meth:`BestResponse.state_dict`).
CHECKPOINT_KEYS = (
    "identity",
    "model",
    "optimizer",
    "decisions",
    "updates",
    "seconds",
    "cpu_seconds",
    "curve",
    "window",
    "machines",
    "torch_rng",
)


def hardware(device: str = "cpu", torch_threads: int = 1, env_threads: int = 1) -> str:
    """The machine a run trains on, in words: the CPU's model and core count, the threads
    used, and the GPU when training on one."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
    except OSError:
        pass
    text = f"{model}, {os.cpu_count()} cores; torch {torch_threads} thread, envs {env_threads} thread"
    if device.startswith("cuda") and torch.cuda.is_available():
        text += f"; {torch.cuda.get_device_name(device)}"
    return text


@contextlib.contextmanager
def _ctrl_c_recorded():
    """While training, a first Ctrl-C is recorded instead of raised: yields a function saying
    whether one came. The loop acts on it at its next check (between updates, before every
    rollout step), so the interrupt never lands inside library code (a progress bar's lock, a
    checkpoint being written, an import) and is never lost in the moments before the loop's
    ``try``. A second Ctrl-C raises ``KeyboardInterrupt`` at once, as usual. Only in the main
    thread and when SIGINT has Python's own handler (a caller's handler is left alone, and
    then a Ctrl-C raises as before)."""
    event = threading.Event()
    own = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGINT) if own else None
    if previous is not signal.default_int_handler:
        yield event.is_set
        return

    def record(signum: int, frame: Any) -> None:
        event.set()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    signal.signal(signal.SIGINT, record)
    try:
        yield event.is_set
    finally:
        signal.signal(signal.SIGINT, previous)


#: The keys of a point of the learning curve (:meth:`BestResponse.curve_point`); the first two
#: are counts.
CURVE_KEYS = ("decisions", "games", "minutes", "win_rate", "ci_low", "ci_high")


def _is_number(value: Any) -> bool:
    """A finite number (an integer within float's exact range)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) <= 2**53
    return isinstance(value, float) and math.isfinite(value)


def _checked_fields(ck: Dict[str, Any], path: str) -> Dict[str, Any]:
    """The budget spent, the curve, the window and the machines of a checkpoint, checked:
    ``decisions`` and ``updates`` integers in their ranges, ``seconds`` and ``cpu_seconds``
    finite and not negative, ``curve`` a list of points with :data:`CURVE_KEYS` (finite
    numbers, the counts integers), ``window`` a list of scores in [0, 1], ``machines`` a list
    of strings. :class:`~eights.train.files.FileFormatError` naming the file and the field
    otherwise."""
    bad = f"{path}: not a checkpoint of this kind: its"
    out: Dict[str, Any] = {
        "decisions": checked_count(ck["decisions"], path, "decisions"),
        "updates": checked_count(ck["updates"], path, "updates", MAX_UPDATES),
        "seconds": checked_seconds(ck["seconds"], path, "seconds"),
        "cpu_seconds": checked_seconds(ck["cpu_seconds"], path, "cpu_seconds"),
    }
    curve = checked_curve(ck["curve"], path, CURVE_KEYS, CURVE_KEYS[:2], finite=True)
    window = ck["window"]
    if not isinstance(window, list) or not all(_is_number(x) and 0 <= x <= 1 for x in window):
        raise FileFormatError(f"{bad} window is not a list of scores in [0, 1]")
    machines = ck["machines"]
    if not isinstance(machines, list) or not all(isinstance(m, str) for m in machines):
        raise FileFormatError(f"{bad} machines is not a list of strings")
    out.update(curve=curve, window=[float(x) for x in window], machines=list(machines))
    return out


class BestResponse:
    """A PPO learner against ``opponent`` (a normalised agent) in every other seat.

    ``warm_start="net1"`` starts the policy from the shipped ``net1`` bot's network for the
    preset (with a new value head that trains alone for ``value_warmup`` updates), else from
    scratch (``config.hidden`` units). ``identity`` is what a checkpoint records so that a
    resumed run continues the same experiment."""

    def __init__(
        self,
        opponent: AgentSpec,
        preset: Any,
        num_players: int,
        seed: int,
        config: PPOConfig,
        identity: Dict[str, Any],
        rules: Optional[Dict[str, Any]] = None,
        warm_start: Optional[str] = None,
        value_warmup: int = 10,
        device: str = "cpu",
        env_threads: int = 1,
    ) -> None:
        self.opponent, self.preset, self.num_players, self.rules = opponent, preset, num_players, rules
        self.seed, self.cfg, self.identity = seed, config, dict(identity)
        self.device, self.env_threads = torch.device(device), env_threads
        torch.manual_seed(seed)
        if warm_start == "net1":
            # net1's network for the preset by name (the identity's label names changes too)
            model = net_state_dict(preset if isinstance(preset, str) else preset.name)
            hidden, inputs = (int(x) for x in model["fc1.weight"].shape)
            self.net = PolicyNet(inputs, NUM_ACTIONS, hidden)
            self.net.load_state_dict(model, strict=False)  # the value head stays new
            self.value_warmup = value_warmup
        else:
            self.net = PolicyNet(OBS_SIZE, NUM_ACTIONS, config.hidden)
            self.value_warmup = 0
        self.net.to(self.device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config.learning_rate, eps=1e-5)
        self.decisions = self.updates = 0
        self.seconds = self.cpu_seconds = 0.0
        self.curve: List[Dict[str, float]] = []
        self.window: List[float] = []  # scores of the training games since the last curve point
        self._ended: List[float] = []  # scores of the games ended in the rollout under way
        self.machines: List[str] = []

    # ------------------------------------------------------------------ checkpoints

    def state_dict(self) -> Dict[str, Any]:
        """Everything a resumed run needs."""
        return {
            "identity": self.identity,
            "config": self.cfg.to_dict(),
            "model": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "decisions": self.decisions,
            "updates": self.updates,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "curve": self.curve,
            "window": self.window,
            "machines": self.machines,
            "torch_rng": torch.get_rng_state(),
        }

    def save(self, path: str) -> None:
        """Write a checkpoint atomically (a stopped run never leaves half a file)."""
        save_checkpoint(self.state_dict(), path)

    def load(self, path: str) -> None:
        """Resume from a checkpoint of the same experiment (``ValueError`` naming what differs)."""
        ck = load_checkpoint(path, CHECKPOINT_KEYS, self.device)
        theirs = ck.get("identity", {})
        if not isinstance(theirs, dict):
            raise FileFormatError(f"{path}: not a checkpoint of this kind: its identity is not a dict")
        differ = [
            f"{k} {theirs.get(k)!r} (not {self.identity.get(k)!r})"
            for k in IDENTITY_KEYS
            if theirs.get(k) != self.identity.get(k)
        ]
        if differ:
            raise ValueError(
                f"the checkpoint {path} is of another run: its {', '.join(differ)}; "
                "use another output folder, or start again (resume=False; --restart on the command line)"
            )
        fields = _checked_fields(ck, path)  # every field checked before any is used
        with restoring(path):
            self.net.load_state_dict(ck["model"])
            self.optimizer.load_state_dict(ck["optimizer"])
            torch.set_rng_state(ck["torch_rng"].cpu())
        for key, value in fields.items():
            setattr(self, key, value)

    # ------------------------------------------------------------------ training

    def _rollout(self) -> Rollout:
        """VecEnvs for every learner seat, dealt from seeds derived from (seed, updates so
        far), so that a resumed run plays fresh deals."""
        n = self.num_players
        per_seat = max(1, self.cfg.num_envs // n)
        opp = self.opponent.bot if self.opponent.is_builtin else self.opponent
        start = derive_seed(self.seed, self.updates)
        envs = [
            VecEnv(
                self.preset,
                per_seat,
                n,
                opponents=opp,
                learner_seat=s,
                num_threads=self.env_threads,
                seed=derive_seed(start, s),
                rules=self.rules,
            )
            for s in range(n)
        ]
        rollout = Rollout(envs, self.cfg.num_steps, int(self.net.norm.mean.shape[0]), self.device)
        first = rollout.reset()
        if self.updates == 0 and self.value_warmup == 0:
            self.net.norm.update(first)  # initial statistics from the first deals
        return rollout

    def _score(self, _seat: int, _env: Any, rows: np.ndarray, rewards: np.ndarray) -> None:
        """The learner's score in games that ended (``win_loss`` rewards): 1 for a win, 0 for a
        loss, 1/n when nobody won (the arena's scoring)."""
        r = rewards[rows]
        self._ended.extend(np.where(r > 0, 1.0, np.where(r < 0, 0.0, 1.0 / self.num_players)).tolist())

    def curve_point(self) -> None:
        """Close the learning curve's current window (if it saw a game)."""
        if not self.window:
            return
        games = len(self.window)
        score = float(np.sum(self.window))
        lo, hi = wilson_interval(score, games)
        self.curve.append(
            {
                "decisions": self.decisions,
                "minutes": round(self.seconds / 60, 3),
                "games": games,
                "win_rate": score / games,
                "ci_low": lo,
                "ci_high": hi,
            }
        )
        self.window = []

    def progress(self, decisions: Optional[int], minutes: Optional[float]) -> float:
        """The fraction of the budget spent (the larger of its parts)."""
        parts = [0.0]
        if decisions:
            parts.append(self.decisions / decisions)
        if minutes:
            parts.append(self.seconds / (60 * minutes))
        return min(1.0, max(parts))

    def _update(self, rollout: Rollout, p: float, stop: Optional[Callable[[], bool]] = None) -> Dict[str, float]:
        """One rollout and its PPO update (training the value head alone while warming up)."""
        cfg = self.cfg
        self.optimizer.param_groups[0]["lr"] = cfg.learning_rate * (1.0 - (1.0 - cfg.lr_floor) * p)
        self.net.eval()
        self._ended = []
        played = rollout.collect(self.net, self._score, stop)
        adv, ret = rollout.advantages(self.net, cfg.gamma, cfg.gae_lambda)
        self.net.train()
        # The rollout counts once it is complete (an interrupted one is dropped, its games too).
        self.decisions += played
        self.window.extend(self._ended)
        stats = ppo_update(self.net, self.optimizer, rollout.batch(adv, ret), cfg, self.updates < self.value_warmup)
        self.updates += 1
        self.net.eval()
        return stats

    def train(
        self,
        decisions: Optional[int],
        minutes: Optional[float],
        curve_every: int = 5,
        checkpoint: Optional[str] = None,
        checkpoint_every: int = 20,
        on_update: Optional[Callable[[Dict[str, float]], None]] = None,
    ) -> str:
        """Train until the budget (``decisions`` learner decisions, ``minutes`` of wall time,
        whichever comes first; the totals of this run and the runs it resumes) is spent or
        Ctrl-C. Returns why it stopped: ``"budget"`` or ``"interrupted"``. A budget that could
        never be spent (neither part given, or one that is 0, negative or NaN) is a
        ``ValueError`` (:class:`eights.arena.Budget`'s checks)."""
        budget = Budget(decisions, minutes)
        decisions, minutes = budget.decisions, budget.minutes
        stopped = "budget"
        with _ctrl_c_recorded() as requested:
            try:
                here = hardware(self.device.type, torch.get_num_threads(), self.env_threads)
                args = (decisions, minutes, curve_every, checkpoint, checkpoint_every, on_update)
                stopped = self._train(here, requested, *args)
            except KeyboardInterrupt:
                stopped = "interrupted"
            # Still recording: a Ctrl-C while the last checkpoint is written stops nothing half-way.
            self.curve_point()
            if checkpoint:
                self.save(checkpoint)
            if requested():
                stopped = "interrupted"
        return stopped

    def _train(
        self,
        here: str,
        requested: Callable[[], bool],
        decisions: Optional[int],
        minutes: Optional[float],
        curve_every: int,
        checkpoint: Optional[str],
        checkpoint_every: int,
        on_update: Optional[Callable[[Dict[str, float]], None]],
    ) -> str:
        """The loop of :meth:`train`: updates until the budget is spent (``"budget"``) or a
        Ctrl-C is recorded (``"interrupted"``, checked between updates and before every step
        of a rollout)."""
        rollout: Optional[Rollout] = None
        while self.progress(decisions, minutes) < 1.0:
            if requested():
                return "interrupted"
            if here not in self.machines:
                self.machines.append(here)
            if rollout is None:
                rollout = self._rollout()
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                stats = self._update(rollout, self.progress(decisions, minutes), requested)
            finally:
                self.seconds += time.perf_counter() - t0
                self.cpu_seconds += time.process_time() - c0
            if self.updates % curve_every == 0:
                self.curve_point()
            if checkpoint and self.updates % checkpoint_every == 0:
                self.save(checkpoint)
            if on_update is not None:
                on_update(stats)
        return "interrupted" if requested() else "budget"

    def summary(self) -> Dict[str, Any]:
        """The budget spent and the run's settings, as plain data."""
        return {
            "decisions": int(self.decisions),
            "updates": int(self.updates),
            "minutes": self.seconds / 60,
            "cpu_minutes": self.cpu_seconds / 60,
            "hardware": "; then ".join(self.machines) if self.machines else hardware(self.device.type),
            "config": dataclasses.asdict(self.cfg),
            "value_warmup": self.value_warmup,
        }

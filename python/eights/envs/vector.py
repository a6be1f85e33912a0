"""Batched environments: many games of one preset stepped in Rust per call.

:class:`VecEnv` is a :class:`gymnasium.vector.VectorEnv`.  Its observation,
mask, reward, terminated and truncated arrays are allocated once; every
:meth:`VecEnv.step` validates the actions, then steps all games in Rust with
the GIL released, on the calling thread and ``num_threads - 1`` workers (which
poll for the next call for 50 microseconds, then sleep), writing the results into those arrays in
place.  **The arrays returned by ``reset``/``step`` are those buffers**: they
are overwritten by the next call, so copy what you keep (or pass ``copy=True``).

Modes:

* learner (default): seat ``learner_seat`` is the agent; the other seats are
  played by built-in Rust random bots inside the step (``opponents="random"``),
  or by Python policies (callables ``f(obs, mask) -> actions`` on *batches*,
  or :class:`OpponentPool` instances) called once per opponent round for all
  games where that seat is to act.  Rewards have shape ``(num_envs,)``.
* self-play (``self_play=True``): the caller plays every seat.  Observations
  and masks are those of the seat to act (``info["current_player"]``) and
  rewards are per seat, shape ``(num_envs, num_players)``.

Autoreset follows Gymnasium 1.x: ``"next_step"`` (default; the step after an
episode ended ignores that game's action and returns the first observation of
a new episode with reward 0) or ``"same_step"`` (the new episode starts inside
the step that ended the old one; its final observation is
``info["final_obs"][i]`` where ``info["_final_obs"][i]`` is true, and its final
info is in ``info["final_info"]``, marked by ``info["_final_info"]``, as
Gymnasium's vector envs give them: an ended game has no legal action and no
player to act, and with mixed rules ``info["final_info"]["rules_id"][i]`` names
the rules of the game that ended).

Seeding: game ``i`` of ``reset(seed=s)`` is dealt from a seed derived from
``(s, i)``, and its later episodes, its built-in opponents and its
:meth:`VecEnv.random_actions` draws follow streams derived from ``(s, i)``
too, so results do not depend on the number of threads.

Example (after ``import eights``, as in every example of the package):

>>> envs = eights.VecEnv("crazy_eights", num_envs=1024, seed=0)
>>> obs, info = envs.reset()
>>> for _ in range(100):
...     actions = envs.random_actions()  # uniform legal actions, drawn in Rust
...     obs, rewards, terminated, truncated, info = envs.step(actions)
>>> obs.shape
(1024, 346)
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as _GymVectorEnv

from .._core import Game, VecEnvCore
from .._utils.checks import as_flag
from .._utils.checks import as_int as _as_int
from .._utils.overrides import env_overrides, merge_rule_overrides
from .._utils.seeds import DRAW_BOUND, check_optional_seed
from ..agents.pool import OpponentPool
from ..agents.pool import check_batch_actions as _check_batch_actions
from ..rules import Rules
from ._common import VECENV_NOT_PICKLED, bot_rows, check_vecenv, root_actions, vec_reset_args
from ._opponents import normalise_opponents, play_opponents
from ._rulesets import RulesArg, RuleSet
from .spaces import batched_spaces, check_obs_options

__all__ = ["VecEnv", "AUTORESET_MODES"]

#: Accepted values of ``autoreset``.
AUTORESET_MODES = {
    "next_step": AutoresetMode.NEXT_STEP,
    "same_step": AutoresetMode.SAME_STEP,
}


class VecEnv(_GymVectorEnv):
    """``num_envs`` games of one preset, stepped together in Rust.

    Args:
        preset: a rules preset name (see :func:`eights.presets`), a path to a TOML rules file
            or an :class:`eights.Rules`.
        num_envs: number of games.
        num_players: seats per table.
        opponents: learner mode only.  ``"random"`` (built-in Rust bots,
            played inside the step), another built-in bot name
            (``"heuristic"``, ``"ismcts:N"``, ``"pimc:N"``, ``"net"``: played in
            Rust on the real game state inside the step, on the threads that step
            the games, when every other seat is a built-in bot; ``"net"`` and
            ``"net1"`` in batched forward passes, ``"net1"`` on the presets it was
            trained for), one batched Python
            policy ``f(obs, mask) -> actions`` or :class:`OpponentPool` for
            every other seat, or a list with one such entry per other seat
            (in seat order, skipping the learner).
        self_play: the caller plays every seat (``opponents`` is ignored).
        learner_seat: the agent's seat in learner mode.
        num_threads: threads that step the batch, the caller included;
            ``None`` or 0 = all cores.
        autoreset: ``"next_step"`` (default) or ``"same_step"``.
        reward: ``"win_loss"`` or ``"score"`` (see ``Game.returns``).
        obs_dtype: ``"float32"`` (default), or ``"uint8"`` / ``"int8"`` with
            the same layout and values saturated (``uint8`` maps the
            direction -1 to 0; fractional match scores are truncated).
        seed: seed of the first :meth:`reset` called without one.
        copy: return copies of the buffers instead of the buffers.
        scale_obs: observations (of the learner, of Python opponents and the final
            ones) mapped into ``[0, 1]`` (see :mod:`eights.observation`); these are
            new arrays at every call, and ``obs_dtype`` must stay ``"float32"``.
        rules / **rule_overrides: rule overrides, as for :func:`eights.make`.

    Attributes:
        num_envs, num_players, learner_seat, self_play, num_threads;
        single_observation_space (``Box(346)``), single_action_space
        (``Discrete(197)``) and their batched forms.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        preset: RulesArg,
        num_envs: int,
        num_players: int = 2,
        opponents: Any = "random",
        *,
        self_play: bool = False,
        learner_seat: int = 0,
        num_threads: Optional[int] = None,
        autoreset: str = "next_step",
        reward: str = "win_loss",
        obs_dtype: str = "float32",
        seed: Optional[int] = None,
        copy: bool = False,
        scale_obs: bool = False,
        obs_rules: bool = False,
        rules: Optional[Dict[str, Any]] = None,
        **rule_overrides: Any,
    ) -> None:
        num_envs = _as_int(num_envs, "num_envs")
        num_players = _as_int(num_players, "num_players")
        learner_seat = _as_int(learner_seat, "learner_seat")
        num_threads = 0 if num_threads is None else _as_int(num_threads, "num_threads")
        if not isinstance(autoreset, str) or autoreset not in AUTORESET_MODES:
            raise ValueError(f"autoreset must be one of {sorted(AUTORESET_MODES)}, got {autoreset!r}")
        obs_dtype = check_obs_options(obs_dtype, scale_obs, obs_rules)
        seed = check_optional_seed(seed)
        self.scale_obs = bool(scale_obs)
        self.obs_rules = bool(obs_rules)
        self.self_play = as_flag(self_play, "self_play")
        self._py_opponents: Dict[int, Any] = {}
        core_opponents: Any = "random"
        if not self.self_play:
            self._py_opponents = normalise_opponents(opponents, num_players, learner_seat, self.obs_rules)
            if self._py_opponents:
                core_opponents = "external"
            if self._py_opponents and all(isinstance(o, str) for o in self._py_opponents.values()):
                # Built-in bots only: Rust plays them inside the step, on the batch's threads.
                core_opponents = [self._py_opponents.get(p) for p in range(num_players)]
        self.rules = merge_rule_overrides(rules, **env_overrides(rule_overrides, type(self)))
        self.ruleset = RuleSet(preset, num_players, self.rules)
        self._core = VecEnvCore(
            self.ruleset.core_arg,
            num_envs,
            num_players,
            rules=self.rules,
            num_threads=num_threads,
            autoreset=autoreset,
            self_play=self.self_play,
            learner_seat=learner_seat,
            opponents=core_opponents,
            reward=reward,
            obs_dtype=obs_dtype,
            obs_rules=self.obs_rules,
        )
        for opp in self._py_opponents.values():  # "net1" plays only the rules it was trained for
            names: List[Any] = [opp] if isinstance(opp, str) else []
            if isinstance(opp, OpponentPool):
                names = [opp[k] for k in range(len(opp))]
            for name in names:
                if isinstance(name, str):
                    self.ruleset.check_bot(name)
        if isinstance(core_opponents, list):
            self._py_opponents = {}
        self.preset = self.ruleset.name
        self.num_envs = num_envs
        self.num_players = num_players
        self.learner_seat = None if self.self_play else learner_seat
        self.autoreset_mode = AUTORESET_MODES[autoreset]
        self.metadata = dict(self.metadata, autoreset_mode=self.autoreset_mode)
        self.copy = as_flag(copy, "copy")
        self._initial_seed = seed
        self._np_random, self._np_random_seed = seeding.np_random(seed)  # reset's seeds when unseeded
        self._started = False
        self._bind_buffers()
        #: Finite bounds of every slice, from the deck the rules deal; for mixed rules, bounds that hold under each.
        self.obs_bounds = self.ruleset.bounds
        spaces = batched_spaces(self, obs_dtype)
        self.single_observation_space, self.single_action_space, self.observation_space, self.action_space = spaces

    def _bind_buffers(self) -> None:
        """The Rust core's arrays (written in place by every step) and the Python-side ones."""
        core, num_envs = self._core, self.num_envs
        self._obs = core.observations
        self._mask = core.action_masks
        self._rewards = core.rewards if self.self_play else core.rewards.reshape(num_envs)
        self._terminated = core.terminated
        self._truncated = core.truncated
        self._to_act = core.current_player
        self._final_obs = core.final_observations
        self._rules_enc = core.rules_encodings
        self._final_rules = core.final_rules_encodings
        self._rules_id = core.rules_ids
        self._done = np.zeros(num_envs, dtype=bool)
        self._every = np.ones(num_envs, dtype=bool)  # the info's `_key` masks: every game has every key
        # same_step's final info: what an ended game's own info holds (no legal action, no one to
        # act); constants, read-only, so handed out without a copy.
        self._final_mask = np.zeros_like(self._mask)
        self._final_to_act = np.full_like(self._to_act, -1)
        self._final_mask.flags.writeable = self._final_to_act.flags.writeable = self._every.flags.writeable = False
        self._final_rules_id = self._rules_id.copy()
        self._actions = np.zeros(num_envs, dtype=np.int64)
        self._opp_actions = np.full(num_envs, -1, dtype=np.int64)
        self._all_rows = np.arange(num_envs, dtype=np.int64)
        # Per seat and game: the pool snapshot drawn for the current episode (at reset).
        pools = [seat for seat, opp in self._py_opponents.items() if isinstance(opp, OpponentPool)]
        self._pool_choice: Dict[int, np.ndarray] = {seat: np.zeros(num_envs, np.int64) for seat in pools}

    # ------------------------------------------------------------------ API

    @property
    def num_threads(self) -> int:
        """Threads used per call (1 = the caller's thread only)."""
        return self._core.num_threads

    @property
    def state_bytes_per_env(self) -> int:
        """Bytes of Rust state per game (engine state, bot streams, bookkeeping)."""
        return self._core.state_bytes_per_env

    def reset(
        self, *, seed: Optional[Any] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Deal every game; game ``i`` from a seed derived from ``(seed, i)``.

        ``seed=None`` uses the constructor's seed on the first reset, then draws a fresh seed
        from the env's generator. A list of seeds, one per game (``None`` entries drawn from
        the env's generator), deals game ``i`` as game 0 of ``reset(seed=seed[i])``: equal
        seeds deal equal games. ``options={"reset_mask": m}`` (bool, one per game) deals only
        the games ``m`` marks, as a full reset with that seed deals them; the other games'
        episodes and rows are left as they were (every row of the info is current)."""
        check_vecenv(self, "reset", started=False)
        seed, seeds, mask = vec_reset_args(self, seed, options)
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)  # np_random_seed == seed
        elif seeds is None:  # (with a list each game has its own seed)
            fresh = self._started or self._initial_seed is None
            seed = int(self.np_random.integers(0, DRAW_BOUND)) if fresh else self._initial_seed
        self._core.reset(seed or 0, seeds, mask)
        self._started = True
        # A reset's info holds no final observation; next_step's ended games not dealt keep their flag.
        self._done[slice(None) if mask is None or self.autoreset_mode == AutoresetMode.SAME_STEP else mask] = False
        self._resample(self._every if mask is None else mask)  # the pools' draws for the games dealt
        self._play_opponents()
        return self._obs_out(self._obs), self._info()

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Step every game with its action (for the learner, or for the seat to
        act in self-play).

        Args:
            actions: integers in ``[0, 197)``, shape ``(num_envs,)`` (any
                integer dtype; int64 C-contiguous arrays are used as is).
                Games whose episode ended on the previous step (next_step
                autoreset) ignore their entry.

        Raises:
            TypeError: ``actions`` is not an integer array.
            ValueError: wrong shape, or an action out of range.
            eights.IllegalActionError: an action is not legal now (the
                message names the env and its legal actions).
            RuntimeError: ``reset()`` was never called, or the VecEnv is closed.
            In every case nothing has changed.
        """
        check_vecenv(self, "step")
        arr = _check_batch_actions(actions, self.num_envs, "actions", step=True)
        if arr.dtype != np.int64 or not arr.flags.c_contiguous:
            # Unsigned values past int64 were refused above: the cast keeps every value.
            np.copyto(self._actions, arr, casting="unsafe")
            arr = self._actions
        if self._pool_choice and self.autoreset_mode == AutoresetMode.NEXT_STEP:
            starting = self._done.copy()
        else:
            starting = None
        if self.ruleset.mixed and self.autoreset_mode == AutoresetMode.SAME_STEP:
            self._final_rules_id[:] = self._rules_id  # a game's rules change only when it is dealt again
        self._core.step(arr)
        if self._pool_choice:
            if starting is None:  # same_step: the ended games were dealt again
                starting = self._terminated | self._truncated
            self._resample(starting)
        self._play_opponents()
        np.logical_or(self._terminated, self._truncated, out=self._done)
        return (
            self._obs_out(self._obs),
            self._out(self._rewards),
            self._out(self._terminated),
            self._out(self._truncated),
            self._info(),
        )

    def episode_rules(self, i: int) -> Rules:
        """The rules game ``i`` plays in its current episode (an :class:`eights.Rules`)."""
        i = _as_int(i, "i", 0, self.num_envs - 1)
        return self.ruleset.episode_rules(int(self._rules_id[i]))

    def game(self, i: int) -> Game:
        """Game ``i`` of the batch as it stands, as an :class:`eights.Game` (a copy: stepping
        either leaves the other as it was), to render, record from here or analyse: its
        ``legal_actions()`` are row ``i`` of :meth:`action_masks` while that game is live. The
        copy starts its own history (``history()`` is empty, a record replays from here). With
        ``autoreset="same_step"`` a game that ended in the last step has been dealt again, so
        the copy is the new deal; with ``next_step`` it is the ended game until the next step."""
        i = _as_int(i, "i", 0, self.num_envs - 1)
        return Game.from_dict(self._core.game_dict(i))

    def action_masks(self) -> np.ndarray:
        """Legal-action masks, shape ``(num_envs, 197)`` (the sb3-contrib name)."""
        return self._out(self._mask)

    def pool_choices(self) -> Dict[int, np.ndarray]:
        """For each seat played by an :class:`OpponentPool`: the snapshot index
        each game's opponent at that seat plays in its current episode (copies;
        empty without pools).  With ``next_step`` autoreset, a game whose
        episode ended at the last step still shows that episode's draw until
        its next step, so per-opponent results can be read right after a step."""
        return {seat: choice.copy() for seat, choice in self._pool_choice.items()}

    def bot_actions(self, bot: str, rows: Optional[Any] = None, seed: Optional[int] = None) -> np.ndarray:
        """The move built-in bot ``bot`` (``"heuristic"``, ``"random"``, ``"ismcts:N"``,
        ``"pimc:N"``, ``"net"``, an agent file) would make for the player to act in each game
        of ``rows`` (game indices; every game when omitted), chosen in Rust from what that
        player may see: int64, -1 where the episode is over. A teacher's labels for imitation
        or kickstarting (:attr:`eights.train.PPOConfig.teacher`); the games do not move.

        ``seed`` (the card network only: ``"net"`` or a file of its format): draw each move
        from the network's policy, the softmax of its logits over the legal moves, instead of
        taking its greedy one; game ``i``'s draw depends only on ``seed`` and ``i``. A
        league's snapshots of a card network play this way (:class:`eights.train.SelfPlay`).

        Raises:
            ValueError: an unknown bot, a row outside ``0..num_envs``, a ``seed`` outside
                ``[0, 2**64)``, or a ``seed`` for a bot other than the card network.
            RuntimeError: ``reset()`` was never called, or the VecEnv is closed.
        """
        rows = bot_rows(self, "bot_actions", bot, rows)
        return self._core.bot_actions(bot, rows, check_optional_seed(seed))

    def bot_policies(self, bot: str, rows: Optional[Any] = None, root: Optional[Any] = None) -> np.ndarray:
        """The policy of built-in bot ``bot`` for the player to act in each game of ``rows``
        (game indices; every game when omitted): float32 ``(len(rows), NUM_ACTIONS)``. For
        ``"ismcts:N"`` and ``"ismcts_net:N"`` the search's root visit shares (what AlphaZero-style
        training imitates: its most visited move is the one :meth:`bot_actions` gives); for
        every other bot a one-hot row on the move :meth:`bot_actions` gives; zeros where the
        episode is over. The games do not move.

        ``root`` (int64, one per row, optional): the action each search's root favours in the
        heuristic's place (-1, or an illegal action: the heuristic's, or ``net``'s for
        ``ismcts_net``); other bots ignore it.

        Raises:
            ValueError: an unknown bot, a row outside ``0..num_envs``, a ``root`` of another
                length than ``rows``.
            RuntimeError: ``reset()`` was never called, or the VecEnv is closed.
        """
        rows = bot_rows(self, "bot_policies", bot, rows)
        return self._core.bot_policies(bot, rows, None if root is None else root_actions(root))

    def random_actions(self, out: Optional[np.ndarray] = None) -> np.ndarray:
        """Uniform legal actions for every game, drawn in Rust (game ``i``'s own
        stream, seeded from the reset seed and ``i``); 0 where the episode is
        over.  Returns an internal int64 buffer unless ``out`` (int64, shape
        ``(num_envs,)``) is given.  Before ``reset()``: ``RuntimeError``, as ``step``."""
        check_vecenv(self, "random_actions")
        if out is not None:
            if not isinstance(out, np.ndarray) or out.dtype != np.int64 or out.shape != (self.num_envs,):
                raise TypeError(f"out must be an int64 numpy array of shape ({self.num_envs},)")
        return self._core.random_actions(out)

    def close_extras(self, **kwargs: Any) -> None:
        self._started = False

    def __reduce__(self) -> Any:
        # Pickling and copy.copy/deepcopy all come here.
        raise TypeError(VECENV_NOT_PICKLED)

    # ------------------------------------------------------------- internals

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self.copy else a

    def _obs_out(self, obs: np.ndarray, rules: Optional[np.ndarray] = None) -> Any:
        x = self.obs_bounds.scale(obs) if self.scale_obs else self._out(obs)
        enc = self._rules_enc if rules is None else rules
        if enc is None:  # no rules outputs: obs_rules is off
            return x
        return {"obs": x, "rules": self._out(enc)}

    def _info(self) -> Dict[str, Any]:
        info: Dict[str, Any] = {"action_mask": self._out(self._mask), "current_player": self._out(self._to_act)}
        if self.ruleset.mixed:
            info["rules_id"] = self._out(self._rules_id)
        info.update({f"_{key}": self._out(self._every) for key in list(info)})  # Gymnasium's `_key` masks
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            info["final_obs"] = self._obs_out(self._final_obs, self._final_rules)
            info["_final_obs"] = self._out(self._done)
            info["final_info"] = self._final_info()
            info["_final_info"] = self._out(self._done)
        return info

    def _final_info(self) -> Dict[str, Any]:
        """same_step: the info of each game that ended in this step, as Gymnasium's vector envs
        batch it (each key beside its ``_key`` mask); meaningful where ``_final_info`` is true."""
        final = {"action_mask": self._final_mask, "current_player": self._final_to_act}
        if self.ruleset.mixed:
            final["rules_id"] = self._out(self._final_rules_id)
        return {**final, **{f"_{key}": self._out(self._done) for key in final}}

    def _resample(self, starting: np.ndarray) -> None:
        if not starting.any():
            return
        rows = np.flatnonzero(starting)
        for seat, choice in self._pool_choice.items():
            choice[rows] = self._py_opponents[seat].sample(len(rows))

    def _play_opponents(self) -> None:
        """Python opponents: call them, a batch per seat (and snapshot), until
        every game has the learner to act or has ended."""
        if self._py_opponents:
            try:
                play_opponents(self)
            except BaseException:
                # A policy that raised (or Ctrl-C) leaves games with an opponent to act: the
                # next step would fail on them, so it asks for reset() instead.
                self._started = False
                raise

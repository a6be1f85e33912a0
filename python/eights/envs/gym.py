"""Gymnasium environment for single-agent training against fixed opponents.

:class:`EightsEnv` wraps one :class:`eights.Game`.  One seat (``learner_seat``)
belongs to the agent being trained; every other seat is played by an opponent
policy inside :meth:`EightsEnv.step`, so each observation the agent receives
is a decision of its own.

Conventions
-----------
* Observations are ``float32`` vectors of length ``game.observation_size``,
  taken from the learner's point of view (``game.observation(learner_seat)``).
* Actions are integers in ``[0, eights.NUM_ACTIONS)`` (``Discrete(197)``); the
  layout is the same for every preset and player count (see the package
  docstring).  Most actions are illegal in any given state, so agents should
  use the boolean mask returned as ``info["action_mask"]`` or by
  :meth:`EightsEnv.action_masks` (the sb3-contrib ``MaskablePPO`` convention).
* ``env.action_space.sample()`` with no arguments draws uniformly from the
  *currently legal* actions, so ``env.step(env.action_space.sample())`` is a
  valid random policy.  ``sample(mask=...)`` behaves exactly as in Gymnasium.
* Rewards are zero until the episode ends; the final reward is the learner's
  entry of ``game.returns("win_loss")`` (winner +1, others ``-1/(n-1)``,
  0 for everybody when nobody won) or of ``game.returns("score")``.
* ``terminated`` is ``game.is_terminal``; ``truncated`` is
  ``game.is_truncated`` (the game's own decision limit).

The package's quickstart (``help(eights)``) steps this env with a random legal policy.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Union

import gymnasium
import numpy as np

from .._core import NUM_ACTIONS, IllegalActionError
from .._utils.checks import as_action as _as_action
from .._utils.checks import as_int as _as_int
from .._utils.checks import as_real, opponents_per_seat, other_seats
from .._utils.overrides import env_overrides
from .._utils.seeds import DRAW_BOUND, check_optional_seed
from ..agents.seats import check_opponent, play_until, seat_player
from ..agents.spec import AgentSpec
from ..records import EpisodeRecorder
from ..render import game_html
from ._common import (
    RENDER_MODES,
    REWARD_KINDS,
    Table,
    check_choice,
    check_flag,
    illegal_reason,
    new_history,
    render_table,
    reset_deck,
)
from ._rulesets import RulesArg, obs_rules_space
from .spaces import BindsItsActionSpace, LegalActionSpace

__all__ = [
    "EightsEnv",
    "make",
    "REWARD_KINDS",
    "ILLEGAL_ACTION_MODES",
    "RENDER_MODES",
]

#: Accepted values of the ``illegal_action`` argument.
ILLEGAL_ACTION_MODES = ("terminate", "raise", "random")

#: Keys accepted in the ``options`` dict of :meth:`EightsEnv.reset`.
RESET_OPTIONS = ("deck",)

#: How many deals :meth:`EightsEnv.reset` tries before giving up when the
#: opponents keep finishing the game before the learner's first decision.
MAX_DEAL_ATTEMPTS = 100

OpponentSpec = Union[str, Callable[[np.ndarray, np.ndarray], int], Any]


class EightsEnv(BindsItsActionSpace, gymnasium.Env):
    """A Crazy Eights-family game seen from one seat, as a Gymnasium env.

    Args:
        preset: name of a rules preset (see :func:`eights.presets`), a path to a house-rules
            TOML file, or an :class:`eights.Rules`.
        num_players: number of seats at the table (the allowed range depends
            on the preset).
        opponents: who plays the other seats.  Either one spec used for every
            other seat, or a list with one spec per other seat, in seat order,
            skipping the learner (e.g. for ``learner_seat=1`` of 4, the list is
            for seats 0, 2, 3).  A spec is any agent of the one agent specification
            (:func:`eights.agents.as_agent`): a built-in bot by name (``"random"``,
            ``"heuristic"``, ``"ismcts:N"``, ``"pimc:N"``, ``"net"``; ``"net1"`` on the
            presets it was trained for), re-seeded from the env's RNG on every reset; a callable
            ``f(obs, mask) -> int`` or an object with ``act(obs, mask)`` (or
            ``act_batch``), seeing that seat's observation and mask (not seeded by the
            env: seed it yourself for reproducible episodes); or an
            :class:`eights.RandomBot` or :class:`eights.Bot` instance, used as is.
        seed: seed used by the first :meth:`reset` that is called without a
            seed.  Later unseeded resets continue the env's RNG stream, as
            usual in Gymnasium.
        reward: ``"win_loss"`` (default) or ``"score"``: which
            ``game.returns(kind)`` entry is paid to the learner at the end of
            the episode; all intermediate rewards are 0.
        learner_seat: the seat controlled by the agent.
        render_mode: ``None``, ``"ansi"`` (the table as text with card symbols
            as the learner sees it: its hand, the other hands as card counts, the
            last few actions), ``"html"`` (the same picture as HTML with inline
            SVG cards, also what Jupyter shows for the env), ``"rgb_array"``
            (the same picture as an ``(H, W, 3)`` ``uint8`` image, drawn with
            Pillow; what video recorders use) or ``"human"`` (the text printed
            to the terminal after every ``reset`` and ``step``).
        scale_obs: ``False`` (default) gives the raw observation, in the finite
            ``Box`` of :class:`eights.observation.ObservationBounds`; ``True`` maps
            every slice into ``[0, 1]`` (``Box(0, 1)``; see that module's table).
        obs_rules: the observation becomes ``{"obs": ..., "rules": Rules.encode()}``
            (a ``Dict`` space), so that the agent is told the rules it plays. ``preset``
            may then be a list of rule sets or an :class:`eights.RuleSpace`, drawn at every
            reset from the episode's seed.
        record_dir: a directory to save a replay record of every finished episode
            in (``<dir>/episode_<k>.json``, see ``eights.Game.record``); ``None``
            (default) saves nothing.
        illegal_action: what :meth:`step` does with an illegal learner action
            (one outside ``[0, 197)`` or not in the mask):
            ``"terminate"`` (default, PettingZoo's convention) ends the episode
            there: the game is left as it was, the learner gets ``illegal_reward``,
            ``terminated`` is True, ``info["illegal_action"]`` is True and
            ``info["illegal_reason"]`` says what was wrong, and Gymnasium's logger
            warns (at the env's first); ``"raise"`` raises :class:`eights.IllegalActionError` and leaves
            the env unchanged; ``"random"`` plays a uniformly random legal action
            instead (drawn from the env's RNG) and reports
            ``info["illegal_action"] = True``.  Agents should use the action mask;
            ``"terminate"`` lets generic checkers (Gymnasium's ``check_env``,
            TorchRL's ``check_env_specs``, SB3's ``check_env``), which step with
            actions sampled without the mask, run, without hiding a bug in an
            agent the way a silent replacement would.
        illegal_reward: the learner's reward for an illegal action under
            ``illegal_action="terminate"`` (default -1.0, the worst a game pays).
        rules: nested dict of rule overrides, e.g. ``{"deal": {"hand_size": 4}}``.
        **rule_overrides: more rule overrides, with ``"__"`` in place of ``"."``
            in the rule path (``deal__hand_size=4``).  Merged with ``rules``;
            a rule given twice with different values is a ``ValueError``.

    Attributes:
        game: the underlying :class:`eights.Game` (read it freely; stepping it
            directly desynchronises the env until the next reset).
        preset, num_players, learner_seat, reward_kind: the settings above.
        rules: the merged rule overrides (``None`` when there are none).

    Raises:
        ValueError: unknown preset, bot name, reward kind, render mode, or a
            seat/player count out of range; :class:`eights.RulesError`
            (a ``ValueError``) for invalid rule overrides.
        TypeError: arguments of the wrong type.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        preset: RulesArg,
        num_players: int = 2,
        opponents: Union[OpponentSpec, Sequence[OpponentSpec]] = "random",
        seed: Optional[int] = None,
        reward: str = "win_loss",
        learner_seat: int = 0,
        render_mode: Optional[str] = None,
        illegal_action: str = "terminate",
        rules: Optional[Mapping[str, Any]] = None,
        scale_obs: bool = False,
        record_dir: Optional[str] = None,
        illegal_reward: float = -1.0,
        obs_rules: bool = False,
        **rule_overrides: Any,
    ) -> None:
        super().__init__()
        num_players = _as_int(num_players, "num_players")
        learner_seat = _as_int(learner_seat, "learner_seat")
        seed = check_optional_seed(seed)
        check_choice(reward, REWARD_KINDS, "reward")
        check_choice(render_mode, RENDER_MODES, "render_mode", none_ok=True)
        check_choice(illegal_action, ILLEGAL_ACTION_MODES, "illegal_action")

        self._table = table = Table(
            preset, num_players, rules, rule_overrides, seed=0 if seed is None else seed, env=type(self)
        )
        self.rules, self.game, self.preset = table.rules, table.game, table.preset
        other_seats(num_players, learner_seat)  # ValueError for a learner_seat off the table
        self.num_players = num_players
        self.learner_seat = learner_seat
        self.reward_kind = reward
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = as_real(illegal_reward, "illegal_reward")
        self._illegal_end = False  # the episode ended on an illegal learner action
        self._illegal_warned = False  # the env's first illegal action ending an episode was warned of
        self._opponent_specs = opponents_per_seat(opponents, num_players, learner_seat, check_opponent)
        for seat, spec in self._opponent_specs.items():
            if isinstance(spec, AgentSpec) and spec.bot is not None:  # net1, a flat file: their rules alone
                table.ruleset.check_bot(spec.bot)
            elif isinstance(spec, AgentSpec) and not table.ruleset.mixed:  # a bare scaled model: this table's
                self._opponent_specs[seat] = spec.for_table(preset, num_players, self.rules)
        self._opponents: Dict[int, Any] = {}
        self._initial_seed = seed
        self._started = False
        #: The last few ``(seat, action id)`` pairs of the episode, oldest first.
        self.history = new_history()
        self.scale_obs = check_flag(scale_obs, "scale_obs")
        self.obs_rules = check_flag(obs_rules, "obs_rules")
        self.obs_bounds = table.obs_bounds
        space = self.obs_bounds.scaled_space if self.scale_obs else self.obs_bounds.space
        self.observation_space = obs_rules_space(space) if self.obs_rules else space
        self.action_space = LegalActionSpace(NUM_ACTIONS, self)
        self.recorder = EpisodeRecorder.from_arg(record_dir, "record_dir")

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> tuple[np.ndarray, Dict[str, Any]]:
        """Deal a new episode and play the opponents up to the learner's turn.

        Args:
            seed: seeds the env's RNG (``self.np_random``), from which the
                game seed and the seeds of the built-in opponents are drawn,
                so the same seed and the same learner actions reproduce an
                episode exactly (given deterministic Python opponents).
            options: optional dict; ``{"deck": [...card strings...]}`` fixes
                the first cards of the pack (see ``eights.Game.reset``).

        The first observation is always a decision of the learner: if the
        opponents finish the game before the learner's first turn (possible
        only when the learner does not move first), the env deals again with
        fresh seeds from its RNG, up to ``MAX_DEAL_ATTEMPTS`` times, then
        raises ``RuntimeError``.

        Returns:
            ``(observation, info)`` with ``info["action_mask"]`` (bool array),
            ``info["current_player"]`` and ``info["phase"]``.
        """
        # Every argument is checked before anything changes (the RNG, the opponents, the
        # game): a call that raises leaves the env exactly as it was.
        seed = check_optional_seed(seed)
        deck = self._table.check_deck(reset_deck(self.game, options, RESET_OPTIONS))
        if seed is None and not self._started and self._initial_seed is not None:
            seed = self._initial_seed
        super().reset(seed=seed)

        for _ in range(MAX_DEAL_ATTEMPTS):
            game_seed = self._draw_seed()
            self._opponents = {
                seat: seat_player(spec, self._draw_seed(), self.obs_rules)
                for seat, spec in self._opponent_specs.items()
            }
            self.game = self._table.deal(game_seed, deck)
            self._started = True
            self.history.clear()
            self._illegal_end = False
            self._play_opponents()
            if not self._episode_over():
                break
        else:
            raise RuntimeError(
                f"the opponents finished {MAX_DEAL_ATTEMPTS} deals in a row before "
                f"the learner (seat {self.learner_seat}) could act; check the rules "
                "and the opponents"
            )
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Play the learner's ``action``, then the opponents until it is the
        learner's turn again or the episode is over.

        Args:
            action: an integer in ``[0, 197)`` (Python or numpy integer, or a
                one-element integer array).

        Returns:
            ``(observation, reward, terminated, truncated, info)``.

        Raises:
            TypeError: ``action`` is not an integer.
            eights.IllegalActionError: the action is illegal in the current
                state (with ``illegal_action="raise"``), or the episode is
                already over; the env is left unchanged.
            gymnasium.error.ResetNeeded: :meth:`reset` was never called, or
                the episode was interrupted by an opponent error.
        """
        action = _as_action(action)
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        game = self.game
        if not self._episode_over() and game.current_player != self.learner_seat:
            raise gymnasium.error.ResetNeeded(
                f"it is seat {game.current_player}'s turn, not the learner's "
                f"(seat {self.learner_seat}); an opponent failed or the game was "
                "stepped directly; call reset()"
            )

        if self._illegal_end:
            raise IllegalActionError("the episode ended on an illegal action of the learner; call reset()")
        if self.illegal_action == "terminate" and not self._episode_over():
            reason = illegal_reason(game, action)
            if reason is not None:
                return self._end_on_illegal(reason)
        replaced = False
        if self.illegal_action == "random" and not self._episode_over():
            mask = game.action_mask()
            if not (0 <= action < NUM_ACTIONS and mask[action]):
                legal = np.flatnonzero(mask)
                action = int(legal[self.np_random.integers(len(legal))])
                replaced = True
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(f"action {action} is out of range; actions are integers in [0, {NUM_ACTIONS})")

        game.step(action)  # raises IllegalActionError, game unchanged
        self.history.append((self.learner_seat, action))
        self._play_opponents()

        terminated = bool(game.is_terminal)
        truncated = bool(game.is_truncated)
        reward = 0.0
        if terminated or truncated:
            reward = float(game.returns(self.reward_kind)[self.learner_seat])
            if self.recorder is not None:
                self.recorder.save(game)
        info = self._info()
        if self.illegal_action != "raise":
            info["illegal_action"] = replaced
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (all False once over).

        This is the method name ``sb3_contrib.MaskablePPO`` looks for.
        """
        if self._illegal_end:
            return np.zeros(NUM_ACTIONS, dtype=bool)
        return self.game.action_mask()

    def render(self) -> Any:  # text, HTML or an image, by mode
        """The table seen from the learner's seat: text for ``render_mode="ansi"``,
        HTML for ``render_mode="html"`` (see :mod:`eights.render`), an ``(H, W, 3)``
        ``uint8`` image for ``"rgb_array"`` (needs Pillow), and for ``"human"`` the text
        printed to the terminal (done by ``reset`` and ``step`` themselves; returns None).

        With ``render_mode=None`` this warns and returns ``None`` (Gymnasium
        convention); ``env.game.render()`` (every hand) always works.
        """
        return render_table(
            self.render_mode, self.game, self.learner_seat, self.history, hint=", or call env.game.render()"
        )

    def _repr_html_(self) -> str:
        """HTML picture of the table from the learner's seat (shown by Jupyter)."""
        return game_html(self.game, self.learner_seat, self.history)

    # ------------------------------------------------------------- internals

    def _draw_seed(self) -> int:
        return int(self.np_random.integers(0, DRAW_BOUND))

    def _episode_over(self) -> bool:
        return bool(self._illegal_end or self.game.is_terminal or self.game.is_truncated)

    def _end_on_illegal(self, reason: str) -> tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """End the episode on an illegal learner action (``illegal_action="terminate"``)."""
        self._illegal_end = True
        if not self._illegal_warned:  # once per env: an agent without the mask makes thousands
            self._illegal_warned = True
            gymnasium.logger.warn(
                f"the learner's {reason}: the episode ends (illegal_action='terminate'). Later illegal actions of "
                "this env end their episodes without a warning (info['illegal_action'] marks them); an agent "
                "that reads the action mask (MaskablePPO) never makes one"
            )
        info = self._info()
        info["illegal_action"] = True
        info["illegal_reason"] = reason
        return self._observation(), self.illegal_reward, True, False, info

    def _play_opponents(self) -> None:
        """Step the opponents until the learner is to act or the game ends."""
        play_until(self.game, self.learner_seat, self._opponents, self.history)

    def _observation(self) -> Any:
        return self._table.observation(self.learner_seat, self.scale_obs, self.obs_rules)

    def _info(self) -> Dict[str, Any]:
        return {
            "action_mask": self.action_masks(),
            "current_player": int(self.game.current_player),
            "phase": self.game.phase,
        }

    def _sampling_mask(self) -> Optional[np.ndarray]:
        """Mask used by ``action_space.sample()``; None before the first reset."""
        if not self._started:
            return None
        return self.game.action_mask()


def make(
    preset: RulesArg,
    num_players: int = 2,
    opponents: Union[OpponentSpec, Sequence[OpponentSpec]] = "random",
    seed: Optional[int] = None,
    reward: str = "win_loss",
    learner_seat: int = 0,
    render_mode: Optional[str] = None,
    illegal_action: str = "terminate",
    scale_obs: bool = False,
    record_dir: Optional[str] = None,
    illegal_reward: float = -1.0,
    obs_rules: bool = False,
    **rules: Any,
) -> EightsEnv:
    """Create an :class:`EightsEnv` (unwrapped, so ``env.game`` and
    ``env.action_masks()`` are directly available).

    ``**rules`` are rule overrides: nested dicts (``deal={"hand_size": 4}``),
    dotted paths with ``"__"`` for ``"."`` (``deal__hand_size=4``), and/or an
    explicit ``rules={...}`` dict; all are merged.  See :class:`EightsEnv`
    for every argument.

    >>> env = make("crazy_eights", num_players=3, seed=0, deal__hand_size=4)
    >>> obs, info = env.reset()

    The same environments are registered with Gymnasium as
    ``"eights/<preset>-v1"`` (``gymnasium.make("eights/crazy_eights-v1")``,
    which adds Gymnasium's standard wrappers).
    """
    env_overrides(rules, make, EightsEnv)  # players=3: "did you mean num_players?", named make()
    return EightsEnv(
        preset,
        num_players=num_players,
        opponents=opponents,
        seed=seed,
        reward=reward,
        learner_seat=learner_seat,
        render_mode=render_mode,
        illegal_action=illegal_action,
        scale_obs=scale_obs,
        record_dir=record_dir,
        illegal_reward=illegal_reward,
        obs_rules=obs_rules,
        **rules,
    )

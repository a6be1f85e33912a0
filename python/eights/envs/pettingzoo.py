"""PettingZoo AEC environment: every seat of a Crazy Eights-family game is an agent.

``env(preset, num_players, ...)`` returns the environment wrapped with PettingZoo's standard
wrappers; ``raw_env`` is the bare class; ``parallel_env`` is the turn-based parallel form.
Needs the optional ``pettingzoo`` package (``pip install 'eights[pettingzoo]'``).

Conventions
-----------
* Agents are ``"player_0" .. "player_{n-1}"``, agent ``player_k`` plays seat ``k``.
  ``agent_selection`` is always the seat the engine says is to act; a player may act
  several times in a row (an eight then its suit nomination, a skip in two-player play, ...).
* Observation of every agent: ``{"observation": float32 Box (game.observation_size,),
  "action_mask": int8 Box of 197 zeros/ones}``.  The observation is the game seen from
  that seat (``game.observation(seat)``).  The mask holds the legal actions of the agent
  to act and is all zeros for every other agent, and for everybody once the game is over.
* Actions: ``Discrete(197)``, the fixed action layout of the package (see ``eights``).
* Rewards are zero until the hand ends; then every agent receives its entry of
  ``game.returns(reward)``: with ``reward="win_loss"`` (default) the winner gets +1 and the
  others ``-1/(n-1)`` each (zero-sum); ``reward="score"`` pays the normalised points.
  When nobody wins (the engine's draw, or a truncation) everybody gets 0.
* Termination: ``game.is_terminal`` (the hand is over) ends the episode for every agent.
  Truncation: the engine's own decision cap (``game.is_truncated``), or ``max_cycles``
  decisions in total when given, truncates every agent.
* Illegal actions: the wrapped env (``env()``) uses PettingZoo's ``TerminateIllegalWrapper``:
  an action outside the mask ends the episode at once, the offending agent gets
  ``illegal_reward`` (default -1) and the others 0, with a warning. An id outside
  ``[0, 197)`` raises ``eights.IllegalActionError``, an action that is not an integer
  ``TypeError``, and a call before ``reset`` ``RuntimeError``, the env unchanged, as in
  ``raw_env`` (before PettingZoo's ``AssertOutOfBoundsWrapper`` sees the action). The bare
  ``raw_env`` raises ``eights.IllegalActionError`` for an action outside the mask too, and
  stays unchanged.
* After the end: once every done agent has been stepped with None, ``agents`` is empty;
  ``observe(agent)`` still shows any seat (with an all-zero mask), ``last()`` raises
  ``RuntimeError`` ("the game is over ...: call reset()"), and ``step()`` warns and does
  nothing in the wrapped env (PettingZoo's convention), raises that ``RuntimeError`` in
  ``raw_env``.
* Seeding: ``reset(seed=s)`` seeds the env's generator, from which every deal is drawn, so
  the same seed and the same actions replay the same games; ``reset()`` without a seed
  continues the stream.  ``options={"deck": [...]}`` fixes the first cards of the pack
  (as ``eights.Game.reset``).
* Parallel form: the game is turn-based and one agent may act twice in a row, so it is not
  ``is_parallelizable`` (PettingZoo's ``aec_to_parallel`` requires every agent to act once
  per cycle and refuses it).  :func:`parallel_env` uses ``turn_based_aec_to_parallel``
  instead: each parallel step applies the action of the agent to act (named by
  ``infos[agent]["active_agent"]`` from ``reset`` on, in infos that are new dicts at every
  call) and ignores the others'.  ``step(actions)`` needs a dict with one action per live
  agent (``env.agents``), and ``reset()`` first.

Example:

>>> from eights.envs.pettingzoo import env as make_env
>>> env = make_env("switch_blackjack", num_players=3)
>>> env.reset(seed=0)
>>> for agent in env.agent_iter():
...     obs, reward, termination, truncation, info = env.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)
>>> env.agents  # every seat has seen the end of the hand
[]
"""

from __future__ import annotations

from .._utils.optional import require

require("pettingzoo", "pettingzoo", "eights.envs.pettingzoo")

from typing import Any, Dict, Optional, Tuple, Union

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv

from .._core import NUM_ACTIONS
from .._utils.checks import as_int as _as_int
from .._utils.checks import as_real as _as_real
from .._utils.checks import describe as _describe
from .._utils.checks import shown_path as _shown
from .._utils.overrides import env_overrides
from .._utils.seeds import DRAW_BOUND, check_optional_seed
from ..records import EpisodeRecorder
from ..render import game_html
from ._common import RENDER_MODES, REWARD_KINDS, Table, check_choice, check_flag, new_history, render_table, reset_deck
from ._pz_wrappers import (
    GAME_OVER,
    AssertOutOfBounds,
    OrderEnforcing,
    TerminateIllegal,
    TurnBasedParallel,
    checked_action,
)
from ._rulesets import RulesArg, obs_rules_space
from .registration import ENV_VERSION
from .spaces import ActionSpace

__all__ = ["env", "raw_env", "parallel_env", "RENDER_VIEWS"]

#: Accepted values of ``render_view``: whose cards the pictures show face up.
RENDER_VIEWS = ("current", "all")


def env(
    preset: RulesArg = "crazy_eights",
    num_players: int = 2,
    render_mode: Optional[str] = None,
    illegal_reward: float = -1.0,
    **kwargs: Any,
) -> AECEnv:
    """The AEC environment wrapped with PettingZoo's standard wrappers
    (``TerminateIllegalWrapper(illegal_reward)``, ``AssertOutOfBoundsWrapper``,
    ``OrderEnforcingWrapper``).  ``kwargs`` go to :class:`raw_env`.  ``illegal_reward``
    must be a finite number (as the Gymnasium env's)."""
    illegal_reward = _as_real(illegal_reward, "illegal_reward")
    env_overrides(kwargs, env, raw_env)  # a misspelt setting: "did you mean", named env()
    aec: AECEnv = raw_env(preset, num_players, render_mode=render_mode, **kwargs)
    aec = TerminateIllegal(aec, illegal_reward=illegal_reward)
    aec = AssertOutOfBounds(aec)
    aec = OrderEnforcing(aec)
    return aec


def parallel_env(
    preset: RulesArg = "crazy_eights",
    num_players: int = 2,
    render_mode: Optional[str] = None,
    **kwargs: Any,
) -> ParallelEnv:
    """The turn-based parallel form of :func:`env` (``turn_based_aec_to_parallel``):
    ``step(actions)`` uses only ``actions[active agent]``."""
    env_overrides(kwargs, parallel_env, env, raw_env)
    return TurnBasedParallel(env(preset, num_players, render_mode=render_mode, **kwargs))


class raw_env(AECEnv):
    """A Crazy Eights-family game with one PettingZoo agent per seat (see the module doc).

    Args:
        preset: preset name (``eights.presets()``), a path to a TOML rules file, an
            :class:`eights.Rules`, or with ``obs_rules`` a list of them or an
            :class:`eights.RuleSpace`.
        num_players: seats at the table.
        render_mode: ``None``, ``"ansi"`` (text with card symbols), ``"html"`` (inline SVG),
            ``"rgb_array"`` (an ``(H, W, 3)`` ``uint8`` image, needs Pillow) or ``"human"``
            (the text printed to the terminal after every ``reset`` and ``step``).
        reward: ``"win_loss"`` (default) or ``"score"``.
        max_cycles: optional cap on the number of decisions (all agents together) after
            which every agent is truncated; ``None`` keeps only the engine's own cap. Not
            PettingZoo's cycles of one move per agent: a turn order with skips, reverses and
            extra turns has none, so ``pettingzoo.test.max_cycles_test`` does not apply (as
            PettingZoo's own test suite skips it for its turn-based classic games).
        render_view: ``"current"`` (default: the hand of the agent to act face up, the
            others as card counts), ``"all"`` (every hand), or a seat number.
        scale_obs: observations mapped into ``[0, 1]`` (see :mod:`eights.observation`);
            by default the raw observation, in its finite bounds.
        record_dir: save a replay record of every finished hand in this directory
            (``episode_<k>.json``, see ``eights.Game.record``); ``None`` saves nothing.
        obs_rules: each agent's observation dict gains ``"rules"``, the rules encoding
            (``Rules.encode()``); ``preset`` may then be a list of rule sets or an
            :class:`eights.RuleSpace`, drawn at every reset.
        rules: dict of rule overrides; ``**rule_overrides`` as in ``eights.make``
            (``deal__hand_size=4``).
    """

    metadata: Dict[str, Any] = {
        "name": f"eights_v{ENV_VERSION}",  # the version of the Gymnasium ids (docs/envs.md)
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        preset: RulesArg = "crazy_eights",
        num_players: int = 2,
        render_mode: Optional[str] = None,
        reward: str = "win_loss",
        max_cycles: Optional[int] = None,
        render_view: Union[str, int] = "current",
        rules: Optional[Dict[str, Any]] = None,
        scale_obs: bool = False,
        record_dir: Optional[str] = None,
        obs_rules: bool = False,
        **rule_overrides: Any,
    ) -> None:
        super().__init__()
        num_players = _as_int(num_players, "num_players")
        check_choice(render_mode, RENDER_MODES, "render_mode", none_ok=True)
        check_choice(reward, REWARD_KINDS, "reward")
        if max_cycles is not None:
            max_cycles = _as_int(max_cycles, "max_cycles")
            if max_cycles < 1:
                raise ValueError(f"max_cycles must be a positive integer or None, got {max_cycles}")
        if isinstance(render_view, str):
            if render_view not in RENDER_VIEWS:
                raise ValueError(
                    f"unknown render_view {render_view!r}; allowed: "
                    + ", ".join(map(repr, RENDER_VIEWS))
                    + " or a seat number"
                )
        elif not 0 <= _as_int(render_view, "render_view") < num_players:
            raise ValueError(f"render_view seat must be in [0, {num_players - 1}], got {render_view}")

        self._table = table = Table(preset, num_players, rules, rule_overrides, env=type(self))  # validates the rules
        self.rules, self.game, self.preset = table.rules, table.game, table.preset
        self.num_players = num_players
        self.render_mode = render_mode
        self.reward_kind = reward
        self.max_cycles = max_cycles
        self.render_view = render_view
        self.possible_agents = [f"player_{p}" for p in range(num_players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        self._obs_size = self.game.observation_size
        self.scale_obs = check_flag(scale_obs, "scale_obs")
        self.obs_rules = check_flag(obs_rules, "obs_rules")
        self.obs_bounds = table.obs_bounds
        self.recorder = EpisodeRecorder.from_arg(record_dir, "record_dir")
        self._np_random: Optional[np.random.Generator] = None
        self._started = False
        self._decisions = 0
        parts: Dict[str, spaces.Space] = {
            "observation": self.obs_bounds.scaled_space if self.scale_obs else self.obs_bounds.space,
            "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
        if self.obs_rules:
            parts["rules"] = obs_rules_space(parts["observation"])["rules"]
        self._observation_spaces: Dict[str, spaces.Space] = {a: spaces.Dict(dict(parts)) for a in self.possible_agents}
        self._action_spaces: Dict[str, spaces.Space] = {a: ActionSpace(NUM_ACTIONS) for a in self.possible_agents}
        self.history = new_history()

    # ------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space (the same object at every call)."""
        return self._observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space:
        """The agent's action space, ``Discrete(197)`` (the same object at every call)."""
        return self._action_spaces[self.possible_agents[self._seat(agent)]]

    def _seat(self, agent: str) -> int:
        if not isinstance(agent, str):  # a list or dict is unhashable: no TypeError from the lookup
            raise TypeError(f"agent must be an agent name, one of {self.possible_agents}, got {_describe(agent)}")
        try:
            return self.agent_name_mapping[agent]
        except KeyError:
            # A huge name is shortened (its first 100 characters and its length), never echoed whole.
            raise ValueError(f"unknown agent {_shown(agent)}; agents are {self.possible_agents}") from None

    # ---------------------------------------------------------------- API

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Deal a new hand.  ``seed`` reseeds the env's generator; ``options`` may hold
        ``"deck"`` (a list of card strings fixing the first cards of the pack); other
        option keys are ignored.  A bad ``seed`` or ``deck`` (a deck with rules drawn at every
        episode included) is refused before anything changes, the generator included."""
        seed = check_optional_seed(seed)
        deck = self._table.check_deck(reset_deck(self.game, options))
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.game = self._table.deal(int(self._np_random.integers(0, DRAW_BOUND)), deck)
        self._started = True
        self._decisions = 0
        self.history.clear()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._check_end()
        if self.render_mode == "human":
            self.render()

    def _require_reset(self, what: str) -> None:
        if not self._started:
            raise RuntimeError(f"call reset() before {what}()")

    def last(self, observe: bool = True) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        self._require_reset("last")
        if not self.agents:
            raise RuntimeError(GAME_OVER)
        return super().last(observe)

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        self._require_reset("observe")
        seat = self._seat(agent)
        game = self.game
        # An agent that has left (after the end) is in neither dict: it acts no more.
        live = agent in self.agents and not self.terminations[agent] and not self.truncations[agent]
        if seat == game.current_player and live:
            mask = game.action_mask().astype(np.int8)
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        out = self._table.observation(seat, self.scale_obs, self.obs_rules)
        if self.obs_rules:
            return {"observation": out["obs"], "action_mask": mask, "rules": out["rules"]}
        return {"observation": out, "action_mask": mask}

    def step(self, action: Any) -> None:
        self._require_reset("step")
        if not self.agents:
            raise RuntimeError(GAME_OVER)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = checked_action(action)
        seat = self._seat(agent)
        self.game.step(action)  # IllegalActionError leaves everything unchanged
        self._decisions += 1
        self.history.append((seat, action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self._check_end()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _check_end(self) -> None:
        game = self.game
        capped = self.max_cycles is not None and self._decisions >= self.max_cycles
        if game.is_terminal or game.is_truncated or capped:
            if self.recorder is not None and self._decisions > 0:  # a hand played to its end
                self.recorder.save(game)
            returns = game.returns(self.reward_kind) if game.is_terminal else np.zeros(self.num_players)
            for p, a in enumerate(self.possible_agents):
                self.rewards[a] = float(returns[p])
                if game.is_terminal:
                    self.terminations[a] = True
                else:
                    self.truncations[a] = True
        else:
            self.agent_selection = self.possible_agents[game.current_player]

    def render(self) -> Any:
        """The table as text (``"ansi"``), HTML (``"html"``) or an RGB image (``"rgb_array"``),
        from the point of view set by ``render_view``; ``"human"`` prints the text and
        returns None; warns and returns None without a render mode."""
        return render_table(self.render_mode, self.game, self._viewer(), self.history, self.possible_agents)

    def _repr_html_(self) -> str:
        return game_html(self.game, self._viewer(), self.history, self.possible_agents)

    def _viewer(self) -> Optional[int]:
        if self.render_view == "all":
            return None
        if self.render_view == "current":
            seat = self.game.current_player
            return seat if seat >= 0 else None
        return int(self.render_view)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return f"eights.envs.pettingzoo.raw_env({self.preset!r}, num_players={self.num_players})"

"""OpenSpiel bridge: every preset as a pyspiel Python game.

Importing this module registers ``eights_<preset>`` for every preset, so OpenSpiel's Python
algorithms run on them:

>>> import pyspiel
>>> from eights.integrations import openspiel  # registers the games
>>> game = pyspiel.load_game("eights_switch_blackjack", {"players": 3})
>>> pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)

Needs OpenSpiel (``pip install 'eights[openspiel]'``).

The game, for OpenSpiel:

* **Chance nodes for the deal.** A game starts with one chance node per card of the pack:
  each picks the next card of the pack among the cards not yet placed (outcome = the face's
  action id ``0..53``, probability = its remaining copies / cards remaining).  Once the pack
  is ordered, the engine deals from it (``Game.reset(deck=pack)``).  Later reshuffles of the
  discard pile are drawn by the engine from the game parameter ``seed`` (default 0), so
  they are part of the rules of a given ``seed``, not chance nodes.
* **Actions** are the package's 197 action ids (``num_distinct_actions() == 197``).
* **Returns** are ``Game.returns("win_loss")``: winner +1, the others ``-1/(n-1)``; 0 for
  everybody without a winner (zero-sum).  The engine's decision cap ends a game as a
  terminal state with no winner.
* **Observation tensor**: ``Game.observation(player)`` (346 floats, see
  ``Game.observation_spec()``); zeros while dealing.  **Observation string**: the table as
  that player sees it (``eights.render.table_text``).
* **Information state**: the string is ``p<player>`` plus a digest of everything the player
  has seen and done (its observation after every decision, its own actions), so two states
  share it exactly when the player cannot tell them apart (perfect recall).  The tensor is
  the current observation followed by the counts of the player's own past actions
  (``346 + 197`` floats).
* ``state.resample_from_infostate(player, sampler)`` deals the hidden cards again
  consistently with what ``player`` knows (``eights.determinize``), which OpenSpiel's
  Python ISMCTS bot uses.
"""

from __future__ import annotations

from .._utils.optional import require
from .._utils.seeds import check_seed

require("pyspiel", "openspiel", "eights.integrations.openspiel")

import hashlib
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import pyspiel

from .._core import NUM_ACTIONS, OBS_SIZE, Game, determinize, observation_bounds, preset_rules, presets
from ..render import table_text
from ..rules import Rules

__all__ = ["GAME_PREFIX", "EightsGame", "EightsState", "game_name", "register"]

#: OpenSpiel short names are ``GAME_PREFIX + preset``.
GAME_PREFIX = "eights_"

_NUM_FACES = 54
_INFO_TENSOR_SIZE = OBS_SIZE + NUM_ACTIONS


def game_name(preset: Union[str, Rules]) -> str:
    """The OpenSpiel short name of a preset or rule set: ``"eights_" + name``."""
    return GAME_PREFIX + (preset if isinstance(preset, str) else preset.name)


def _game_type(preset: Union[str, Rules]) -> Any:
    spec = preset_rules(preset) if isinstance(preset, str) else preset.to_dict()
    lo, hi = int(spec["players"]["min"]), int(spec["players"]["max"])
    default_players = min(max(2, lo), hi)
    return pyspiel.GameType(
        short_name=game_name(preset),
        long_name=f"eights {spec.get('title') or game_name(preset)[len(GAME_PREFIX) :]}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": default_players, "seed": 0},
    )


class EightsGame(pyspiel.Game):
    """One preset (a name or an :class:`eights.Rules`) and player count as an OpenSpiel game
    (parameters ``players``, ``seed``)."""

    def __init__(self, preset: Union[str, Rules], params: Optional[Dict[str, Any]] = None) -> None:
        params = dict(params or {})
        game_type = _game_type(preset)
        defaults = game_type.parameter_specification
        players = int(params.get("players", defaults["players"]))
        seed = check_seed(params.get("seed", defaults["seed"]))
        if not game_type.min_num_players <= players <= game_type.max_num_players:
            raise ValueError(
                f"players must be in [{game_type.min_num_players}, {game_type.max_num_players}] for "
                f"{preset}, got {players}"
            )
        self.preset = preset
        self.seed = seed
        template = Game(preset, players, seed=seed)
        self.faces = [template.action_to_string(a)[len("play ") :] for a in range(_NUM_FACES)]
        # The pack the rules deal, as the engine composes it (the observation bounds use it too).
        deck = observation_bounds(preset, players)
        self.copies = [int(deck["copies"].get(face, 0)) for face in self.faces]
        self.pack_size = int(deck["deck_size"])
        max_decisions = int(template.rules_dict().get("limits", {}).get("max_decisions", 5000))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=_NUM_FACES,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.pack_size + max_decisions,
        )
        super().__init__(game_type, info, {"players": players, "seed": seed})

    def new_initial_state(self) -> EightsState:
        return EightsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> EightsObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return EightsObserver(perfect_recall)


class EightsState(pyspiel.State):
    """A state: the pack being ordered by chance, then an :class:`eights.Game`."""

    def __init__(self, game: EightsGame) -> None:
        super().__init__(game)
        # Plain data only: pyspiel clones a Python state with copy.deepcopy.
        self._preset = game.preset
        self._seed = game.seed
        self._faces = game.faces
        self._pack_size = game.pack_size
        self._num_players = game.num_players()
        self._pack: List[str] = []
        self._remaining = list(game.copies)
        self.game: Optional[Any] = None  # the eights.Game once dealt
        n = self._num_players
        # A chained SHA-1 per player of what it saw and did (the information state).
        self._digests = [hashlib.sha1(f"p{p}".encode()).digest() for p in range(n)]
        self._own_actions = np.zeros((n, NUM_ACTIONS), dtype=np.float32)

    # ------------------------------------------------------------ pyspiel API

    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.game.is_terminal or self.game.is_truncated:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.game.current_player)

    def _legal_actions(self, player: int) -> List[int]:
        assert self.game is not None and player == self.game.current_player
        return sorted(self.game.legal_actions())

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        assert self.game is None
        left = self._pack_size - len(self._pack)
        return [(face, count / left) for face, count in enumerate(self._remaining) if count > 0]

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            if self._remaining[action] <= 0:
                raise ValueError(f"no copy of {self._faces[action]} is left to deal")
            self._remaining[action] -= 1
            self._pack.append(self._faces[action])
            if len(self._pack) == self._pack_size:
                self.game = Game(self._preset, self._num_players, seed=self._seed)
                self.game.reset(seed=self._seed, deck=self._pack)
                self._observe_all()
            return
        seat = self.game.current_player
        self.game.step(int(action))
        self._own_actions[seat, action] += 1
        self._digests[seat] = hashlib.sha1(self._digests[seat] + b"a%d;" % action).digest()
        self._observe_all()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._faces[action]}"
        if self.game is not None:
            return self.game.action_to_string(int(action))
        return Game(self._preset, self._num_players).action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.game is not None and bool(self.game.is_terminal or self.game.is_truncated)

    def returns(self) -> List[float]:
        if not self.is_terminal():
            return [0.0] * self._num_players
        assert self.game is not None
        return [float(x) for x in self.game.returns("win_loss")]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EightsState:
        """A state ``player_id`` cannot tell from this one: the cards it cannot see dealt
        again (``eights.determinize``), seeded from ``probability_sampler()``."""
        clone = self.clone()
        if self.game is not None and not self.is_terminal():
            seed = int(float(probability_sampler()) * 2**52)
            clone.game = determinize(self.game, int(player_id), seed)
        return clone

    def __str__(self) -> str:
        if self.game is None:
            return f"dealing: {len(self._pack)} of {self._pack_size} cards placed"
        return self.game.render()

    # ------------------------------------------------------------ internals

    def _observe_all(self) -> None:
        assert self.game is not None
        for p, digest in enumerate(self._digests):
            self._digests[p] = hashlib.sha1(digest + self.game.observation(p).tobytes()).digest()


class EightsObserver:
    """OpenSpiel's PyObserver interface: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = _INFO_TENSOR_SIZE if perfect_recall else OBS_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:OBS_SIZE]}
        if perfect_recall:
            self.dict["own_actions"] = self.tensor[OBS_SIZE:]

    def set_from(self, state: EightsState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.game is not None:
            self.tensor[:OBS_SIZE] = state.game.observation(player)
        if self.perfect_recall:
            self.tensor[OBS_SIZE:] = state._own_actions[player]

    def string_from(self, state: EightsState, player: int) -> str:
        if self.perfect_recall:
            return f"p{player} {state._digests[player].hex()}"
        if state.game is None:
            return f"p{player} dealing"
        return table_text(state.game, player)


def _preset_init(self: EightsGame, params: Optional[Dict[str, Any]] = None) -> None:
    EightsGame.__init__(self, type(self)._PRESET, params)


def register(*rules: Rules) -> List[str]:
    """Register ``eights_<preset>`` for every preset not registered yet, and
    ``eights_<rules.name>`` for each :class:`eights.Rules` given (a house-rules file, say);
    returns the names.  ``pyspiel.load_game(name, {"players": n})`` then plays them."""
    registered = set(pyspiel.registered_names())
    names = []
    for preset in [*presets(), *rules]:
        if not isinstance(preset, (str, Rules)):
            raise TypeError(f"register() takes eights.Rules objects, got {type(preset).__name__}")
        name = game_name(preset)
        names.append(name)
        if name in registered:
            continue
        registered.add(name)
        # One subclass per rule set (pyspiel wants a class taking the parameters).
        cls = type(f"EightsGame_{name}", (EightsGame,), {"_PRESET": preset, "__init__": _preset_init})
        pyspiel.register_game(_game_type(preset), cls)
    return names


register()

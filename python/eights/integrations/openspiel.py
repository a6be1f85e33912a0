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
  they are part of the rules of a given ``seed``, not chance nodes.  OpenSpiel carries
  integer parameters as 32-bit ints, so ``seed`` is in ``[0, 2**31)`` here (a
  ``ValueError`` names the range), though the engine takes any seed in ``[0, 2**64)``.
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
* **Serialization**: ``state.serialize()`` is plain JSON (the actions so far and the
  engine's ``Game.to_dict()``); ``game.deserialize_state(text)`` replays those actions,
  checking each, and refuses anything else with a ``ValueError``: it never unpickles.
  OpenSpiel's own C++ ``pyspiel.serialize_game_and_state``/``deserialize_game_and_state``
  (and pickling a state) keep its pickle format for every Python game: never give them
  untrusted text.
"""

from __future__ import annotations

from .._utils.checks import as_int, describe
from .._utils.optional import require

require("pyspiel", "openspiel", "eights.integrations.openspiel")

import hashlib
import json
import numbers
from collections.abc import Mapping
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
#: OpenSpiel's integer game parameters are C++ ints: seeds it can carry are below this.
_OPENSPIEL_INT_LIMIT = 2**31
#: The ``format`` of ``EightsState.serialize()``'s JSON.
_STATE_FORMAT = "eights-openspiel-state-1"


def game_name(preset: Union[str, Rules]) -> str:
    """The OpenSpiel short name of a preset or rule set: ``"eights_" + name``."""
    if not isinstance(preset, (str, Rules)):
        raise TypeError(f"preset must be a preset name (str) or an eights.Rules, got {describe(preset)}")
    return GAME_PREFIX + (preset if isinstance(preset, str) else preset.name)


def _int_in(value: Any, name: str, lo: int, hi: int) -> int:
    """``value`` as an ``int`` in ``[lo, hi]``; ``TypeError``/``ValueError`` naming ``name`` and the range."""
    try:
        return as_int(value, name, lo, hi)
    except (TypeError, ValueError) as err:
        raise type(err)(f"{name} must be an integer in [{lo}, {hi}], got {describe(value)}") from None


def _parameters(game_type: Any, preset: Union[str, Rules], params: Any) -> Tuple[int, int]:
    """``(players, seed)`` from ``params`` (a dict; the defaults for missing keys), checked."""
    if params is not None and not isinstance(params, Mapping):
        raise TypeError(f"params must be a dict of game parameters, got {describe(params)}")
    params, defaults = dict(params or {}), game_type.parameter_specification
    unknown = sorted(map(str, set(params) - set(defaults)))
    if unknown:
        raise ValueError(f"unknown game parameters {unknown}: the parameters are 'players' and 'seed'")
    lo, hi = game_type.min_num_players, game_type.max_num_players
    players = _int_in(params.get("players", defaults["players"]), f"players for {preset}", lo, hi)
    seed = as_int(params.get("seed", defaults["seed"]), "seed")
    if not 0 <= seed < _OPENSPIEL_INT_LIMIT:
        raise ValueError(f"seed must be in [0, 2**31) for OpenSpiel (its integer parameters are 32-bit), got {seed}")
    return players, seed


def _game_type(preset: Union[str, Rules]) -> Any:
    name = game_name(preset)  # checks the type of preset first
    spec = preset_rules(preset) if isinstance(preset, str) else preset.to_dict()
    lo, hi = int(spec["players"]["min"]), int(spec["players"]["max"])
    default_players = min(max(2, lo), hi)
    return pyspiel.GameType(
        short_name=name,
        long_name=f"eights {spec.get('title') or name[len(GAME_PREFIX) :]}",
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
        game_type = _game_type(preset)
        players, seed = _parameters(game_type, preset, params)
        self.preset = preset
        self.seed = seed
        template = Game(preset, players, seed=seed)
        self.faces = [template.action_to_string(a)[len("play ") :] for a in range(_NUM_FACES)]
        # The pack the rules deal, as the engine composes it (the observation bounds use it too).
        deck = observation_bounds(preset, players)
        self.copies = [int(deck["copies"].get(face, 0)) for face in self.faces]
        self.pack_size = int(deck["deck_size"])
        max_decisions = int(template.rules_dict()["limits"]["max_decisions"])
        if max_decisions == 0:
            # OpenSpiel's algorithms size their buffers by the game's length bound (0 here
            # gave the pack's size alone, a bound every game past the deal broke).
            raise ValueError(
                "OpenSpiel needs a bound on a game's length: these rules set none (limits.max_decisions = 0); "
                "give them a decision cap"
            )
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
        self._made = True

    def __str__(self) -> str:
        # A game whose __init__ raised has no C++ half, and pyspiel's str() of it crashes the
        # process (a traceback that shows locals prints it: pytest's, IPython's).
        return str(super().__str__()) if self.__dict__.get("_made") else f"<{type(self).__name__}, not made>"

    __repr__ = __str__

    def new_initial_state(self) -> EightsState:
        return EightsState(self)

    def deserialize_state(self, text: str) -> EightsState:
        """The state ``EightsState.serialize()`` wrote: its actions replayed from the start
        (each checked), then its engine state.  Anything else is a ``ValueError``."""
        data = _parse_state(text)
        state = self.new_initial_state()
        for i, action in enumerate(data["actions"]):
            if state.is_terminal():
                raise ValueError(f"serialized state: action {i} comes after the end of the game")
            try:
                state.apply_action(action)
            except (TypeError, ValueError) as err:
                raise ValueError(f"serialized state: action {i} cannot be replayed: {err}") from err
        state._restore_game(data["game"])
        return state

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
        if self.game is not None:  # OpenSpiel's own games raise a SpielError at a node not of chance
            where = "at the end of the game" if self.is_terminal() else f"player {self.game.current_player} to act"
            raise pyspiel.SpielError(
                f"chance_outcomes() is only for chance nodes (the deal, while is_chance_node()); this state is "
                f"past the deal, {where}"
            )
        left = self._pack_size - len(self._pack)
        return [(face, count / left) for face, count in enumerate(self._remaining) if count > 0]

    def apply_action(self, action: Any) -> None:
        """Apply ``action``: ``TypeError`` unless an integer, ``ValueError`` outside the ids."""
        super().apply_action(self._action_id(action, self.current_player()))

    def action_to_string(self, *args: Any) -> str:
        """``action_to_string(action)`` or ``action_to_string(player, action)``, checked."""
        if len(args) not in (1, 2):
            raise TypeError(f"action_to_string takes (action) or (player, action), got {len(args)} arguments")
        player = args[0] if len(args) == 2 else self.current_player()
        return str(super().action_to_string(player, self._action_id(args[-1], player)))

    def serialize(self) -> str:
        """Plain JSON: the actions so far and the engine state (``Game.to_dict()``), which
        ``EightsGame.deserialize_state`` reads back."""
        game = None if self.game is None else self.game.to_dict()
        actions = [int(a) for a in self.history()]
        return json.dumps({"format": _STATE_FORMAT, "actions": actions, "game": game}, separators=(",", ":"))

    def _apply_action(self, action: int) -> None:
        action = self._action_id(action, self.current_player())
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
        action = self._action_id(action, player)
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
        player_id = _player(player_id, self._num_players, "player_id")
        if not callable(probability_sampler):
            raise TypeError(
                f"probability_sampler must be a function returning a probability in [0, 1], got "
                f"{describe(probability_sampler)}"
            )
        clone = self.clone()
        if self.game is not None and not self.is_terminal():
            seed = int(_probability(probability_sampler()) * 2**52)
            clone.game = determinize(self.game, player_id, seed)
        return clone

    def __str__(self) -> str:
        if self.game is None:
            return f"dealing: {len(self._pack)} of {self._pack_size} cards placed"
        return self.game.render()

    # ------------------------------------------------------------ internals

    @staticmethod
    def _action_id(action: Any, player: Any) -> int:
        """``action`` as an id for ``player``: a face ``0..53`` at the deal, else ``0..196``."""
        if player == pyspiel.PlayerId.CHANCE:
            return _int_in(action, "action at a chance node (a card to deal)", 0, _NUM_FACES - 1)
        return _int_in(action, "action", 0, NUM_ACTIONS - 1)

    def _restore_game(self, data: Optional[Dict[str, Any]]) -> None:
        """Put the serialized engine state in place of the replayed one (they differ after
        ``resample_from_infostate``); it must play the same rules at the same table."""
        if (data is None) != (self.game is None):
            raise ValueError("serialized state: 'game' must be null exactly while the deal is under way")
        if data is None or self.game is None:
            return
        game = Game.from_dict(data)
        if game.num_players != self.game.num_players or game.rules_dict() != self.game.rules_dict():
            raise ValueError("serialized state: 'game' plays other rules or another table than this game")
        self.game = game

    def _observe_all(self) -> None:
        assert self.game is not None
        for p, digest in enumerate(self._digests):
            self._digests[p] = hashlib.sha1(digest + self.game.observation(p).tobytes()).digest()


def _player(player: Any, num_players: int, name: str = "player") -> int:
    """``player`` as a seat of the table: ``TypeError`` for a bool or a non-integer, ``ValueError``
    outside ``[0, num_players)`` (-1 read seat 1's information state from the end of a list)."""
    return as_int(player, name, 0, num_players - 1)


def _probability(value: Any) -> float:
    """What ``resample_from_infostate``'s sampler returned, as a probability in ``[0, 1]``: any
    real number, NumPy's scalars and 0-d arrays (``array(0.3)``) included."""
    wanted = "probability_sampler must return a probability, a number in [0, 1] (as OpenSpiel's samplers do)"
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]  # its scalar: a number is taken, a bool, a string or an object is not
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{wanted}, returned {describe(value)}")
    try:
        real = float(value)
    except OverflowError:  # an int past 2**1024
        real = float("inf")
    if not 0.0 <= real <= 1.0:  # NaN too
        raise ValueError(f"{wanted}, returned {describe(value)}")
    return real


def _parse_state(text: Any) -> Dict[str, Any]:
    """The JSON object of a serialized state, its shape checked; ``ValueError`` otherwise."""
    if not isinstance(text, str):
        raise TypeError(f"deserialize_state takes the string state.serialize() returned, got {describe(text)}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise ValueError(f"not a serialized eights state (JSON from state.serialize()): {err}") from None
    if not isinstance(data, dict) or data.get("format") != _STATE_FORMAT or set(data) != {"format", "actions", "game"}:
        raise ValueError(
            f"not a serialized eights state: expected a JSON object with format {_STATE_FORMAT!r}, 'actions' and "
            "'game' (OpenSpiel's pickled '__dict__=' form is refused)"
        )
    if not isinstance(data["actions"], list) or not (data["game"] is None or isinstance(data["game"], dict)):
        raise ValueError("serialized state: 'actions' must be a list of action ids and 'game' an object or null")
    return data


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
        player = _player(player, state._num_players)  # before the tensor is touched
        self.tensor.fill(0.0)
        if state.game is not None:
            self.tensor[:OBS_SIZE] = state.game.observation(player)
        if self.perfect_recall:
            self.tensor[OBS_SIZE:] = state._own_actions[player]

    def string_from(self, state: EightsState, player: int) -> str:
        player = _player(player, state._num_players)
        if self.perfect_recall:
            return f"p{player} {state._digests[player].hex()}"
        if state.game is None:
            return f"p{player} dealing"
        return table_text(state.game, player)


#: The rules registered under each name by :func:`register`.
_REGISTERED: Dict[str, Union[str, Rules]] = {}


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
            # Rules changed from a preset keep its name: under it they played the preset.
            known = _REGISTERED.get(name)
            if isinstance(preset, Rules) and known is not None and Rules(known) != preset:
                was = f"the {known} preset" if isinstance(known, str) else known.label
                raise ValueError(
                    f"register(): {name!r} is registered for other rules ({was}), not for "
                    f"{preset.label}; give these rules a name of their own, e.g. rules.replace(name='mine')"
                )
            continue
        registered.add(name)
        _REGISTERED[name] = preset
        # One subclass per rule set (pyspiel wants a class taking the parameters).
        cls = type(f"EightsGame_{name}", (EightsGame,), {"_PRESET": preset, "__init__": _preset_init})
        pyspiel.register_game(_game_type(preset), cls)
    return names


register()

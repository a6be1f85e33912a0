"""What the single-table environments share: the Gymnasium :class:`~eights.EightsEnv` and
PettingZoo's ``raw_env`` build their table, check their settings, keep the recent history
and draw the table through these functions, so both accept, refuse and render alike. (Also
the text of the refusal to pickle a :class:`~eights.VecEnv`, next to the envs that pickle,
and the checks of a :class:`~eights.VecEnv`'s calls, kept here as vector.py has a line budget.)"""

from __future__ import annotations

import collections
from typing import Any, Deque, Mapping, Optional, Sequence, Tuple

import numpy as np

from .._core import NUM_ACTIONS, Game
from .._utils.checks import describe
from .._utils.overrides import env_overrides, merge_rule_overrides
from .._utils.seeds import DRAW_BOUND, check_optional_seed, check_seed
from ..render import HISTORY_SHOWN, game_html, table_text
from ._rulesets import RulesArg, RuleSet

__all__ = [
    "REWARD_KINDS",
    "RENDER_MODES",
    "Table",
    "check_choice",
    "check_deck",
    "check_flag",
    "bot_rows",
    "check_vecenv",
    "illegal_reason",
    "new_history",
    "reset_deck",
    "root_actions",
    "render_table",
]

#: Accepted values of the ``reward`` argument.
REWARD_KINDS = ("win_loss", "score")

#: Accepted values of ``render_mode`` (besides None), in the Gymnasium and PettingZoo envs.
RENDER_MODES = ("ansi", "html", "rgb_array", "human")

History = Deque[Tuple[int, int]]


def check_choice(value: Any, allowed: Sequence[Any], name: str, none_ok: bool = False) -> Any:
    """``value`` if it is one of ``allowed`` (or None when ``none_ok``); otherwise a
    ``ValueError`` naming ``name`` and listing what is allowed."""
    if (none_ok and value is None) or value in allowed:
        return value
    listed = ", ".join(map(repr, allowed))
    raise ValueError(f"unknown {name} {value!r}; allowed: {'None, ' if none_ok else ''}{listed}")


def check_flag(value: Any, name: str) -> bool:
    """``value`` as a ``bool``; ``TypeError`` naming ``name`` for anything but True/False."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {describe(value)}")
    return bool(value)


#: Why a VecEnv is not pickled or copied, and what to do instead (docs/envs.md).
VECENV_NOT_PICKLED = (
    "an eights.VecEnv cannot be pickled or copied: its games, bots and buffers live in the Rust batch, "
    "which does not export its state. Build the VecEnv in the process that uses it (send its arguments, "
    "e.g. functools.partial(eights.VecEnv, preset, num_envs)), or run eights.make environments, which "
    "pickle, under gymnasium.vector.AsyncVectorEnv or SB3's SubprocVecEnv"
)

#: Why a closed VecEnv refuses to reset, step or answer (rather than "call reset()").
VECENV_CLOSED = "the VecEnv is closed: {method}() cannot be called after close(); build a new VecEnv"


def check_vecenv(env: Any, method: str, started: bool = True) -> None:
    """``RuntimeError`` when the :class:`~eights.VecEnv` ``env`` is closed, or (``started``)
    when it was never reset, for its ``method`` (kept here: vector.py has a line budget)."""
    if getattr(env, "closed", False):
        raise RuntimeError(VECENV_CLOSED.format(method=method))
    if started and not env._started:
        raise RuntimeError(f"call reset() before {method}()")


def vec_reset_args(
    env: Any, seed: Any, options: Any
) -> Tuple[Optional[int], Optional[np.ndarray], Optional[np.ndarray]]:
    """The checked arguments of :meth:`eights.VecEnv.reset`: ``(seed, seeds, reset_mask)``,
    ``seed`` an int or ``None``, ``seeds`` a uint64 array of one seed per game (a list given;
    its ``None`` entries drawn from ``env.np_random``), ``reset_mask`` a bool array or ``None``.
    Gymnasium's vector conventions; kept here: vector.py has a line budget."""
    n = env.num_envs
    if options is not None and not isinstance(options, dict):
        raise TypeError(f"options must be a dict or None, got {describe(options)}")
    options = dict(options or {})
    mask = options.pop("reset_mask", None)
    if options:
        raise ValueError(f"VecEnv.reset supports only the option 'reset_mask', got {sorted(options)}")
    if mask is not None:
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
            raise TypeError(f"options['reset_mask'] must be a numpy array of dtype bool, got {describe(mask)}")
        if mask.shape != (n,):
            raise ValueError(f"options['reset_mask'] must have shape ({n},), got {mask.shape}")
        if not mask.any():
            raise ValueError("options['reset_mask'] must mark at least one game (it has no True value)")
        if not env._started:
            raise RuntimeError("options['reset_mask'] resets some games of a batch already reset: call reset() first")
        mask = np.ascontiguousarray(mask)
    if isinstance(seed, np.ndarray) and seed.ndim == 0:
        seed = seed.item()
    if not isinstance(seed, (list, tuple, np.ndarray)):
        return check_optional_seed(seed), None, mask
    if len(seed) != n:
        raise ValueError(f"seed given as a list must have one seed per game ({n}), got {len(seed)}")
    given = [None if s is None else check_seed(s, f"seed[{i}]") for i, s in enumerate(seed)]  # all checked first
    seeds = np.array([int(env.np_random.integers(0, DRAW_BOUND)) if s is None else s for s in given], np.uint64)
    return None, seeds, mask


class Table:
    """The rules of an environment resolved once: the merged rule overrides, the rule set (or
    the list or :class:`eights.RuleSpace` each episode draws from, see
    :mod:`eights.envs._rulesets`), a game to play them (dealt from seed 0 until the first
    reset), the preset's name and the observation's bounds.  Building it validates the preset
    or :class:`eights.Rules`, the player count and the overrides (``ValueError``/``TypeError``
    naming what is wrong); with ``env`` (the env's class), a misspelt setting of the env in
    ``rule_overrides`` is a ``TypeError`` with a "did you mean" (see
    :func:`eights._utils.overrides.env_overrides`)."""

    __slots__ = ("rules", "game", "preset", "obs_bounds", "ruleset", "num_players", "encoding")

    def __init__(
        self,
        preset: RulesArg,
        num_players: int,
        rules: Optional[Mapping[str, Any]],
        rule_overrides: Mapping[str, Any],
        seed: int = 0,
        env: Any = None,
    ) -> None:
        if env is not None:  # a misspelt setting of the env ("players") is a TypeError, not a rules error
            rule_overrides = env_overrides(rule_overrides, env)
        self.rules = merge_rule_overrides(rules, **rule_overrides)
        self.ruleset = RuleSet(preset, num_players, self.rules)
        self.num_players = num_players
        first, over, _ = self.ruleset.draw(seed) if self.ruleset.mixed else (self.ruleset.entries[0], self.rules, 0)
        # The game validates the preset, the player count and the rules.
        self.game = Game(first, num_players, seed=seed, rules=over)
        self.preset = self.ruleset.name
        # Finite bounds of every slice, from the deck the rules deal (see eights.observation).
        self.obs_bounds = self.ruleset.bounds
        #: The rules encoding of the game's rules (computed when first asked for).
        self.encoding: Optional[np.ndarray] = None

    def deal(self, seed: int, deck: Any = None) -> Any:
        """Deal the next episode from ``seed``: the same game dealt again, or with mixed rules
        a game of the rules drawn for that seed (as a batch draws them)."""
        if self.ruleset.mixed:
            self.check_deck(deck)
            rules, over, _ = self.ruleset.draw(seed)
            self.game = Game(rules, self.num_players, seed=seed, rules=over)
            self.encoding = None
        else:
            self.game.reset(seed=seed, deck=deck)
        return self.game

    def check_deck(self, deck: Any) -> Any:
        """``deck``, or a ``ValueError`` for a reset's ``deck`` with rules drawn at every episode
        (callable before anything changes, so that such a reset leaves the env and its generator
        as they were)."""
        if deck is not None and self.ruleset.mixed:
            raise ValueError("options['deck'] needs one rule set; this env draws its rules at every episode")
        return deck

    def observation(self, seat: int, scale: bool, obs_rules: bool) -> Any:
        """Seat ``seat``'s observation (scaled into ``[0, 1]`` with ``scale``); with
        ``obs_rules``, ``{"obs": ..., "rules": the rules encoding}``."""
        obs = self.game.observation(seat)
        if scale:
            obs = self.obs_bounds.scale(obs)
        if not obs_rules:
            return obs
        if self.encoding is None:
            self.encoding = self.game.rules_encoding()
        return {"obs": obs, "rules": self.encoding.copy()}


def check_deck(game: Any, deck: Any) -> None:
    """Deal ``deck`` on a copy of ``game`` (``ValueError`` for a bad deck), so that a reset
    with a bad deck leaves the environment, its generator included, exactly as it was."""
    if deck is not None:
        if isinstance(deck, str) or not isinstance(deck, Sequence) or not all(isinstance(c, str) for c in deck):
            raise TypeError(f"options['deck'] must be a list of card strings such as '8H', got {describe(deck)}")
        game.clone().reset(seed=0, deck=list(deck))


def reset_deck(game: Any, options: Any, allowed: Optional[Sequence[str]] = None) -> Any:
    """The ``deck`` of a reset's ``options`` (None without one), checked on a copy of the
    game (:func:`check_deck`).  ``options`` must be a dict or None; with ``allowed``, a key
    outside it is a ``ValueError`` listing what is allowed (without, other keys are ignored,
    as PettingZoo's envs do)."""
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict or None, got {describe(options)}")
    if options and allowed is not None:
        unknown = sorted(set(options) - set(allowed))
        if unknown:
            raise ValueError(
                f"unknown reset option(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(map(repr, allowed))}"
            )
    deck = (options or {}).get("deck")
    check_deck(game, deck)
    return deck


#: The most legal actions an illegal action's reason lists, each as ``id (name)``.
LEGAL_SHOWN = 12


def illegal_reason(game: Any, action: int) -> Optional[str]:
    """Why the player to act may not play ``action`` now, or None when it may."""
    if not 0 <= action < NUM_ACTIONS:
        return f"action {action} is out of range; actions are integers in [0, {NUM_ACTIONS})"
    if not game.action_mask()[action]:
        name = game.action_to_string(action)
        legal = [f"{a} ({game.action_to_string(a)})" for a in game.legal_actions()]
        shown = ", ".join(legal[:LEGAL_SHOWN]) + (
            f", and {len(legal) - LEGAL_SHOWN} more" if len(legal) > LEGAL_SHOWN else ""
        )
        return f"illegal action {name!r} ({action}); legal actions: {shown}"
    return None


def new_history() -> History:
    """The last few ``(seat, action id)`` pairs of an episode, oldest first."""
    return collections.deque(maxlen=HISTORY_SHOWN)


def render_table(
    mode: Optional[str],
    game: Any,
    viewer: Optional[int],
    history: History,
    names: Optional[Sequence[str]] = None,
    hint: str = "",
) -> Any:
    """The table by render mode: text (``"ansi"``), HTML (``"html"``), an ``(H, W, 3)``
    ``uint8`` image (``"rgb_array"``, needs Pillow), or for ``"human"`` the text printed to
    the terminal (returns None).  Without a mode, warns (Gymnasium's convention; ``hint``
    ends the warning) and returns None."""
    if mode is None:
        import gymnasium

        gymnasium.logger.warn(
            "render() called without a render mode; create the env with render_mode="
            + " or ".join(map(repr, RENDER_MODES))
            + hint
        )
        return None
    if mode == "html":
        return game_html(game, viewer, history, names)
    if mode == "rgb_array":
        from ..render.rgb import table_rgb

        return table_rgb(game, viewer, history, names)
    text = table_text(game, viewer, history, names)
    if mode == "human":
        print(text, flush=True)
        return None
    return text


def bot_rows(env: Any, method: str, bot: Any, rows: Optional[Any]) -> np.ndarray:
    """``rows`` of a :class:`~eights.VecEnv` bot query (``method``), checked: int64 game
    indices (every game when None)."""
    check_vecenv(env, method)
    if not isinstance(bot, str):
        raise TypeError(f"bot must be a bot name (str), got {describe(bot)}")
    if rows is None:
        return env._all_rows
    rows = np.asarray(rows)
    if rows.ndim != 1 or (rows.size and rows.dtype.kind not in "iu"):
        raise TypeError(f"rows must be a 1-d array of game indices, got shape {rows.shape} of {rows.dtype}")
    if rows.dtype.kind == "u" and rows.size and rows.max() > np.iinfo(np.int64).max:
        # The int64 cast below would wrap it to a negative row.
        raise ValueError(f"row {int(rows.max())} is out of range: rows are in [0, {env.num_envs})")
    return np.ascontiguousarray(rows, dtype=np.int64)


def root_actions(root: Any) -> np.ndarray:
    """``root`` of :meth:`~eights.VecEnv.bot_policies`, checked: a 1-d int64 array of action ids."""
    root = np.asarray(root)
    if root.ndim != 1 or (root.size and root.dtype.kind != "i"):
        raise TypeError(f"root must be a 1-d integer array of action ids, got {root.shape} of {root.dtype}")
    return np.ascontiguousarray(root, dtype=np.int64)

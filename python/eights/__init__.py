"""eights: fast reinforcement-learning environments for Crazy Eights games.

The game engine is written in Rust (``eights._core``); this package exposes it with
Gymnasium and PettingZoo environments, a batched :class:`VecEnv`, built-in bots and a
duplicate-deal arena (:mod:`eights.arena`). 25 presets cover the Crazy Eights family, from
``crazy_eights`` and ``switch_blackjack`` to ``crazy_eights_xtreme`` and ``zodiac``
(:func:`presets` lists them all); any rule can be overridden with a nested dict, e.g.
``{"deal": {"hand_size": 4}}``, and :class:`Rules` holds a complete rule set (from a
preset with overrides, or a TOML file with ``inherits = "<preset>"`` plus changes) that
``Game`` and ``make`` accept in place of a preset name; ``Rules.describe()`` gives the
rules in words. The names used most (``make``, ``VecEnv``, ``Rules``, ...) are here, and
each of them is also its subpackage's; every other name has one public import path, in
its subpackage (``eights.envs``, ``eights.agents``, ``eights.arena``, ``eights.rules``,
``eights.render``, ``eights.records``, ``eights.integrations``, ``eights.train``, ...).

Cards are strings such as ``"8H"``, ``"TD"`` (``"10D"`` is accepted on
input), ``"QS"``, ``"RJ"``/``"BJ"`` (red/black joker).  Every preset and
player count shares one action layout of ``NUM_ACTIONS == 197`` ids
(0-53 play a card, 54-57 nominate a suit, 58 draw, 59 accept a penalty,
60 pass, 61 end turn, 62-115 give a card, 116-169 keep a card, 170-178
target a seat, 179-193 ask for a rank, 194/195 challenge or not, 196
announce the last card); ``Game.action_to_string`` and
``Game.string_to_action`` convert to and from text such as ``"play 8H"``.

Quickstart, the game itself (seeded, so the result is always the same):

>>> import random
>>> import eights
>>> game = eights.Game("crazy_eights", num_players=3, seed=0)
>>> rng = random.Random(0)
>>> while not (game.is_terminal or game.is_truncated):
...     game.step(rng.choice(game.legal_actions()))
>>> print(game.winner, game.returns())
2 [-0.5 -0.5  1. ]

Quickstart, Gymnasium (the learner plays seat 0 against built-in random bots):

>>> import numpy as np
>>> env = eights.make("crazy_eights", num_players=2, seed=0)
>>> obs, info = env.reset()
>>> rng = np.random.default_rng(0)
>>> done = False
>>> while not done:
...     action = rng.choice(np.flatnonzero(info["action_mask"]))
...     obs, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
>>> print(reward, terminated)
1.0 True

Every preset is also registered with Gymnasium as ``"eights/<preset>-v1"``
once this package is imported (``gymnasium.make("eights/crazy_eights-v1")``;
without importing ``eights`` first, use the id
``"eights:eights/crazy_eights-v1"``).  Benchmark from the shell with
``python -m eights selfplay --preset crazy_eights``.
"""

import importlib.metadata as _metadata

from . import arena
from ._core import (
    NUM_ACTIONS,
    OBS_SIZE,
    Bot,
    Game,
    IllegalActionError,
    RandomBot,
    RulesError,
    determinize,
    episode_seed,
    preset_rules,
    preset_toml,
    presets,
    random_selfplay,
)
from .agents.pool import OpponentPool
from .envs.gym import EightsEnv, make
from .envs.registration import GYMNASIUM_NAMESPACE
from .envs.registration import register_envs as _register_envs
from .envs.vector import VecEnv
from .rules import RULES_SIZE, Rules, RuleSpace

try:
    __version__ = _metadata.version("eights")
except _metadata.PackageNotFoundError:  # running from a source tree
    __version__ = "0.0.0"

# The public API. The rest of the extension (arena helpers, the VecEnv core, rule
# resolution...) is internal and stays reachable as ``eights._core.<name>``.
__all__ = [
    "NUM_ACTIONS",
    "OBS_SIZE",
    "RULES_SIZE",
    "Bot",
    "EightsEnv",
    "Game",
    "GYMNASIUM_NAMESPACE",
    "IllegalActionError",
    "OpponentPool",
    "RandomBot",
    "Rules",
    "RulesError",
    "RuleSpace",
    "VecEnv",
    "__version__",
    "arena",
    "determinize",
    "episode_seed",
    "make",
    "preset_rules",
    "preset_toml",
    "presets",
    "random_selfplay",
]


_register_envs()

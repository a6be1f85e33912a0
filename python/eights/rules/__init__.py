"""Rule sets: :class:`Rules` (one rule set, from a preset with overrides or a TOML file),
:class:`RuleSpace` (rule sets drawn at random from the presets, their variants and house
rules) and the rules encoding an agent can read (:mod:`eights.rules.encoding`).

``Game``, the engine's game class, which takes a preset name or a :class:`Rules`, has its
own home, :mod:`eights.game` (``eights.Game``); it stays importable from here as before.
"""

from ..game import Game as Game  # an earlier home of eights.Game
from .core import Rules
from .core import _load_toml_text as _load_toml_text
from .encoding import RULES_SIZE
from .space import RuleSpace

__all__ = ["Rules", "RuleSpace", "RULES_SIZE"]

"""Rule sets: :class:`Rules` (one rule set, from a preset with overrides or a TOML file),
:class:`RuleSpace` (rule sets drawn at random from the presets, their variants and house
rules) and the rules encoding an agent can read (:mod:`eights.rules.encoding`).
"""

from .core import Rules
from .core import _load_toml_text as _load_toml_text
from .encoding import RULES_SIZE
from .space import RuleSpace

__all__ = ["Rules", "RuleSpace", "RULES_SIZE"]

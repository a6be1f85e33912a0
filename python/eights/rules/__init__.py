"""Rule sets: :class:`Rules` (one rule set, from a preset with overrides or a TOML file),
:class:`RuleSpace` (rule sets drawn at random from the presets, their variants and house
rules), the rules encoding an agent can read (:mod:`eights.rules.encoding`) and the one
reading of a ``preset`` argument, :func:`resolve_preset` (a name, a TOML path or a ``Rules``).
"""

from .core import Rules
from .encoding import RULES_SIZE
from .preset_arg import resolve_preset
from .space import RuleSpace
from .toml_text import PRESET_HELP, is_rules_path

__all__ = ["Rules", "RuleSpace", "RULES_SIZE", "resolve_preset", "is_rules_path", "PRESET_HELP"]

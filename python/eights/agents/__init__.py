"""Everything that can sit at a table: built-in bot names, Python policies, saved policy
files (:mod:`.load`), trained weights files played in Rust (:mod:`.files`, whose metadata
:func:`agent_file_metadata` reads) and pools of opponent snapshots (:mod:`.pool`)."""

from .files import agent_file_metadata
from .pool import OpponentPool
from .spec import AGENT_HELP, BOT_NAMES, AgentSpec, as_agent, load_agent

__all__ = ["AGENT_HELP", "BOT_NAMES", "AgentSpec", "OpponentPool", "agent_file_metadata", "as_agent", "load_agent"]

"""Everything that can sit at a table: built-in bot names, Python policies, saved policy
files (:mod:`.load`) and pools of opponent snapshots (:mod:`.pool`)."""

from .pool import OpponentPool
from .spec import AGENT_HELP, BOT_NAMES, AgentSpec, as_agent, load_agent

__all__ = ["AGENT_HELP", "BOT_NAMES", "AgentSpec", "OpponentPool", "as_agent", "load_agent"]

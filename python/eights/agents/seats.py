"""An agent sitting at one table: a seat player acts on an ``eights.Game`` (``act(game)``
for the player to act).  The Gymnasium env's opponents and the terminal game's bots are
made here from an :class:`~eights.agents.spec.AgentSpec` (a built-in bot is seeded per
episode) or from a Rust bot object the user built and seeded."""

from __future__ import annotations

from typing import Any, Optional, Union

from .._core import Bot, RandomBot
from .._utils.checks import as_action
from .spec import AgentSpec, as_agent

__all__ = ["BotSeat", "PolicySeat", "check_opponent", "seat_player"]

#: What an environment keeps for an opponent seat: a checked specification, or a Rust bot
#: object (used as it is, never re-seeded).
Opponent = Union[AgentSpec, Any]


class BotSeat:
    """A Rust bot (``eights.Bot``/``eights.RandomBot``) at the table."""

    __slots__ = ("bot", "name")

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", type(bot).__name__)

    def act(self, game: Any) -> int:
        return self.bot.act(game)


class PolicySeat:
    """A Python policy at the table: it sees the observation and the action mask of the seat
    to act; what it returns must be an action id (``TypeError`` naming the seat otherwise)."""

    __slots__ = ("agent", "name")

    def __init__(self, agent: AgentSpec) -> None:
        self.agent = agent
        self.name = agent.label

    def act(self, game: Any) -> int:
        seat = game.current_player
        action = self.agent.act(game.observation(seat), game.action_mask())
        return as_action(action, f"the action returned by {self.name!r} at seat {seat}")


def check_opponent(spec: Any, seat: int) -> Opponent:
    """An opponent of a single-table env, checked: any agent :func:`as_agent` accepts, or a
    Rust bot object (kept as it is: the user seeded it)."""
    if isinstance(spec, (Bot, RandomBot)):
        return spec
    return as_agent(spec, f"opponent for seat {seat}")


def seat_player(agent: Opponent, seed: Optional[int] = None) -> Any:
    """The player of a seat for one episode: a built-in bot seeded with ``seed``, a Rust bot
    object as it is, or a Python policy."""
    if isinstance(agent, AgentSpec):
        return BotSeat(agent.make_bot(seed)) if agent.is_builtin else PolicySeat(agent)
    return BotSeat(agent)

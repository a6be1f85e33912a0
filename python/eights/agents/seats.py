"""An agent sitting at one table: a seat player acts on an ``eights.Game`` (``act(game)``
for the player to act).  The Gymnasium env's opponents and the terminal game's bots are
made here from an :class:`~eights.agents.spec.AgentSpec` (a built-in bot is seeded per
episode) or from a Rust bot object the user built and seeded."""

from __future__ import annotations

from typing import Any, Dict, Optional, Union

from .._core import NUM_ACTIONS, Bot, IllegalActionError, RandomBot
from .._utils.checks import as_action
from .pool import OpponentPool
from .spec import AgentSpec, as_agent

__all__ = ["BotSeat", "PolicySeat", "check_opponent", "play_until", "seat_player"]

#: What an environment keeps for an opponent seat: a checked specification, or a Rust bot
#: object (used as it is, never re-seeded).
Opponent = Union[AgentSpec, Any]


class BotSeat:
    """A Rust bot (``eights.Bot``/``eights.RandomBot``) at the table."""

    __slots__ = ("bot", "label", "name")

    def __init__(self, bot: Any, label: Optional[str] = None) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", type(bot).__name__)  # what the bot plays: its spec
        self.label = label or self.name  # what a person reads: a weights file by its stem

    def act(self, game: Any, cancel: Any = None) -> int:
        """The bot's action; ``cancel`` (a ``threading.Event``) stops a built-in search from
        another thread (see ``eights.Bot.act``)."""
        if cancel is not None and isinstance(self.bot, Bot):
            return self.bot.act(game, cancel=cancel)
        return self.bot.act(game)


class PolicySeat:
    """A Python policy at the table: it sees the observation and the action mask of the seat
    to act; what it returns must be an action id (``TypeError`` naming the seat otherwise)."""

    __slots__ = ("agent", "label", "name", "obs_rules")

    def __init__(self, agent: AgentSpec, obs_rules: bool = False) -> None:
        self.agent = agent
        self.name = self.label = agent.label
        self.obs_rules = obs_rules

    def act(self, game: Any, cancel: Any = None) -> int:
        """The policy's action (a Python policy runs to its end: ``cancel`` is not read)."""
        seat = game.current_player
        obs = game.observation(seat)
        if self.obs_rules:  # the policy reads the rules too, as the env's learner does
            obs = {"obs": obs, "rules": game.rules_encoding()}
        action = self.agent.act(obs, game.action_mask())
        return as_action(action, f"the action returned by {self.name!r} at seat {seat}")


def check_opponent(spec: Any, seat: int) -> Opponent:
    """An opponent of a single-table env, checked: any agent :func:`as_agent` accepts, or a
    Rust bot object (kept as it is: the user seeded it)."""
    if isinstance(spec, (Bot, RandomBot)):
        return spec
    if isinstance(spec, OpponentPool):  # its act takes each game's draw: a batch's opponent
        raise TypeError(
            f"opponent for seat {seat}: an OpponentPool draws a snapshot per game of a batch and plays only in "
            "an eights.VecEnv; give a single-table env a bot name, a policy or a Bot"
        )
    return as_agent(spec, f"opponent for seat {seat}")


def seat_player(agent: Opponent, seed: Optional[int] = None, obs_rules: bool = False) -> Any:
    """The player of a seat for one episode: a built-in bot seeded with ``seed``, a Rust bot
    object as it is, or a Python policy (given the rules encoding too with ``obs_rules``, or
    when it reads them: ``obs_rules`` on the agent)."""
    if isinstance(agent, AgentSpec):
        if agent.is_builtin:
            return BotSeat(agent.make_bot(seed), agent.label)
        return PolicySeat(agent, obs_rules or agent.obs_rules)
    return BotSeat(agent)


#: Opponent moves in a row after which :func:`play_until` gives up, as ``VecEnv`` does: with
#: no decision cap (``limits.max_decisions = 0``) opponents of your own can go round in a
#: circle without the learner for ever.
MAX_OPPONENT_MOVES = 10_000


def play_until(game: Any, learner: int, opponents: Dict[int, Any], history: Any) -> None:
    """Step the seat players of ``opponents`` (seat -> player) on ``game`` until ``learner``
    is to act or the game ends, appending ``(seat, action)`` to ``history``. An illegal action
    of a player raises ``IllegalActionError`` naming its seat (the game is left before it);
    :data:`MAX_OPPONENT_MOVES` moves without the learner, a ``RuntimeError``."""
    for moves in range(MAX_OPPONENT_MOVES + 1):
        if game.is_terminal or game.is_truncated:
            return
        seat = game.current_player
        if seat == learner:
            return
        if moves == MAX_OPPONENT_MOVES:
            raise RuntimeError(
                f"the opponents made {MAX_OPPONENT_MOVES:,} moves without seat {learner} (the learner) to act: "
                "they go round in a circle under rules with no decision cap; set limits.max_decisions, "
                "then call reset()"
            )
        action = opponents[seat].act(game)
        try:
            if not 0 <= action < NUM_ACTIONS:
                raise IllegalActionError(f"action {action} is out of range [0, {NUM_ACTIONS})")
            game.step(action)
            history.append((seat, action))
        except IllegalActionError as exc:
            raise IllegalActionError(
                f"the opponent at seat {seat} chose an illegal action {action} "
                f"({exc}); its legal actions were {game.legal_actions()}. The "
                "episode cannot continue; call reset()"
            ) from exc

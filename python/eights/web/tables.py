"""One table of the web app, :class:`Table`: a game, who sits where (the person or a bot at
every seat), the moves so far, the results of each hand and the tally of the session over
its deals ("new deal" keeps the seats, "rematch" replays the same deal with everyone moved
one seat on).  Pure Python over :class:`eights.Game`; the app serialises access to a table
with its ``lock`` and runs the slow bots off the event loop (see :mod:`eights.web.app`)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from .._core import Game, derive_seed
from ..agents.seats import seat_player
from ..agents.spec import AgentSpec
from ..render import action_text
from ..rules import Rules
from ..rules.changes import titled
from .errors import ApiError, conflict
from .requests import is_quick
from .views import is_match, pretty

__all__ = ["Participant", "Table"]

#: How many past moves a table keeps for its view (the whole game is in ``game.record()``).
HISTORY_KEPT = 40


@dataclass
class Participant:
    """Someone at the table for the whole session: the person (``agent`` None) or a bot,
    with their tally over the deals played to the end."""

    name: str
    agent: Optional[AgentSpec] = None
    deals: int = 0
    wins: int = 0
    points: int = 0

    @property
    def is_person(self) -> bool:
        return self.agent is None


class Table:
    """A game in the web app.

    Args:
        table_id: the table's unguessable id (it is what lets a browser act at it).
        mode: ``"play"`` (one seat is the person's) or ``"watch"`` (bots only).
        rules, num_players: what is played.
        participants: one per seat, in seat order for the first deal.
        seed: the first deal's seed (None: a fresh one).
        stopping: set when the server stops: a bot's search then ends at once (503).
    """

    def __init__(
        self,
        table_id: str,
        mode: str,
        rules: Rules,
        num_players: int,
        participants: List[Participant],
        seed: Optional[int] = None,
        stopping: Optional[threading.Event] = None,
    ) -> None:
        self.id = table_id
        self.stopping = stopping
        self.mode = mode
        self.rules = rules
        self.match = is_match(rules)  # a match over several hands
        self.title = titled(rules)  # the page's title: the preset's with what changed from it
        self.n = num_players
        self.participants = participants
        self.seating = list(range(num_players))  # seating[seat] = index of the participant there
        self.lock = asyncio.Lock()
        self.touched = time.monotonic()
        self.deals = 0
        self.thinking: Optional[int] = None  # the seat whose bot is thinking on a worker thread
        self.seed: int = 0
        self.new_deal(seed)

    # ------------------------------------------------------------- deals

    def new_deal(self, seed: Optional[int] = None, swap: bool = False) -> None:
        """Deal again: a fresh deal (``seed``, or a random one) with the same seats, or with
        ``swap`` the same deal again with every participant moved one seat on."""
        if swap:
            self.seating = [self.seating[(s - 1) % self.n] for s in range(self.n)]
            seed = self.seed
        elif seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.seed = seed
        self.game = Game(self.rules, self.n, seed=seed)
        self.players: Dict[int, Any] = {}
        for seat, index in enumerate(self.seating):
            agent = self.participants[index].agent
            if agent is not None:
                self.players[seat] = seat_player(agent, derive_seed(seed, index + 1))
        self.history: List[Dict[str, Any]] = []
        self.hands: List[Dict[str, Any]] = []
        self.counted = False
        self.deals += 1

    # ------------------------------------------------------------- who is where

    def participant(self, seat: int) -> Participant:
        return self.participants[self.seating[seat]]

    @property
    def person_seat(self) -> Optional[int]:
        """The person's seat (None at a watched table)."""
        for seat in range(self.n):
            if self.participant(seat).is_person:
                return seat
        return None

    @property
    def over(self) -> bool:
        return self.game.is_terminal or self.game.is_truncated

    @property
    def bot_to_act(self) -> bool:
        """True when the game goes on and a bot is to act."""
        return not self.over and self.game.current_player in self.players

    def quick_turn(self) -> bool:
        """True when the bot to act answers at once (``random``, ``heuristic``)."""
        agent = self.participant(self.game.current_player).agent
        return agent is not None and is_quick(agent)

    # ------------------------------------------------------------- moves

    def check_person_turn(self, decision: Optional[int]) -> int:
        """The person's seat when it is theirs to act; 409 otherwise, or when ``decision``
        (the decision count the client saw) is not the game's."""
        seat = self.person_seat
        if seat is None:
            raise conflict("this table is watched: every seat is a bot's")
        if self.over:
            raise conflict("the game is over: deal again or leave")
        if decision is not None and decision != self.game.decision_count:
            raise conflict(
                f"the game has moved on (you answered decision {decision}, it is at "
                f"{self.game.decision_count}): reload the table"
            )
        if self.game.current_player != seat:
            raise conflict(f"it is not your turn: seat {self.game.current_player} is to act")
        return seat

    def bot_action(self) -> int:
        """The action of the bot to act (may run on a worker thread: the game is not changed)."""
        seat = self.game.current_player
        try:
            return int(self.players[seat].act(self.game, cancel=self.stopping))
        except concurrent.futures.CancelledError:
            raise ApiError(503, "the server is stopping: the bot's search was cancelled") from None
        except Exception as exc:  # noqa: BLE001 - a user's policy may raise anything
            name = self.participant(seat).name
            raise ApiError(500, f"the bot {name!r} at seat {seat} failed: {type(exc).__name__}: {exc}") from None

    def apply(self, action: int) -> Dict[str, Any]:
        """Play ``action`` (already checked legal) for the seat to act; returns the move as
        the view lists it, and keeps the hand results and the tally up to date."""
        game = self.game
        seat = game.current_player
        hands_before = game.hands_played
        try:
            game.step(action)
        except ValueError as exc:  # a policy's illegal action
            name = self.participant(seat).name
            raise ApiError(500, f"the bot {name!r} at seat {seat} chose an illegal move: {exc}") from None
        move = {
            "seat": seat,
            "action": int(action),
            "text": pretty(action_text(game, action)),
            "decision": game.decision_count,
        }
        self.history.append(move)
        del self.history[:-HISTORY_KEPT]
        if game.hands_played > hands_before:
            self.hands.append(
                {"hand": game.hands_played, "points": list(game.hand_points), "scores": list(game.scores)}
            )
        if self.over and not self.counted:
            self._count()
        self.touched = time.monotonic()
        return move

    def _count(self) -> None:
        self.counted = True
        game = self.game
        scores = game.scores
        for seat in range(self.n):
            who = self.participant(seat)
            who.deals += 1
            who.points += int(scores[seat])
            if game.is_terminal and game.winner == seat:
                who.wins += 1

    def record(self) -> Dict[str, Any]:
        """The game's record (``Game.record()``) with the names at each seat."""
        record = self.game.record()
        record["web"] = {"names": [self.participant(s).name for s in range(self.n)], "mode": self.mode}
        return record

"""The moves of a table, shared by the HTTP routes and the websocket: the person's move
(:func:`act`), the bots' moves (:func:`advance`), a new deal (:func:`deal`).  Every change
to a table happens under its lock; the bots that think for long (see
:func:`eights.web.requests.is_quick`) act on a worker thread bounded by the app's limiter,
so that the event loop, and every other table, goes on meanwhile."""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Dict, List, Optional

import anyio

from .config import YIELD_EVERY
from .errors import bad_request, conflict
from .requests import action_from
from .tables import Table

__all__ = ["act", "advance", "deal", "MAX_STEPS"]

#: A callback told of each move as it is played, and of a bot starting to think (the
#: websocket pushes both to the browser).
OnEvent = Optional[Callable[[str, Optional[Dict[str, Any]]], Awaitable[None]]]

#: The most bot moves one ``advance`` of a watched table plays.
MAX_STEPS = 1000


async def _bot_moves(table: Table, limiter: Any, limit: Optional[int], on_event: OnEvent) -> List[Dict[str, Any]]:
    """Play bots' moves (the caller holds the table's lock) until a person is to act, the
    game ends or ``limit`` moves were played."""
    moves: List[Dict[str, Any]] = []
    while table.bot_to_act and (limit is None or len(moves) < limit):
        if table.quick_turn():
            action = table.bot_action()
            if len(moves) % YIELD_EVERY == YIELD_EVERY - 1:
                await anyio.sleep(0)  # let the event loop serve the others (and Ctrl-C)
        else:
            table.thinking = table.game.current_player
            if on_event is not None:
                await on_event("thinking", None)
            try:
                action = await anyio.to_thread.run_sync(table.bot_action, limiter=limiter)
            finally:
                table.thinking = None
        moves.append(table.apply(action))
        if on_event is not None:
            await on_event("move", moves[-1])
    return moves


async def act(table: Table, body: Dict[str, Any], limiter: Any, on_event: OnEvent = None) -> List[Dict[str, Any]]:
    """The person's move ``body["action"]`` (an action id or its text; ``body["decision"]``
    optionally the decision count the client saw), then the bots' moves up to the person's
    next turn.  400 for a malformed or illegal move, 409 when it is not the person's turn."""
    if "action" not in body:
        raise bad_request("'action' is missing: give an action id or a move's text such as 'draw'")
    async with table.lock:
        decision = body.get("decision")
        if decision is not None and (isinstance(decision, bool) or not isinstance(decision, int)):
            raise bad_request(f"'decision' must be an integer (the decision count the move answers), got {decision!r}")
        table.check_person_turn(decision)
        move = table.apply(action_from(body["action"], table.game))
        if on_event is not None:
            await on_event("move", move)
        return [move] + await _bot_moves(table, limiter, None, on_event)


async def advance(table: Table, body: Dict[str, Any], limiter: Any, on_event: OnEvent = None) -> List[Dict[str, Any]]:
    """The bots' moves: at a played table, up to the person's turn; at a watched table,
    ``body["steps"]`` moves (default 1)."""
    steps = body.get("steps", 1)
    if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= MAX_STEPS:
        raise bad_request(f"'steps' must be an integer in [1, {MAX_STEPS}], got {steps!r}")
    async with table.lock:
        if table.over:
            raise conflict("the game is over: deal again or leave")
        limit = steps if table.person_seat is None else None
        return await _bot_moves(table, limiter, limit, on_event)


async def deal(table: Table, body: Dict[str, Any]) -> None:
    """A new deal (``body["swap"]`` false, ``body["seed"]`` optional) or the rematch of the
    same deal with everyone one seat on (``swap`` true)."""
    from .requests import seed_from

    swap = body.get("swap", False)
    if not isinstance(swap, bool):
        raise bad_request(f"'swap' must be true or false, got {swap!r}")
    seed = seed_from(body)
    if swap and seed is not None:
        raise bad_request("a rematch replays the same deal: give 'swap' or 'seed', not both")
    async with table.lock:
        table.new_deal(seed, swap=swap)

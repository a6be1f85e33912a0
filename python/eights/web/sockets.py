"""The websocket of a table, ``/api/games/{id}/ws``: what the browser uses to play and to
watch.  The server sends the table's state on connecting, after every move (with the move)
and when a bot starts thinking; the client sends JSON messages::

    {"op": "act", "action": 12 | "play 8H", "decision": 17}   the person's move
    {"op": "advance", "steps": 1}                              the bots' moves
    {"op": "deal", "swap": false}                              a new deal / a rematch
    {"op": "state"}                                            the state again

Every message of the client is answered. Each message of the server is ``{"type": "state",
"state": ..., "move": ...}`` (``move`` null when nothing moved),
``{"type": "thinking", "seat": k}`` or ``{"type": "error", "status": 4xx, "error": ...}``
(the connection stays open after an error).  At a played table, bots due to act before
the person's turn play as soon as the browser connects."""

from __future__ import annotations

import json
import logging
from typing import Any, Dict, Optional

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import flow
from .config import MAX_MESSAGE_BYTES
from .errors import ApiError, bad_request, too_large
from .requests import json_object
from .tables import Table
from .views import table_view

__all__ = ["game_socket"]

log = logging.getLogger("eights.web")

#: The websocket close code sent for an unknown game (4000 + the HTTP status).
CLOSE_NOT_FOUND = 4404


def _message(text: Optional[str]) -> Dict[str, Any]:
    if text is None:
        raise bad_request("send JSON text messages, not binary ones")
    if len(text) > MAX_MESSAGE_BYTES:
        raise too_large(f"the message is {len(text)} characters; the limit is {MAX_MESSAGE_BYTES}")
    try:
        return json_object(json.loads(text), "a message")
    except (ValueError, RecursionError) as exc:
        raise bad_request(f'a message must be a JSON object such as {{"op": "state"}}: {exc}') from None


async def _handle(ws: WebSocket, table: Table, service: Any, message: Dict[str, Any]) -> None:
    async def on_event(kind: str, move: Optional[Dict[str, Any]]) -> None:
        if kind == "thinking":
            await ws.send_json({"type": "thinking", "seat": table.thinking})
        else:
            await ws.send_json({"type": "state", "state": table_view(table), "move": move})

    op = message.get("op")
    if op == "act":
        await flow.act(table, message, service.limiter, on_event)
    elif op == "advance":
        if not await flow.advance(table, message, service.limiter, on_event):  # no bot to move: say so
            await ws.send_json({"type": "state", "state": table_view(table), "move": None})
    elif op == "deal":
        await flow.deal(table, message)
        await ws.send_json({"type": "state", "state": table_view(table), "move": None})
        if table.person_seat is not None and table.bot_to_act:
            await flow.advance(table, {}, service.limiter, on_event)
    elif op == "state":
        await ws.send_json({"type": "state", "state": table_view(table), "move": None})
    else:
        raise bad_request(f"unknown op {op!r}: the ops are act, advance, deal and state")


async def game_socket(ws: WebSocket) -> None:
    """Serve one browser at one table until it disconnects."""
    service = ws.app.state.service
    await ws.accept()
    try:
        table = service.tables.get(ws.path_params["game_id"])
    except ApiError as exc:
        await ws.send_json({"type": "error", "status": exc.status, "error": exc.message})
        await ws.close(code=CLOSE_NOT_FOUND)
        return
    try:
        await _handle(ws, table, service, {"op": "state"})
        if table.person_seat is not None and table.bot_to_act:  # the bots before the person's turn
            await _handle(ws, table, service, {"op": "advance"})
        while True:
            data = await ws.receive()
            if data["type"] == "websocket.disconnect":
                return
            try:
                service.tables.get(table.id)  # still held: touch it, or 404 once it expired
                await _handle(ws, table, service, _message(data.get("text")))
            except ApiError as exc:
                await ws.send_json({"type": "error", "status": exc.status, "error": exc.message})
    except (WebSocketDisconnect, OSError) as exc:  # the browser left (while we were sending)
        log.debug("websocket of game %s closed: %r", table.id, exc)

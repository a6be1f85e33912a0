"""The web app: :func:`create_app` builds the Starlette application of ``eights serve``,
its HTTP routes (the API under ``/api`` and the page with its static files) and its
websocket (:mod:`eights.web.sockets`).  Every refusal is a 4xx with ``{"error": message}``
(:mod:`eights.web.errors`); an unexpected failure is a 500 with a short message, logged,
never a stack trace sent to the client.

The API, in short (JSON in and out):

* ``GET /api/meta``: presets, bots, this server's policies and limits.
* ``GET /api/cards``: the SVG of every card (the HTML renderer's art).
* ``POST /api/rules``: ``{preset, variants} | {toml}`` (or a raw TOML body) -> the rules.
* ``POST /api/games``: ``{mode, preset|toml, variants, players, seat, bots, seed}`` -> a table.
* ``GET /api/games/{id}``; ``POST .../actions`` ``{action, decision}``; ``POST .../advance``
  ``{steps}``; ``POST .../deal`` ``{swap, seed}``; ``GET .../rules``; ``GET .../record``;
  ``DELETE /api/games/{id}``; websocket ``/api/games/{id}/ws``.
* ``GET /api/records``; ``POST /api/replays`` ``{path} | {record}``; ``GET /api/replays/{id}?step=k``.
* ``GET /api/health``: games and replays held, the server's memory.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any, AsyncIterator, Dict, Optional, Tuple
from urllib.parse import urlsplit

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from . import flow
from .config import LOOPBACK_HOSTS, MAX_BODY_BYTES, MAX_RECORD_BYTES, ServerConfig
from .errors import ApiError, bad_request, conflict, too_large
from .requests import json_object
from .service import STATIC, Service
from .sockets import game_socket
from .views import rules_view, table_view

__all__ = ["create_app"]

log = logging.getLogger("eights.web")


async def read_json(request: Request, limit: int = MAX_BODY_BYTES) -> Any:
    """The request's JSON body (``{}`` when empty): 413 over ``limit`` bytes, 400 when it is
    not JSON."""
    length = request.headers.get("content-length")
    if length is not None and length.isascii() and length.isdigit() and int(length) > limit:
        raise too_large(f"the request body is {length} bytes; the limit is {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large(f"the request body is over the limit of {limit} bytes")
    if not body.strip():
        return {}
    text = bytes(body).decode("utf-8", errors="replace")
    if request.headers.get("content-type", "").split(";")[0].strip() in ("application/toml", "text/plain"):
        return {"toml": text}
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise bad_request(f"the request body is not valid JSON: {exc}") from None


def _service(request: Any) -> Service:
    return request.app.state.service


async def meta(request: Request) -> Response:
    return JSONResponse(_service(request).meta())


async def cards(request: Request) -> Response:
    return JSONResponse(_service(request).cards, headers={"cache-control": "public, max-age=3600"})


async def rules(request: Request) -> Response:
    return JSONResponse(_service(request).rules(json_object(await read_json(request))))


async def create_game(request: Request) -> Response:
    service = _service(request)
    table = service.create_table(json_object(await read_json(request)))
    return JSONResponse(table_view(table), status_code=201)


async def get_game(request: Request) -> Response:
    return JSONResponse(table_view(_service(request).table(request)))


async def post_action(request: Request) -> Response:
    service = _service(request)
    table = service.table(request)
    moves = await flow.act(table, json_object(await read_json(request)), service.limiter)
    return JSONResponse({"moves": moves, "state": table_view(table)})


async def post_advance(request: Request) -> Response:
    service = _service(request)
    table = service.table(request)
    moves = await flow.advance(table, json_object(await read_json(request)), service.limiter)
    return JSONResponse({"moves": moves, "state": table_view(table)})


async def post_deal(request: Request) -> Response:
    table = _service(request).table(request)
    await flow.deal(table, json_object(await read_json(request)))
    return JSONResponse(table_view(table))


async def game_rules(request: Request) -> Response:
    return JSONResponse(rules_view(_service(request).table(request).rules))


async def game_record(request: Request) -> Response:
    table = _service(request).table(request)
    if not table.over:
        raise conflict("the record is shown once the game is over (it holds every hand)")
    return JSONResponse(table.record())


async def delete_game(request: Request) -> Response:
    _service(request).tables.get(request.path_params["game_id"])  # 404 when unknown
    _service(request).tables.discard(request.path_params["game_id"])
    return Response(status_code=204)


async def records(request: Request) -> Response:
    # Listing the folder and reading a record (then playing it through) happen on a worker
    # thread, so that the tables' moves and sockets go on meanwhile.
    return JSONResponse(await anyio.to_thread.run_sync(_service(request).records))


async def open_replay(request: Request) -> Response:
    service = _service(request)
    body = json_object(await read_json(request, MAX_RECORD_BYTES + 1024))
    replay = await anyio.to_thread.run_sync(service.load_replay, body)
    return JSONResponse(service.open_replay(replay), status_code=201)


async def replay_position(request: Request) -> Response:
    replay = _service(request).replays.get(request.path_params["replay_id"])
    query = request.query_params
    view = await anyio.to_thread.run_sync(replay.position, query.get("step", "0"), query.get("viewer"))
    view["replay"] = replay.summary()
    return JSONResponse(view)


async def health(request: Request) -> Response:
    return JSONResponse(_service(request).health())


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})


async def api_error(request: Any, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    if exc.status >= 500:
        log.error("%s %s: %s", request.method, request.url.path, exc.message)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def http_error(request: Any, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = exc.detail if exc.status_code != 404 else f"no such page or API route: {request.url.path}"
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


async def server_error(request: Any, exc: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": f"internal error ({type(exc).__name__}); the server logged it"}, status_code=500)


class SecurityHeaders:
    """Adds the headers every response carries: no MIME sniffing, no framing, no referrer,
    and a content security policy that lets the page run only its own scripts."""

    HEADERS = [
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (
            b"content-security-policy",
            b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            b"img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
        ),
    ]

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + self.HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


class SameOrigin:
    """Refuses what another site's page sends: a request that changes something (any method
    but GET and HEAD) or opens a websocket, whose ``Origin`` header names another site than
    the ``Host`` it was sent to (403), and a form's body (415: the API takes JSON or TOML).
    A page may send such "simple" requests across sites without asking the server first;
    every other site's page could otherwise create games and open replays on a server that
    listens on this computer. Scripts and curl send no ``Origin`` and are served."""

    FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "websocket" or (kind == "http" and scope["method"] not in ("GET", "HEAD")):
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            why = self._refusal(headers, kind == "http")
            if why is not None:
                status, message = why
                if kind == "websocket":
                    await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
                    return
                await JSONResponse({"error": message}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refusal(self, headers: Dict[str, str], http: bool) -> Optional[Tuple[int, str]]:
        origin, host = headers.get("origin"), headers.get("host", "")
        if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
            return 403, f"a request from another site ({origin[:80]}) is refused: use the page this server serves"
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if http and kind in self.FORMS:
            return 415, f"the API takes JSON (or TOML for rules), not {kind}"
        return None


ROUTES = [
    Route("/", index),
    Route("/api/meta", meta),
    Route("/api/cards", cards),
    Route("/api/rules", rules, methods=["POST"]),
    Route("/api/games", create_game, methods=["POST"]),
    Route("/api/games/{game_id}", get_game),
    Route("/api/games/{game_id}", delete_game, methods=["DELETE"]),
    Route("/api/games/{game_id}/actions", post_action, methods=["POST"]),
    Route("/api/games/{game_id}/advance", post_advance, methods=["POST"]),
    Route("/api/games/{game_id}/deal", post_deal, methods=["POST"]),
    Route("/api/games/{game_id}/rules", game_rules),
    Route("/api/games/{game_id}/record", game_record),
    WebSocketRoute("/api/games/{game_id}/ws", game_socket),
    Route("/api/records", records),
    Route("/api/replays", open_replay, methods=["POST"]),
    Route("/api/replays/{replay_id}", replay_position),
    Route("/api/health", health),
    Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
]


def create_app(config: Optional[ServerConfig] = None, **settings: Any) -> Starlette:
    """The Starlette app of ``eights serve`` for ``config`` (or a :class:`ServerConfig`
    built from ``settings``); the policies it offers are loaded here (``ValueError`` naming
    one that cannot be)."""
    config = config or ServerConfig(**settings)
    service = Service(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(service.expire_forever)
            yield
            service.stopping.set()
            tasks.cancel_scope.cancel()

    middleware = [Middleware(SecurityHeaders), Middleware(SameOrigin)]
    if config.loopback:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=list(LOOPBACK_HOSTS)))
    app = Starlette(
        routes=ROUTES,
        middleware=middleware,
        exception_handlers={ApiError: api_error, HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    app.state.service = service
    return app

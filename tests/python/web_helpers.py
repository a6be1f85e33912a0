"""Helpers of the web app's tests (tests/python/web/): a live server on a free port (uvicorn
in a thread, the real HTTP and websocket stack), a JSON client, a policy the server can offer
with ``--policy``, and the Chromium that the browser tests drive."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from typing import Any, Dict, Iterator, Optional

import numpy as np
import pytest

#: Where the browser tests look for Chromium (the first that exists), after $EIGHTS_CHROMIUM.
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def requires_web():
    """Skip the module unless the extra eights[web] and the test clients are installed."""
    for module in ("starlette", "uvicorn", "websockets", "httpx"):
        pytest.importorskip(module, reason=f"the web app's tests need {module}: pip install '.[web]' httpx")


@contextlib.contextmanager
def live_server(**settings: Any) -> Iterator[str]:
    """Serve ``eights.web.create_app(**settings)`` with uvicorn on 127.0.0.1 and a free port, in
    a thread; yields the base URL (``http://127.0.0.1:<port>``) and stops the server after."""
    import uvicorn

    from eights.web import create_app
    from eights.web.config import MAX_FRAME_BYTES

    app = create_app(**settings)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # As uvicorn sets it on the sockets it opens itself (without it, every answer here waits
    # some 40 ms for the client's delayed acknowledgement).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", ws_max_size=MAX_FRAME_BYTES, lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


def ws_url(base: str, game_id: str) -> str:
    return base.replace("http://", "ws://", 1) + f"/api/games/{game_id}/ws"


def first_legal(obs: np.ndarray, mask: np.ndarray) -> int:
    """A policy for ``--policy`` tests: the first legal action."""
    return int(np.flatnonzero(mask)[0])


def illegal_policy(obs: np.ndarray, mask: np.ndarray) -> int:
    """A broken policy: always an illegal action."""
    return int(np.flatnonzero(~np.asarray(mask, bool))[0])


def chromium_path() -> Optional[str]:
    """The Chromium to drive: $EIGHTS_CHROMIUM, or the first of :data:`CHROMIUM_NAMES` on PATH."""
    path = os.environ.get("EIGHTS_CHROMIUM")
    if path:
        return path if os.path.isfile(path) else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def state_of(client: Any, base: str, game_id: str) -> Dict[str, Any]:
    response = client.get(f"{base}/api/games/{game_id}")
    assert response.status_code == 200, response.text
    return response.json()

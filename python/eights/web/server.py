"""Running the web app: :func:`serve` starts uvicorn on the app of
:func:`eights.web.create_app` (what ``eights serve`` does) and prints where to point a
browser."""

from __future__ import annotations

import logging
import sys
import threading
import webbrowser
from typing import Any, Optional, TextIO

from .config import MAX_FRAME_BYTES, ServerConfig

__all__ = ["serve", "url_of"]


def url_of(config: ServerConfig) -> str:
    """The address a browser opens for ``config``."""
    host = config.host
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{config.port}/"


def serve(
    config: Optional[ServerConfig] = None,
    open_browser: bool = False,
    log_level: str = "warning",
    out: TextIO = sys.stderr,
    **settings: Any,
) -> None:
    """Serve the web app until interrupted (Ctrl-C).  ``config`` (or ``settings`` for a
    :class:`ServerConfig`) says where and with what limits; ``open_browser`` opens the page
    in the default browser once the server listens."""
    import uvicorn

    from .app import create_app

    config = config or ServerConfig(**settings)
    app = create_app(config)  # loads the policies: fails here, before listening
    url = url_of(config)
    print(f"eights serve: play at {url}  (Ctrl-C stops the server)", file=out, flush=True)
    if not config.loopback:
        print(
            f"eights serve: listening on {config.host}: anyone who can reach this address can play here",
            file=out,
            flush=True,
        )
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    logging.getLogger("eights.web").setLevel(log_level.upper())
    stopping = app.state.service.stopping

    class Server(uvicorn.Server):
        """uvicorn's server, which also ends the bots' searches as soon as it is told to stop:
        a search of seconds otherwise outlived the graceful shutdown, whose end cancelled its
        request with a traceback."""

        def handle_exit(self, sig: int, frame: Any) -> None:
            stopping.set()
            super().handle_exit(sig, frame)

    uv_config = uvicorn.Config(
        app,
        host=config.host,
        port=config.port,
        log_level=log_level,
        ws_max_size=MAX_FRAME_BYTES,
        timeout_graceful_shutdown=2,
    )
    Server(uv_config).run()

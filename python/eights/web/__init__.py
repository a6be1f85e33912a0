"""Play, watch and replay in the browser: the web app of ``eights serve`` (the optional
extra ``eights[web]``: Starlette on uvicorn).

* **Play** against built-in bots or the policies the server offers (``--policy``), on any
  preset, documented variant or uploaded house-rules TOML file;
* **Watch** bots play each other at a chosen speed, paused or step by step;
* **Replay** a game record (``Game.record()``, the envs' or the arena's ``record_dir``)
  with a slider, and share a link to a position.

Start it from the shell (``python -m eights serve``, then open http://127.0.0.1:8000/) or
from Python::

    from eights.web import serve
    serve(port=8000, records_dir="records")

:func:`create_app` returns the ASGI app itself (to run under another server, or to test
with Starlette's ``TestClient``).  The browser is never trusted: every move is checked by
the engine on the server, and every bad request is answered with a 4xx and a message.
"""

from .._utils.optional import require

require(["starlette", "uvicorn"], "web", "eights serve (the web app)")

from .app import create_app  # noqa: E402
from .config import ServerConfig  # noqa: E402
from .server import serve, url_of  # noqa: E402

__all__ = ["ServerConfig", "create_app", "serve", "url_of"]

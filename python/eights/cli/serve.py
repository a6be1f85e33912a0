"""``serve``: play, watch and replay in the browser (the web app :mod:`eights.web`, the
optional extra ``eights[web]``)::

    python -m eights serve                       # then open http://127.0.0.1:8000/
    python -m eights serve --port 8080 --records records/ --policy mine=runs/ppo.zip
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import socket
import sys
import threading
from typing import Any, Callable, Dict, List

from . import _args


def add_parser(subparsers: Any) -> None:
    """The ``serve`` command and its options."""
    p = subparsers.add_parser(
        "serve",
        help="play, watch and replay games in the browser (needs eights[web])",
        description="Serve a web app to play against bots, watch bots play and replay game records in a "
        "browser. It listens on 127.0.0.1 (this computer only) unless --host says otherwise; every move is "
        "checked by the engine on the server.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this computer only)")
    p.add_argument("--port", type=_args.int_in(1, 65535), default=8000, help="port to listen on (default: 8000)")
    p.add_argument(
        "--records",
        default=None,
        metavar="DIR",
        help="a folder of game records (*.json: Game.record(), the envs' or the arena's record_dir) that the "
        "Replay page may open; nothing outside it is read (default: none, records are uploaded)",
    )
    p.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer a policy as an opponent, by NAME: SPEC is module:attribute, a model saved by "
        "stable-baselines3 (.zip) or a trained weights file (.safetensors, played in Rust), as for "
        "play --bots; repeat for several",
    )
    p.add_argument(
        "--idle-timeout",
        type=_args.seconds,
        default=1800.0,
        metavar="SECONDS",
        help="drop a game nobody moved in for this long (default: 1800)",
    )
    p.add_argument("--max-games", type=_args.int_in(1, 10**6), default=1000, help="games held at once (default: 1000)")
    p.add_argument(
        "--think-threads",
        type=_args.int_in(1, 1024),
        default=None,
        metavar="N",
        help="threads for the bots that think for long (ismcts, pimc, net, policies) (default: the cores, at least 2)",
    )
    p.add_argument(
        "--max-search",
        type=_args.int_in(1, 1_000_000),
        default=None,
        metavar="N",
        help="the most simulations (ismcts:N) or worlds (pimc:N) a page may ask of a bot "
        "(default: 20,000, about 0.2 s a decision at 10 players)",
    )
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument(
        "--log-level",
        default="warning",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log level (default: warning; info logs every request)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve the web app until interrupted."""
    try:
        from ..web import ServerConfig, serve
        from ..web.config import parse_policy
    except ImportError as exc:
        _args.print_error(exc)
        return 2
    policies: Dict[str, str] = {}
    for text in args.policy:
        label, spec = parse_policy(text)
        if label in policies:
            raise ValueError(f"--policy: the name {label!r} is given twice")
        policies[label] = spec
    settings: Dict[str, Any] = dict(
        host=args.host,
        port=args.port,
        records_dir=args.records,
        policies=policies,
        idle_timeout=args.idle_timeout,
        max_games=args.max_games,
    )
    if args.think_threads is not None:
        settings["think_threads"] = args.think_threads
    if args.max_search is not None:
        settings["max_search"] = args.max_search
    # A saved SB3 model loads through stable-baselines3 and PyTorch: seconds with no word.
    slow = [
        f"{label}={spec}" for label, spec in policies.items() if spec.lower().endswith(".zip") and os.path.isfile(spec)
    ]
    if slow:
        print(f"loading {', '.join(slow)} (stable-baselines3 and PyTorch: a few seconds)", file=sys.stderr, flush=True)
    config = ServerConfig(**settings)
    _check_address(config.host, config.port)
    _until_interrupted(lambda: serve(config, open_browser=args.open, log_level=args.log_level))
    return 0


def _check_address(host: str, port: int) -> None:
    """Bind a socket where the server will listen, as asyncio does for uvicorn (every address
    of ``host``), and close it: a host that cannot be resolved or is not this computer's, or
    a port in use, is reported naming its option before the server starts (uvicorn printed
    ``[Errno 98] ...`` after the banner and exited 3); ``ValueError`` then."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError, ValueError) as exc:  # gaierror; a name too long or with NUL
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise ValueError(
            f"--host {host}: cannot find this address ({why}); give an address of this computer, "
            "such as 127.0.0.1 or 0.0.0.0"
        ) from None
    for family, kind, proto, _, address in infos:
        try:
            with socket.socket(family, kind, proto) as sock:
                if os.name == "posix":  # as asyncio binds: a port left in TIME_WAIT is free
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(address)
        except OSError as exc:
            why = exc.strerror or exc
            if exc.errno == errno.EADDRINUSE:
                raise ValueError(f"--port {port}: already in use on {host} ({why}); choose a free port") from None
            if exc.errno == errno.EADDRNOTAVAIL:
                raise ValueError(
                    f"--host {host}: not an address of this computer ({why}); give one, such as 127.0.0.1 or 0.0.0.0"
                ) from None
            raise ValueError(f"--host {host} --port {port}: cannot listen there ({why})") from None


def _until_interrupted(serve: Callable[[], None]) -> None:
    """Run ``serve`` and raise ``KeyboardInterrupt`` when Ctrl-C stopped it, as every command
    ends on Ctrl-C (one line and exit status 130, from :func:`eights.cli.main`): uvicorn
    stops on SIGINT, raises it again once stopped and then swallows the KeyboardInterrupt,
    so the signal is noted here on its way."""
    caught: List[int] = []

    def note(sig: int, frame: Any) -> None:
        caught.append(sig)
        signal.default_int_handler(sig, frame)

    # Only over Python's own handler (not one an embedding program set, nor SIG_IGN), and
    # only where signals can be handled: the main thread.
    watch = threading.current_thread() is threading.main_thread()
    watch = watch and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if watch:
        signal.signal(signal.SIGINT, note)
    try:
        serve()
    finally:
        if watch:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    if caught:
        raise KeyboardInterrupt

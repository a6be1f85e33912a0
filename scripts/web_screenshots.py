"""Screenshots of ``eights serve`` for the README and the documentation (``docs/figures/``),
taken in Chromium by Playwright from a server started here on a free port, with fixed seeds.

    pip install '.[web]' playwright pillow    # and Debian's chromium (or set EIGHTS_CHROMIUM)
    python scripts/web_screenshots.py docs/figures/serve_play.png docs/figures/serve_phone.png

Each output's file name picks its picture: ``serve_play`` (a table on a laptop screen),
``serve_phone`` (the same on a phone), ``serve_watch`` (bots watched, every hand face up),
``serve_replay`` (a record replayed). The PNGs are reduced to a 256-colour palette to stay small.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List

import eights

LAPTOP = {"width": 1180, "height": 720}
PHONE = {"width": 390, "height": 780}


def _chromium() -> str:
    path = os.environ.get("EIGHTS_CHROMIUM") or next(
        (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None
    )
    if not path:
        sys.exit("no Chromium found: apt-get install chromium, or set EIGHTS_CHROMIUM")
    return path


def _server(records: str) -> Iterator[str]:
    import uvicorn

    from eights.web import create_app

    sock = socket.socket()
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as uvicorn sets it on its own sockets
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(records_dir=records), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the web server stopped before it started (its error is printed above)")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)


def _setup(page: Any, base: str, mode: str, preset: str, players: int, seed: int, bots: Dict[int, str]) -> None:
    page.goto(f"{base}/#/{mode}")
    page.evaluate("localStorage.setItem('eights.delay', '0')")
    page.wait_for_selector(f"form#setup[data-mode={mode}] #start:not([disabled])")
    page.select_option("#preset", preset)
    page.wait_for_selector(f".rules-summary:has-text('{eights.Rules(preset).title}')")
    page.select_option("#players", str(players))
    for seat, bot in bots.items():
        page.select_option(f"#bot-{seat}", bot)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector(".table-view")


def play(page: Any, base: str) -> None:
    _setup(page, base, "play", "switch_blackjack", 3, 31, {1: "heuristic", 2: "ismcts:200"})
    rng = random.Random(3)
    for _ in range(4):  # a few moves, so that the log has some
        page.wait_for_selector(".prompt.yours")
        moves = page.locator(".board [data-action]")
        moves.nth(rng.randrange(moves.count())).click()
        page.wait_for_timeout(400)
    page.wait_for_selector(".prompt.yours")


def watch(page: Any, base: str) -> None:
    bots = {0: "heuristic", 1: "ismcts:200", 2: "random", 3: "pimc:100"}
    _setup(page, base, "watch", "crazy_eights_xtreme", 4, 5, bots)
    page.select_option("#speed", "150")
    for _ in range(200):
        if int(page.get_attribute(".table-view", "data-decision")) >= 14:
            break
        page.wait_for_timeout(50)
    page.click("#pause")
    page.wait_for_timeout(600)


def replay(page: Any, base: str) -> None:
    page.goto(f"{base}/#/replay?path=switch.json&step=23&viewer=")
    page.wait_for_selector("#step-label")
    page.wait_for_timeout(300)


SCENES: Dict[str, Callable[[Any, str], None]] = {
    "serve_play": play,
    "serve_phone": play,
    "serve_watch": watch,
    "serve_replay": replay,
}


def _record(folder: str) -> None:
    game = eights.Game("switch_blackjack", 3, seed=8)
    bots = [eights.Bot("heuristic", seed=p) for p in range(3)]
    while not (game.is_terminal or game.is_truncated):
        game.step(bots[game.current_player].act(game))
    record = game.record()
    record["web"] = {"names": ["heuristic", "heuristic 2", "heuristic 3"], "mode": "watch"}
    Path(folder, "switch.json").write_text(json.dumps(record), encoding="utf-8")


def _shrink(path: Path) -> None:
    from PIL import Image

    image = Image.open(path).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(path, optimize=True)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "outputs", nargs="+", help=f"PNG files to write; their names pick the picture ({', '.join(SCENES)})"
    )
    args = parser.parse_args(argv)
    unknown = [o for o in args.outputs if Path(o).stem not in SCENES]
    if unknown:
        parser.error(f"unknown picture(s) {', '.join(unknown)}; the names are {', '.join(SCENES)}")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as records, sync_playwright() as p:
        _record(records)
        server = _server(records)
        base = next(server)
        browser = p.chromium.launch(executable_path=_chromium())
        for output in map(Path, args.outputs):
            phone = output.stem == "serve_phone"
            page = browser.new_page(viewport=PHONE if phone else LAPTOP, is_mobile=phone, has_touch=phone)
            SCENES[output.stem](page, base)
            page.screenshot(path=str(output))
            page.close()
            _shrink(output)
            print(f"{output}: {output.stat().st_size // 1024} KiB")
        browser.close()
        next(server, None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

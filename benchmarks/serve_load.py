"""Load test of ``eights serve``: many games at once, driven by bots over HTTP and websockets.

    pip install '.[web]'
    python benchmarks/serve_load.py                          # 200 games, 2 waves of 60 s
    python benchmarks/serve_load.py --games 500 --seconds 300 --json load.json

The server runs in its own process (``python -m eights serve`` on a free port). ``--games``
client bots each create a table (the person's seat against ``--bots`` opponents, half of
them driven over HTTP, half over the table's websocket) and play it: a uniformly random
legal move each turn, the bots' replies in the same round trip, a new deal when a game ends.
A wave lasts ``--seconds``; then the clients stop and the server must drop every idle table
within ``--idle-timeout`` (plus its sweep). ``--waves`` waves run one after another on the
same server, so that memory that is not given back shows as growth from wave to wave.

Reported: decisions the server played per second (the persons' moves and the bots'), the
persons' moves per second, the latency of a move (the request until the answer with the
bots' replies; p50, p90, p99, max, per transport), the server's resident memory before, with
every table live (sampled every half second), and after the tables expired, and errors by
status (a run is clean with none). For scale, the same games are also played in process for
a few seconds (tables stepped directly, the state serialised as the server does, no
transport): the server's rate is given as a ratio to that baseline measured in this run.

The load driver and the server share the machine: on a small machine the driver's own CPU
time lowers the figures (the report says how many cores there were).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from typing import Any, Dict, List, Optional, Tuple

MIB = 2**20


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stats:
    """What the drivers of one wave count."""

    def __init__(self) -> None:
        self.decisions = 0
        self.person_moves = 0
        self.deals = 0
        self.latency: Dict[str, List[float]] = defaultdict(list)
        self.errors: Counter = Counter()


async def _think(seconds: float, rng: random.Random) -> None:
    """A person's time to think: ``seconds`` on average (uniform in [0.5, 1.5] times it)."""
    if seconds > 0:
        await asyncio.sleep(seconds * rng.uniform(0.5, 1.5))


class RawHTTP:
    """A minimal HTTP/1.1 client over one keep-alive connection (JSON in and out): a load
    driver as light as can be, so that the figures are the server's, not the client's."""

    def __init__(self, base: str) -> None:
        host, port = base.replace("http://", "", 1).split(":")
        self.host, self.port = host, int(port)
        self.reader: Optional[asyncio.StreamReader] = None
        self.writer: Optional[asyncio.StreamWriter] = None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def request(self, method: str, path: str, body: Any = None, retry: bool = True) -> Tuple[int, Any]:
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        )
        try:
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            assert self.reader is not None
            self.writer.write(head.encode() + data)
            await self.writer.drain()
            status = int((await self.reader.readline()).split()[1])
            length = 0
            while True:
                line = await self.reader.readline()
                if line in (b"\r\n", b""):
                    break
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            payload = await self.reader.readexactly(length)
        except (ConnectionError, asyncio.IncompleteReadError, IndexError):
            # The server closed an idle keep-alive connection before reading the request.
            await self.close()
            if not retry:
                raise
            return await self.request(method, path, body, retry=False)
        return status, json.loads(payload) if payload else None


async def _http_driver(
    base: str, spec: Dict[str, Any], think: float, stop: asyncio.Event, stats: Stats, rng: random.Random
) -> None:
    http = RawHTTP(base)

    async def post(path: str, body: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        status, answer = await http.request("POST", path, body)
        if status >= 300:
            stats.errors[f"http {status}: {(answer or {}).get('error', '')[:80]}"] += 1
            return None
        return answer

    state = await post("/api/games", spec)
    while state is not None and not stop.is_set():
        gid = state["id"]
        if state["over"]:
            state = await post(f"/api/games/{gid}/deal", {})
            stats.deals += 1
            continue
        if state["waiting_for"] == "bot":
            body = await post(f"/api/games/{gid}/advance", {})
        else:
            await _think(think, rng)
            move = rng.choice(state["legal"])
            start = time.perf_counter()
            body = await post(f"/api/games/{gid}/actions", {"action": move["id"], "decision": state["decision"]})
            stats.latency["http"].append(time.perf_counter() - start)
            stats.person_moves += 1
        if body is None:
            break
        stats.decisions += len(body["moves"])
        state = body["state"]
    await http.close()


async def _ws_driver(
    base: str, spec: Dict[str, Any], think: float, stop: asyncio.Event, stats: Stats, rng: random.Random
) -> None:
    import websockets

    http = RawHTTP(base)
    status, answer = await http.request("POST", "/api/games", spec)
    await http.close()
    if status >= 300:
        stats.errors[f"http {status}: {(answer or {}).get('error', '')[:80]}"] += 1
        return
    gid = answer["id"]
    url = base.replace("http://", "ws://", 1) + f"/api/games/{gid}/ws"
    async with websockets.connect(url, max_size=2**22) as ws:

        async def until_turn() -> Optional[Dict[str, Any]]:
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "error":
                    stats.errors[f"ws {message['status']}: {message['error'][:80]}"] += 1
                    return None
                if message["type"] == "state":
                    stats.decisions += int(message["move"] is not None)
                    if message["state"]["waiting_for"] != "bot":
                        return message["state"]

        state = await until_turn()
        while state is not None and not stop.is_set():
            if state["over"]:
                await ws.send(json.dumps({"op": "deal"}))
                stats.deals += 1
                state = await until_turn()
                continue
            await _think(think, rng)
            move = rng.choice(state["legal"])
            start = time.perf_counter()
            await ws.send(json.dumps({"op": "act", "action": move["id"], "decision": state["decision"]}))
            stats.person_moves += 1
            state = await until_turn()
            stats.latency["ws"].append(time.perf_counter() - start)


async def _sample(http: RawHTTP, stop: asyncio.Event, samples: List[Dict[str, Any]], t0: float):
    while not stop.is_set():
        _, health = await http.request("GET", "/api/health")
        samples.append({"t": time.perf_counter() - t0, "games": health["games"], "rss": health["rss_bytes"]})
        try:
            await asyncio.wait_for(stop.wait(), 0.5)
        except asyncio.TimeoutError:
            pass


async def _wave(base: str, args: argparse.Namespace, wave: int) -> Dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    samples: List[Dict[str, Any]] = []
    http = RawHTTP(base)
    _, before = await http.request("GET", "/api/health")
    spec = {"preset": args.preset, "players": args.players, "seat": 0, "bots": args.bots}
    n_ws = round(args.games * args.ws_share)
    t0 = time.perf_counter()
    sampler = asyncio.ensure_future(_sample(http, stop, samples, t0))
    drivers = [
        asyncio.ensure_future(
            (_ws_driver if k < n_ws else _http_driver)(
                base, spec, args.think, stop, stats, random.Random(wave * 100003 + k)
            )
        )
        for k in range(args.games)
    ]
    await asyncio.sleep(args.seconds)
    stop.set()
    await asyncio.gather(*drivers)
    played = time.perf_counter() - t0
    await sampler
    _, at_load = await http.request("GET", "/api/health")
    deadline = time.perf_counter() + args.idle_timeout + 30
    while True:
        _, after = await http.request("GET", "/api/health")
        if after["games"] == 0 or time.perf_counter() > deadline:
            break
        await asyncio.sleep(0.5)
    expired_after = time.perf_counter() - t0 - played
    await http.close()
    live = [s for s in samples if s["games"] >= args.games]
    steady = live[len(live) // 5 :] or live  # the first fifth of the wave: memory still settling
    return {
        "wave": wave,
        "seconds": played,
        "decisions": stats.decisions,
        "decisions_per_s": stats.decisions / played,
        "person_moves": stats.person_moves,
        "person_moves_per_s": stats.person_moves / played,
        "deals": stats.deals,
        "latency_ms": {k: _percentiles(v) for k, v in sorted(stats.latency.items())},
        "errors": dict(stats.errors),
        "rss_before": before["rss_bytes"],
        "rss_live_min": min((s["rss"] for s in steady), default=None),
        "rss_live_max": max((s["rss"] for s in steady), default=None),
        "rss_drift_mib_per_min": _slope(steady),
        "rss_at_load": at_load["rss_bytes"],
        "games_at_load": at_load["games"],
        "rss_after_expiry": after["rss_bytes"],
        "games_after_expiry": after["games"],
        "expired_in_s": expired_after,
    }


def _percentiles(values: List[float]) -> Dict[str, float]:
    ordered = sorted(values)

    def q(p: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return {"n": len(ordered), "p50": q(0.5), "p90": q(0.9), "p99": q(0.99), "max": 1000 * ordered[-1]}


def _slope(samples: List[Dict[str, Any]]) -> Optional[float]:
    """Least-squares drift of the resident memory, MiB per minute."""
    if len(samples) < 3:
        return None
    ts = [s["t"] for s in samples]
    ys = [s["rss"] / MIB for s in samples]
    mt, my = statistics.fmean(ts), statistics.fmean(ys)
    var = sum((t - mt) ** 2 for t in ts)
    return 60 * sum((t - mt) * (y - my) for t, y in zip(ts, ys)) / var if var else None


def baseline(args: argparse.Namespace, seconds: float = 3.0) -> float:
    """Decisions per second of the same games played in this process: tables stepped
    directly and their state serialised to JSON as the server does, without transport."""
    from eights.web.requests import agents_from, rules_from
    from eights.web.tables import Participant, Table
    from eights.web.views import table_view

    async def play() -> float:
        rules = rules_from({"preset": args.preset})
        agents = agents_from({"bots": args.bots}, rules, args.players, list(range(1, args.players)), {})
        people = [Participant("You")] + [Participant(a.label, a) for _, a in sorted(agents.items())]
        table = Table("baseline", "play", rules, args.players, people, seed=0)
        rng = random.Random(0)
        decisions, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            if table.over:
                table.new_deal()
            elif table.bot_to_act:
                table.apply(table.bot_action())
                decisions += 1
            else:
                move = rng.choice(table_view(table)["legal"])
                table.apply(move["id"])
                json.dumps(table_view(table))
                decisions += 1
        return decisions / (time.perf_counter() - start)

    return asyncio.run(play())


def run(args: argparse.Namespace) -> Dict[str, Any]:
    """Start a server, run the waves, stop it; the report."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "eights", "serve", "--port", str(port), "--idle-timeout", str(args.idle_timeout)]
    command += ["--max-games", str(max(1000, 2 * args.games)), "--log-level", "error"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _wait_until_up(base, server)
        waves = [asyncio.run(_wave(base, args, wave)) for wave in range(1, args.waves + 1)]
    finally:
        server.terminate()
        try:
            _, err = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            _, err = server.communicate()
    return {
        "games": args.games,
        "ws_share": args.ws_share,
        "preset": args.preset,
        "players": args.players,
        "bots": args.bots,
        "think": args.think,
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}",
        "waves": waves,
        "baseline_decisions_per_s": baseline(args) if args.baseline else None,
        "server_stderr": err[-2000:],
    }


def _wait_until_up(base: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            asyncio.run(RawHTTP(base).request("GET", "/api/health", retry=False))
            return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                err = server.stderr.read() if server.stderr else ""
                raise RuntimeError("the server did not start: " + err) from None
            time.sleep(0.2)


def report(result: Dict[str, Any]) -> str:
    lines = [
        f"eights serve load test: {result['games']} games at once ({result['ws_share']:.0%} over websockets, the rest "
        f"over HTTP), {result['preset']}, {result['players']} players, '{result['bots']}' opponents, "
        + (f"{result['think']:g} s to think per move" if result["think"] else "no time to think (saturating)"),
        f"machine: {result['machine']}; the server and the load driver share it",
    ]
    base = result["baseline_decisions_per_s"]
    for w in result["waves"]:
        lines.append(
            f"wave {w['wave']}: {w['seconds']:.0f} s, {w['decisions']} decisions ({w['decisions_per_s']:.0f}/s"
            + (f", {w['decisions_per_s'] / base:.2f}x the in-process baseline" if base else "")
            + f"), {w['person_moves']} person moves ({w['person_moves_per_s']:.0f}/s), {w['deals']} new deals"
        )
        for transport, p in w["latency_ms"].items():
            lines.append(
                f"  move latency over {transport} (the move and the bots' replies): p50 {p['p50']:.1f} ms, "
                f"p90 {p['p90']:.1f} ms, p99 {p['p99']:.1f} ms, max {p['max']:.1f} ms (n={p['n']})"
            )
        mib = lambda b: "n/a" if b is None else f"{b / MIB:.1f} MiB"  # noqa: E731
        drift = w["rss_drift_mib_per_min"]
        lines.append(
            f"  server memory: {mib(w['rss_before'])} before; with {w['games_at_load']} games {mib(w['rss_live_min'])}"
            f" to {mib(w['rss_live_max'])} (drift {'n/a' if drift is None else f'{drift:+.2f} MiB/min'}), "
            f"{mib(w['rss_at_load'])} at the end; {mib(w['rss_after_expiry'])} once the tables expired "
            f"({w['games_after_expiry']} left, {w['expired_in_s']:.1f} s after the last move)"
        )
        lines.append(f"  errors: {w['errors'] or 'none'}")
    if base:
        lines.append(f"in-process baseline (no transport): {base:.0f} decisions/s")
    return "\n".join(lines)


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200, help="games at once (default: 200)")
    p.add_argument("--seconds", type=float, default=60.0, help="length of a wave (default: 60)")
    p.add_argument("--waves", type=int, default=2, help="waves on the same server (default: 2)")
    p.add_argument(
        "--ws-share", type=float, default=0.5, help="share of the games driven over websockets (default: 0.5)"
    )
    p.add_argument("--preset", default="crazy_eights")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--bots", default="heuristic", help="the opponents (default: heuristic)")
    p.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="a client's mean time to think before its move, seconds (default: 0, as fast as the server answers)",
    )
    p.add_argument("--idle-timeout", type=float, default=10.0, help="the server's --idle-timeout (default: 10)")
    p.add_argument("--no-baseline", dest="baseline", action="store_false", help="skip the in-process baseline")
    p.add_argument("--json", default=None, metavar="PATH", help="also write the report as JSON")
    return p.parse_args(argv)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    result = run(args)
    print(report(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
    return 0 if all(not w["errors"] and w["games_after_expiry"] == 0 for w in result["waves"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())

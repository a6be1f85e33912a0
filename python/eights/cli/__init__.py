"""Command-line tools: ``eights {selfplay,arena,botspeed,play,replay,soak,presets}`` (the
console script; ``python -m eights ...`` does the same).

``selfplay`` benchmarks random-vs-random games, first in the Rust loop
(:func:`eights.random_selfplay`), then (unless ``--python-loop 0``) in a plain
Python loop over :class:`eights.Game`, to show the cost of driving the engine
from Python::

    python -m eights selfplay --preset crazy_eights --players 2 --games 20000 --seed 0
    python -m eights selfplay --preset switch_blackjack --players 4 --python-loop 0
    python -m eights selfplay --rules '{"deal": {"hand_size": 4}}'
    python -m eights presets

``arena`` plays a duplicate-deal tournament between built-in bots (see
:mod:`eights.arena`), shows a progress bar (with tqdm), prints the ratings table and
optionally saves a chart (with matplotlib)::

    python -m eights arena --preset crazy_eights --players 2 --agents random,heuristic,pimc:50 --games 500
    python -m eights arena --agents heuristic,ismcts:400 --games 2000 --plot ratings.png

``botspeed`` times each bot's decisions (mean and longest, one thread) in games against the
heuristic bot, on one or more presets::

    python -m eights botspeed --presets crazy_eights,switch_blackjack --bots random,heuristic,ismcts:400

``soak`` plays random games over every preset and player count for a while, through the
Rust loop, the Python API and ``VecEnv``, checks the engine's invariants after every decision
and reports memory before and after (see :mod:`eights.soak`); it exits 1 on a violation::

    python -m eights soak --seconds 60

``replay`` prints a saved game record (``--record`` of the arena, ``record_dir`` of the envs)::

    python -m eights replay records/episode_0.json --tables 10

``play`` lets a person play a hand against bots in the terminal (see :mod:`eights.play`)::

    python -m eights play --preset switch_blackjack --players 3 --seat 0 --bots heuristic --seed 7
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any, Dict, Optional, Sequence

import eights


def _parse_rules(text: Optional[str]) -> Optional[Dict[str, Any]]:
    if text is None:
        return None
    try:
        rules = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SystemExit(f"error: --rules must be a JSON object: {exc}") from None
    if not isinstance(rules, dict):
        raise SystemExit("error: --rules must be a JSON object, e.g. '{\"deal\": {\"hand_size\": 4}}'")
    return rules


def _progress(iterable: Any, total: int, desc: str) -> Any:
    """Wrap ``iterable`` in a tqdm progress bar when tqdm is installed."""
    try:
        from tqdm import tqdm
    except ImportError:
        return iterable
    return tqdm(iterable, total=total, desc=desc, unit="game", file=sys.stderr)


def _rate(count: float, seconds: float) -> str:
    return f"{count / seconds:,.0f}" if seconds > 0 else "inf"


def run_python_loop(
    preset: str, players: int, games: int, seed: int, rules: Optional[Dict[str, Any]] = None
) -> Dict[str, Any]:
    """Play ``games`` random games through the Python API.

    Returns a dict with ``games``, ``decisions``, ``wins`` (per seat),
    ``no_winner``, ``truncated`` and ``seconds``.
    """
    rng = random.Random(seed)
    game = eights.Game(preset, players, seed=seed, rules=rules)
    wins = [0] * players
    no_winner = truncated = decisions = 0
    start = time.perf_counter()
    for _ in _progress(range(games), games, "python loop"):
        game.reset(seed=rng.getrandbits(63))
        while not game.is_terminal and not game.is_truncated:
            game.step(rng.choice(game.legal_actions()))
            decisions += 1
        if game.is_truncated:
            truncated += 1
        if game.winner is None:
            no_winner += 1
        else:
            wins[game.winner] += 1
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "decisions": decisions,
        "wins": wins,
        "no_winner": no_winner,
        "truncated": truncated,
        "seconds": seconds,
    }


def _report(title: str, stats: Dict[str, Any]) -> None:
    games = stats["games"]
    seconds = stats["seconds"]
    decisions = stats["decisions"]
    print(f"{title}")
    print(f"  games played:       {games:,}")
    if games:
        rates = ", ".join(
            f"seat {seat}: {wins / games:.3f}" for seat, wins in enumerate(stats["wins"])
        )
        print(f"  win rate per seat:  {rates}")
        print(f"  no winner:          {stats['no_winner']:,}")
        print(f"  truncated:          {stats['truncated']:,}")
        print(f"  decisions per game: {decisions / games:.1f}")
    print(f"  time:               {seconds:.3f} s")
    print(f"  decisions/second:   {_rate(decisions, seconds)}")
    print(f"  games/second:       {_rate(games, seconds)}")


def cmd_selfplay(args: argparse.Namespace) -> int:
    """Run the Rust self-play benchmark, then the optional Python loop."""
    rules = _parse_rules(args.rules)
    print(f"preset={args.preset} players={args.players} seed={args.seed}")
    stats = eights.random_selfplay(
        args.preset, num_players=args.players, games=args.games, seed=args.seed, rules=rules
    )
    _report("Rust loop (eights.random_selfplay)", stats)
    if args.python_loop > 0:
        py_stats = run_python_loop(args.preset, args.players, args.python_loop, args.seed, rules)
        _report("Python loop (eights.Game + random.Random)", py_stats)
        rust_rate = stats["decisions"] / stats["seconds"] if stats["seconds"] > 0 else 0.0
        py_rate = (
            py_stats["decisions"] / py_stats["seconds"] if py_stats["seconds"] > 0 else 0.0
        )
        if rust_rate > 0 and py_rate > 0:
            print(f"Rust loop speed-up over the Python loop: {rust_rate / py_rate:.1f}x decisions/second")
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    """Run a duplicate-deal tournament between bots and print the ratings."""
    from .. import arena

    from ..agents.load import load_policy

    rules = _parse_rules(args.rules)
    for path in args.out or []:
        if not path.lower().endswith((".json", ".csv")):
            raise ValueError(f"--out must name a .json or .csv file, got {path!r}")
    # Bot names, module:attribute policies and saved SB3 models (ValueError when unknown).
    from ..observation import ObservationBounds

    scale = ObservationBounds(args.preset, args.players, rules=rules)
    agents = [load_policy(a.strip(), scale) for a in args.agents.split(",") if a.strip()]
    if args.plot:
        problem = _plot_problem(args.plot)
        if problem:  # found before the tournament runs, not after
            print(f"error: --plot {args.plot}: {problem}", file=sys.stderr)
            return 2
    start = time.perf_counter()
    result = arena.tournament(
        agents,
        preset=args.preset,
        num_players=args.players,
        games=args.games,
        seed=args.seed,
        threads=args.threads,
        rules=rules,
        bootstrap=args.bootstrap,
        progress=not args.no_progress,
        record_dir=args.record,
    )
    print(result.table())
    print(f"time: {time.perf_counter() - start:.1f} s")
    for path in args.out or []:
        result.save(path)
        print(f"results saved to {path}")
    if args.plot:
        try:
            result.plot(args.plot)
        except ImportError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"chart saved to {args.plot}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play a hand against bots in the terminal."""
    from ..play import play

    rules = _parse_rules(args.rules)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    return play(args.preset, args.players, seat=args.seat, bots=bots, seed=args.seed, rules=rules)


def cmd_replay(args: argparse.Namespace) -> int:
    """Print a saved game record in the terminal, move by move."""
    from ..render import replay_text
    from ..records import load_record

    try:
        record = load_record(args.file)
    except OSError as exc:
        raise ValueError(f"cannot read {args.file!r}: {exc}") from None
    viewer = None if args.viewer is None else int(args.viewer)
    print(replay_text(record, viewer=viewer, every=args.tables), end="")
    return 0


def cmd_botspeed(args: argparse.Namespace) -> int:
    """Time each bot's decisions on each preset (one thread, games against the heuristic)."""
    from .. import arena
    from .._core import parse_bot

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    for b in bots:
        parse_bot(b)  # ValueError naming the allowed bots
    print(
        f"{args.players} players, {args.games} duplicate deals against heuristic per bot, one thread, "
        f"seed {args.seed}"
    )
    w = max(10, max(len(b) for b in bots))
    print(f"{'preset':<22}  {'bot':<{w}}  {'decisions/s':>12}  {'ms/decision':>11}  {'longest ms':>10}")
    for preset in presets:
        for b in bots:
            opponents = ["heuristic"] * (args.players - 1)
            res = arena.play([b] + opponents, preset, args.games, args.seed, threads=1)
            dec = float(res["agent_decisions"][0])
            sec = float(res["agent_seconds"][0])
            rate = dec / sec if sec > 0 else float("inf")
            ms = 1000.0 * sec / dec if dec > 0 else float("nan")
            longest = 1000.0 * float(res["agent_max_seconds"][0])
            print(f"{preset:<22}  {b:<{w}}  {rate:12,.0f}  {ms:11.4f}  {longest:10.3f}")
    return 0


def _plot_problem(path: str) -> Optional[str]:
    """Why a chart cannot be saved to ``path`` (None when it can)."""
    import os

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return "saving a chart needs matplotlib (pip install matplotlib)"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK):
        return f"the folder {folder} is not writable"
    if os.path.isdir(path):
        return "is a folder"
    return None


def cmd_soak(args: argparse.Namespace) -> int:
    """Random games with invariant checks over every preset and player count."""
    from ..diagnostics import soak

    presets = [p.strip() for p in args.presets.split(",") if p.strip()] if args.presets else None
    if args.decisions is not None:
        return soak.main_fast(
            args.decisions, args.seed, presets, args.json, args.threads, args.obs_every, args.full_every
        )
    return soak.main(args.seconds, args.seed, presets, args.json)


def cmd_presets(args: argparse.Namespace) -> int:
    """Print the available presets, one per line."""
    for name in eights.presets():
        print(name)
    return 0


_U64_MAX = 2**64 - 1


def _int_in(text: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"must be in [{low}, {high}], got {value}")
    return value


def _non_negative(text: str) -> int:
    return _int_in(text, 0, _U64_MAX)


def _positive(text: str) -> int:
    return _int_in(text, 1, _U64_MAX)


def _players(text: str) -> int:
    return _int_in(text, 2, 10)


def _threads(text: str) -> int:
    return _int_in(text, 0, 1024)


def _soak_count(text: str) -> int:
    return _int_in(text, 0, 2**63 - 1)


def _soak_every(text: str) -> int:
    return _int_in(text, 1, 2**32 - 1)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not 0 <= value < 10**7:
        raise argparse.ArgumentTypeError(f"must be in [0, 1e7), got {text}")
    return value


def build_parser(prog: str = "python -m eights") -> argparse.ArgumentParser:
    """The argument parser of ``python -m eights`` (``prog="eights"`` for the console script)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Tools for the eights Crazy Eights RL library.",
    )
    parser.add_argument("--version", action="version", version=f"eights {eights.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    selfplay = sub.add_parser(
        "selfplay",
        help="benchmark random-vs-random games",
        description="Play random-vs-random games in the Rust loop and in a Python loop; "
        "report win rates and decisions per second.",
    )
    selfplay.add_argument("--preset", default="crazy_eights", help="rules preset (default: crazy_eights)")
    selfplay.add_argument("--players", type=_players, default=2, help="number of players (default: 2)")
    selfplay.add_argument("--games", type=_non_negative, default=20000, help="games in the Rust loop (default: 20000)")
    selfplay.add_argument("--seed", type=_non_negative, default=0, help="random seed (default: 0)")
    selfplay.add_argument(
        "--python-loop",
        type=_non_negative,
        default=2000,
        metavar="N",
        help="games in the Python loop; 0 skips it (default: 2000)",
    )
    selfplay.add_argument("--rules", default=None, metavar="JSON", help="rule overrides as a JSON object")
    selfplay.set_defaults(func=cmd_selfplay)

    arena = sub.add_parser(
        "arena",
        help="duplicate-deal tournament between bots, with ratings",
        description="Play every table of the given bots over duplicate deals (each deal replayed "
        "with the seats rotated), print win rates with 95% intervals and Bradley-Terry ratings "
        "(Elo scale) with bootstrap intervals. Bots: random, heuristic, ismcts:N (N simulations "
        "per decision), pimc:N (N sampled worlds per decision), net (the learned bot, on the presets it "
        "was trained for).",
    )
    arena.add_argument("--preset", default="crazy_eights", help="rules preset (default: crazy_eights)")
    arena.add_argument("--players", type=_players, default=2, help="number of players (default: 2)")
    arena.add_argument(
        "--agents",
        default="random,heuristic,ismcts:400",
        help="comma-separated agents: bot names, module:attribute (a policy f(obs, mask) -> action "
        "or an object with act/act_batch) or paths of saved SB3 models (.zip) "
        "(default: random,heuristic,ismcts:400)",
    )
    arena.add_argument(
        "--games", type=_positive, default=1000, help="duplicate deals per table (default: 1000)"
    )
    arena.add_argument("--seed", type=_non_negative, default=0, help="random seed (default: 0)")
    arena.add_argument("--threads", type=_threads, default=0, help="worker threads, 0 = all cores (default: 0)")
    arena.add_argument(
        "--bootstrap", type=_positive, default=1000, help="bootstrap resamples for the intervals (default: 1000)"
    )
    arena.add_argument("--rules", default=None, metavar="JSON", help="rule overrides as a JSON object")
    arena.add_argument("--plot", default=None, metavar="PNG", help="save a chart of the ratings (needs matplotlib)")
    arena.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    arena.add_argument(
        "--record", default=None, metavar="DIR",
        help="save a replay record of every game in DIR (episode_<k>.json; see 'replay')",
    )
    arena.add_argument(
        "--out", action="append", default=None, metavar="FILE",
        help="also write the results to FILE: .json (everything) or .csv (the ratings table); repeatable",
    )
    arena.set_defaults(func=cmd_arena)

    play = sub.add_parser(
        "play",
        help="play a hand against bots in the terminal",
        description="Play one hand against built-in bots: each turn shows the table and your legal "
        'moves; answer with a move number or its text ("8h", "10D", "draw", "suit H"). '
        '"help" lists the moves, "quit" or end of input leaves.',
    )
    play.add_argument("--preset", default="crazy_eights", help="rules preset (default: crazy_eights)")
    play.add_argument("--players", type=_players, default=2, help="number of players (default: 2)")
    play.add_argument("--seat", type=_non_negative, default=0, help="your seat, 0 moves first (default: 0)")
    play.add_argument(
        "--bots",
        default="heuristic",
        help="bot for every other seat, or a comma-separated bot per other seat: random, heuristic, "
        "ismcts:N, pimc:N, net, module:attribute (your policy) or a saved SB3 model (.zip) (default: heuristic)",
    )
    play.add_argument("--seed", type=_non_negative, default=None, help="random seed (default: a fresh one, printed)")
    play.add_argument("--rules", default=None, metavar="JSON", help="rule overrides as a JSON object")
    play.set_defaults(func=cmd_play)

    botspeed = sub.add_parser(
        "botspeed",
        help="time each bot's decisions",
        description="Play each bot against the heuristic bot on each preset (one thread) and print "
        "its decisions per second, mean milliseconds per decision and longest decision.",
    )
    botspeed.add_argument(
        "--presets",
        default="crazy_eights,crazy_eights_specials,switch_blackjack",
        help="comma-separated presets (default: crazy_eights,crazy_eights_specials,switch_blackjack)",
    )
    botspeed.add_argument("--players", type=_players, default=2, help="number of players (default: 2)")
    botspeed.add_argument(
        "--bots",
        default="random,heuristic,pimc:50,ismcts:400",
        help="comma-separated bot names (default: random,heuristic,pimc:50,ismcts:400)",
    )
    botspeed.add_argument("--games", type=_positive, default=20, help="duplicate deals per bot (default: 20)")
    botspeed.add_argument("--seed", type=_non_negative, default=0, help="random seed (default: 0)")
    botspeed.set_defaults(func=cmd_botspeed)

    replay = sub.add_parser(
        "replay",
        help="print a saved game record move by move",
        description="Replay a game record (a JSON file written by the envs' or the arena's record "
        "option, or json.dump(game.record())): the dealt table, every action, and the final table.",
    )
    replay.add_argument("file", help="the record's JSON file")
    replay.add_argument("--viewer", type=_non_negative, default=None, metavar="SEAT",
                        help="show only this seat's hand (default: every hand)")
    replay.add_argument("--tables", type=_non_negative, default=0, metavar="N",
                        help="also print the table after every N-th action (default: 0, only first and last)")
    replay.set_defaults(func=cmd_replay)

    soak = sub.add_parser(
        "soak",
        help="random games with invariant checks over every preset and player count",
        description="Plays random games over every preset and player count through the Rust loop, the "
        "Python API and VecEnv, checks the invariants after every decision and reports memory "
        "before and after; exits 1 on a violation.",
    )
    soak.add_argument("--seconds", type=_seconds, default=60.0, help="how long to run (default: 60)")
    soak.add_argument(
        "--decisions",
        type=_soak_count,
        default=None,
        metavar="N",
        help="fast mode: play in Rust on all cores until N decisions (cheap checks at every decision, the "
        "full check on a sample; --seconds is ignored)",
    )
    soak.add_argument("--threads", type=_threads, default=0, help="fast mode: threads, 0 = all cores (default: 0)")
    soak.add_argument("--obs-every", type=_soak_every, default=1, metavar="K",
                      help="fast mode: check the acting seat's observation every K-th decision (default: 1)")
    soak.add_argument("--full-every", type=_soak_every, default=1000, metavar="K",
                      help="fast mode: the full check every K-th decision of a game (default: 1000)")
    soak.add_argument("--seed", type=_non_negative, default=0, help="random seed (default: 0)")
    soak.add_argument("--presets", default=None, help="comma-separated presets (default: all)")
    soak.add_argument("--json", action="store_true", help="print the report as JSON")
    soak.set_defaults(func=cmd_soak)

    presets = sub.add_parser("presets", help="list the rules presets")
    presets.set_defaults(func=cmd_presets)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m eights`` and of the ``eights`` console script."""
    prog = "python -m eights" if sys.argv[0].endswith("__main__.py") else "eights"
    args = build_parser(prog).parse_args(argv)
    try:
        return args.func(args)
    except ValueError as exc:  # bad preset, player count or rules
        print(f"error: {exc}", file=sys.stderr)
        return 2


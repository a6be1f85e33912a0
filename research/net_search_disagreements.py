"""Is the search right where it disagrees with `net`?

    python research/net_search_disagreements.py --players 2 --states 400 --worlds 64
    python research/net_search_disagreements.py --players 4 --states 400 --worlds 64 \
        --out research/results/net/stage6/search_disagreements_4p.json

`net` plays the learner's seat of preset games (the presets as written, every one that allows
the table size) against `heuristic` bots, greedily. In a sample of its decisions the search
teacher of the PPO stage answers (`ismcts:400` with its root favouring `net`'s move, as with
`--dagger-root learner`). Where the search is sure (its top action has at least `--sure` of the
visits) and its top action is not `net`'s, both moves are tried: in each of `--worlds`
determinizations of the learner's view (`eights.determinize`), the state is played on after
`net`'s move and after the search's, `net` playing the learner's seat and `heuristic` the
others. `--root heuristic` asks the plain search (its root favours the heuristic's move).
The report: the mean over such states of the search's win share minus `net`'s (a standard
error over states), how many states favour each, and the share of them where the search's
move is the heuristic's. The same seed gives the same states and worlds.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

import eights
from netlab.cardppo_games import MixedGames
from netlab.imitation import RulesTable


def play_out(game: eights.Game, me: int, net: eights.Bot, heuristic: eights.Bot) -> float:
    """1 if seat ``me`` wins the game played on from ``game`` (``net`` in its seat)."""
    while not game.is_terminal and not game.is_truncated:
        game.step((net if game.current_player == me else heuristic).act(game))
    return 1.0 if game.winner == me else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=128, help="games played side by side")
    ap.add_argument("--states", type=int, default=400, help="disagreements to test")
    ap.add_argument("--worlds", type=int, default=64, help="determinizations per state")
    ap.add_argument("--teacher", default="ismcts:400")
    ap.add_argument("--sure", type=float, default=0.5, help="the search's top share at least this")
    ap.add_argument(
        "--root", choices=("net", "heuristic"), default="net", help="the move the search's root favours (default net)"
    )
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--out", help="write the per-state results and the summary (JSON)")
    args = ap.parse_args()

    games = MixedGames(f"{args.players}:heuristic:{args.games}:presets", 1, seed=args.seed, table=RulesTable())
    games.reset()
    rng = np.random.default_rng(args.seed + 1)
    net, heuristic = eights.Bot("net", seed=0), eights.Bot("heuristic", seed=0)
    states, asked, t0 = [], 0, time.time()
    while len(states) < args.states:
        greedy = games.labels("net")
        valid = np.flatnonzero(games.mask.any(1) & ~games.skip)
        rows = np.sort(rng.choice(valid, size=min(64, len(valid)), replace=False))
        asked += len(rows)
        pol = games.policies_of(args.teacher, rows, greedy[rows] if args.root == "net" else None)
        top = pol.argmax(1)
        for j in np.flatnonzero((pol.max(1) >= args.sure) & (top != greedy[rows])):
            r = int(rows[j])
            k = int(games.game_env[r])
            game = games.envs[k].game(r - int(games.offsets[k]))
            me, moves = game.current_player, (int(greedy[r]), int(top[j]))
            wins = np.zeros((args.worlds, 2))
            for w in range(args.worlds):
                world = eights.determinize(game, me, seed=int(rng.integers(1 << 62)))
                for m, move in enumerate(moves):
                    g = world.clone()
                    g.step(move)
                    wins[w, m] = play_out(g, me, net, heuristic)
            states.append(
                {
                    "preset": game.preset,
                    "share": round(float(pol[j].max()), 4),
                    "net_move": game.action_to_string(moves[0]),
                    "search_move": game.action_to_string(moves[1]),
                    "search_is_heuristic": moves[1] == heuristic.act(game),
                    "net": float(wins[:, 0].mean()),
                    "search": float(wins[:, 1].mean()),
                }
            )
            if len(states) == args.states:
                break
        games.step(greedy)
    d = np.array([s["search"] - s["net"] for s in states])
    summary = {
        "players": args.players,
        "teacher": args.teacher,
        "sure": args.sure,
        "root": args.root,
        "seed": args.seed,
        "asked": asked,
        "states": len(states),
        "worlds": args.worlds,
        "search_minus_net": round(float(d.mean()), 4),
        "standard_error": round(float(d.std(ddof=1) / np.sqrt(len(d))), 4),
        "search_better": int((d > 0).sum()),
        "net_better": int((d < 0).sum()),
        "search_is_heuristic": round(float(np.mean([s["search_is_heuristic"] for s in states])), 3),
        "seconds": round(time.time() - t0, 1),
    }
    print(json.dumps(summary))
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w") as f:
            json.dump({"summary": summary, "states": states}, f, indent=0)


if __name__ == "__main__":
    main()

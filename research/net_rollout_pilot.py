"""What would `net` gain from its own playouts? A pilot of the teacher stage 10 proposes.

    python research/net_rollout_pilot.py --players 2 --states 300 --worlds 32 \
        --out research/results/net/stage10/rollout_pilot_2p.json

`net` plays the learner's seat of preset games (the presets as written, every one that allows
the table size) against `heuristic` bots, greedily. In a sample of its decisions with more than
one legal move (after `--warmup` steps, so that the games are at every stage), every legal move
is tried in each of `--worlds` determinizations of the learner's view (`eights.determinize`;
the same worlds for every move, so that differences are paired): the state is played on after
the move, `net` in the learner's seat and `heuristic` in the others, and the move's value is
its win share (where `net`'s move ties for the best, it is the best). The worlds are split in
two halves: the best move on one half is scored on the
other, so the gain over `net`'s move is not inflated by picking the luckiest move. The search
teacher of stage 9 (`ismcts:400` rooted on `net`'s move) answers the same states.

The report: how often the best move by the playouts is not `net`'s, how often it beats
`net`'s by more than two standard errors of the paired difference, how often the two halves
pick the same move, the held-out gain, and how often the playouts' best move is the search's
top move. (The determinizations ignore what the opponents' play reveals, as the search's own
do.)
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

import eights

# The playout of the disagreement check beside this script (``scripts/`` is on the path of a
# script run from it).
from net_search_disagreements import play_out
from netlab.cardppo_games import MixedGames
from netlab.imitation import RulesTable


def values(game: eights.Game, moves: np.ndarray, worlds: int, rng, net, heuristic) -> np.ndarray:
    """``(worlds, len(moves))`` wins of the learner after each move, the worlds shared."""
    me = game.current_player
    wins = np.zeros((worlds, len(moves)))
    for w in range(worlds):
        world = eights.determinize(game, me, seed=int(rng.integers(1 << 62)))
        for m, move in enumerate(moves):
            g = world.clone()
            g.step(int(move))
            wins[w, m] = play_out(g, me, net, heuristic)
    return wins


def _pick(value: np.ndarray, i_net: int) -> int:
    """The move of the highest value, ``net``'s own where it ties for the highest."""
    return i_net if value[i_net] >= value.max() else int(np.argmax(value))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=128, help="games played side by side")
    ap.add_argument("--states", type=int, default=300)
    ap.add_argument("--worlds", type=int, default=32, help="determinizations per state (even)")
    ap.add_argument("--warmup", type=int, default=100, help="steps played before sampling")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", help="write the per-state results and the summary (JSON)")
    args = ap.parse_args()
    if args.worlds < 2 or args.worlds % 2:
        ap.error(f"--worlds must be an even number of at least 2, got {args.worlds}")

    games = MixedGames(f"{args.players}:heuristic:{args.games}:presets", 1, seed=args.seed, table=RulesTable())
    games.reset()
    rng = np.random.default_rng(args.seed + 1)
    net, heuristic = eights.Bot("net", seed=0), eights.Bot("heuristic", seed=0)
    for _ in range(args.warmup):
        games.step(np.maximum(games.labels("net"), 0))
    states, t0 = [], time.time()
    while len(states) < args.states:
        greedy = games.labels("net")
        valid = np.flatnonzero((games.mask.sum(1) > 1) & ~games.skip & (greedy >= 0))
        rows = np.sort(rng.choice(valid, size=min(8, len(valid)), replace=False))
        search = games.policies_of("ismcts:400", rows, greedy[rows]).argmax(1) if len(rows) else []
        for j, r in enumerate(rows):
            k = int(games.game_env[r])
            game = games.envs[k].game(int(r) - int(games.offsets[k]))
            moves = np.flatnonzero(games.mask[r])
            wins = values(game, moves, args.worlds, rng, net, heuristic)
            i_net = int(np.flatnonzero(moves == greedy[r])[0])
            mean = wins.mean(0)
            best = _pick(mean, i_net)
            d = wins[:, best] - wins[:, i_net]
            se = float(d.std(ddof=1) / np.sqrt(len(d))) if best != i_net else 0.0
            a, b = wins[0::2].mean(0), wins[1::2].mean(0)
            pick_a, pick_b = _pick(a, i_net), _pick(b, i_net)
            # Each half's pick scored on the other half, against net's move there.
            gain = 0.5 * ((b[pick_a] - b[i_net]) + (a[pick_b] - a[i_net]))
            states.append(
                {
                    "preset": game.preset,
                    "moves": len(moves),
                    "net": float(mean[i_net]),
                    "best": float(mean[best]),
                    "departs": best != i_net,
                    "sure": best != i_net and float(d.mean()) > 2 * se,
                    "halves_agree": pick_a == pick_b,
                    "held_out_gain": float(gain),
                    "best_is_search": int(moves[best]) == int(search[j]),
                    "search_departs": int(search[j]) != int(greedy[r]),
                }
            )
            if len(states) == args.states:
                break
        for _ in range(4):
            games.step(np.maximum(games.labels("net"), 0))
    col = {key: np.array([s[key] for s in states], float) for key in states[0] if key != "preset"}
    dep = col["departs"] > 0
    summary = {
        "players": args.players,
        "states": len(states),
        "worlds": args.worlds,
        "seed": args.seed,
        "mean_legal_moves": round(float(col["moves"].mean()), 2),
        "best_departs_from_net": round(float(dep.mean()), 4),
        "departs_by_two_standard_errors": round(float(col["sure"].mean()), 4),
        "halves_pick_the_same_move": round(float(col["halves_agree"].mean()), 4),
        "held_out_gain_over_net": round(float(col["held_out_gain"].mean()), 4),
        "held_out_gain_standard_error": round(float(col["held_out_gain"].std(ddof=1) / np.sqrt(len(states))), 4),
        "search_departs_from_net": round(float(col["search_departs"].mean()), 4),
        "best_is_search_top": round(float(col["best_is_search"].mean()), 4),
        "best_is_search_top_where_either_departs": round(
            float(col["best_is_search"][dep | (col["search_departs"] > 0)].mean()), 4
        ),
        "seconds": round(time.time() - t0, 1),
    }
    print(json.dumps(summary, indent=1))
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w") as f:
            json.dump({"summary": summary, "states": states}, f, indent=0)


if __name__ == "__main__":
    main()

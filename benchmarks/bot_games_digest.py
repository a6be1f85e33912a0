"""Digests of seeded games against the built-in bots, to show that two builds play the same games.

    python benchmarks/bot_games_digest.py > a.txt      # with one build's eights importable
    python benchmarks/bot_games_digest.py > b.txt      # with the other's
    diff a.txt b.txt                                   # no output: the same games

Each line is one configuration and thread count with a SHA-256 prefix of everything it produced:

* ``VecEnv`` learner trajectories against built-in opponents (every kind: ``heuristic``,
  ``random``, ``net``, ``net1``, ``ismcts``, ``pimc``; 2 to 5 players, with and without
  ``obs_rules``, both autoreset modes), stepped with seeded random legal actions: observations,
  rules encodings, masks, seats to act, rewards, flags and final observations;
* arena matches with the batched bots (``net``, ``net1``) at tables of 2, 3 and 5: every game's
  record (winner, hand points, returns, decisions, truncation) and the decision counts.

Both at 1 and 2 threads, so a line that differs between thread counts shows too.
"""

from __future__ import annotations

import hashlib

import numpy as np

import eights

VEC = [
    ("crazy_eights", 2, "heuristic", {}),
    ("crazy_eights", 2, "net", {}),
    ("crazy_eights", 2, "net1", {}),
    ("crazy_eights", 2, "ismcts:8", {}),
    ("crazy_eights", 2, "pimc:4", {}),
    ("switch_blackjack", 3, ["heuristic", "random"], {}),
    ("switch_blackjack", 3, ["net", "heuristic"], {"obs_rules": True}),
    ("crazy_eights_specials", 4, "heuristic", {"obs_rules": True, "autoreset": "same_step"}),
    ("crazy_eights", 4, "net", {"obs_rules": True, "autoreset": "same_step", "reward": "score"}),
    ("rose_mau", 5, ["net", "heuristic", "random", "net"], {"learner_seat": 2}),
]
ARENA = [
    ("net", "heuristic", "crazy_eights", 2, 300),
    ("net1", "net", "crazy_eights", 2, 300),
    ("net", "ismcts:10", "switch_blackjack", 3, 20),
    ("net", "random", "rose_mau", 5, 60),
]
RECORD = ("deal", "rotation", "winner", "hand_points", "score_returns", "decisions", "truncated", "agent_decisions")


def vec_digest(preset, players, opp, kw, threads):
    search = any(s in str(opp) for s in ("ismcts", "pimc"))
    num_envs, steps = (24, 12) if search else (300, 60)
    env = eights.VecEnv(preset, num_envs, num_players=players, opponents=opp, num_threads=threads, seed=7, **kw)
    h = hashlib.sha256()

    def add(obs, info, *more):
        for x in (obs["obs"], obs["rules"]) if isinstance(obs, dict) else (obs,):
            h.update(np.ascontiguousarray(x).tobytes())
        h.update(info["action_mask"].tobytes())
        h.update(info["current_player"].tobytes())
        if "final_obs" in info:
            final = info["final_obs"]
            h.update(np.ascontiguousarray(final["obs"] if isinstance(final, dict) else final).tobytes())
        for m in more:
            h.update(np.ascontiguousarray(m).tobytes())

    obs, info = env.reset(seed=7)
    add(obs, info)
    rng = np.random.default_rng(1)
    for _ in range(steps):
        mask = info["action_mask"]
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], dtype=np.int64)
        obs, rew, term, trunc, info = env.step(acts)
        add(obs, info, rew, term, trunc)
    return h.hexdigest()[:16]


def arena_digest(a, b, preset, players, games, threads):
    r = eights.arena.evaluate(a, b, preset=preset, num_players=players, games=games, seed=3, threads=threads)
    h = hashlib.sha256()
    for k in RECORD:
        h.update(np.ascontiguousarray(r.raw[k]).tobytes())
    return h.hexdigest()[:16]


def main():
    for threads in (1, 2):
        for preset, players, opp, kw in VEC:
            print("vec", threads, preset, players, opp, kw, vec_digest(preset, players, opp, kw, threads), flush=True)
        for a, b, preset, players, games in ARENA:
            digest = arena_digest(a, b, preset, players, games, threads)
            print("arena", threads, a, b, preset, players, digest, flush=True)


if __name__ == "__main__":
    main()

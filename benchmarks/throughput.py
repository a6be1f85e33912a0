"""Throughput of eights against OpenSpiel and RLCard, measured in one run.

    pip install '.[bench]'            # optional peers: open_spiel, rlcard
    python benchmarks/throughput.py   # a few minutes; --seconds sets the time per row

Prints one table. Every row plays uniformly random legal actions and counts
*decisions* (one player choosing one action); ``ratio`` is each row's rate over
the OpenSpiel Python loop.  Rows:

* eights Rust engine: ``eights.random_selfplay`` (whole loop in Rust, one thread).
* eights Game loop: Python loop over ``eights.Game`` (legal_actions, step) with the
  observation of the player to act, like the OpenSpiel loop.
* eights Env loop: ``EightsEnv.step`` against the built-in random bot; a step is a
  learner decision plus the opponent's decisions played inside it (both counted).
* eights VecEnv: ``VecEnv(self_play=True)`` stepped with ``random_actions()``, one
  decision per game and step, at several batch sizes and thread counts; plus one
  learner-mode row (opponent decisions counted too).
* OpenSpiel ``crazy_eights``: Python loop with ``observation_tensor()``, and the
  all-C++ loop ``pyspiel.evaluate_bots`` with uniform random bots (decisions per game
  taken from the Python loop, which plays the same game with the same policy).
* RLCard UNO: ``env.step`` loop (the state dict holds the observation).
Peers that are not installed are skipped.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

import eights


def timed(fn, seconds):
    """Call ``fn()`` (returning decisions done) until ``seconds`` pass; return decisions/s."""
    fn()  # warm-up
    done, start = 0, time.perf_counter()
    while True:
        done += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def eights_engine(preset, players, seconds):
    games = 2000
    stats = eights.random_selfplay(preset, players, games=games, seed=1)
    per_game = stats["decisions"] / games
    games = max(1000, int(seconds * 8e6 / per_game))
    stats = eights.random_selfplay(preset, players, games=games, seed=2)
    return stats["decisions"] / stats["seconds"]


def eights_game_loop(preset, players, seconds):
    rng = np.random.default_rng(0)
    g = eights.Game(preset, players, seed=0)
    seed = [0]

    def chunk():
        n = 0
        for _ in range(2000):
            p = g.current_player
            if p < 0:
                seed[0] += 1
                g.reset(seed=seed[0])
                continue
            g.observation(p)
            legal = g.legal_actions()
            g.step(legal[rng.integers(len(legal))])
            n += 1
        return n

    return timed(chunk, seconds)


def eights_env_loop(preset, players, seconds):
    env = eights.make(preset, num_players=players, seed=0)
    rng = np.random.default_rng(0)
    state = {"info": env.reset()[1]}

    def chunk():
        n = 0
        for _ in range(1000):
            legal = np.flatnonzero(state["info"]["action_mask"])
            before = env.game.decision_count
            _, _, term, trunc, info = env.step(legal[rng.integers(len(legal))])
            n += env.game.decision_count - before
            if term or trunc:
                _, info = env.reset()
            state["info"] = info
        return n

    return timed(chunk, seconds)


def eights_vec(preset, players, seconds, num_envs, threads):
    env = eights.VecEnv(preset, num_envs, num_players=players, self_play=True, num_threads=threads, seed=0)
    env.reset()
    steps = max(1, 20000 // num_envs)

    def chunk():
        for _ in range(steps):
            env.step(env.random_actions())
        return steps * num_envs

    return timed(chunk, seconds)


def openspiel_python(players, seconds):
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})
    rng = np.random.default_rng(0)
    totals = {"decisions": 0, "games": 0}

    def chunk():
        n = 0
        for _ in range(5):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                    continue
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                n += 1
            totals["games"] += 1
        totals["decisions"] += n
        return n

    rate = timed(chunk, seconds)
    return rate, totals["decisions"] / max(1, totals["games"]), game.observation_tensor_size()


def openspiel_cpp(players, seconds, decisions_per_game):
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})
    bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(players)]
    seed = [0]

    def chunk():
        for _ in range(20):
            seed[0] += 1
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed[0])
        return 20

    return timed(chunk, seconds) * decisions_per_game


def rlcard_uno(seconds):
    import rlcard

    env = rlcard.make("uno", config={"seed": 0})
    rng = np.random.default_rng(0)

    def chunk():
        n = 0
        for _ in range(5):
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"].keys())
                state, _ = env.step(legal[rng.integers(len(legal))])
                n += 1
        return n

    return timed(chunk, seconds), int(np.prod(env.state_shape[0])) * 8


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="crazy_eights")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=2.0, help="measuring time per row")
    ap.add_argument("--batches", default="1,256,4096,16384")
    args = ap.parse_args()
    preset, players, sec = args.preset, args.players, args.seconds
    cores = os.cpu_count() or 1
    rows = []  # (name, decisions/s, note)

    def add(name, fn, note=""):
        t0 = time.perf_counter()
        try:
            value = fn()
        except ImportError as exc:
            print(f"  skipped {name}: {exc}", flush=True)
            return None
        rows.append((name, value, note))
        print(f"  {name:<44} {value:>14,.0f}  ({time.perf_counter() - t0:.1f} s)", flush=True)
        return value

    print(f"measuring ({sec:g} s per row)...", flush=True)
    add("eights Rust engine (1 thread)", lambda: eights_engine(preset, players, sec))
    add("eights Game loop (Python, with observation)", lambda: eights_game_loop(preset, players, sec))
    add("eights Env.step loop (Python)", lambda: eights_env_loop(preset, players, sec), "incl. bot moves")
    for b in [int(x) for x in args.batches.split(",")]:
        for t in sorted({1, cores}):
            add(f"eights VecEnv self-play b={b} threads={t}", lambda b=b, t=t: eights_vec(preset, players, sec, b, t))
    learner = {}

    def learner_row():
        env = eights.VecEnv(preset, 4096, num_players=players, num_threads=cores, seed=0)
        env.reset()
        steps = 5

        def chunk():
            for _ in range(steps):
                env.step(env.random_actions())
            return steps * 4096

        learner["steps"] = timed(chunk, sec)
        return learner["steps"]

    add(f"eights VecEnv learner b=4096 threads={cores}", learner_row, "learner steps/s")

    os_py = {}

    def os_python():
        rate, per_game, size = openspiel_python(players, sec)
        os_py.update(per_game=per_game, obs=size)
        return rate

    base = add("OpenSpiel crazy_eights Python loop", os_python, "with observation_tensor")
    if base:
        add("OpenSpiel crazy_eights C++ evaluate_bots", lambda: openspiel_cpp(players, sec, os_py["per_game"]),
            f"{os_py['per_game']:.0f} decisions/game")
    uno = {}

    def uno_row():
        rate, obs_bytes = rlcard_uno(sec)
        uno["obs"] = obs_bytes
        return rate

    add("RLCard UNO env.step loop", uno_row)

    print()
    print(f"machine: {platform.machine()} {platform.processor() or ''}, {cores} cores, "
          f"Python {platform.python_version()}, eights {eights.__version__}")
    print(f"game: {preset}, {players} players; uniformly random legal actions; rates in decisions/s "
          "(the learner row: learner steps/s)")
    print()
    print(f"| {'row':<44} | {'per second':>12} | {'vs OpenSpiel Python':>19} | note")
    print(f"|{'-' * 46}|{'-' * 14}|{'-' * 21}|------")
    for name, value, note in rows:
        ratio = f"{value / base:.2f}x" if base else "n/a"
        print(f"| {name:<44} | {value / 1e6:>10.3f} M | {ratio:>19} | {note}")
    print()
    env = eights.VecEnv(preset, 1, num_players=players)
    print(f"memory per environment: Game {eights._core.game_state_bytes()} B; VecEnv slot "
          f"{env.state_bytes_per_env} B + output rows {eights.OBS_SIZE * 4 + eights.NUM_ACTIONS + 4 + 4 + 2} B")
    print(f"observation bytes per step: eights {eights.OBS_SIZE * 4} (float32) / {eights.OBS_SIZE} (uint8)"
          + (f"; OpenSpiel {os_py['obs'] * 4} (float32 tensor of {os_py['obs']})" if "obs" in os_py else "")
          + (f"; RLCard UNO {uno['obs']} (int64 planes)" if "obs" in uno else ""))
    if learner:
        print(f"VecEnv learner mode b=4096: {learner['steps'] / 1e6:.2f} M learner steps/s")


if __name__ == "__main__":
    main()

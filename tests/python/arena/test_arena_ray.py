"""The arena on a Ray cluster (``ray=``, ``--ray``): on a local cluster of two nodes of one CPU
each, :func:`eights.arena.evaluate`, :func:`eights.arena.tournament`, the generalization
benchmark and the ladder script give the results one machine gives for the same seed (all
but the timings), with built-in bots and with Python agents shipped to the workers; a failing
agent's error comes back as itself, ``eights arena --ray local`` prints the table the
command prints without it, and Ctrl-C stops it. Skipped where Ray (the ``rllib`` extra) is not installed; the
argument checks, which need no Ray, are in test_arena.py."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import eights
from eights import arena

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

ROOT = Path(__file__).resolve().parents[3]
#: The entries of a run that are timings (thinking seconds), not results.
TIMINGS = {"agent_seconds", "agent_max_seconds"}


@pytest.fixture(scope="module")
def address():
    """A local Ray cluster of two nodes with one CPU each (two workers), this process its driver."""
    if ray.is_initialized():
        ray.shutdown()
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, logging_level="WARNING")
    try:
        yield cluster.address
    finally:
        ray.shutdown()
        cluster.shutdown()


def _same_run(a: dict, b: dict) -> None:
    assert set(a) == set(b)
    for key in sorted(set(a) - TIMINGS):
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def _same_eval(a: arena.EvalResult, b: arena.EvalResult) -> None:
    """Every field equal but the timings (seconds, decisions per second, thinking times)."""
    for f in dataclasses.fields(a):
        if f.name == "raw":
            _same_run(a.raw, b.raw)
        elif f.name not in ("seconds", "decisions_per_second"):
            assert getattr(a, f.name) == getattr(b, f.name), f.name


def test_the_cluster_has_two_workers(address):
    alive = [n for n in ray.nodes() if n["Alive"]]
    assert len(alive) == 2
    assert ray.cluster_resources()["CPU"] == 2


def test_evaluate_on_the_cluster_equals_one_machine(address):
    # 7 deals of 3 players: 7 tasks of one deal each, spread over both nodes.
    kw = dict(preset="switch_blackjack", num_players=3, games=7, seed=11, bootstrap=100)
    one = arena.evaluate("pimc:4", ["heuristic", "random"], **kw)
    spread = arena.evaluate("pimc:4", ["heuristic", "random"], ray=address, **kw)
    _same_eval(one, spread)
    assert spread.games == 21 and spread.raw["deal"].tolist() == [d for d in range(7) for _ in range(3)]


def test_python_agents_are_shipped_to_the_workers(address):
    # A policy and a batched agent's class defined here (so pickled by value).
    def lowest(obs, mask):
        return int(np.flatnonzero(mask)[0])

    class Highest:
        name = "highest"

        def __init__(self):
            self.offset = 0

        def act_batch(self, obs, masks):
            return [int(np.flatnonzero(m)[-1 - self.offset]) for m in masks]

    kw = dict(games=5, seed=2, bootstrap=100, batch_size=4)
    _same_eval(arena.evaluate(lowest, "heuristic", **kw), arena.evaluate(lowest, "heuristic", ray=address, **kw))
    _same_eval(arena.evaluate(Highest(), lowest, **kw), arena.evaluate(Highest(), lowest, ray=address, **kw))


def test_a_weights_file_is_shipped_to_the_workers(address, tmp_path):
    # A trained agent by path: its bytes travel with the tasks (the workers need no copy at
    # the driver's path, tested without Ray in test_arena.py), the same games as one machine.
    path = tmp_path / "mine.safetensors"
    path.write_bytes((ROOT / "src" / "bots" / "weights" / "net.safetensors").read_bytes())
    kw = dict(preset="one_card", num_players=3, games=5, seed=6, bootstrap=100)
    one = arena.evaluate(str(path), "heuristic", **kw)
    spread = arena.evaluate(str(path), "heuristic", ray=address, **kw)
    _same_eval(one, spread)
    net = arena.evaluate("net", "heuristic", **kw)  # the file holds net's weights: net's games
    for key in ("winner", "decisions", "hand_points"):
        np.testing.assert_array_equal(spread.raw[key], net.raw[key])


def test_tournament_on_the_cluster_gives_the_same_ratings(address):
    agents = ["random", "heuristic", "pimc:4"]
    one = arena.tournament(agents, games=6, seed=5, bootstrap=100)
    spread = arena.tournament(agents, games=6, seed=5, bootstrap=100, ray=address)
    np.testing.assert_array_equal(one.ratings, spread.ratings)
    np.testing.assert_array_equal(one.rating_ci, spread.rating_ci)
    np.testing.assert_array_equal(one.wins, spread.wins)
    assert one.mean_length == spread.mean_length
    for a, b in zip(one.matches, spread.matches):
        _same_eval(a, b)


def test_generalization_on_the_cluster_equals_one_machine(address):
    from eights.generalization import evaluate

    sets = [eights.Rules("crazy_eights"), eights.Rules("one_left").replace({"deal": {"hand_size": 5}})]
    one = evaluate("heuristic", rule_sets=sets, opponent="random", games=3, seed=4, bootstrap=100)
    spread = evaluate("heuristic", rule_sets=sets, opponent="random", games=3, seed=4, bootstrap=100, ray=address)
    assert one.to_dict() == spread.to_dict()


def test_the_ladder_script_plays_a_match_on_the_cluster(address):
    spec = importlib.util.spec_from_file_location("eights_ladder_on_ray", ROOT / "scripts" / "ladder.py")
    ladder = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = ladder  # its dataclass looks its module up
    try:
        spec.loader.exec_module(ladder)
        col = ladder.Column("k", "heuristic", "random")
        one = ladder.play("crazy_eights", 2, col, 4, 0, 1)
        spread = ladder.play("crazy_eights", 2, col, 4, 0, 1, ray=address)
    finally:
        del sys.modules[spec.name]
    assert spread["machine"].startswith("Ray cluster of 2 node(s), 2 CPUs")
    results = ("win_rate", "low", "high", "games", "no_winner", "truncated", "mean_length", "choice_share")
    assert {k: one[k] for k in results} == {k: spread[k] for k in results}


def test_a_failing_agent_raises_its_own_error(address):
    def illegal(obs, mask):
        return int(np.flatnonzero(~mask)[0])

    with pytest.raises(ValueError, match="agent 'illegal' chose illegal action"):
        arena.evaluate(illegal, "random", games=2, ray=address)


def test_an_agent_that_cannot_be_pickled_is_a_type_error(address):
    lock = threading.Lock()

    def locked(obs, mask):
        with lock:
            return int(np.flatnonzero(mask)[0])

    with pytest.raises(TypeError, match="picklable"):
        arena.evaluate(locked, "random", games=2, ray=address)


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to this process is POSIX")
def test_ctrl_c_cancels_the_tasks_on_the_cluster(address):
    # Tasks of some ten seconds each (20 deals of ismcts:2000), interrupted after two seconds:
    # the tasks running and queued are cancelled, so both CPUs are free again at once (left
    # alone, the running ones would hold them for seconds more).
    timer = threading.Timer(2.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            arena.evaluate("ismcts:2000", "heuristic", games=20 * 256, ray=address)
    finally:
        timer.cancel()
    t0 = time.monotonic()
    while ray.available_resources().get("CPU", 0) < 2:
        assert time.monotonic() - t0 < 6, "the cluster's CPUs are still busy 6 s after Ctrl-C"
        time.sleep(0.1)
    r = arena.evaluate("heuristic", "random", games=2, bootstrap=100, ray=address)
    assert r.games == 4


def test_an_address_where_nothing_answers_is_refused_at_once():
    # ray.init retried such an address for minutes and ignored Ctrl-C meanwhile. (A process
    # of its own: this one may hold a connection, which the command would use instead.)
    import socket

    with socket.socket() as s:  # a port of this machine that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "eights", "arena", "--agents", "random,heuristic", "--games", "2", "--ray"]
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        p = subprocess.run(cmd + [address], capture_output=True, text=True, timeout=120, env=env)
        assert p.returncode == 2, p.stderr[-2000:]
        assert f"error: --ray {address}: no Ray cluster answers at {address}" in p.stderr, p.stderr[-2000:]


def test_cli_ray_local_prints_the_table_of_one_machine():
    # Its own local cluster (--ray local starts one in the command's process).
    cmd = [sys.executable, "-m", "eights", "arena", "--agents", "random,heuristic", "--games", "4"]
    cmd += ["--bootstrap", "100", "--no-progress"]
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    outs = []
    for extra in ([], ["--ray", "local"]):
        p = subprocess.run(cmd + extra, capture_output=True, text=True, timeout=300, env=env)
        assert p.returncode == 0, p.stderr[-2000:]
        outs.append(p.stdout)

    def results(text):
        """The table without its time line and its speed column (decisions/s, the agent rows' last)."""
        out, speeds = [], False
        for line in text.splitlines():
            if line.startswith("time:"):
                continue
            speeds = line.endswith(("dec/s", "decisions/s")) or (speeds and bool(line.strip()))
            out.append(line.rsplit(None, 1)[0] if speeds else line)
        return out

    assert results(outs[0]) == results(outs[1])
    assert "heuristic" in outs[1] and "rating" in outs[1]


@pytest.mark.sigint
@pytest.mark.skipif(os.name != "posix", reason="SIGINT to a child is POSIX")
def test_ctrl_c_stops_a_cluster_run(tmp_path):
    # A long match on the command's own local cluster, interrupted once its bar moves: the run
    # stops at once ("interrupted" within 2 s, as every command); the process then waits for
    # Ray to stop the cluster it started.
    err = tmp_path / "err.txt"
    cmd = [sys.executable, "-m", "eights", "arena", "--agents", "heuristic,ismcts:400", "--games", "2000"]
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    with open(err, "wb") as e:
        p = subprocess.Popen(
            cmd + ["--ray", "local"],
            stdout=subprocess.DEVNULL,
            stderr=e,
            stdin=subprocess.DEVNULL,
            env=env,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    try:
        deadline = time.monotonic() + 120
        while "/4000 [" not in err.read_text() or " 0/4000 [" in err.read_text().rsplit("tournament:", 1)[-1]:
            assert p.poll() is None and time.monotonic() < deadline, err.read_text()[-1000:]
            time.sleep(0.05)
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        while "interrupted" not in err.read_text() and time.monotonic() - t0 < 10:
            time.sleep(0.02)
        stopped = time.monotonic() - t0
        assert p.wait(timeout=30) == 130
    finally:
        if p.poll() is None:
            p.kill()
    text = err.read_text()
    assert "Traceback" not in text, text[-2000:]
    assert text.replace("\r", "\n").split()[-1] == "interrupted"
    assert stopped < 2.0, f"{stopped:.2f} s from SIGINT to 'interrupted'"

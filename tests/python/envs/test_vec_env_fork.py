"""A ``VecEnv`` inherited through ``fork``: the child steps, drops and closes it without a
Rust panic (its worker threads stay in the parent; the child runs the batch on its own
thread), and the parent's copy goes on; search bots run in a forked child on threads of its
own."""

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

CHILD = textwrap.dedent(
    """
    import gc, os, sys
    import numpy as np
    import eights

    envs = [eights.VecEnv("crazy_eights", 512, opponents=o, num_threads=2, seed=1)
            for o in ("random", "heuristic", "net", "random")]
    for e in envs:
        e.reset(seed=3)
        e.step(e.random_actions())
    pid = os.fork()
    if pid == 0:
        # Stepped in the child, then dropped by del, by the garbage collector, by close, and
        # the last one at exit. The child steps each on its own thread, and says so.
        for e in envs:
            e.step(e.random_actions())
            assert e.num_threads == 1, e.num_threads
        a, b, c, d = envs
        envs.clear()
        del a
        cycle = [b]
        cycle.append(cycle)
        del b, cycle
        gc.collect()
        c.close()
        del c
        print("child ok", flush=True)
        sys.exit(0)
    _, status = os.waitpid(pid, 0)
    for e in envs:
        e.step(e.random_actions())
        assert e.num_threads == 2, e.num_threads
    print("parent ok", os.waitstatus_to_exitcode(status), flush=True)
    """
)


def test_a_forked_child_steps_drops_and_closes_an_inherited_vec_env():
    res = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=300)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    assert "child ok" in res.stdout and "parent ok 0" in res.stdout, out
    for bad in ("PanicException", "panicked", "threads should not terminate", "Exception ignored"):
        assert bad not in out, out


BOT_CHILD = textwrap.dedent(
    """
    import os, sys
    import eights

    g = eights.Game("crazy_eights", 2, seed=1)
    while len(g.legal_actions()) < 2:
        g.step(g.legal_actions()[0])
    bot = eights.Bot("ismcts:50", seed=3)
    first = bot.act(g)  # the parent's call pool starts here
    pid = os.fork()
    if pid == 0:
        # The pool's threads stayed in the parent: a call must not wait for them.
        again = eights.Bot("ismcts:50", seed=3).act(g)
        print("child ok", again == first, flush=True)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    print("parent ok", os.waitstatus_to_exitcode(status), bot.act(g) is not None, flush=True)
    """
)


def test_a_forked_child_runs_search_bots_on_its_own_threads():
    # Interruptible calls run on a kept pool of threads; a forked child sent its work to the
    # parent's, which it does not have, and waited for ever.
    res = subprocess.run([sys.executable, "-c", BOT_CHILD], capture_output=True, text=True, timeout=60)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    assert "child ok True" in res.stdout and "parent ok 0 True" in res.stdout, out

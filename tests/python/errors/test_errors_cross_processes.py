"""The library's exceptions cross process boundaries: they pickle as ``eights.RulesError`` and
``eights.IllegalActionError`` (registered as ``_core.X`` they did not: a ``multiprocessing``
worker's rules error reached the parent as a ``PicklingError`` without its message, and
Gymnasium's ``AsyncVectorEnv`` waited for ever on a worker's illegal action)."""

from __future__ import annotations

import concurrent.futures
import pickle
import subprocess
import sys
import traceback

import pytest

import eights


def _bad_rules(_):
    return eights.Rules("crazy_eights", rules={"deal": {"hand_sise": 5}})


@pytest.mark.parametrize("error", [eights.RulesError, eights.IllegalActionError])
def test_the_errors_pickle_under_their_public_name(error):
    assert error.__module__ == "eights" and getattr(eights, error.__name__) is error
    again = pickle.loads(pickle.dumps(error("the message")))
    assert type(again) is error and str(again) == "the message"
    shown = traceback.format_exception_only(error, error("the message"))[-1]
    assert shown.startswith(f"eights.{error.__name__}: the message")


def test_a_workers_rules_error_reaches_the_parent_with_its_message():
    with concurrent.futures.ProcessPoolExecutor(1) as pool:
        with pytest.raises(eights.RulesError, match="hand_sise"):
            pool.submit(_bad_rules, 0).result(timeout=60)


ASYNC_VECTOR_ENV = """
import numpy as np, gymnasium, eights
envs = gymnasium.vector.AsyncVectorEnv(
    [lambda: eights.make("crazy_eights", illegal_action="raise") for _ in range(2)]
)
obs, info = envs.reset(seed=0)
masks = info["action_mask"]
illegal = np.array([int(np.flatnonzero(~m)[0]) for m in masks])
try:
    envs.step(illegal)
    print("no error")
except eights.IllegalActionError as exc:
    print("IllegalActionError")
envs.close(terminate=True)
"""


def test_async_vector_env_reports_a_workers_illegal_action():
    pytest.importorskip("gymnasium")
    out = subprocess.run([sys.executable, "-c", ASYNC_VECTOR_ENV], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1:] == ["IllegalActionError"], out.stderr[-2000:]


@pytest.mark.parametrize(
    "preset, players, words",
    [
        ("one_left", 3, "one_left is for exactly 2 players, got 3"),
        ("switch_blackjack", 9, "switch_blackjack allows 2 to 7 players, got 9"),
    ],
)
def test_a_player_count_the_rules_do_not_allow_is_said_plainly(preset, players, words):
    # one_left "allows 2 to 2 players" before.
    with pytest.raises(eights.RulesError, match=words):
        eights.Game(preset, players)

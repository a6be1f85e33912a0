"""Arguments that were the right type but too large to hold, and places that cannot be used:
an integer past the largest float, a range of a trillion player counts, a device this machine
does not have, an output folder that cannot be made. Each is refused before any work, naming
the argument; before, they raised ``OverflowError`` or ``MemoryError``, or trained first. And
``Rules.to_toml``'s ``full``, which read any value as true or false."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

import eights
from eights import arena

HUGE = 2**2000  # an int no float holds


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"mutations": HUGE}, "mutations"),
        ({"variant_prob": HUGE}, "variant_prob"),
        ({"house_prob": HUGE}, "house_prob"),
        ({"dims": {"chain": HUGE}}, "dims['chain']"),
    ],
)
def test_rule_space_numbers_past_a_float_are_named(kwargs, field):
    with pytest.raises(eights.RulesError, match=rf"invalid rules field '{re.escape(field)}'.*too large for a float"):
        eights.RuleSpace(**kwargs)


@pytest.mark.parametrize("counts", [range(2, 2**40), range(2, 2**64), [2] * 100])
def test_rule_space_player_counts_are_bounded_before_they_are_listed(counts):
    # range(2, 2**40) was listed whole (MemoryError); range(2, 2**64) raised OverflowError.
    with pytest.raises(eights.RulesError, match=r"'num_players': at most 9 player counts \(2 to 10\)"):
        eights.RuleSpace(num_players=counts)


def test_rule_space_takes_numpy_numbers_as_its_other_numbers_are_taken():
    # variant_prob=np.float32(.5) said "must be a number, got float32"; dims took NumPy numbers.
    a = eights.RuleSpace(variant_prob=np.float32(0.5), mutations=np.int64(2), house_prob=np.float64(0.25))
    b = eights.RuleSpace(variant_prob=0.5, mutations=2, house_prob=0.25)
    assert [r.to_toml() for r in a.samples(5)] == [r.to_toml() for r in b.samples(5)]


def test_a_reward_past_a_float_is_named():
    with pytest.raises(ValueError, match="illegal_reward must be a finite number, got an integer too large"):
        eights.make("crazy_eights", illegal_reward=HUGE)


torch_needed = pytest.mark.skipif(
    __import__("importlib").util.find_spec("torch") is None, reason="exploit needs the train extra"
)


@torch_needed
@pytest.mark.parametrize(
    "kwargs,error,words",
    [
        ({"device": "meta"}, ValueError, "device must be 'auto', 'cpu' or a CUDA device, got 'meta'"),
        ({"device": "cpu:5"}, ValueError, "device 'cpu:5': PyTorch has one CPU device"),
        ({"device": 5}, TypeError, "device must be a string"),
        ({"out": ""}, ValueError, "out '': an empty path"),
        ({"out": "a\0"}, ValueError, "out must be a folder's path"),
        ({"out": "/etc/hostname/x"}, ValueError, "/etc/hostname is a file, not a folder"),
        ({"out": 5}, TypeError, "out must be None or a folder's path"),
    ],
)
def test_exploit_refuses_a_device_or_folder_it_cannot_use_before_training(kwargs, error, words, tmp_path):
    # device="meta" failed in training (NotImplementedError); out="/etc/hostname/x" was found
    # after the whole budget had been trained.
    if "out" in kwargs and kwargs["out"] == "/etc/hostname/x" and not os.path.isfile("/etc/hostname"):
        pytest.skip("needs /etc/hostname")
    from eights.train import exploit

    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        exploit("random", "crazy_eights", budget=arena.Budget(decisions=1), **kwargs)


@pytest.mark.parametrize("full", ["x", float("nan"), [], -1, None])
def test_to_toml_full_is_true_or_false(full):
    # Read as truthiness: "x" and nan wrote the full file, [] the short one.
    with pytest.raises(TypeError, match="full must be True or False"):
        eights.Rules("crazy_eights").to_toml(full=full)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_the_net_weights_variable_naming_a_pipe_is_refused_unread(tmp_path):
    # EIGHTS_NET_WEIGHTS was read with no check of the path: a pipe blocked the process, deaf
    # to Ctrl-C, and /dev/zero was read until memory ran out. It now gets a bot file's checks.
    import subprocess
    import sys

    fifo = tmp_path / "fifo.safetensors"
    os.mkfifo(fifo)
    # A writer after 5 s, so that a reader of the pipe (the fault) ends rather than the test run.
    writer = subprocess.Popen(["sh", "-c", f"sleep 5; printf junk > '{fifo}'"])
    code = "import eights; eights.Bot('net').act(eights.Game('crazy_eights', 2, seed=1))"
    try:
        for path in (str(fifo), "/dev/zero"):
            env = dict(os.environ, EIGHTS_NET_WEIGHTS=path)
            res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
            assert res.returncode != 0
            assert f"EIGHTS_NET_WEIGHTS={path}: is not a regular file" in res.stderr, res.stderr[-500:]
    finally:
        writer.kill()
        writer.wait()

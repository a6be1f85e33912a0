"""``research/net_paired_check.py``: a file against itself differs by exactly 0 on every preset;
against a perturbed copy, each preset's paired difference is the difference of the two files'
win rates times the table size as the arena reports them, and the mean is the mean of the
presets'."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("safetensors", reason="the check reads weights files with safetensors")
from safetensors import safe_open  # noqa: E402
from safetensors.numpy import save_file  # noqa: E402

import net_paired_check  # noqa: E402
from eights import Rules, presets  # noqa: E402
from eights.arena import evaluate  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "src" / "bots" / "weights" / "net.safetensors"
DEALS = 6


def test_a_file_against_itself_is_zero(tmp_path):
    js = tmp_path / "same.json"
    net_paired_check.main([str(COMMITTED), str(COMMITTED), "--deals", str(DEALS), "--json", str(js)])
    out = json.loads(js.read_text())
    assert set(out["presets"]) == set(presets())
    assert all(v["diff"] == 0.0 for v in out["presets"].values())
    assert out["mean"] == 0.0 and out["ci"] == [0.0, 0.0]


def test_a_perturbed_copy_differs_as_the_arena_says(tmp_path):
    with safe_open(str(COMMITTED), "np") as f:
        meta = f.metadata()
        tensors = {k: f.get_tensor(k) for k in f.keys()}
    rng = np.random.default_rng(0)
    for k, t in tensors.items():
        if t.dtype.kind == "f" and t.ndim == 2:  # every weight matrix, noised
            tensors[k] = (t + rng.normal(0, 0.5 * float(np.abs(t).mean()) + 1e-3, t.shape)).astype(t.dtype)
    other = tmp_path / "noised.safetensors"
    save_file(tensors, str(other), metadata=meta)
    js = tmp_path / "pair.json"
    net_paired_check.main([str(COMMITTED), str(other), "--deals", str(DEALS), "--seed", "3", "--json", str(js)])
    out = json.loads(js.read_text())
    for p in ("crazy_eights", "switch_blackjack", "thirty_eights"):
        n = min(Rules(p).players)
        a, b = (
            evaluate(str(f), "heuristic", preset=p, num_players=n, games=DEALS, seed=3).win_rate
            for f in (COMMITTED, other)
        )
        assert out["presets"][p]["diff"] == pytest.approx((a - b) * n, abs=1e-9)
    diffs = [v["diff"] for v in out["presets"].values()]
    assert any(d != 0 for d in diffs)
    assert out["mean"] == pytest.approx(float(np.mean(diffs)), abs=1e-9)
    assert out["ci"][0] <= out["mean"] <= out["ci"][1]

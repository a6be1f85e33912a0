"""The training example runs end to end in smoke mode and its masked policy stays legal.

Whether the example *learns* is measured by a full run (README), not here.
"""

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import eights

ROOT = Path(__file__).resolve().parents[3]
PPO = ROOT / "examples" / "ppo_selfplay.py"


def _load_ppo():
    pytest.importorskip("torch")
    pytest.importorskip("tqdm")
    pytest.importorskip("matplotlib")
    if "ppo_selfplay" not in sys.modules:
        spec = importlib.util.spec_from_file_location("ppo_selfplay", PPO)
        module = importlib.util.module_from_spec(spec)
        sys.modules["ppo_selfplay"] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
    return sys.modules["ppo_selfplay"]


def test_ppo_selfplay_smoke_run_writes_checkpoint_plot_and_evaluates(tmp_path):
    _load_ppo()
    out = tmp_path / "run"
    plot = tmp_path / "curve.png"
    # The installed eights package (the wheel in CI, an editable install in development).
    proc = subprocess.run(
        [sys.executable, str(PPO), "--smoke", "--out", str(out), "--plot", str(plot)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    for name in ("final.pt", "checkpoint.pt", "learning_curve.csv"):
        assert (out / name).stat().st_size > 0, name
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "random" in proc.stdout and "heuristic" in proc.stdout and "95% interval" in proc.stdout

    import torch

    from eights.train.files import load_checkpoint

    saved = load_checkpoint(out / "final.pt")
    assert saved["step"] > 0 and saved["args"]["smoke"] is True

    # Evaluate the saved policy only: no training step, the same weights.
    again = tmp_path / "eval"
    proc = subprocess.run(
        [
            sys.executable,
            str(PPO),
            "--smoke",
            "--load",
            str(out / "final.pt"),
            "--time-budget-minutes",
            "0",
            "--eval-deals",
            "2",
            "--out",
            str(again),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    reloaded = load_checkpoint(again / "final.pt")
    assert reloaded["step"] == 0
    for name, value in saved["model"].items():
        assert torch.equal(value, reloaded["model"][name]), name


def test_masked_policy_only_chooses_legal_actions():
    torch = pytest.importorskip("torch")
    from eights.train import PolicyNet  # the network the example trains

    agent = PolicyNet(eights.OBS_SIZE, eights.NUM_ACTIONS, 32)
    env = eights.VecEnv("crazy_eights", 16, seed=3)
    obs, info = env.reset()
    for _ in range(50):
        mask = info["action_mask"].copy()
        live = mask.any(1)
        mask[~live, 0] = True
        for greedy in (False, True):
            a = agent.act(obs.copy(), mask, greedy)
            assert mask[np.arange(16), a].all()
        a, logp, value = agent.sample(torch.from_numpy(obs.copy()), torch.from_numpy(mask))
        assert torch.isfinite(logp).all() and torch.isfinite(value).all()
        obs, _, _, _, info = env.step(a.numpy())

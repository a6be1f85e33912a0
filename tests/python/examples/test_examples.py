"""The training example (the Python API of ``eights train``) runs end to end in smoke mode and
the masked policy stays legal.

Whether the example *learns* is measured by a full run (README), not here.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import eights

ROOT = Path(__file__).resolve().parents[3]
PPO = ROOT / "examples" / "ppo_selfplay.py"


def test_ppo_selfplay_example_trains_writes_its_run_folder_and_evaluates(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("tqdm")
    pytest.importorskip("matplotlib")
    out = tmp_path / "run"
    # The installed eights package (the wheel in CI, an editable install in development).
    proc = subprocess.run(
        [sys.executable, str(PPO), "--smoke", "--out", str(out)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    for name in ("final.safetensors", "checkpoint.pt", "learning_curve.csv", "learning_curve.png", "summary.json"):
        assert (out / name).stat().st_size > 0, name
    assert "vs random" in proc.stdout and "vs heuristic" in proc.stdout


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

"""sb3-contrib's MaskablePPO trains on eights.make(...) with no wrapper (examples/sb3_maskable_ppo.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("sb3_contrib")

import eights

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def test_maskable_ppo_finds_the_mask_and_only_picks_legal_actions():
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env(eights.make, n_envs=2, seed=0, env_kwargs={"preset": "switch_blackjack", "num_players": 3})
    assert is_masking_supported(vec)
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, seed=0)
    obs = vec.reset()
    for _ in range(200):
        masks = get_action_masks(vec)
        actions, _ = model.predict(obs, action_masks=masks)
        assert all(masks[i, a] for i, a in enumerate(actions))
        obs, _, _, _ = vec.step(actions)
    vec.close()


def test_example_runs_in_smoke_mode(tmp_path):
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", "sb3_maskable_ppo.py"), "--smoke", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert (tmp_path / "model.zip").is_file()
    assert "vs random" in proc.stdout and "vs heuristic" in proc.stdout

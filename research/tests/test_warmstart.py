"""The imitation stage of the `net` recipe (:mod:`netlab.warmstart`) end to end at a tiny
size. Moved from the package's tests of the card network with the stage."""

from __future__ import annotations

import numpy as np
import pytest

import eights

torch = pytest.importorskip("torch", reason="the research stack needs PyTorch (research/requirements.txt)")

from eights.train.cardnet import export, from_checkpoint, load  # noqa: E402
from netlab.warmstart import WarmStartConfig, warm_start  # noqa: E402


def _positions(rule_sets, seed=0, games=2):
    """Observations, masks and rules encodings of heuristic-vs-random games."""
    obs, masks, rules = [], [], []
    for k, (r, n) in enumerate(rule_sets):
        for j in range(games):
            g = eights.Game(r, n, seed=seed + 10 * k + j)
            bots = [eights.Bot("heuristic")] + [eights.Bot("random", seed=seed + s) for s in range(1, n)]
            enc = g.rules_encoding()
            while not (g.is_terminal or g.is_truncated):
                p = g.current_player
                obs.append(g.observation(p))
                masks.append(g.action_mask())
                rules.append(enc)
                g.step(bots[(p + j) % n].act(g))
    return np.asarray(obs, np.float32), np.asarray(masks, bool), np.asarray(rules, np.float32)


def _torch_logits(net, obs, masks, rules):
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(obs), torch.from_numpy(masks), torch.from_numpy(rules), torch.arange(len(obs)))
    return logits.numpy()


def test_a_tiny_warm_start_learns_resumes_and_exports(tmp_path):
    """The imitation stage end to end at a tiny size: it writes a checkpoint and a curve,
    resumes where it stopped, and its export loads back into the same network."""
    import json

    cfg = WarmStartConfig(games={2: 16, 3: 8}, capacity=8192, collect=1024, updates=2, blocks=8, block=16)
    warm_start(str(tmp_path), cfg, minutes=0.02, log=lambda s: None)
    warm_start(str(tmp_path), cfg, minutes=0.02, log=lambda s: None)
    rows = [json.loads(line) for line in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows] == list(range(1, len(rows) + 1)) and len(rows) >= 2
    assert rows[-1]["decisions"] > rows[0]["decisions"] > 0
    from eights.train.files import load_checkpoint

    ck = load_checkpoint(tmp_path / "ckpt.pt")
    net = from_checkpoint(ck["model"], cfg.width, cfg.context).eval()
    export(net, str(tmp_path / "w.safetensors"), {"stages": "[]"})
    back = load((tmp_path / "w.safetensors").read_bytes()).eval()
    obs, masks, rules = _positions([("crazy_eights", 2)], games=1)
    a, b = _torch_logits(net, obs, masks, rules), _torch_logits(back, obs, masks, rules)
    assert np.max(np.abs(a[masks] - b[masks])) < 1e-2  # float16 storage
    assert np.array_equal(a.argmax(1), b.argmax(1)) or np.mean(a.argmax(1) == b.argmax(1)) > 0.95

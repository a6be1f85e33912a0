"""The flat baseline that the card network is measured against (netlab.flatnet): it
trains in the same imitation stage, reads the rules, masks illegal actions, and a bad ``arch``
is refused by name."""

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="eights.train needs PyTorch (pip install '.[train]')")

from eights import NUM_ACTIONS, OBS_SIZE, RULES_SIZE, Rules  # noqa: E402
from netlab.flatnet import FlatNet, build  # noqa: E402
from netlab.warmstart import WarmStartConfig, warm_start  # noqa: E402


def test_build_names_the_arch_it_refuses():
    assert isinstance(build("flat:16", 32, 96), FlatNet)
    for bad in ("flat", "flat:0", "flat:x", "mlp:16", ""):
        with pytest.raises(ValueError, match="arch must be 'card' or 'flat:H'"):
            build(bad, 32, 96)


def test_logits_are_masked_and_depend_on_the_rules():
    torch.manual_seed(0)
    net = FlatNet(16).eval()
    obs = torch.rand(3, OBS_SIZE)
    mask = torch.zeros(3, NUM_ACTIONS, dtype=torch.bool)
    mask[:, [0, 5, 54]] = True
    a = np.asarray(Rules("crazy_eights").encode(2), np.float32)
    b = np.asarray(Rules("switch_blackjack").encode(2), np.float32)
    assert a.shape == (RULES_SIZE,) and not np.array_equal(a, b)
    rules = torch.from_numpy(np.stack([a, b]))
    with torch.no_grad():
        logits, value = net(obs, mask, rules, torch.tensor([0, 1, 0]))
    assert logits.shape == (3, NUM_ACTIONS) and value.shape == (3,)
    assert bool((logits[~mask] == -1e9).all()) and bool((logits[mask] > -1e8).all())
    # rows 0 and 2 share a rule set; told the other rules, row 0's logits change
    with torch.no_grad():
        other, _ = net(obs, mask, rules, torch.tensor([1, 1, 0]))
    assert not torch.allclose(logits[0], other[0])
    assert torch.equal(logits[2], other[2])


def test_a_tiny_flat_warm_start_learns_and_resumes(tmp_path):
    cfg = WarmStartConfig(
        games={2: 16, 3: 8}, capacity=8192, collect=1024, updates=2, blocks=8, block=16, arch="flat:8"
    )
    warm_start(str(tmp_path), cfg, minutes=0.02, log=lambda s: None)
    warm_start(str(tmp_path), cfg, minutes=0.02, log=lambda s: None)
    rows = [json.loads(line) for line in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows] == list(range(1, len(rows) + 1)) and len(rows) >= 2
    from eights.train.files import load_checkpoint

    ck = load_checkpoint(tmp_path / "ckpt.pt")
    assert ck["config"]["arch"] == "flat:8" and ck["model"]["obs_in.weight"].shape == (8, OBS_SIZE)
    with pytest.raises(ValueError, match="only a card network starts from another network"):
        warm_start(str(tmp_path / "b"), cfg, minutes=0.01, init="src/bots/weights/net.safetensors")

"""The PPO stage of the rules-reading ``net`` (``eights.train.cardppo``): a tiny run writes a
checkpoint and a curve and resumes where it stopped; the first updates move the value head
alone; the groups of tables parse as documented."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch", reason="eights.train needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="eights.train needs safetensors (pip install '.[train]')")

from eights.train.cardnet import CardNet, export  # noqa: E402
from eights.train.cardppo import CardPPOConfig, card_ppo, parse_tables  # noqa: E402


def test_tables_parse_as_documented():
    want = [(2, "heuristic", 256, "all"), (4, "net", 64, "presets")]
    assert parse_tables("2:heuristic:256, 4:net:64:presets") == want
    with pytest.raises(ValueError, match="players:opponent:games"):
        parse_tables("2:heuristic:256:house")


def test_a_tiny_run_trains_the_value_head_first_then_resumes(tmp_path):
    torch.manual_seed(0)
    start = CardNet()
    init = tmp_path / "init.safetensors"
    export(start, str(init), {"stages": "[]"}, dtype=torch.float32)
    cfg = CardPPOConfig(tables="2:heuristic:8,3:heuristic:6:presets", num_steps=8, value_updates=2, block=4, blocks=8)
    out = tmp_path / "run"
    # A budget of ~0 minutes still runs one update per call.
    net = card_ppo(str(out), cfg, minutes=1e-6, init=str(init), log=lambda s: None)
    rows = [json.loads(x) for x in (out / "curve.jsonl").read_text().splitlines()]
    assert [r["update"] for r in rows] == [1] and rows[0]["value_only"] is True
    policy = {k: v for k, v in net.state_dict().items() if not k.startswith("v.")}
    for k, v in policy.items():  # the imitation network's policy did not move
        assert torch.equal(v, start.state_dict()[k].to(v.dtype)), k
    net = card_ppo(str(out), cfg, minutes=1e-6, log=lambda s: None)
    net = card_ppo(str(out), cfg, minutes=1e-6, log=lambda s: None)
    rows = [json.loads(x) for x in (out / "curve.jsonl").read_text().splitlines()]
    assert [r["update"] for r in rows] == [1, 2, 3]
    assert [r["value_only"] for r in rows] == [True, True, False]
    assert rows[-1]["decisions"] > rows[0]["decisions"] > 0
    moved = [k for k, v in net.state_dict().items() if not k.startswith("v.") and not torch.equal(v, policy[k])]
    assert moved  # the third update trained the policy

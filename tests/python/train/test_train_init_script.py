"""``benchmarks/train_init.py`` (what ``--init net`` buys, paired on duplicate deals) and the
second house-rules file it measures: a side of several agents is their mean on each deal, and
``examples/switch_multiples.toml`` is ``examples/switch_house.toml`` with exactly the house rules
its comment names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import eights

ROOT = Path(__file__).resolve().parents[3]


def _changed(a: dict, b: dict, prefix: str = "") -> set[str]:
    out = set()
    for k in set(a) | set(b):
        if isinstance(a.get(k), dict) and isinstance(b.get(k), dict):
            out |= _changed(a[k], b[k], f"{prefix}{k}.")
        elif a.get(k) != b.get(k):
            out.add(prefix + k)
    return out


def test_switch_multiples_adds_multiples_and_last_card_to_switch_house():
    multiples = eights.Rules.from_toml(ROOT / "examples" / "switch_multiples.toml")
    house = eights.Rules.from_toml(ROOT / "examples" / "switch_house.toml")
    meta = {"name", "title", "source", "description"}
    rules = _changed(multiples.to_dict(), house.to_dict()) - meta
    # "seven cards each" (switch_blackjack's deal; switch_house deals six), "Several cards of one
    # rank may be played together", "announce "last card" ... or draw two"
    assert rules == {"deal.hand_size", "multi.mode", "last_card.mode", "last_card.penalty"}
    d = multiples.to_dict()
    assert (d["deal"]["hand_size"], d["multi"]["mode"]) == (7, "equal_rank")
    assert (d["last_card"]["mode"], d["last_card"]["penalty"]) == ("action", 2)


def test_a_side_of_several_agents_is_their_mean_on_each_deal():
    pytest.importorskip("torch", reason="train_init.py plays net by PyTorch (pip install '.[train]')")
    # net against the mean of net and net: the same moves on every deal, so exactly 0.
    cmd = [sys.executable, str(ROOT / "benchmarks" / "train_init.py"), "--deals", "12", "net", "net,net"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert [line.split(":")[0] for line in p.stdout.splitlines()].count("net") == 3, p.stdout  # one line a run
    assert "paired difference net - net,net: +0.000 [+0.000, +0.000] over 12 deals" in p.stdout, p.stdout

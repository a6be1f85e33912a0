"""The stretch (``research/stretch.py``) end to end in seconds on the CPU (and on CUDA where
PyTorch sees a GPU): a tiny budget of PPO from the committed file, the export, the quick check
of both files, the paired gate, the curve and the verdict; the committed file stays as it was.
Also: ``--device auto`` picks CUDA exactly when PyTorch sees it, a bad ``--device`` is refused
by name, and the verdict's rule."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the stretch needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="the stretch needs safetensors (pip install '.[train]')")
pytest.importorskip("matplotlib", reason="the stretch draws its curve with matplotlib")

import stretch  # noqa: E402
from eights.train.cardnet import load_path  # noqa: E402
from eights.train.files import header_metadata, read_file_header  # noqa: E402
from netlab.device import env_threads, pick_device  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "src" / "bots" / "weights" / "net.safetensors"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


NO_CUDA = pytest.mark.skipif(not torch.cuda.is_available(), reason="PyTorch sees no CUDA GPU here")


@pytest.mark.parametrize("device, width", [("cpu", 32), ("cpu", 64), pytest.param("cuda", 64, marks=NO_CUDA)])
def test_a_tiny_stretch_runs_end_to_end(tmp_path, capsys, monkeypatch, device, width):
    monkeypatch.chdir(ROOT)  # the committed file's path is relative to the repository's root
    before = _sha(COMMITTED)
    out = tmp_path / "run"
    argv = ["--out", str(out), "--minutes", "0", "--device", device, "--env-threads", "2", "--threads", "1"]
    argv += ["--tables", "2:heuristic:8,3:heuristic:6:presets", "--num-steps", "8", "--blocks", "8"]
    argv += ["--deals", "2", "--gate-deals", "3", "--width", str(width)]
    assert stretch.main(argv) == 0
    printed = capsys.readouterr().out
    assert "learner decisions a second" in printed
    assert "cp " not in printed  # three deals a preset are not the gate's: nothing to commit
    assert "not on the gate's deals" in printed
    assert _sha(COMMITTED) == before

    rows = [json.loads(x) for x in (out / "train" / "curve.jsonl").read_text().splitlines()]
    assert len(rows) == 1 and rows[0]["decisions"] > 0  # a budget of 0 minutes still runs one update
    with open(out / "curve.csv") as f:
        table = list(csv.DictReader(f))
    assert [int(r["update"]) for r in table] == [1]
    assert int(table[0]["decisions"]) == rows[0]["decisions"]
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    net = load_path(str(out / "candidate.safetensors"))
    assert net.width == width
    meta = header_metadata(read_file_header(str(out / "candidate.safetensors")), "candidate")
    stages = json.loads(meta["stages"])
    committed = json.loads(header_metadata(read_file_header(str(COMMITTED)), "committed")["stages"])
    assert stages[: len(committed)] == committed and stages[-1].startswith(f"stretch, PPO on {device}")
    assert "--minutes 0" in stages[-1] and str(tmp_path) not in stages[-1]  # the recipe, not the folder

    summary = json.loads((out / "summary.json").read_text())
    assert summary["decisions"] == rows[0]["decisions"] and summary["decisions_per_s"] > 0
    for name in ("candidate", "committed"):
        check = json.loads((out / f"check_{name}.json").read_text())
        assert check["deals"] == 2 and len(check["presets"]) >= 20
        assert summary["quick_check"][name] == check["mean_of_fair"]
    assert summary["quick_check"]["fixed"] is False and summary["stronger"] is False
    assert summary["policy_updates"] == 0  # the one update trained the value head alone
    # The gate: the two files on the same 3 deals of every preset, from the gate's seed.
    gate = json.loads((out / "gate.json").read_text())
    assert gate["deals"] == 3 and gate["seed"] == stretch.GATE_SEED == 7 and len(gate["presets"]) >= 20
    assert gate["a"] == str(out / "candidate.safetensors") and gate["b"] == stretch.COMMITTED
    assert summary["gate"] == {k: gate[k] for k in stretch.GATE_KEYS} | {"fixed": False}
    assert not (out / "gate_start.json").exists()
    assert summary["confirm"] is None and not (out / "confirm.json").exists()  # no gate passed


def test_a_continued_candidate_is_judged_against_the_committed_file(tmp_path, capsys, monkeypatch):
    """``--init`` another file: the run starts from it, the verdict's baseline stays the
    committed file (quick-checked as the shipped ``net``), and the start is checked beside."""
    import net_quick_check

    monkeypatch.chdir(ROOT)
    start = "research/results/net/stretch_h100_w64/candidate.safetensors"
    out = tmp_path / "run"
    argv = ["--out", str(out), "--minutes", "0", "--device", "cpu", "--env-threads", "2", "--threads", "1"]
    argv += ["--tables", "2:heuristic:8", "--num-steps", "8", "--blocks", "8", "--deals", "2", "--width", "64"]
    argv += ["--gate-deals", "2"]
    # Two deals a preset made the gate's, and its test passed whatever the lead: the candidate
    # then plays the fresh deals too (the verdict still waits for the policy to train).
    monkeypatch.setattr(stretch, "GATE_DEALS", 2)
    monkeypatch.setattr(stretch, "gate_passed", lambda gate, fixed, trained=True: fixed)
    assert stretch.main(argv + ["--init", start]) == 0
    printed = capsys.readouterr().out
    assert f"the file the run started from, {start}" in printed and "cp " not in printed
    candidate = str(out / "candidate.safetensors")
    seed = stretch.confirm_seed(candidate)
    assert f"confirm: the candidate against the committed file, 2 fresh deals (seed {seed})" in printed
    confirm = json.loads((out / "confirm.json").read_text())
    assert (confirm["a"], confirm["b"], confirm["deals"], confirm["seed"]) == (candidate, stretch.COMMITTED, 2, seed)
    summary = json.loads((out / "summary.json").read_text())
    shipped = net_quick_check.run(2, stretch.FIXED_SEED)["mean_of_fair"]
    assert summary["quick_check"]["committed"] == shipped
    check = json.loads((out / "check_start.json").read_text())
    gate = json.loads((out / "gate_start.json").read_text())
    assert gate["b"] == start and gate["deals"] == 2
    gate_start = {k: gate[k] for k in stretch.GATE_KEYS}
    assert summary["start"] == {"file": start, "quick_check": check["mean_of_fair"], "gate": gate_start}
    assert json.loads((out / "gate.json").read_text())["b"] == stretch.COMMITTED
    assert summary["confirm"] == {k: confirm[k] for k in stretch.GATE_KEYS}
    stages = json.loads(header_metadata(read_file_header(str(out / "candidate.safetensors")), "c")["stages"])
    before = json.loads(header_metadata(read_file_header(str(ROOT / start)), "start")["stages"])
    assert stages[: len(before)] == before and len(stages) == len(before) + 1


def _gate(mean, lo, hi, deals=stretch.GATE_DEALS):
    return {"mean": mean, "ci": [lo, hi], "deals": deals}


def _fresh(mean, lo, hi, seed=12345):
    return {"mean": mean, "ci": [lo, hi], "deals": stretch.GATE_DEALS, "seed": seed}


def test_the_verdict_asks_the_fixed_gate_and_a_lead_above_the_deals_noise():
    # The width-64 candidate's gate and its lead on other deals (seed 0, 1,000 deals a preset).
    confirm = _fresh(0.0112, 0.0026, 0.0200)
    ok, line = stretch.verdict(_gate(0.0071, 0.0007, 0.0137), True, "runs/s/candidate.safetensors", confirm=confirm)
    assert ok and line.endswith("cp runs/s/candidate.safetensors src/bots/weights/net.safetensors")
    assert "+0.0071 [+0.0007, +0.0137]" in line and "+0.0112 [+0.0026, +0.0200] on 2000 fresh deals" in line
    assert stretch.gate_passed(_gate(0.0071, 0.0007, 0.0137), True)
    # Passing the gate alone commits nothing: the fresh deals must confirm the lead.
    ok, line = stretch.verdict(_gate(0.0071, 0.0007, 0.0137), True, "c.safetensors")
    assert not ok and "cp " not in line and "not yet confirmed" in line
    for mean in (0.0, -0.002):
        fresh = _fresh(mean, -0.009, 0.006)
        ok, line = stretch.verdict(_gate(0.0071, 0.0007, 0.0137), True, "c.safetensors", confirm=fresh)
        assert not ok and "cp " not in line and line.startswith("not confirmed") and "(seed 12345)" in line
    # A lead whose interval reaches 0 is within the deals' noise: the file stays.
    for lo in (0.0, -0.0007):
        ok, line = stretch.verdict(_gate(0.0088, lo, 0.0182), True, "c.safetensors")
        assert not ok and "cp " not in line and "keep the committed file" in line
        assert line.startswith("not shown stronger") and "(the interval holds 0)" in line
    ok, line = stretch.verdict(_gate(-0.0015, -0.0081, 0.0049), True, "c.safetensors")
    assert not ok and "cp " not in line
    # A file behind by more than the noise, as a one-minute run on two cores ended (its quick
    # check led, 1.1014 against 1.0936).
    ok, line = stretch.verdict(_gate(-0.0060, -0.0115, -0.0005), True, "c.safetensors")
    assert not ok and "cp " not in line and line.startswith("weaker") and "below 0" in line
    # Other deals than the gate's give no verdict, however large the lead.
    ok, line = stretch.verdict(_gate(0.5, 0.4, 0.6, deals=3), False, "c.safetensors")
    assert not ok and "cp " not in line and "no verdict" in line
    # Updates of the value head alone leave the policy, and so the games, as they were.
    ok, line = stretch.verdict(_gate(0.01, 0.005, 0.015), True, "c.safetensors", trained=False, confirm=confirm)
    assert not ok and "cp " not in line
    assert not stretch.gate_passed(_gate(0.01, 0.005, 0.015), True, trained=False)
    assert not stretch.gate_passed(_gate(0.5, 0.4, 0.6, deals=3), False)


def test_the_fresh_deals_follow_the_file_and_are_never_the_gates(tmp_path, monkeypatch):
    a, b = tmp_path / "a.safetensors", tmp_path / "b.safetensors"
    a.write_bytes(b"one file")
    b.write_bytes(b"another file")
    seed = stretch.confirm_seed(str(a))
    assert seed == stretch.confirm_seed(str(a)) and seed != stretch.confirm_seed(str(b))
    # The first 8 bytes of the sha256, little-endian, halved to fit a signed 64-bit seed.
    digest = bytes.fromhex("4b9d8b7b4ac7e4c24a7bb0d3e2e5f7fbdc2b80e7f1e0f0a0b9c8d7e6f5a4b3c2")
    monkeypatch.setattr(stretch.hashlib, "sha256", lambda data: type("H", (), {"digest": lambda self: digest})())
    assert stretch.confirm_seed(str(a)) == int.from_bytes(digest[:8], "little") >> 1 < 2**63
    seven = (stretch.GATE_SEED << 1).to_bytes(8, "little") + bytes(24)
    monkeypatch.setattr(stretch.hashlib, "sha256", lambda data: type("H", (), {"digest": lambda self: seven})())
    assert stretch.confirm_seed(str(a)) == stretch.GATE_SEED + 1


def test_the_groups_scale_by_their_games():
    got = stretch.scale_tables("2:heuristic:128,4:net:64:presets", 8)
    assert got == "2:heuristic:1024:all,4:net:512:presets"
    with pytest.raises(ValueError, match="scale"):
        stretch.scale_tables("2:heuristic:128", 0)


def test_auto_picks_cuda_exactly_when_pytorch_sees_it(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert pick_device("auto") == torch.device("cuda")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert pick_device("auto") == torch.device("cpu")
    assert pick_device("CPU") == torch.device("cpu")
    with pytest.raises(ValueError, match="device: 'cuda' asked for"):
        pick_device("cuda")
    with pytest.raises(ValueError, match="device: 'auto', 'cpu', 'cuda' or 'cuda:K', got 'tpu'"):
        pick_device("tpu")


def test_env_threads_zero_means_one_per_core(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 16)
    assert env_threads(0) == 16 and env_threads(3) == 3
    with pytest.raises(ValueError, match="env_threads"):
        env_threads(-1)

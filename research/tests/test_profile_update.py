"""The profile of the card network's PPO update (``research/profile_update.py``) on the CPU in
seconds: its report has every part (the rollout, the whole update, the loop's phases, the bare
network, the copies, the profiler's tables), printed and in ``--json``, and it leaves the
training code as it found it."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch", reason="the profile needs PyTorch (pip install '.[train]')")
pytest.importorskip("safetensors", reason="the profile needs safetensors (pip install '.[train]')")

import netlab.cardppo as cardppo  # noqa: E402
import profile_update  # noqa: E402

TINY = ["--device", "cpu", "--tables", "2:heuristic:8,3:heuristic:6:presets", "--num-steps", "8", "--blocks", "4"]
TINY += ["--minibatches", "2", "--warmup", "1", "--profile", "2", "--env-threads", "2", "--threads", "1"]


@pytest.mark.parametrize("value_only", [False, True])
def test_a_tiny_profile_reports_every_phase(tmp_path, capsys, value_only):
    act = cardppo._act
    out = tmp_path / "profile.json"
    argv = TINY + ["--json", str(out)] + (["--value-only"] if value_only else [])
    assert profile_update.main(argv) == 0
    assert cardppo._act is act  # the rollout's timers are gone
    printed = capsys.readouterr().out
    r = json.loads(out.read_text())
    assert r["errors"] == {} and r["device"].startswith("cpu") and r["init"] == "src/bots/weights/net.safetensors"
    assert "\n".join(r["printed"]) + "\n" == printed

    ro = r["rollout"]
    assert ro["decisions"] > 0 and {"env_step", "forward", "labels"} <= set(ro["parts_s"])
    up = r["ppo_update"]
    assert up["minibatches"] > 0 and up["samples_per_s"] > 0 and up["value_only"] is value_only
    phases = r["phases"]["phases"]
    want = set(profile_update.PHASES) - (set() if value_only else {"grad_mask"})
    assert set(phases) == want and all(p["ms"] >= 0 for p in phases.values())
    assert abs(sum(p["share"] for p in phases.values()) - 1) < 1e-2
    assert r["phases"]["total_ms"] > 0 and r["loop"]["ms"] > 0 and r["loop_4x"]["samples"] > 0
    assert [b["batch"] for b in r["bare"]] == [64, 256] and all(b["samples_per_s"] > 0 for b in r["bare"])
    assert {"pageable", "rows_on_device", "table_upload"} <= set(r["transfers_ms"])

    pr = r["profiler"]
    assert "aten::" in pr["by_self_time"] and "aten::" in pr["by_cpu_time_total"]
    assert pr["per_minibatch"]["aten_ops"] > 100 and {"loss", "backward", "step"} <= set(
        pr["per_minibatch"]["by_phase"]
    )
    for line in ("ppo_update:", "phase", "backward", "bare forward+backward+Adam", "torch.profiler over 2 minibatches"):
        assert line in printed

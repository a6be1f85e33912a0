"""The measured baseline of the generalization benchmark (scripts/generalization_baseline.py):
its pipeline at a tiny budget (every run trained, evaluated, reported; finished runs skipped;
the report rebuilt from the JSON alone),, the network that reads the rules through a table of
encodings, and the committed table against the committed results."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import eights
from eights import generalization as G

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "generalization_baseline.py"

#: The budget of the committed measurement (benchmarks/results/generalization/baseline.json).
MEASURED_DECISIONS = 2_000_000


def _script():
    spec = importlib.util.spec_from_file_location("generalization_baseline", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _markers(path: Path, script) -> None:
    path.write_text(f"# doc\n\nbefore\n\n{script.BEGIN}\n{script.END}\n\nafter\n", encoding="utf-8")


def _between(text: str, script) -> str:
    return text.split(script.BEGIN + "\n", 1)[1].split("\n" + script.END, 1)[0]


def test_pipeline_at_a_tiny_budget(tmp_path):
    pytest.importorskip("torch", reason="the baseline trains with PyTorch (pip install '.[train]')")
    pytest.importorskip("matplotlib", reason="the baseline draws a chart (pip install '.[plot]')")
    script = _script()
    doc, readme = tmp_path / "doc.md", tmp_path / "readme.md"
    _markers(doc, script)
    _markers(readme, script)
    out = ["--data", str(tmp_path / "b.json"), "--doc", f"{doc},{readme}", "--plot", str(tmp_path / "c.svg")]
    argv = ["--decisions", "300", "--num-envs", "8", "--num-steps", "16", "--hidden", "16", "--rules-width", "4"]
    argv += ["--preset-games", "3", "--house-games", "1", "--house-sets", "2", "--runs", str(tmp_path / "runs")] + out
    assert script.main(argv) == 0
    data = json.loads((tmp_path / "b.json").read_text())
    held = [r.name for r in G.split("heldout_presets")]
    assert list(data["runs"]) == ["generalist_rules", "generalist"] + [f"specialist_{p}" for p in held]
    for name, run in data["runs"].items():
        assert run["decisions"] >= 300 and run["budget"] == 300, name
        assert all(0 < p["decisions"] <= run["decisions"] and 0 <= p["win_rate"] <= 1 for p in run["curve"]), name
        presets = run["eval"]["heldout_presets"]
        if name.startswith("generalist"):
            assert [r["name"] for r in presets["rule_sets"]] == held
            house = run["eval"]["heldout_house"]
            assert [r["name"] for r in house["rule_sets"]] == [r.name for r in G.split("heldout_house")[:2]]
            assert house["deals"] == 1 and np.isfinite(house["mean"])
        else:
            assert [r["name"] for r in presets["rule_sets"]] == [name[len("specialist_") :]]
            assert "heldout_house" not in run["eval"]
        for r in presets["rule_sets"]:
            assert r["deals"] == 3 and 0 <= r["win_rate"] <= 1 and r["refused"] is None
            assert len(presets["per_deal"][r["name"]]) == 3
    assert data["runs"]["generalist_rules"]["rules_width"] == 4 and data["runs"]["generalist"]["rules_width"] == 0
    table = script.table(data)
    for text in (doc.read_text(), readme.read_text()):
        assert _between(text, script) == table and text.startswith("# doc\n\nbefore") and text.endswith("after\n")
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert [line.split("`")[1] for line in rows] == held
    assert "mean of the 2 held-out house rule sets" in table and "300 learner decisions per run" in table
    svg = (tmp_path / "c.svg").read_bytes()
    assert svg.lstrip().startswith(b"<?xml") and b"<svg" in svg
    # Started again, finished runs are skipped (the checkpoints stay as they were); the report
    # alone, from the JSON, gives the same table and the same chart.
    stamps = sorted((p, p.stat().st_mtime_ns) for p in (tmp_path / "runs").rglob("*"))
    assert script.main(argv) == 0
    assert sorted((p, p.stat().st_mtime_ns) for p in (tmp_path / "runs").rglob("*")) == stamps
    _markers(doc, script)
    (tmp_path / "c.svg").unlink()
    assert script.main(["--report-only"] + out) == 0
    assert _between(doc.read_text(), script) == table and (tmp_path / "c.svg").read_bytes() == svg


def test_the_rules_reading_network_sees_each_games_encoding():
    torch = pytest.importorskip("torch", reason="the baseline trains with PyTorch (pip install '.[train]')")
    from eights.agents import as_agent
    from eights.generalization import learners as L
    from eights.train import PPOConfig

    torch.manual_seed(0)
    cfg = PPOConfig(num_envs=8, num_steps=16, hidden=16)
    learner = L.Learner(4, as_agent("heuristic"), G.train_space(), 2, 0, cfg, {"agent": "heuristic"})
    learner.train(600, None)  # several rollouts: the table is compacted and refilled
    table = learner.net.table
    assert table.size <= 8 + cfg.num_envs * cfg.num_steps
    for e in learner.envs:  # each game's row holds the encoding of the rules it plays
        for i in range(e.num_envs):
            np.testing.assert_array_equal(table.rows[e.rows[i]], e.env.episode_rules(i).encode(2))
    # The arena's dict observations give the same policy as the rows of the table.
    env = eights.VecEnv(G.train_space(), 6, 2, opponents="heuristic", obs_rules=True, seed=5)
    o, _ = env.reset()
    o = {k: v.copy() for k, v in o.items()}
    net, masks = learner.net, env.action_masks().copy()
    with torch.no_grad():
        direct = net.rules_features(torch.from_numpy(o["rules"]))
        h = torch.relu(net.fc2(torch.relu(net.fc1(torch.cat([net.norm(torch.from_numpy(o["obs"])), direct], -1)))))
        expected = net.pi(h).masked_fill(~torch.from_numpy(masks), -1e9).argmax(1).numpy()
    agent = L.Greedy(net, "g", obs_rules=True)
    np.testing.assert_array_equal(agent.act_batch(o, masks), expected)
    assert len({r.tobytes() for r in o["rules"]}) > 1  # the batch mixes rule sets


def test_committed_table_is_the_one_the_committed_results_give():
    # The table of docs/rules_agents_see.md (between the generalization markers)
    # is written by scripts/generalization_baseline.py from benchmarks/results/generalization/baseline.json.
    script = _script()
    data = json.loads(script.DATA.read_text(encoding="utf-8"))
    held = [r.name for r in G.split("heldout_presets")]
    assert (
        list(data["runs"])
        == script.run_names()
        == ["generalist_rules", "generalist"] + [f"specialist_{p}" for p in held]
    )
    assert data["decisions"] == MEASURED_DECISIONS
    for name, run in data["runs"].items():
        assert run["budget"] == MEASURED_DECISIONS and run["decisions"] >= MEASURED_DECISIONS, name
        assert run["eval"]["heldout_presets"]["deals"] == 500, name
    for g in ("generalist_rules", "generalist"):
        house = data["runs"][g]["eval"]["heldout_house"]
        assert [r["name"] for r in house["rule_sets"]] == [r.name for r in G.split("heldout_house")]
    text = script.table(data)
    for doc in (script.DOC,):
        assert f"{script.BEGIN}\n{text}\n{script.END}" in doc.read_text(encoding="utf-8"), (
            f"{doc.name}'s generalization table is out of date: run "
            "`python scripts/generalization_baseline.py --report-only`"
        )

"""examples/quickstart.ipynb runs from top to bottom (with a tiny budget)."""

from __future__ import annotations

import os

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("sb3_contrib")
pytest.importorskip("ipykernel")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def test_quickstart_notebook_executes(tmp_path, monkeypatch):
    monkeypatch.setenv("QUICKSTART_BUDGET", "0.01")
    nb = nbformat.read(os.path.join(ROOT, "examples", "quickstart.ipynb"), as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "vs random" in text and "vs heuristic" in text
    assert (tmp_path / "quickstart_ratings.png").is_file()
    # The game cells show the game itself (its rich repr) as a result.
    assert any(o.get("output_type") == "execute_result" for o in outputs)


def test_committed_notebook_shows_its_outputs():
    # The notebook is committed executed, so a code host shows the cards and the chart.
    nb = nbformat.read(os.path.join(ROOT, "examples", "quickstart.ipynb"), as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code and all(cell.get("outputs") for cell in code), "a code cell has no output"
    outputs = [o for cell in code for o in cell["outputs"]]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    data = [o.get("data", {}) for o in outputs if o.get("output_type") in ("execute_result", "display_data")]
    assert any("<svg" in d.get("text/html", "") for d in data), "no rendered cards"
    assert any(d.get("image/png") for d in data), "no chart"

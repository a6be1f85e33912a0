"""examples/quickstart.ipynb runs from top to bottom, executed from a shell as its first cell
says (``jupyter nbconvert --execute``, with a tiny budget), and is committed with the outputs
of a run with its default budget; its install line and its training cell say what they do."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

nbformat = pytest.importorskip("nbformat")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
NOTEBOOK = os.path.join(ROOT, "examples", "quickstart.ipynb")


def _stream(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")


def _training_cell(nb):
    return next(c for c in nb.cells if c.cell_type == "code" and "model.learn(" in c.source)


def test_quickstart_notebook_executes_from_a_shell(tmp_path):
    pytest.importorskip("nbconvert", reason="the notebook extra brings nbconvert (pip install '.[notebook]')")
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("ipykernel")
    env = dict(os.environ, QUICKSTART_BUDGET="0.01")
    # A copy, so that the run (in the notebook's folder) writes nothing in examples/.
    shutil.copy(NOTEBOOK, tmp_path / "quickstart.ipynb")
    # `python -m nbconvert` is `jupyter nbconvert` (the notebook's command) in this interpreter.
    command = [sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", "quickstart.ipynb"]
    done = subprocess.run(
        [*command, "--output", "run.ipynb", "--ExecutePreprocessor.timeout=600"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    nb = nbformat.read(str(tmp_path / "run.ipynb"), as_version=4)
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "vs random" in text and "vs heuristic" in text and "decisions/s" in text
    # The game cells show the game itself (its rich repr) as a result; the arena cell its tables
    # and the chart, a figure shown inline, written to no file (and nothing else is shown as a
    # result: the training cell's model is not).
    assert any(o.get("output_type") == "execute_result" for o in outputs)
    arena_cell = next(c for c in nb.cells if c.cell_type == "code" and "arena.tournament(" in c.source)
    data = [o.get("data", {}) for o in arena_cell.outputs]
    assert any("<table" in d.get("text/html", "") for d in data)
    assert any(d.get("image/png") and d["text/plain"].startswith("<Figure") for d in data)
    assert sorted(os.listdir(tmp_path)) == ["quickstart.ipynb", "run.ipynb"]
    assert not [o for o in _training_cell(nb).outputs if o.get("output_type") == "execute_result"]
    # The training shows its progress: ten lines up to the last step of the (tiny) run.
    progress = re.findall(r"([\d,]+) / ([\d,]+) steps", _stream(_training_cell(nb)))
    assert len(progress) == 10 and progress[-1][0] == progress[-1][1] == "2,048", progress


def test_committed_notebook_shows_its_outputs():
    # The notebook is committed executed, so a code host shows the cards and the chart.
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code and all(cell.get("outputs") for cell in code), "a code cell has no output"
    outputs = [o for cell in code for o in cell["outputs"]]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    data = [o.get("data", {}) for o in outputs if o.get("output_type") in ("execute_result", "display_data")]
    assert any("<svg" in d.get("text/html", "") for d in data), "no rendered cards"
    assert any(d.get("image/png") for d in data), "no chart"
    # ...with the default budget, whose time the first cell states: the whole training run.
    assert "61,440 / 61,440 steps" in _stream(_training_cell(nb))


def test_notebook_says_how_to_install_and_run_it_and_trains_on_one_thread():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    intro = nb.cells[0].source
    # Installed as eights is installed today: from a clone (or a wheel built from one).
    assert "git clone https://github.com/eights-rl/eights.git" in intro
    assert "pip install '.[notebook]'" in intro and "whl[notebook]" in intro
    assert "pip install torch --index-url https://download.pytorch.org/whl/cpu" in intro
    assert "jupyter nbconvert --to notebook --execute examples/quickstart.ipynb" in intro
    assert re.search(r"under \w+ minutes on two CPU cores", intro), intro
    # The extra it names brings what runs it from a shell.
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        notebook_extra = next(line for line in f if line.startswith("notebook = "))
    assert '"nbconvert>=' in notebook_extra and "sb3" in notebook_extra
    train = _training_cell(nb).source
    assert "torch.set_num_threads(1)" in train and "callback=Progress(steps)" in train

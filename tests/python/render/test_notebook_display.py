"""What a Jupyter kernel shows of the package's objects, cell by cell (run by nbclient in a
fresh kernel, as a notebook runs): a tournament as HTML tables, its chart as an inline picture
(with no pyplot figure made first), the user's own pyplot chart still shown after the package
saved one (the charts used to switch the kernel to Agg), and a rule set as HTML."""

from __future__ import annotations

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

CELLS = [
    "import matplotlib, eights, eights.arena\n"
    "t = eights.arena.tournament(['random', ('<i>me</i>', 'heuristic')], games=6, seed=0, bootstrap=100)\n"
    "t",
    "t.plot()",
    "t.plot('ratings.png')\nprint(matplotlib.get_backend())",
    "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()",
    "eights.Rules('crazy_eights')",
]


def test_a_kernel_shows_tables_charts_and_rules(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": tmp_path}})
    client.execute()
    table, chart, saved, own, rules = ([o for o in cell.outputs] for cell in nb.cells)
    assert not [o for cell in nb.cells for o in cell.outputs if o.output_type == "error"]
    html = table[0]["data"]["text/html"]
    assert html.count("<table") == 2 and "&lt;i&gt;me&lt;/i&gt;" in html and "<i>" not in html
    assert "image/png" in chart[0]["data"] and chart[0]["data"]["text/plain"].startswith("<Figure")
    assert saved[0]["text"].strip() in ("inline", "module://matplotlib_inline.backend_inline")
    assert (tmp_path / "ratings.png").stat().st_size > 1000
    assert any("image/png" in o.get("data", {}) for o in own), own
    assert 'class="eights-rules"' in rules[0]["data"]["text/html"]

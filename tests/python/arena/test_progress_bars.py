"""The long calls' progress bars (``progress=True``): tqdm.auto's, so a notebook with ipywidgets
gets tqdm's widget and anything else the text bar, without tqdm.auto's own warning in a
notebook without ipywidgets; without tqdm a bar asked for is a warning naming the extra, and
the call goes on without one."""

from __future__ import annotations

import os
import sys
import types
import warnings

import pytest

from eights import arena
from eights import generalization as G
from eights._utils.progress import bar_class

# IPython is needed only to stand for a kernel (the `kernel` fixture): the test without tqdm
# runs where neither is installed, as in the wheel's lean test environment.
pytest.importorskip("tqdm")

import tqdm  # noqa: E402
import tqdm.notebook  # noqa: E402
import tqdm.std  # noqa: E402


@pytest.fixture
def kernel(monkeypatch):
    """Makes tqdm.auto, imported afresh, see a Jupyter kernel (as tqdm.autonotebook tells one);
    yields a switch for whether ipywidgets is there."""
    IPython = pytest.importorskip("IPython")

    for name in ("tqdm.auto", "tqdm.autonotebook"):
        monkeypatch.delitem(sys.modules, name, raising=False)
        if hasattr(tqdm, name.split(".")[1]):
            monkeypatch.setattr(tqdm, name.split(".")[1], getattr(tqdm, name.split(".")[1]))
    for name in [k for k in os.environ if k == "QT_API" or k.startswith("SPYDER")]:
        monkeypatch.delenv(name)
    monkeypatch.setitem(sys.modules, "ipykernel.zmqshell", types.ModuleType("ipykernel.zmqshell"))

    class ZMQInteractiveShell:
        pass

    monkeypatch.setattr(IPython, "get_ipython", lambda: ZMQInteractiveShell())

    def widgets(there: bool) -> None:
        monkeypatch.setattr(tqdm.notebook, "IProgress", object() if there else None)

    yield widgets


def test_a_notebook_with_ipywidgets_gets_the_widget(kernel):
    kernel(True)
    assert issubclass(bar_class(), tqdm.notebook.tqdm)


def test_a_notebook_without_ipywidgets_gets_the_text_bar_and_no_warning(kernel):
    kernel(False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cls = bar_class()
    assert issubclass(cls, tqdm.std.tqdm) and not issubclass(cls, tqdm.notebook.tqdm)


def test_the_arena_draws_the_notebook_widget_in_a_notebook(kernel, monkeypatch):
    # The arena's bar was tqdm.tqdm, the text bar on stderr, even where the widget could be drawn.
    kernel(True)
    made = []

    def quiet_init(self, *args, **kwargs):  # the widget itself needs ipywidgets: a bar that draws nothing
        made.append(kwargs)
        tqdm.std.tqdm.__init__(self, *args, **{**kwargs, "disable": True})

    monkeypatch.setattr(tqdm.notebook.tqdm, "__init__", quiet_init)
    arena.evaluate("heuristic", "random", games=3, seed=0, progress=True, bootstrap=100)
    assert [m["total"] for m in made] == [6]


def test_a_bar_asked_for_without_tqdm_is_a_warning_and_the_call_goes_on(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    with pytest.warns(UserWarning, match=r"progress=True draws no bar: .*pip install 'eights\[progress\]'"):
        r = arena.evaluate("heuristic", "random", games=3, seed=0, progress=True, bootstrap=100)
    assert r.games == 6
    # generalization.evaluate raised an ImportError instead.
    with pytest.warns(UserWarning, match=r"pip install 'eights\[progress\]'"):
        g = G.evaluate("heuristic", games=2, rule_sets=["crazy_eights"], progress=True, bootstrap=100)
    assert g.rule_sets[0].deals == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        arena.evaluate("heuristic", "random", games=3, seed=0, bootstrap=100)  # no bar asked for: no word


def test_training_without_a_bar_needs_no_tqdm(monkeypatch):
    # outputs.progress_bar imported tqdm even for progress=False.
    pytest.importorskip("torch", reason="eights.train needs the train extra")
    from eights.train import outputs

    monkeypatch.setitem(sys.modules, "tqdm", None)
    bar = outputs.progress_bar(False)
    bar.n = 500
    bar.set_postfix({"random": "0.50"}, refresh=False)
    bar.refresh()
    bar.close()

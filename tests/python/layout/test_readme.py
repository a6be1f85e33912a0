"""The README is the front page: short, every command and snippet in it works, its links
resolve, and no paragraph of it is repeated in the documentation (explanations live in docs/)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from markdown_helpers import anchors

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"

pytestmark = pytest.mark.skipif(not README.is_file(), reason="needs the source tree (README.md)")


def _text() -> str:
    return README.read_text(encoding="utf-8")


def _blocks(lang: str) -> List[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", _text(), re.M | re.S)


def _commands() -> List[str]:
    return [line for block in _blocks("bash") for line in block.splitlines() if line.strip()]


def _extras() -> set:
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib
    with open(ROOT / "pyproject.toml", "rb") as f:
        return set(tomllib.load(f)["project"]["optional-dependencies"])


def test_readme_is_a_front_page():
    assert len(_text().splitlines()) <= 250


def test_readme_commands_are_the_ones_tested():
    # Every command line of the README is one of these; a new one needs a test here.
    commands = _commands()
    assert commands == [
        "git clone https://github.com/eights-rl/eights.git && cd eights",
        "pip install '.[progress,plot]' && python -m eights arena --preset crazy_eights --players 2 "
        "--agents random,heuristic,ismcts:400,net --games 1000 --plot ratings.png",
        "pip install '.[test]' && cargo test --profile test-opt && python -m pytest tests/python -n auto",
        # run, budgets cut, by tests/python/cli/test_train_cli.py::test_the_readme_path_runs
        "eights rules --preset switch_blackjack --variants aces_wild --out house.toml   # your rules, to edit",
        "eights train --preset house.toml --players 3 --minutes 10 --out runs/house",
        "eights arena --preset house.toml --players 3 --agents runs/house/final.safetensors,heuristic,net",
    ]


def test_the_test_command_is_the_one_ci_runs():
    command = _commands()[2]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"if ! {{ {command}; }}; then" in ci
    assert command in (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


def test_the_clone_url_and_the_extras_exist():
    with open(ROOT / "pyproject.toml", encoding="utf-8") as f:
        assert 'Repository = "https://github.com/eights-rl/eights"' in f.read()
    named = set()
    for spec in re.findall(r"pip install '\.\[([\w,]+)\]'", _text()):
        named |= set(spec.split(","))
    # The extras listed on the install line, too.
    line = next(ln for ln in _text().splitlines() if ln.startswith("`progress`, `plot`"))
    named |= set(re.findall(r"`(\w+)`", line))
    assert named and named <= _extras()
    assert _extras() <= named, "an extra of pyproject.toml is missing from the README's install line"


def test_the_main_job_runs(tmp_path):
    # The README's main job, with fewer games: its arguments as written, --games and --plot aside.
    pytest.importorskip("matplotlib", reason="the main job draws a chart (pip install '.[plot]')")
    args = shlex.split(_commands()[1].split("&&", 1)[1])
    assert args[:3] == ["python", "-m", "eights"]
    args = args[3:]
    args[args.index("--games") + 1] = "4"
    plot = tmp_path / "ratings.png"
    args[args.index("--plot") + 1] = str(plot)
    done = subprocess.run([sys.executable, "-m", "eights", *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    for agent in ("random", "heuristic", "ismcts:400", "net"):
        assert agent in done.stdout
    assert plot.stat().st_size > 0


@pytest.mark.parametrize("index", range(3))
def test_the_snippets_run(index):
    snippets = _blocks("python")
    assert len(snippets) == 3
    exec(compile(snippets[index], f"README.md snippet {index + 1}", "exec"), {})


def test_no_paragraph_stands_in_both_readme_and_docs():
    docs = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.md"))
    repeated = [line for line in _text().splitlines() if len(line.strip()) >= 60 and line.strip() in docs]
    assert repeated == []


#: Where the README's links point: the documentation site (built from docs/) and the
#: repository's main branch. The README is also the package's page on PyPI, where a link
#: relative to the repository leads nowhere and its chart does not show.
SITE = "https://eights-rl.github.io/eights/"
REPOSITORY = "https://github.com/eights-rl/eights/blob/main/"


def _local(url: str) -> Path:
    """The file of this tree behind a link to the site or the repository's main branch."""
    if url.startswith(REPOSITORY):
        return ROOT / url[len(REPOSITORY) :]
    page = url[len(SITE) :]
    if not page or page.endswith("/"):  # a page: its Markdown file under docs (index.md for the site's root)
        return ROOT / "docs" / ((page.rstrip("/") or "index") + ".md")
    return ROOT / "docs" / page  # a file the site copies, such as a chart


def test_local_maps_the_sites_and_the_repositorys_addresses():
    assert _local(SITE) == ROOT / "docs" / "index.md"
    assert _local(SITE + "tutorials/quickstart/") == ROOT / "docs" / "tutorials" / "quickstart.md"
    assert _local(SITE + "figures/a.svg") == ROOT / "docs" / "figures" / "a.svg"
    assert _local(REPOSITORY + "CHANGELOG.md") == ROOT / "CHANGELOG.md"


def test_the_readme_links_work_on_pypi_too():
    relative = [t for t in re.findall(r"\]\(([^)\s]+)\)", _text()) if not re.match(r"https?://|#", t)]
    assert relative == [], "links relative to the repository break on the package's PyPI page"


@pytest.mark.parametrize("page", ["README.md", "CONTRIBUTING.md", "benchmarks/README.md"])
def test_links_resolve(page):
    path = ROOT / page
    for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text(encoding="utf-8")):
        file, _, anchor = target.partition("#")
        if file.startswith((SITE, REPOSITORY)):
            linked = _local(file)
        elif re.match(r"https?://", target):
            continue
        else:
            linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{page}: {target}"
        if anchor:
            assert anchor in anchors(linked.read_text(encoding="utf-8")), f"{page}: {target}"

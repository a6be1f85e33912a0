"""The shell commands of the documentation and the README are ones ``eights`` takes: every ``eights
...`` (or ``python -m eights ...``) line of a ```bash block parses, options and values, in a
scratch folder with the repository's ``examples/`` where the page's own ``eights rules ... --out
FILE`` commands ran first (the files later commands read). A renamed option or a command that
reads a file nothing wrote fails here; what the commands then do is tested with each command."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path
from typing import List

import pytest

from eights.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[3]
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]

pytestmark = pytest.mark.skipif(not (ROOT / "docs").is_dir(), reason="needs the source tree (docs/)")


def commands(text: str) -> List[List[str]]:
    """The argument lists of the ``eights`` lines of a page's shell blocks, in order."""
    found = []
    for block in re.findall(r"^```(?:bash|sh|console)\n(.*?)^```", text, re.M | re.S):
        for line in block.replace("\\\n", " ").splitlines():
            m = re.match(r"^\s*(?:\S+=\S+\s+)*(?:eights|python3? -m eights)\s+(.*)$", line)
            if m:
                found.append(shlex.split(m.group(1), comments=True))
    return found


def test_commands_are_read_from_shell_blocks_only():
    text = "eights arena\n```bash\neights rules --preset x \\\n  --toml  # words\nls\n```\n```python\neights.x\n```\n"
    assert commands(text) == [["rules", "--preset", "x", "--toml"]]


@pytest.mark.parametrize("page", [p.relative_to(ROOT).as_posix() for p in PAGES if commands(p.read_text("utf-8"))])
def test_every_command_of_the_page_parses(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)  # as in a clone
    refused = []
    for argv in commands((ROOT / page).read_text(encoding="utf-8")):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                if argv[:1] == ["rules"] and "--out" in argv:
                    code = main(argv)  # writes a file a later command reads
                else:
                    build_parser().parse_args(argv)
                    code = 0
            except SystemExit as exc:
                code = exc.code
        if code:
            refused.append(f"eights {shlex.join(argv)}\n    {err.getvalue().strip()[-300:]}")
    assert not refused, f"{page}: commands eights does not take:\n" + "\n".join(refused)

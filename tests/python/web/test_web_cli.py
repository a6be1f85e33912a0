"""``eights serve`` from the shell: its options, its errors, a real server started and
stopped, the hint naming the extra when it is missing, and the page's files shipped with
the package (checked without the extra: this also runs against the installed wheel)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import eights

STATIC = Path(eights.__file__).resolve().parent / "web" / "static"


def test_the_page_ships_with_the_package():
    for name in [
        "index.html",
        "style.css",
        "favicon.svg",
        "js/app.js",
        "js/api.js",
        "js/cards.js",
        "js/dom.js",
        "js/game.js",
        "js/replay.js",
        "js/setup.js",
        "js/table.js",
    ]:
        assert (STATIC / name).is_file(), name
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    assert '<script type="module" src="/static/js/app.js">' in index
    # Every module the page imports is shipped.
    for script in (STATIC / "js").glob("*.js"):
        for line in script.read_text(encoding="utf-8").splitlines():
            if line.startswith("import ") and " from " in line:
                target = line.rsplit(" from ", 1)[1].strip(" ;\"'")
                assert (script.parent / target).is_file(), (script.name, target)


def _run(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "eights", *args], capture_output=True, text=True, timeout=timeout)


def test_missing_extra_names_it():
    code = "import sys; sys.modules['starlette'] = None; from eights.cli import main; sys.exit(main(['serve']))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2
    assert "pip install 'eights[web]'" in res.stderr and "Traceback" not in res.stderr


def test_help_lists_the_options():
    res = _run("serve", "--help")
    assert res.returncode == 0
    for option in [
        "--host",
        "--port",
        "--records",
        "--policy",
        "--idle-timeout",
        "--max-games",
        "--think-threads",
        "--open",
    ]:
        assert option in res.stdout, option
    assert "127.0.0.1" in res.stdout


@pytest.mark.parametrize(
    "args,words",
    [
        (["--port", "0"], "--port"),
        (["--port", "70000"], "--port"),
        (["--records", "/no/such/folder"], "records folder"),
        (["--policy", "=x"], "--policy must be NAME=SPEC"),
        (["--policy", "heuristic=web_helpers:first_legal"], "built-in bot name"),
        (["--policy", "x=no_such_module:f"], "no_such_module"),
        (["--policy", "a=x.zip", "--policy", "a=y.zip"], "given twice"),
        (["--idle-timeout", "-1"], "--idle-timeout"),
    ],
)
def test_bad_options_exit_with_a_message(args, words):
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    res = _run("serve", *args)
    assert res.returncode == 2, res.stderr
    assert words in res.stderr and "Traceback" not in res.stderr


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_starts_answers_and_stops_on_ctrl_c(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    httpx = pytest.importorskip("httpx")
    port = _free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "eights", "serve", "--port", str(port), "--records", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.poll() else ""
                time.sleep(0.2)
        assert health.json()["games"] == 0
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        assert page.status_code == 200 and "eights" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=5).json()["records"] is True
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert f"http://127.0.0.1:{port}/" in err and "Traceback" not in err

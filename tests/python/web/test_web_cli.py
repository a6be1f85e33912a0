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


def test_bad_files_exit_with_a_message_before_serving(tmp_path):
    """A missing or damaged weights file was found only when a game was created over HTTP,
    and a records file (not a folder) was called missing."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    garbage = tmp_path / "garbage.safetensors"
    garbage.write_text("garbage")
    records = tmp_path / "records.toml"
    records.write_text("")
    missing = tmp_path / "none.safetensors"
    for args, words in [
        (["--policy", f"a={missing}"], [f"--policy a={missing}", "cannot open it"]),
        (["--policy", f"a={garbage}"], [f"--policy a={garbage}", "not a safetensors file"]),
        (["--policy", str(garbage)], [f"--policy garbage={garbage}", "not a safetensors file"]),
        (["--records", str(records)], ["records folder: not a directory", str(records)]),
    ]:
        res = _run("serve", "--port", str(_free_port()), *args)
        assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
        assert all(word in res.stderr for word in words), (words, res.stderr)
        assert "play at" not in res.stderr  # refused before serving


def test_a_saved_model_being_loaded_is_announced(tmp_path):
    """serve was silent for the seconds stable-baselines3 and PyTorch take to load a .zip.
    A damaged one is announced, then refused before serving."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    model = tmp_path / "mine.zip"
    model.write_bytes(b"not a zip file")
    res = _run("serve", "--port", str(_free_port()), "--policy", f"mine={model}")
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert f"loading mine={model} (stable-baselines3 and PyTorch: a few seconds)" in res.stderr
    assert "play at" not in res.stderr


def test_an_address_it_cannot_listen_on_names_the_option():
    """A port in use or a host that is not this computer's: uvicorn's "[Errno 98] ..." after
    the banner, exit 3; now the option, before the banner, exit 2."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        res = _run("serve", "--port", str(port))
    assert res.returncode == 2 and "Traceback" not in res.stderr and "play at" not in res.stderr, res.stderr
    assert res.stderr.startswith(f"error: --port {port}: already in use"), res.stderr
    res = _run("serve", "--host", "192.0.2.1", "--port", str(_free_port()))  # TEST-NET-1: no one's address
    assert res.returncode == 2 and "play at" not in res.stderr, res.stderr
    assert res.stderr.startswith("error: --host 192.0.2.1: not an address of this computer"), res.stderr
    res = _run("serve", "--host", "no such host", "--port", str(_free_port()))  # a space: never resolved
    assert res.returncode == 2 and "play at" not in res.stderr, res.stderr
    assert res.stderr.startswith("error: --host no such host: cannot find this address"), res.stderr


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(port: int, *args: str) -> subprocess.Popen:
    """``eights serve`` on ``port``, started and answering (``/api/health``)."""
    import httpx

    proc = subprocess.Popen(
        [sys.executable, "-m", "eights", "serve", "--port", str(port), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        # SIGINT handled as in a terminal's foreground command, even where this test runs
        # with it ignored (as a shell starts background jobs)
        preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)) if os.name == "posix" else None,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
            return proc
        except httpx.TransportError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(proc.communicate()[1]) from None
            time.sleep(0.2)


def test_serve_starts_answers_and_stops_on_ctrl_c(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    httpx = pytest.importorskip("httpx")
    port = _free_port()
    proc = _serve(port, "--records", str(tmp_path))
    try:
        health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
        assert health.json()["games"] == 0
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        assert page.status_code == 200 and "eights" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=5).json()["records"] is True
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    # As every command on Ctrl-C: one line, "interrupted", and exit status 130 (it was 0
    # and silent: uvicorn swallows the KeyboardInterrupt).
    assert proc.returncode == 130, err
    assert f"http://127.0.0.1:{port}/" in err and "Traceback" not in err
    assert err.strip().splitlines()[-1] == "interrupted", err


def test_ctrl_c_while_a_bot_thinks_ends_its_search(tmp_path):
    # A search of seconds on a worker thread outlived uvicorn's graceful shutdown, whose end
    # cancelled the request: "Cancel 1 running task(s), timeout graceful shutdown exceeded" and
    # a CancelledError traceback. The server now ends the search when told to stop.
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    httpx = pytest.importorskip("httpx")
    import threading

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve(port, "--max-search", "1000000")
    answers = []
    try:
        body = {"mode": "watch", "preset": "crazy_eights", "players": 2, "bots": "ismcts:1000000", "seed": 1}
        table = httpx.post(base + "/api/games", json=body, timeout=10).json()["id"]
        advance = threading.Thread(
            target=lambda: answers.append(httpx.post(f"{base}/api/games/{table}/advance", json={}, timeout=60))
        )
        advance.start()
        time.sleep(1.0)  # the first bot is thinking: a million simulations take seconds
        assert httpx.get(base + "/api/health", timeout=5).json()["games"] == 1
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    advance.join(30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "graceful shutdown exceeded" not in err, err
    assert err.strip().splitlines()[-1] == "interrupted", err
    assert [a.status_code for a in answers] == [503]
    assert "the server is stopping" in answers[0].json()["error"]

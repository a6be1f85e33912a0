"""The settings of a web server, :class:`eights.web.config.ServerConfig`: every bad value of
every setting is refused when the settings are made, with a ``TypeError`` (wrong type, a bool
included) or a ``ValueError`` (out of range) naming the setting, never accepted to fail later
(an HTTP 500 at the first bot move, a table cap that never holds) and never an
``OverflowError`` or an ``AttributeError``; good values are kept, converted to plain types."""

from __future__ import annotations

import math
import os
import pathlib

import numpy as np
import pytest

from web_helpers import live_server, requires_web

requires_web()

import httpx  # noqa: E402

from eights.web import create_app  # noqa: E402
from eights.web.config import ServerConfig  # noqa: E402

NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    "settings,error,words",
    [
        # think_threads: NaN, inf, 2**64 and floats used to be accepted; NaN then made every
        # move of a thinking bot an HTTP 500 ("internal error (TypeError)": anyio's
        # CapacityLimiter wants an int), 2**64 asked for that many threads.
        ({"think_threads": NAN}, TypeError, "think_threads must be an integer"),
        ({"think_threads": INF}, TypeError, "think_threads must be an integer"),
        ({"think_threads": 2.0}, TypeError, "think_threads must be an integer"),
        ({"think_threads": True}, TypeError, "think_threads must be an integer"),
        ({"think_threads": "4"}, TypeError, "think_threads must be an integer"),  # was "'<' not supported"
        ({"think_threads": 2**64}, ValueError, r"think_threads must be in \[1, 1024\]"),
        ({"think_threads": 1025}, ValueError, r"think_threads must be in \[1, 1024\]"),
        ({"think_threads": 0}, ValueError, r"think_threads must be in \[1, 1024\]"),
        # max_games: NaN used to be accepted and remove the table cap (no count is >= NaN);
        # inf, floats, True and 2**64 were accepted too.
        ({"max_games": NAN}, TypeError, "max_games must be an integer"),
        ({"max_games": INF}, TypeError, "max_games must be an integer"),
        ({"max_games": 2.5}, TypeError, "max_games must be an integer"),
        ({"max_games": True}, TypeError, "max_games must be an integer"),
        ({"max_games": 2**64}, ValueError, r"max_games must be in \[1, 1000000\]"),
        ({"max_games": 0}, ValueError, r"max_games must be in \[1, 1000000\]"),
        # idle_timeout: inf (games never expire), True and 1e9 used to be accepted; "5" was
        # "'>' not supported between instances of 'str' and 'int'".
        ({"idle_timeout": INF}, ValueError, "idle_timeout must be a finite number"),
        ({"idle_timeout": NAN}, ValueError, "idle_timeout must be a finite number"),
        ({"idle_timeout": True}, TypeError, "idle_timeout must be a number"),
        ({"idle_timeout": "5"}, TypeError, "idle_timeout must be a number"),
        ({"idle_timeout": 1e9}, ValueError, r"idle_timeout must be a number of seconds in \(0, 1e7\)"),
        ({"idle_timeout": 0}, ValueError, r"idle_timeout must be a number of seconds in \(0, 1e7\)"),
        ({"idle_timeout": -1.0}, ValueError, r"idle_timeout must be a number of seconds in \(0, 1e7\)"),
        # port: never checked; "x", -1, 70000, True and 80.0 used to be accepted (uvicorn
        # failed later, or bound another port).
        ({"port": "x"}, TypeError, "port must be an integer"),
        ({"port": 80.0}, TypeError, "port must be an integer"),
        ({"port": True}, TypeError, "port must be an integer"),
        ({"port": -1}, ValueError, r"port must be in \[0, 65535\]"),
        ({"port": 65536}, ValueError, r"port must be in \[0, 65535\]"),
        # host: never checked; 5, None and bytes used to be accepted.
        ({"host": 5}, TypeError, "host must be a string"),
        ({"host": None}, TypeError, "host must be a string"),
        ({"host": b"127.0.0.1"}, TypeError, "host must be a string"),
        ({"host": " "}, ValueError, "host must be an address or a name"),
        # policies: None used to be accepted, then "AttributeError: 'NoneType' object has no
        # attribute 'items'" when the app loaded them; a label 5 was "'int' object has no
        # attribute 'lower'"; a list, a string and a spec 5 were accepted.
        ({"policies": None}, TypeError, r"policies must be a mapping \{label: spec\}"),
        ({"policies": ["a=m:f"]}, TypeError, r"policies must be a mapping \{label: spec\}"),
        ({"policies": "a=m:f"}, TypeError, r"policies must be a mapping \{label: spec\}"),
        ({"policies": {5: "m:f"}}, TypeError, "policies: a label must be a string"),
        ({"policies": {"a": 5}}, TypeError, r"policies\['a'\] must be a string"),
        ({"policies": {" ": "m:f"}}, ValueError, "policies: a label must not be empty"),
        ({"policies": {"a": ""}}, ValueError, r"policies\['a'\] must not be empty"),
        # records_dir: 2**64 used to be "OverflowError: fd is greater than maximum", and 0 or
        # True were taken as file descriptors ("no such directory: 0"); bytes were accepted.
        ({"records_dir": 2**64}, TypeError, r"records_dir must be None or a folder's path"),
        ({"records_dir": 0}, TypeError, r"records_dir must be None or a folder's path"),
        ({"records_dir": True}, TypeError, r"records_dir must be None or a folder's path"),
        ({"records_dir": 3.5}, TypeError, r"records_dir must be None or a folder's path"),
        ({"records_dir": b"."}, TypeError, r"records_dir must be None or a folder's path"),
        ({"records_dir": ""}, ValueError, "records folder: no such directory: ''"),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(settings, error, words):
    with pytest.raises(error, match=words):
        ServerConfig(**settings)


def test_good_settings_are_kept_as_plain_types(tmp_path):
    # numpy integers and an int idle_timeout are converted; a Path is kept as its real path.
    config = ServerConfig(
        host="0.0.0.0",
        port=np.int64(0),
        records_dir=pathlib.Path(tmp_path),
        policies={"mine": pathlib.Path("runs/ppo.zip")},
        idle_timeout=60,
        max_games=np.int32(10**6),
        think_threads=np.uint16(1024),
    )
    assert config.port == 0 and type(config.port) is int
    assert config.records_dir == os.path.realpath(tmp_path)
    assert config.policies == {"mine": os.path.join("runs", "ppo.zip")}
    assert config.idle_timeout == 60.0 and type(config.idle_timeout) is float
    assert type(config.max_games) is int and type(config.think_threads) is int
    assert not config.loopback
    defaults = ServerConfig()
    assert 1 <= defaults.think_threads <= 1024 and defaults.policies == {} and defaults.records_dir is None
    assert math.isclose(defaults.idle_timeout, 1800.0)


def test_the_policies_are_copied():
    policies = {"mine": "web_helpers:first_legal"}
    config = ServerConfig(policies=policies)
    policies["other"] = "no_such_module:f"
    assert config.policies == {"mine": "web_helpers:first_legal"}


def test_an_integer_think_threads_lets_bots_move_over_http():
    # think_threads=NaN used to be accepted and this advance answered 500 "internal error
    # (TypeError)"; now the setting is refused at once and a valid one serves the move.
    with pytest.raises(TypeError, match="think_threads must be an integer"):
        create_app(think_threads=NAN)
    with live_server(think_threads=1) as base, httpx.Client(timeout=60) as client:
        game = client.post(
            f"{base}/api/games", json={"mode": "watch", "bots": "ismcts", "players": 2, "seed": 1}
        ).json()
        response = client.post(f"{base}/api/games/{game['id']}/advance", json={})
        assert response.status_code == 200, response.text


def test_a_records_file_is_not_a_folder(tmp_path):
    # It was called missing: "no such directory".
    records = tmp_path / "records.toml"
    records.write_text("")
    with pytest.raises(ValueError, match="records folder: not a directory: .*records.toml"):
        ServerConfig(records_dir=records)


def test_weights_files_are_read_when_the_policies_load(tmp_path):
    # A missing or damaged weights file stayed its path until a game was created over HTTP
    # (then "bot 'a': bot file ... cannot open it"); the server now refuses it at its start.
    from eights.web.config import load_policies

    garbage = tmp_path / "garbage.safetensors"
    garbage.write_text("garbage")
    with pytest.raises(ValueError, match=r"--policy a=.*none\.safetensors: bot file .*cannot open it"):
        load_policies({"a": str(tmp_path / "none.safetensors")})
    with pytest.raises(ValueError, match=r"--policy a=.*garbage\.safetensors: .*not a safetensors file"):
        create_app(policies={"a": str(garbage)})
    shipped = pathlib.Path(__file__).resolve().parents[3] / "src" / "bots" / "weights" / "net.safetensors"
    if shipped.is_file():  # the card network, committed in the repository
        assert load_policies({"net file": str(shipped)}) == {"net file": str(shipped)}

"""Small things a new user met on the command line: ``eights`` alone, help texts that drifted
from the bots there are, ``presets --help``, ``exploit --threads 0``, and the arena drawing its
progress bar before refusing a bot for the rules."""

from __future__ import annotations

import argparse

import pytest

from eights.__main__ import main
from eights._core import BOT_NAMES_HELP
from eights.cli import COMMANDS, build_parser


def _subparser(name: str) -> argparse.ArgumentParser:
    parser = build_parser("eights")
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def _words(text: str) -> str:
    return " ".join(text.split())


def test_eights_alone_lists_the_commands(capsys):
    # It printed the usage line and "the following arguments are required: COMMAND" alone.
    assert main([]) == 2
    captured = capsys.readouterr()
    err = _words(captured.err)
    assert captured.out == ""
    for command in COMMANDS:
        name = command.__name__.rsplit(".", 1)[-1]
        assert f" {name} " in err, name
    assert "arena duplicate-deal tournament between bots, with ratings" in err, err
    assert err.endswith("error: the following arguments are required: COMMAND (one of those above)"), err


@pytest.mark.parametrize("command, option", [("arena", None), ("play", "--bots"), ("exploit", "--agent")])
def test_the_bot_names_in_help_are_the_engines(command, option):
    # `arena --help` listed "random, heuristic, ismcts:N, pimc:N, net, net1": no ismcts_net:N, no oracle:N.
    parser = _subparser(command)
    text = parser.description if option is None else parser._option_string_actions[option].help
    assert BOT_NAMES_HELP in text, text
    assert '"ismcts_net:N"' in BOT_NAMES_HELP and '"oracle:N"' in BOT_NAMES_HELP


def test_presets_help_has_a_description():
    text = _words(_subparser("presets").format_help())
    assert "List the names of the rules presets, one a line" in text, text


def test_exploit_threads_zero_means_every_core(monkeypatch, capsys):
    # `exploit --threads 0` was refused ("must be in [1, 1024]") where `arena --threads 0` plays on every core.
    pytest.importorskip("torch", reason="exploit trains with PyTorch (the train extra)")
    pytest.importorskip("safetensors", reason="exploit needs the train extra")
    from eights import VecEnv
    from eights.cli import exploit

    assert _subparser("exploit").parse_args(["--agent", "random", "--threads", "0"]).threads == 0
    cores = VecEnv("crazy_eights", 1, 2, num_threads=0).num_threads
    assert exploit._all_cores() == cores >= 1
    seen = {}

    def fake(*args, **kwargs):
        seen.update(kwargs)
        raise ValueError("stop here")

    monkeypatch.setattr("eights.train.exploit", fake)
    assert main(["exploit", "--agent", "random", "--threads", "0", "--decisions", "10"]) == 2
    assert seen["threads"] == cores and "stop here" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["exploit", "--agent", "random", "--threads", "1025"])
    assert exit_.value.code == 2 and "argument --threads: must be in [0, 1024]" in capsys.readouterr().err


def test_arena_refuses_a_bot_for_other_rules_before_the_progress_bar(capsys):
    # The bar was drawn ("tournament: 0%|") before net1's refusal of crazy_eights_xtreme.
    assert main(["arena", "--agents", "random,net1", "--preset", "crazy_eights_xtreme", "--games", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the net1 bot plays only the rules it was trained for"), err
    assert "tournament" not in err and "%|" not in err, err


def test_play_writes_to_stdout_as_it_is_when_called(monkeypatch):
    # `out` defaulted to the sys.stdout of the import: once replaced (and closed), "I/O operation on closed file".
    import io
    import sys

    from eights.cli.terminal import play

    shown = io.StringIO()
    monkeypatch.setattr(sys, "stdout", shown)
    assert play("crazy_eights", 2, seat=0, seed=1, read_line=lambda: "quit") == 0
    assert "crazy_eights, 2 players, seed 1. You are seat 0" in shown.getvalue()
    assert "Goodbye" in shown.getvalue()

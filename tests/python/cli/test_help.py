"""The help of ``python -m eights`` and of every command reads as written: argparse
%-formats only the ``help`` strings of its arguments, so a ``%%`` in a description (or a
``%(default)s`` argparse never filled) would print as it stands."""

from __future__ import annotations

import argparse

import pytest

from eights.cli import COMMANDS, build_parser


def _commands():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return parser, sub.choices


def test_every_command_has_a_help():
    # The test below walks the parser's commands: it must find them all.
    _, choices = _commands()
    assert len(choices) == len(COMMANDS) >= 10
    assert {"arena", "generalize", "exploit", "play", "serve"} <= set(choices)


@pytest.mark.parametrize("command", [None, *sorted(_commands()[1])])
def test_help_shows_no_argparse_escapes(command):
    parser, choices = _commands()
    text = (parser if command is None else choices[command]).format_help()
    assert "%%" not in text and "%(" not in text, text


def test_generalize_help_says_95_percent(capsys):
    # The line of the issue: `generalize --help` printed "95%%".
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["generalize", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "95% interval" in " ".join(out.split()), out

"""Command-line tools: ``eights COMMAND``, the commands ``rules``, ``selfplay``, ``arena``,
``generalize``, ``train``, ``exploit``, ``botspeed``, ``play``, ``serve``, ``replay``, ``soak``
and ``presets`` (the console script; ``python -m eights ...`` does the same).

``rules`` shows a preset in words, or writes rules made from it (``--variants``, ``--rules``)
as a house-rules TOML file that inherits the preset and lists what differs; every command
then plays it with ``--preset FILE.toml``::

    python -m eights rules --preset switch_blackjack
    python -m eights rules --preset switch_blackjack --variants aces_wild --out house.toml

``selfplay`` benchmarks random-vs-random games, first in the Rust loop
(:func:`eights.random_selfplay`), then (unless ``--python-loop 0``) in a plain
Python loop over :class:`eights.Game`, to show the cost of driving the engine
from Python::

    python -m eights selfplay --preset crazy_eights --players 2 --games 20000 --seed 0
    python -m eights selfplay --preset switch_blackjack --players 4 --python-loop 0
    python -m eights selfplay --rules '{"deal": {"hand_size": 4}}'
    python -m eights presets

``arena`` plays a duplicate-deal tournament between built-in bots (see
:mod:`eights.arena`), shows a progress bar (with tqdm), prints the ratings table and
optionally saves a chart (with matplotlib)::

    python -m eights arena --preset crazy_eights --players 2 --agents random,heuristic,pimc:50 --games 500
    python -m eights arena --agents heuristic,ismcts:400 --games 2000 --plot ratings.png

``selfplay``, ``arena`` and ``play`` take a preset (``--preset``) and rule overrides as JSON
(``--rules '{...}'``), or instead a house-rules TOML file (``--rules FILE.toml``, read with
:meth:`eights.Rules.from_toml`)::

    python -m eights arena --rules house.toml --agents random,heuristic --games 200

``arena`` and ``generalize`` play on a Ray cluster with ``--ray auto`` (the cluster started on
this machine with ``ray start``), ``--ray HOST:PORT`` or ``--ray local`` (one started for the
command), with the results of one machine (see ``docs/cluster.md``)::

    python -m eights arena --agents random,heuristic,ismcts:400 --games 2000 --ray auto

``generalize`` runs the generalization benchmark (see :mod:`eights.generalization`): an agent
against the heuristic on every rule set of a split (held-out presets, held-out house rules)::

    python -m eights generalize --agent ismcts:100 --split heldout_presets --games 200

``train`` trains an agent for any rules and table with the package's PPO against a league
(the ``train`` extra), with a progress bar, a resumable run folder (``--out``) and an arena
evaluation at the end; ``--init net`` fine-tunes the shipped card network (see
:func:`eights.train.train`)::

    python -m eights train --preset crazy_eights --players 2 --minutes 10 --out runs/c8
    python -m eights train --rules house.toml --players 3 --minutes 10 --init net

``exploit`` trains an approximate best response to an agent (the package's PPO, the ``train``
extra) and plays it against the agent on fresh duplicate deals: how much an opponent that has
studied the agent wins (see :func:`eights.train.exploit`); ``--out`` keeps checkpoints, so the
same command resumes a stopped run, and Ctrl-C evaluates what was learnt so far::

    python -m eights exploit --agent heuristic --preset crazy_eights --minutes 20 --plot curve.png
    python -m eights exploit --agent ismcts:400 --decisions 1000000 --out runs/exploit/ismcts

``botspeed`` times each bot's decisions (mean and longest, one thread) in games against the
heuristic bot, on one or more presets::

    python -m eights botspeed --presets crazy_eights,switch_blackjack --bots random,heuristic,ismcts:400

``soak`` plays random games over every preset and player count for a while, through the
Rust loop, the Python API and ``VecEnv``, checks the engine's invariants after every decision
and reports memory before and after (see :mod:`eights.diagnostics.soak`); it exits 1 on a violation::

    python -m eights soak --seconds 60

``replay`` prints a saved game record (``--record`` of the arena, ``record_dir`` of the envs)::

    python -m eights replay records/episode_0.json --tables 10

``play`` lets a person play a hand against bots in the terminal (see :mod:`eights.cli.terminal`)::

    python -m eights play --preset switch_blackjack --players 3 --seat 0 --bots heuristic --seed 7

Ctrl-C ends any command within two seconds: one line (``interrupted``) on stderr, exit status
130, no traceback (``exploit``'s first Ctrl-C evaluates what was learnt, a second ends it).

``serve`` plays, watches and replays games in the browser (see :mod:`eights.web`; needs the
extra ``eights[web]``), on http://127.0.0.1:8000/ by default::

    python -m eights serve --records records/
"""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import sys
import traceback
from typing import Optional, Sequence

import eights

from ..agents.spec import AgentActionError
from . import _args, arena, botspeed, exploit, generalize, play, presets, replay, rules, selfplay, serve, soak, train

#: The commands in the order ``--help`` lists them; each module adds its own subparser.
COMMANDS = (rules, selfplay, arena, generalize, train, exploit, play, serve, botspeed, replay, soak, presets)


def build_parser(prog: str = "python -m eights") -> argparse.ArgumentParser:
    """The argument parser of ``python -m eights`` (``prog="eights"`` for the console script)."""
    parser = _args.Parser(
        prog=prog,
        description="Tools for the eights Crazy Eights RL library.",
    )
    parser.add_argument("--version", action="version", version=f"eights {eights.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


#: The exit status after Ctrl-C (128 + SIGINT, as a shell reports a process it interrupted).
INTERRUPTED = 130

#: The exit status when the reader of stdout went away (128 + SIGPIPE), as in
#: ``eights presets | head -1``: the command stops there, quietly.
CLOSED_PIPE = 141


def _quiet_stdout() -> None:
    """Point stdout at the null device once its reader has gone, so that the interpreter's
    last flush of what is still buffered cannot fail again (Python's documented way out of
    a ``BrokenPipeError``, see the ``signal`` module's notes on SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is no file (a test's buffer): nothing to flush
        pass


def _freeze_at_exit() -> None:
    """Skip the interpreter's last garbage collections when the process ends.

    Python collects every tracked object a few times while it shuts down; with torch
    imported that is about 190,000 objects and 0.5 to 1 s between a command's last line
    and its exit (longer on a loaded machine), which a user waits through after every
    ``train`` or ``exploit`` and after Ctrl-C. ``gc.freeze()`` in an exit handler moves
    them out of those collections; the files the commands write are closed before then,
    and the objects go with the process. Registered once, by :func:`main`, so a program
    that calls ``main`` in its own process keeps its collector until it ends.

    Where a nanobind extension is loaded (PyTorch loads Triton's), nanobind counts its
    objects still alive as the interpreter ends and reports each as a leak, some 30 lines
    "likely caused by a reference counting issue"; frozen, they all are, though nothing
    leaked: the process ends with them. The handler then also points the process's stderr
    at the null device, after flushing it: it runs after the command's last word, and only
    the exit handlers registered before :func:`main` (``logging``'s flush) and the
    interpreter's teardown come after it. (Skipping the freeze instead cost 0.8 s at the end
    of every ``train`` run.)"""
    global _FROZEN_AT_EXIT
    if not _FROZEN_AT_EXIT:
        atexit.register(_end_quickly)
        _FROZEN_AT_EXIT = True


def _end_quickly() -> None:
    gc.freeze()
    if _nanobind_loaded():
        try:
            sys.stderr.flush()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.close(devnull)
        except (OSError, ValueError):  # no stderr to flush or redirect: nothing to hide
            pass


def _nanobind_loaded() -> bool:
    """Whether an extension module built with nanobind is loaded: one whose module-level
    functions are nanobind's (``nb_func``) or whose classes have nanobind's metaclass."""
    for module in list(sys.modules.values()):
        if not str(getattr(module, "__file__", None) or "").endswith((".so", ".pyd")):
            continue
        for value in list(vars(module).values()):
            kind = type(value)
            if kind.__name__.startswith("nb_") or (isinstance(value, type) and kind.__name__.startswith("nb_type")):
                return True
    return False


_FROZEN_AT_EXIT = False


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m eights`` and of the ``eights`` console script.

    Ctrl-C ends every command here, once: one line on stderr and exit status 130, no
    traceback (the long calls into Rust stop within a fraction of a second, see
    ``docs/robustness.md``)."""
    prog = "python -m eights" if sys.argv[0].endswith("__main__.py") else "eights"
    _freeze_at_exit()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        parser = build_parser(prog)
        if not argv:  # no command: the commands and what each does, as --help lists them
            parser.print_help(sys.stderr)
            print(
                f"\n{prog}: error: the following arguments are required: COMMAND (one of those above)", file=sys.stderr
            )
            return 2
        args = parser.parse_args(argv)
        code = args.func(args)
        sys.stdout.flush()  # here, where a reader gone away is caught below
        return code
    except BrokenPipeError:
        _quiet_stdout()
        return CLOSED_PIPE
    except (ValueError, AgentActionError) as exc:  # bad preset, player count or rules; a policy's bad action
        _args.print_error(exc)
        return 2
    except _args.PolicyRaised as exc:  # a bug in the user's policy: whose, then its own traceback
        _args.print_error(exc)
        cause = exc.__cause__ or exc
        # From the policy's own call down (the frame that called it is the package's).
        tb = cause.__traceback__.tb_next if cause.__traceback__ is not None else None
        traceback.print_exception(type(cause), cause, tb or cause.__traceback__)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr, flush=True)
        return INTERRUPTED

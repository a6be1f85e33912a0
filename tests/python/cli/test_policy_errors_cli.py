"""A policy of the user's (``module:attribute``) that returns what is not an action, or that
raises, in every command that plays it: one line naming the agent and exit status 2 for a
wrong return (as for an illegal action), and for an exception one line naming the policy
before its own traceback (an internal traceback of the package's, exit 1, was printed)."""

from __future__ import annotations

import io
import textwrap

import numpy as np
import pytest

import eights
from eights.__main__ import main
from eights.agents.spec import AgentActionError

POLICIES = textwrap.dedent(
    """
    import numpy as np

    def none(obs, mask):
        return None

    def a_float(obs, mask):
        return 1.5

    def boom(obs, mask):
        raise RuntimeError("kaboom in the user's policy")

    class BatchNone:
        def act_batch(self, obs, masks):
            return None
    """
)

#: Each command that plays a user's policy, with ``{p}`` the policy (``module:attribute``).
COMMANDS = {
    "arena": ["arena", "--agents", "heuristic,{p}", "--games", "2", "--no-progress", "--threads", "1"],
    "play": ["play", "--bots", "{p}", "--seat", "1", "--seed", "1"],
    "exploit": [
        "exploit",
        "--agent",
        "{p}",
        "--decisions",
        "300",
        "--num-envs",
        "8",
        "--eval-deals",
        "2",
        "--no-progress",
    ],  # fmt: skip
}


@pytest.fixture
def policies(tmp_path, monkeypatch, request):
    # A module name of the test's own: an imported module is kept in sys.modules.
    name = f"bad_policies_{abs(hash(request.node.nodeid)) % 10**8}"
    (tmp_path / f"{name}.py").write_text(POLICIES)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))  # play: the person leaves, if asked
    return name


def _argv(command: str, policy: str) -> list:
    if command == "exploit":
        pytest.importorskip("torch", reason="exploit trains with PyTorch (the train extra)")
        pytest.importorskip("safetensors", reason="exploit needs the train extra")
    return [a.replace("{p}", policy) for a in COMMANDS[command]]


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("attribute, shown", [("none", "None (type NoneType)"), ("a_float", "1.5 (type float)")])
def test_a_policy_returning_no_action_is_a_one_line_error(policies, command, attribute, shown, capsys):
    # `arena --agents heuristic,badpol:none` printed the arena's TypeError with a traceback, exit 1.
    policy = f"{policies}:{attribute}"
    assert main(_argv(command, policy)) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    assert f"error: agent '{policy}' returned {shown}; actions are integers in [0, 197)" in err, err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_batched_policy_returning_no_actions_is_a_one_line_error(policies, command, capsys):
    policy = f"{policies}:BatchNone"
    assert main(_argv(command, policy)) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    assert f"error: agent '{policy}' returned None (type NoneType) from act_batch; it returns one action" in err, err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_policy_that_raises_is_named_before_its_traceback(policies, command, capsys):
    policy = f"{policies}:boom"
    assert main(_argv(command, policy)) == 1
    err = capsys.readouterr().err
    first, rest = err.split("\n", 1)
    assert first == f"error: the policy '{policy}' raised an exception:", err
    # Its own traceback, from its own call down: not the package's frames.
    assert rest.startswith("Traceback") and f"{policies}.py" in rest and "kaboom in the user's policy" in rest, rest
    assert "eights/cli" not in rest and "eights/arena" not in rest, rest


def test_the_arena_raises_a_type_error_the_command_line_reports():
    # The library's error is still a TypeError, of a class of its own.
    with pytest.raises(AgentActionError, match=r"agent 'bad' returned None") as raised:
        eights.arena.evaluate(("bad", lambda obs, mask: None), "random", games=1)
    assert isinstance(raised.value, TypeError)
    # A legal integer of any kind numpy gives still plays.
    r = eights.arena.evaluate(("first", lambda obs, mask: np.flatnonzero(mask)[:1]), "random", games=1)
    assert r.games == 2

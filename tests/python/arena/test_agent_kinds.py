"""What an agent may be and return: a callable's action may be any integer scalar (a numpy
integer, a 0-d or one-element integer array or PyTorch tensor), as ``act_batch``'s may; a
callable, ``act`` or ``act_batch`` that cannot take ``(obs, mask)`` (a ``torch.nn.Module``
such as ``nn.Linear`` among them) is refused with a ``TypeError`` saying what is expected,
before any game is played; each result shows every agent's decisions per second."""

from __future__ import annotations

import re

import numpy as np
import pytest

import eights
from eights import arena


def _first_legal(obs, mask):
    return int(np.flatnonzero(mask)[0])


def _same_games(agent, games=6):
    """``agent`` plays exactly the games of ``_first_legal`` (the same choices, as ints)."""
    mine = arena.evaluate(("a", agent), "random", preset="crazy_eights", games=games, seed=3)
    ref = arena.evaluate(("a", _first_legal), "random", preset="crazy_eights", games=games, seed=3)
    for key in ("winner", "decisions", "hand_points"):
        np.testing.assert_array_equal(mine.raw[key], ref.raw[key])


@pytest.mark.parametrize(
    "wrap",
    [np.int64, np.int8, lambda a: np.asarray(a), lambda a: np.asarray([a], dtype=np.int32)],
    ids=["int64", "int8", "0-d array", "1-element array"],
)
def test_callable_may_return_numpy_integers(wrap):
    _same_games(lambda obs, mask: wrap(_first_legal(obs, mask)))


def test_callable_may_return_a_torch_scalar():
    torch = pytest.importorskip("torch")
    _same_games(lambda obs, mask: torch.tensor(_first_legal(obs, mask)))
    _same_games(lambda obs, mask: torch.tensor([_first_legal(obs, mask)], dtype=torch.int32))


def test_non_integer_actions_are_refused_naming_the_agent():
    torch = pytest.importorskip("torch")
    for bad in (torch.tensor(3.0), torch.tensor(True), np.float64(3.0), np.asarray([1, 2]), True):
        with pytest.raises(TypeError, match=r"agent 'bad' returned .*actions are integers in \[0, 197\)"):
            arena.evaluate(("bad", lambda obs, mask, b=bad: b), "random", games=1)


def test_env_opponent_may_return_a_torch_scalar_but_not_a_boolean():
    torch = pytest.importorskip("torch")
    env = eights.make("crazy_eights", opponents=lambda o, m: torch.tensor(_first_legal(o, m)), seed=0)
    obs, info = env.reset()
    for _ in range(10):
        obs, _, done, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if done or trunc:
            break
    env = eights.make("crazy_eights", opponents=lambda o, m: torch.tensor(True), learner_seat=1, seed=0)
    with pytest.raises(TypeError, match="must be an integer"):
        env.reset()


def test_a_module_without_forward_obs_mask_is_refused_at_once():
    torch = pytest.importorskip("torch")
    net = torch.nn.Linear(eights.OBS_SIZE, eights.NUM_ACTIONS)
    with pytest.raises(TypeError) as err:
        arena.evaluate(net, "random", games=1)
    text = str(err.value)
    assert "agent: Linear is a torch.nn.Module whose forward(input" in text
    assert "forward(obs, mask)" in text and "act_batch(obs, masks)" in text
    with pytest.raises(TypeError, match="Linear is a torch.nn.Module"):
        arena.tournament(["random", net], games=1)


def test_a_module_with_forward_obs_mask_or_act_batch_plays():
    torch = pytest.importorskip("torch")

    class FirstLegal(torch.nn.Module):
        def forward(self, obs, mask):
            return torch.as_tensor(mask).nonzero()[0, 0]

    class Scores(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(eights.OBS_SIZE, eights.NUM_ACTIONS)

        def act_batch(self, obs, masks):
            with torch.no_grad():
                scores = self.linear(torch.as_tensor(obs))
            scores[~torch.as_tensor(masks)] = -torch.inf
            return scores.argmax(dim=1)

    _same_games(FirstLegal())
    r = arena.evaluate(Scores(), "random", games=4, seed=0)
    assert r.agent == "Scores" and r.games == 8


@pytest.mark.parametrize(
    "agent, text",
    [
        (lambda obs: 0, r"agent: <lambda>\(obs\) cannot be called as f\(obs, mask\)"),
        (lambda obs, mask, extra: 0, r"<lambda>\(obs, mask, extra\) cannot be called"),
        (type("OneArg", (), {"act_batch": lambda self, obs: obs}), r"act_batch\(obs\) cannot be called as act_batch"),
    ],
    ids=["one argument", "three arguments", "act_batch(obs)"],
)
def test_callables_that_cannot_take_obs_and_mask_are_refused(agent, text):
    agent = agent() if isinstance(agent, type) else agent
    with pytest.raises(TypeError, match=text):
        arena.evaluate(agent, "random", games=1)


def test_results_show_each_agents_decisions_per_second(capsys):
    r = arena.evaluate(("mine", _first_legal), "heuristic", games=10, seed=0)
    speeds = dict(re.findall(r"(\w+) ([\d,]+)", str(r).split("decisions/s: ")[1]))
    assert set(speeds) == {"mine", "heuristic"}
    for name, text in speeds.items():
        assert int(text.replace(",", "")) == round(r.decisions_per_second[name]) > 0
    t = arena.tournament(["random", "heuristic"], games=10, seed=0)
    assert "decisions/s" in t.table().splitlines()[1]
    from eights.cli import main

    assert main(["arena", "--agents", "random,heuristic", "--games", "10", "--no-progress", "--bootstrap", "100"]) == 0
    header = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("agent"))
    assert header.split()[-1] == "decisions/s"

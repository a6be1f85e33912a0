"""``Bot.act(game, cancel=event)``: a search on a worker thread, where Ctrl-C never arrives, is
stopped by the thread that waits for it (what ``eights serve`` does when it stops)."""

from __future__ import annotations

import concurrent.futures
import pickle
import threading

import pytest

import eights


def _open_game():
    g = eights.Game("crazy_eights", 2, seed=1)
    while len(g.legal_actions()) < 2:  # a real choice: the search runs
        g.step(g.legal_actions()[0])
    return g


@pytest.mark.parametrize("name", ["ismcts:1000000", "pimc:1000000"])
def test_a_search_on_a_worker_thread_stops_when_its_event_is_set(name):
    g = _open_game()
    bot = eights.Bot(name, seed=3)
    before = pickle.dumps(bot)
    cancel = threading.Event()
    ended = []

    def think():
        try:
            ended.append(bot.act(g, cancel=cancel))
        except concurrent.futures.CancelledError as exc:
            ended.append(exc)

    worker = threading.Thread(target=think)
    worker.start()
    worker.join(0.3)
    assert worker.is_alive(), "the search of a million simulations ended by itself"
    cancel.set()
    worker.join(30)
    assert not worker.is_alive()
    assert len(ended) == 1 and isinstance(ended[0], concurrent.futures.CancelledError), ended
    assert pickle.dumps(bot) == before  # the bot's generator as it was: it plays as if never asked


def test_an_unset_event_changes_nothing():
    g = _open_game()
    a = eights.Bot("ismcts:300", seed=5).act(g)
    assert eights.Bot("ismcts:300", seed=5).act(g, cancel=threading.Event()) == a
    # The quick bots answer in microseconds; the event is not read.
    done = threading.Event()
    done.set()
    assert eights.Bot("heuristic").act(g, cancel=done) == eights.Bot("heuristic").act(g)


@pytest.mark.parametrize("cancel", [5, "stop", object()])
def test_cancel_must_have_is_set(cancel):
    with pytest.raises(TypeError, match=r"cancel must be None or an object with is_set\(\)"):
        eights.Bot("ismcts:10").act(_open_game(), cancel=cancel)

"""The bots' moves of a table, run on the server's event loop: a long run of quick moves
yields to the loop, so that other tables and the server's signals are served meanwhile. A
client once held the whole server (every route, and Ctrl-C) with a table whose bots circled."""

from __future__ import annotations

import eights
from web_helpers import requires_web

requires_web()

import anyio  # noqa: E402

from eights.agents import as_agent  # noqa: E402
from eights.web import flow  # noqa: E402
from eights.web.config import YIELD_EVERY  # noqa: E402
from eights.web.tables import Participant, Table  # noqa: E402


def test_a_long_run_of_quick_bot_moves_lets_others_run():
    rules = eights.Rules("crazy_eights")
    table = Table("t", "watch", rules, 4, [Participant(f"bot {i}", as_agent("random")) for i in range(4)], seed=0)
    order = []

    async def bots():
        moves = await flow.advance(table, {"steps": flow.MAX_STEPS}, None)
        order.append(("bots done", len(moves)))

    async def other():
        await anyio.sleep(0)  # the bots' task starts first
        order.append(("other", None))

    async def main():
        async with anyio.create_task_group() as tg:
            tg.start_soon(bots)
            tg.start_soon(other)

    anyio.run(main)
    (first, _), (last, played) = order
    assert played > 2 * YIELD_EVERY, "the game was too short to test"
    assert (first, last) == ("other", "bots done"), "the other task waited for every bot move"

"""The command that an exported ``net1`` file records is one a shell and ``--init-from`` read
back to the same arguments, empty values included (an empty ``--search-bot`` once lost its
quotes, and a continuation of such a file failed to parse it)."""

import shlex

import pytest

pytest.importorskip("torch", reason="the training recipe needs PyTorch (pip install '.[train]')")

from netlab import recipe  # noqa: E402
from netlab.net_bot import recorded_command  # noqa: E402


@pytest.mark.parametrize("search_bot", ["", "ismcts:200"])
def test_recorded_command_reads_back_to_the_same_arguments(search_bot):
    args = recipe.parse_args(["--plan", "crazy_eights=1", "--search-bot", search_bot, "--seed", "3"])
    assert args.league.search_bot == search_bot
    command = recorded_command(args)
    assert command.startswith(f"python {recipe.SCRIPT} ")
    back = recipe.parse_args(shlex.split(command.split("train_net_bot.py", 1)[1]))
    assert back.league.search_bot == search_bot
    assert back.seed == 3 and back.plan == args.plan

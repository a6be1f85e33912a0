"""Train the built-in ``net`` bot: masked PPO self-play per preset, exported to safetensors.

This is the recipe of the weights that ship in the package (``src/bots/weights/net1.safetensors``),
played in Rust by the bot ``net``. The recipe is the package's (``netlab.net_bot``: the
self-play loop ``eights.train.SelfPlay`` per preset, the ``eights-net-v1`` writer
``eights.train.write_exported``; the flags are the fields of ``netlab.recipe.Args``, with
``PPOConfig`` and ``LeagueConfig`` nested); this file is its command line and its history.
Every preset's run resumes from its checkpoint when started again with the same ``--out``, and
a run trained on a GPU machine is exported on another by running the same command there.

Run (needs ``pip install -e '.[train]'``: torch, safetensors, tqdm)::

    # the shipped recipe's first stage: 21 minutes on a GPU machine (one H100, 16 cores)
    python research/train_net_bot.py --plan crazy_eights=21,switch_blackjack=21,crazy_eights_specials=21 \
        --num-envs 2048 --num-minibatches 16 --env-threads 4 --device cuda --parallel --checkpoint-every 5
    python research/train_net_bot.py                        # the defaults: sequential, on the CPU (74 minutes)
    python research/train_net_bot.py --smoke                # a few seconds, for CI
    python research/train_net_bot.py --plan crazy_eights=5 --out runs/try --export runs/try/net.safetensors
    # a second stage: continue runs/net's presets for 95 more minutes each (crazy_eights as it is)
    python research/train_net_bot.py --plan crazy_eights=0,switch_blackjack=95,crazy_eights_specials=95 \
        --init-from runs/net --out runs/net-2 --seed 2 --learning-rate 1e-4 --parallel
    # a third: crazy_eights for 120 more minutes
    python research/train_net_bot.py --plan crazy_eights=120,switch_blackjack=0,crazy_eights_specials=0 \
        --init-from runs/net-2 --out runs/net-3 --seed 3 --learning-rate 1e-4
    # a fourth: crazy_eights and switch_blackjack for 130 more minutes, side by side
    python research/train_net_bot.py --plan crazy_eights=130,switch_blackjack=130,crazy_eights_specials=0 \
        --init-from runs/net-3 --out runs/net-4 --seed 4 --learning-rate 1e-4 --parallel
    # a fifth: crazy_eights for 95 more minutes, widened to read the whole observation
    python research/train_net_bot.py --plan crazy_eights=95,switch_blackjack=0,crazy_eights_specials=0 \
        --inputs 346 --init-from runs/net-4 --out runs/net-5 --seed 6 --learning-rate 1e-4
    # a sixth, on a GPU machine: 17 more minutes, more games against the heuristic and a stronger
    # search opponent (the shipped file is this stage's export)
    python research/train_net_bot.py --plan crazy_eights=17,switch_blackjack=0,crazy_eights_specials=0 \
        --inputs 346 --init-from runs/net-5 --out runs/net-6 --seed 8 --learning-rate 1e-4 --device cuda \
        --num-envs 4096 --num-minibatches 32 --env-threads 14 --eval-deals 0 \
        --heuristic-share 0.35 --search-bot ismcts:200 --search-share 0.2

The network reads the first ``--inputs`` values of the observation (the layout only appends
slices): 310 by default (the layout before the ``declined`` slice, as the first four stages
were trained, so their commands reproduce them); ``--inputs 346`` reads it all, and with
``--init-from`` widens a 310-input network with zero weights for the new inputs (its policy
unchanged until it learns to use them), as the fifth stage did. The export records how each
preset was trained, with the command of every run of the chain (the conventional directories
``runs/net``, ``runs/net-K`` named instead of the real ones).

``--init-from`` also takes an exported file (``FILE.safetensors``, such as the shipped one), for a
chain whose run directories are gone: each preset starts from the file's policy, with a new value
head that learns alone for the first ``--value-warmup`` updates, new optimiser moments and an
empty league. The new file's record carries the old one's history on, and its recorded command
names the file by the conventional place of an export, ``src/bots/weights/net1.safetensors``::

    # a seventh stage, from the shipped file (recorded as --out runs/net-7)
    python research/train_net_bot.py --plan crazy_eights=30,switch_blackjack=0,crazy_eights_specials=0 \
        --inputs 346 --init-from src/bots/weights/net1.safetensors --out runs/try-7 --seed 11 \
        --learning-rate 5e-5 --export runs/try-7/net.safetensors
"""

from netlab.net_bot import main

if __name__ == "__main__":
    main()

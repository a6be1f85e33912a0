"""netlab: how the learned bots were trained, outside the package.

The training stack of the bot ``net`` (the card network of :mod:`eights.train.cardnet`):
imitation of a teacher bot across the rule space (:mod:`.imitation`, :mod:`.warmstart`), PPO
across mixed-rules games (:mod:`.cardppo`, :mod:`.cardppo_games`, :mod:`.cardppo_twins`),
expert iteration from the search (:mod:`.expert`), and the flat MLPs it was measured against
(:mod:`.flatnet`); and the recipe of ``net1``'s file (:mod:`.net_bot`, :mod:`.recipe`). It
imports :mod:`eights`; the package never imports it. The commands that run it are the
scripts beside this folder (research/README.md)."""

"""Bridges to other libraries, each behind its optional extra and imported on demand:
stable-baselines3's vector env (:mod:`.sb3`), RLlib's multi-agent env (:mod:`.rllib`) and
every preset as an OpenSpiel game (:mod:`.openspiel`)."""

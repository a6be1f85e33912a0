"""Checks of the engine as a library: the soak (:mod:`.soak`), which plays random games
over every preset and checks the invariants after every decision.  The command line's
``soak`` prints its results."""

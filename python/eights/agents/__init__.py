"""Everything that can sit at a table: built-in bot names, Python policies, saved policy
files (:mod:`.load`) and pools of opponent snapshots (:mod:`.pool`)."""

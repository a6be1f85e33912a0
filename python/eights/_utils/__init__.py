"""Internal helpers shared by every part of the package: argument checks and the one seed
range (:mod:`.checks`, :mod:`.seeds`), the one gate for optional dependencies
(:mod:`.optional`), the merging of rule overrides (:mod:`.overrides`) and what a file given in
the wrong place is (:mod:`.file_kinds`).  Nothing here is
public API."""

"""Internal helpers shared by every part of the package: argument checks and the one seed
range (:mod:`.checks`, :mod:`.seeds`), the one gate for optional dependencies
(:mod:`.optional`) and the merging of rule overrides (:mod:`.overrides`).  Nothing here is
public API."""

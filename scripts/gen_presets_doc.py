#!/usr/bin/env python3
"""Generate docs/presets.md from the preset files (src/rules/presets/*.toml).

For each preset: title, source, description, allowed players, deck and deal, the special
cards (the ``cards`` effect table in words), the documented variants (``variant.*``
overlays as dotted settings) and the simplifications / out-of-scope notes.  The presets are
resolved (inheritance included) and worded by the installed ``eights`` package, so build it
first (``pip install -e .``).

    python scripts/gen_presets_doc.py            # write docs/presets.md
    python scripts/gen_presets_doc.py --check    # exit 1 if docs/presets.md is stale

``tests/python/layout/test_docs.py`` runs the check.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
PRESET_DIR = ROOT / "src" / "rules" / "presets"
OUTPUT = ROOT / "docs" / "presets.md"

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _clashing_pairs(preset: str, names: List[str]) -> List[Tuple[str, str]]:
    """Pairs of the preset's variants the engine refuses together: they set a field two ways,
    or one turns off a wild card whose play the other sets (asked of the engine, not worked
    out again here)."""
    import eights

    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            try:
                eights.Rules(preset, variants=[a, b])
            except eights.RulesError as e:
                if str(e).startswith("invalid rules field 'variants': variant"):
                    pairs.append((a, b))
    return pairs


def _words(n: int) -> str:
    return ["no", "one", "two", "three", "four"][n] if 0 <= n <= 4 else str(n)


def _players(spec: Dict[str, Any]) -> str:
    lo, hi = spec["players"]["min"], spec["players"]["max"]
    return f"{lo} only" if lo == hi else f"{lo}–{hi}"


def _deck(spec: Dict[str, Any]) -> str:
    deck = spec["deck"]
    packs = deck["packs"]
    text = f"{_words(packs)} pack{'s' if packs > 1 else ''}"
    text += ", no jokers" if deck["jokers"] == 0 else f", {deck['jokers']} jokers per pack"
    for k, v in sorted(deck.get("packs_by_players", {}).items(), key=lambda kv: int(kv[0])):
        text += f"; {_words(v)} pack{'s' if v > 1 else ''} from {k} players"
    return text


def _deal(spec: Dict[str, Any]) -> str:
    deal = spec["deal"]
    text = f"{deal['hand_size']} cards each"
    extra = sorted(deal.get("hand_size_by_players", {}).items(), key=lambda kv: int(kv[0]))
    if extra:
        text += " (" + ", ".join(f"{v} with {k} players" for k, v in extra) + ")"
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _preset_section(name: str, core: Any) -> List[str]:
    path = PRESET_DIR / f"{name}.toml"
    if not path.is_file():
        raise SystemExit(f"preset {name!r} has no file {path.relative_to(ROOT)}")
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    spec = core.preset_rules(name)
    parent = raw.get("inherits")
    own_variants = set(raw.get("variant", {}))

    out = [f'<a id="{name}"></a>', "", f"## `{name}`: {spec['title'] or name}", ""]
    if spec["source"]:
        out += [f"*Source:* {spec['source'].strip()}", ""]
    if spec["description"].strip():
        out += [spec["description"].strip(), ""]
    facts = [
        f"**Players:** {_players(spec)}",
        f"**Deck:** {_deck(spec)}",
        f"**Deal:** {_deal(spec)}",
        f"**File:** `src/rules/presets/{name}.toml`",
    ]
    if parent:
        facts.append(f"**Inherits:** [`{parent}`](#{parent})")
    out += ["  \n".join(facts), ""]

    out += ["### Special cards", ""]
    cards = core.special_cards(spec)
    if cards:
        out += ["| cards | selector | effect |", "|---|---|---|"]
        for selector, label, effects in cards:
            out.append(f"| {_cell(label)} | `{_cell(selector)}` | {_cell('; '.join(effects))}. |")
    else:
        out.append("No card has a special effect.")
    out.append("")

    out += ["### Variants", ""]
    variants = spec.get("variant") or {}
    if variants:
        out += [
            f'Apply with `rules={{"variants": [...]}}` or `eights.Rules("{name}", variants=[...])`.',
            "",
            "| variant | changes |",
            "|---|---|",
        ]
        for vname in sorted(variants):
            changes = ", ".join(f"`{_cell(c)}`" for c in core.variant_changes(variants[vname])) or "(none)"
            origin = "" if vname in own_variants or not parent else f" (from `{parent}`)"
            out.append(f"| `{vname}`{origin} | {changes} |")
        clashes = _clashing_pairs(name, sorted(variants))
        if clashes:
            pairs = "; ".join(f"`{a}` and `{b}`" for a, b in clashes)
            note = "each pair sets a field two ways, or one turns off a wild card the other sets"
            out += ["", f"Not together ({note}; the message names the field to set instead): {pairs}."]
    else:
        out.append("None documented.")
    out.append("")

    out += ["### Simplifications and out-of-scope notes", ""]
    notes = list(spec.get("simplifications") or [])
    if notes:
        out += [f"- {n}" for n in notes]
    else:
        out.append("None listed.")
    out.append("")
    return out


def generate() -> str:
    """The text of docs/presets.md."""
    from eights import _core as core

    names = list(core.presets())
    files = sorted(p.stem for p in PRESET_DIR.glob("*.toml"))
    missing = sorted(set(files) - set(names))
    if missing:
        raise SystemExit(f"preset files not registered in src/rules/load.rs: {', '.join(missing)}")

    lines = [
        "# Presets",
        "",
        "<!-- Generated by scripts/gen_presets_doc.py from src/rules/presets/*.toml: do not edit by hand. -->",
        "",
        "Every game of the rules catalog that the engine plays, as a preset. Use a name with",
        "`eights.Game(name, num_players)`, `eights.make(name, ...)` or `eights.Rules(name)`;",
        "`eights.Rules(name).describe()` prints all of a preset's rules in words. A house-rules",
        'game is a TOML file with `inherits = "<preset>"` plus the settings that differ',
        "(see `examples/house_rules.toml`).",
        "",
        "| preset | game | players |",
        "|---|---|---|",
    ]
    specs = {name: core.preset_rules(name) for name in names}
    for name in names:
        lines.append(f"| [`{name}`](#{name}) | {_cell(specs[name]['title'] or name)} | {_players(specs[name])} |")
    lines.append("")
    for name in names:
        lines += _preset_section(name, core)
    return "\n".join(lines).rstrip("\n") + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the file is not up to date")
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT, help="output file (default: docs/presets.md)")
    args = parser.parse_args()
    text = generate()
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.is_file() else ""
        if current != text:
            print(f"{args.output} is out of date: run python scripts/gen_presets_doc.py", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date")
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

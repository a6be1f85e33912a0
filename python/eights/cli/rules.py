"""``rules``: a preset, or rules made from one, in words or as a house-rules TOML file to edit.

The first step of the user's path (your rules, a trained agent, the arena): ``eights rules
--preset switch_blackjack --variants aces_wild --out house.toml`` writes a file that
``inherits`` the preset and lists what differs, which every command reads back with
``--preset house.toml``; without ``--out`` (and ``--toml``) the rules are printed in words."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .._utils import outputs as _outputs
from .._utils.checks import terminal_safe
from ..rules import Rules
from . import _args


def add_parser(subparsers: Any) -> None:
    """The ``rules`` command and its options."""
    p = subparsers.add_parser(
        "rules",
        help="show rules in words, or write them as a house-rules TOML file",
        description="Show a preset (or rules made from one with --variants and --rules) in words, or write "
        "it as TOML: a house-rules file that inherits the preset and lists what differs, to edit and then "
        "give to any command as --preset FILE.toml.",
    )
    _args.add_preset(p)
    p.add_argument(
        "given_preset",
        nargs="?",
        type=_args.preset_value,
        default=None,
        metavar="PRESET",
        help="the preset or house-rules file, as --preset gives it (eights rules switch_blackjack)",
    )
    p.add_argument(
        "--variants",
        type=_args.variant_list,
        default=None,
        metavar="NAME,...",
        help="the preset's variants to apply, comma separated (the words list them; default: none)",
    )
    _args.add_rules(p)
    p.add_argument("--toml", action="store_true", help="print the rules as TOML instead of in words")
    p.add_argument(
        "--full",
        action="store_true",
        help="with --toml or --out, write every field with its value, not only what differs from the preset",
    )
    p.add_argument(
        "--out",
        default=None,
        metavar="FILE.toml",
        help="write the TOML to this file (an existing file is kept unless --force)",
    )
    p.add_argument(
        "--name",
        default=None,
        help="the name the rules play under in results (default with --out: the file's name without .toml)",
    )
    p.add_argument("--force", action="store_true", help="with --out, replace an existing file")
    p.set_defaults(func=run)


def _rules(args: argparse.Namespace) -> Rules:
    """The rules the options name: the preset (or TOML file), then the overrides, then the
    variants, as the other commands build them."""
    preset, overrides = _args.rules_of(args)
    rules = preset if isinstance(preset, Rules) else Rules(preset)
    if overrides:
        rules = rules.replace(overrides)
    variants = _args.names(args.variants)
    if variants:
        rules = rules.replace(variants=rules.active_variants + variants)
    name = args.name
    if name is None and args.out is not None and rules.name == rules.preset:
        name = os.path.splitext(os.path.basename(args.out))[0]
    if name is not None and name != rules.name:
        # Renamed, the rules are told apart from the preset in results and records.
        title = rules.title if rules.name != rules.preset else f"{rules.title}, house rules"
        rules = rules.replace({"name": name, "title": title})
    return rules


def run(args: argparse.Namespace) -> int:
    """Print the rules in words or as TOML, or write the TOML to ``--out``."""
    if args.given_preset is not None:
        if args.preset is not None:
            raise ValueError("give the preset once: as PRESET or as --preset, not both")
        args.preset = args.given_preset
    if args.out is not None:
        if not args.out.lower().endswith(".toml"):
            raise ValueError(f"--out {args.out}: a house-rules file's name ends in .toml (every command reads it so)")
        if os.path.lexists(args.out) and not args.force:  # a link, even dangling, is a file there
            raise ValueError(f"--out {args.out}: the file exists; give --force to replace it")
        _outputs.check_outputs([("--out", args.out, "file")])
    elif args.force:
        raise ValueError("--force replaces the file of --out; give --out FILE.toml")
    if args.full and not (args.toml or args.out):
        raise ValueError("--full writes TOML: give --toml or --out")
    rules = _rules(args)
    if args.out is None:
        print(rules.to_toml(full=args.full) if args.toml else terminal_safe(rules.describe()))
        return 0
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(_header(rules, args.out, args.full) + rules.to_toml(full=args.full))
    print(f"wrote {args.out}: {rules.title}; play it with --preset {args.out}", file=sys.stderr)
    return 0


def _header(rules: Rules, path: str, full: bool) -> str:
    """The comment that opens a written file: how to edit it and play it."""
    if full or rules.preset is None:
        what = "Every field of the rules is listed with its value"
    else:
        what = (
            f"Every field not listed here is the preset's; `eights rules --preset {rules.preset} --toml --full`\n"
            "# prints them all with their values: copy here those you change"
        )
    return (
        "# House rules, written by `eights rules`. Every field, with what it does: the rules encoding tables\n"
        "# of the documentation's layouts page (docs/layouts.md), which name each column's field.\n"
        f"# {what}.\n"
        f"# Play them with any command's `--preset {path}`, or eights.Rules.from_toml({path!r}).\n\n"
    )

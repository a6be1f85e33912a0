"""Markdown headings and their anchors, as the documentation site (Python-Markdown's ``toc``,
under mkdocs) and GitHub compute them: for the tests that check citations and links."""

from __future__ import annotations

import re
import unicodedata
from typing import Set

__all__ = ["anchors", "slugify"]


def slugify(text: str) -> str:
    """The anchor of a heading, as Python-Markdown's toc extension (mkdocs) makes it."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(markdown: str) -> Set[str]:
    """The anchors of a Markdown file's headings (fenced code skipped, repeats numbered as
    ``toc`` numbers them, ``{#id}`` attributes honoured)."""
    found: Set[str] = set()
    fenced = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        title = m.group(1)
        explicit = re.search(r"\{\s*#([\w-]+)[^}]*\}\s*$", title)
        if explicit:
            found.add(explicit.group(1))
            continue
        title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # a link's text
        slug = base = slugify(title)
        k = 0
        while slug in found:
            k += 1
            slug = f"{base}_{k}"
        found.add(slug)
    return found

"""Pictures of a table: terminal text (:mod:`.text`), HTML with inline SVG cards
(:mod:`.html`), RGB frames drawn with Pillow (:mod:`.rgb`, ``render_mode="rgb_array"``) and
record viewers (:mod:`.replay_viewer`). Used by the environments' ``render_mode``, by
``python -m eights play`` and ``replay``, and by Jupyter."""

from .html import card_svg, game_html
from .replay_viewer import ReplayHTML, replay_html, replay_text
from .text import HISTORY_SHOWN, SUIT_NAMES, SUIT_SYMBOLS, Action, action_text, card_symbol, table_text

__all__ = [
    "HISTORY_SHOWN",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "Action",
    "ReplayHTML",
    "action_text",
    "card_svg",
    "card_symbol",
    "game_html",
    "replay_html",
    "replay_text",
    "table_text",
]

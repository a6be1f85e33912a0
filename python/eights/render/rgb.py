"""Raster pictures of a table: the ``rgb_array`` render mode, drawn with Pillow.

This module owns :func:`table_rgb`, an ``(H, W, 3)`` ``uint8`` image of a game (top card,
suit to follow, stock and discard sizes, every seat's hand or card backs, whose turn,
the last actions).  The image size depends only on the number of players, so every frame
of an episode has the same shape (what video recorders need).  Needs Pillow
(``pip install 'eights[render]'``).
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence, Tuple

import numpy as np

from .._utils.checks import as_int
from .text import Action, _status, _table_args

__all__ = ["table_rgb", "frame_shape"]

WIDTH = 800
_HEADER = 96
_ROW = 74
_FOOTER = 54
_CARD_W, _CARD_H = 38, 54
_RED = (200, 0, 0)
_BLACK = (17, 17, 17)
_FELT = (22, 102, 56)
_FELT_ROW = (30, 118, 66)
_ACTING_ROW = (178, 150, 40)
_TEXT = (245, 245, 235)

_FONTS: dict = {}


def _pil() -> Any:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:  # pragma: no cover - exercised only without Pillow
        raise ImportError(
            'render_mode="rgb_array" needs Pillow: pip install "eights[render]" (or pip install pillow)'
        ) from None
    return Image, ImageDraw, ImageFont


def _font(size: int, bold: bool = False) -> Any:
    """Pillow's bundled scalable font at ``size`` pixels (bitmap font on old Pillow)."""
    key = (size, bold)
    if key not in _FONTS:
        _, _, ImageFont = _pil()
        try:
            _FONTS[key] = ImageFont.load_default(size=size)
        except TypeError:  # Pillow < 10.1: fixed bitmap font only
            _FONTS[key] = ImageFont.load_default()
    return _FONTS[key]


def frame_shape(num_players: int) -> Tuple[int, int, int]:
    """``(H, W, 3)`` of the frames :func:`table_rgb` draws for ``num_players`` (an integer
    >= 2) seats."""
    num_players = as_int(num_players, "num_players", 2)
    return (_HEADER + _ROW * num_players + _FOOTER, WIDTH, 3)


def _suit_shape(draw: Any, suit: str, cx: float, cy: float, r: float, color: Tuple[int, int, int]) -> None:
    """A suit pip drawn as shapes (no font glyph needed), centred at ``(cx, cy)``."""
    if suit == "D":
        draw.polygon([(cx, cy - r), (cx + 0.75 * r, cy), (cx, cy + r), (cx - 0.75 * r, cy)], fill=color)
    elif suit == "H":
        q = r * 0.52
        draw.ellipse([cx - 2 * q, cy - r, cx, cy - r + 2 * q], fill=color)
        draw.ellipse([cx, cy - r, cx + 2 * q, cy - r + 2 * q], fill=color)
        draw.polygon(
            [(cx - 2 * q + 0.5, cy - r + q * 1.3), (cx + 2 * q - 0.5, cy - r + q * 1.3), (cx, cy + r)], fill=color
        )
    elif suit == "S":
        q = r * 0.5
        draw.polygon([(cx, cy - r), (cx + 2 * q, cy + 0.25 * r), (cx - 2 * q, cy + 0.25 * r)], fill=color)
        draw.ellipse([cx - 2 * q, cy - 0.15 * r, cx, cy - 0.15 * r + 2 * q], fill=color)
        draw.ellipse([cx, cy - 0.15 * r, cx + 2 * q, cy - 0.15 * r + 2 * q], fill=color)
        draw.polygon([(cx, cy + 0.3 * r), (cx + 0.45 * r, cy + r), (cx - 0.45 * r, cy + r)], fill=color)
    elif suit == "C":
        q = r * 0.42
        for ox, oy in ((0, -r + q), (-q * 1.15, -r + 2.9 * q), (q * 1.15, -r + 2.9 * q)):
            draw.ellipse([cx + ox - q, cy + oy - q, cx + ox + q, cy + oy + q], fill=color)
        draw.polygon([(cx, cy), (cx + 0.4 * r, cy + r), (cx - 0.4 * r, cy + r)], fill=color)


def _card(draw: Any, x: float, y: float, card: Optional[str], face_up: bool = True) -> None:
    """One card with its top-left corner at ``(x, y)``; a back when hidden or ``None``."""
    w, h = _CARD_W, _CARD_H
    if not face_up or card is None:
        draw.rounded_rectangle([x, y, x + w, y + h], radius=4, fill=(42, 92, 154), outline=(17, 34, 51))
        draw.rounded_rectangle([x + 4, y + 4, x + w - 4, y + h - 4], radius=3, outline=(153, 187, 221))
        return
    draw.rounded_rectangle([x, y, x + w, y + h], radius=4, fill=(255, 255, 255), outline=(110, 110, 110))
    if card in ("RJ", "BJ"):
        color = _RED if card == "RJ" else _BLACK
        draw.text((x + 4, y + 3), "JKR", fill=color, font=_font(12, True))
        cx, cy, r = x + w / 2, y + h / 2 + 8, 9
        star = []
        for k in range(10):
            radius = r if k % 2 == 0 else r * 0.45
            angle = np.pi / 2 + k * np.pi / 5
            star.append((cx + radius * np.cos(angle), cy - radius * np.sin(angle)))
        draw.polygon(star, fill=color)
        return
    rank, suit = card[0], card[1]
    color = _RED if suit in ("D", "H") else _BLACK
    shown = "10" if rank == "T" else rank
    draw.text((x + 4, y + 2), shown, fill=color, font=_font(17, True))
    _suit_shape(draw, suit, x + w / 2 + 2, y + h / 2 + 10, 10, color)


def _cards_row(draw: Any, x0: float, y: float, cards: Sequence[Optional[str]], face_up: bool, right: float) -> None:
    """Lay out cards from ``x0``, overlapping them when they would pass ``right``."""
    count = len(cards)
    if count == 0:
        return
    step = float(_CARD_W + 3)
    if count > 1 and x0 + step * (count - 1) + _CARD_W > right:
        step = max(6.0, (right - x0 - _CARD_W) / (count - 1))
    for k, card in enumerate(cards):
        _card(draw, x0 + k * step, y, card, face_up)


def _fit(draw: Any, text: str, font: Any, width: float) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels: the longest prefix that
    fits, found by bisection (a name of 4,000 characters took 4,000 measurements a frame)."""
    if draw.textlength(text, font=font) <= width:
        return text
    low, high = 0, len(text)  # text[:low] + "…" fits (or low == 0); text[:high] + "…" does not
    while high - low > 1:
        mid = (low + high) // 2
        if draw.textlength(text[:mid] + "…", font=font) <= width:
            low = mid
        else:
            high = mid
    return text[:low] + "…"


def table_rgb(
    game: Any,
    viewer: Optional[int] = None,
    history: Iterable[Tuple[int, Action]] = (),
    names: Optional[Sequence[str]] = None,
) -> np.ndarray:
    """The table as an ``(H, W, 3)`` ``uint8`` RGB image (see :func:`frame_shape`).

    Same content and ``viewer`` convention as :func:`eights.render.table_text`: ``viewer``'s
    hand face up (every hand when ``viewer`` is None), the other hands as card backs
    with their counts; the seat to act is highlighted.  Card ranks and suits use the
    usual symbols (suits drawn as shapes, red for diamonds and hearts).  Checks its
    arguments as :func:`eights.render.table_text` does.
    """
    viewer, label, recent = _table_args(game, viewer, history, names)
    Image, ImageDraw, _ = _pil()
    n = game.num_players
    height, width, _ = frame_shape(n)
    img = Image.new("RGB", (width, height), _FELT)
    draw = ImageDraw.Draw(img)
    big, small = _font(16, True), _font(14)

    draw.text(
        (12, 8),
        _fit(draw, f"{game.preset} · {n} players · decision {game.decision_count}", big, width - 24),
        fill=_TEXT,
        font=big,
    )
    # Top card, stock and the state of play.
    draw.text((12, 40), "Top", fill=_TEXT, font=small)
    _card(draw, 46, 34, game.top_card) if game.top_card else draw.text((46, 40), "-", fill=_TEXT, font=small)
    info = [
        f"stock {game.stock_size}",
        f"discard {game.discard_size}",
        "clockwise" if game.direction > 0 else "anticlockwise",
    ]
    if game.pending_draw:
        info.append(f"pending penalty: draw {game.pending_draw}")
    draw.text((100, 38), " · ".join(info), fill=_TEXT, font=small)
    suit = game.nominated_suit or (
        game.active_suit if game.active_suit and game.top_card and game.top_card[-1:] != game.active_suit else None
    )
    if suit:
        words = "nominated" if game.nominated_suit else "to follow"
        draw.rounded_rectangle([100, 60, 124, 84], radius=4, fill=(255, 255, 255))
        _suit_shape(draw, suit, 112, 72, 9, _RED if suit in ("D", "H") else _BLACK)
        draw.text((132, 62), f"suit {words}", fill=_TEXT, font=small)

    sizes = game.hand_sizes
    for p in range(n):
        y = _HEADER + p * _ROW
        acting = game.current_player == p and not (game.is_terminal or game.is_truncated)
        draw.rectangle([6, y + 2, width - 6, y + _ROW - 4], fill=_ACTING_ROW if acting else _FELT_ROW)
        who = label[p]
        if acting:  # a pointer to the seat to act (drawn: the bundled font has no arrow glyph)
            draw.polygon([(8, y + 12), (8, y + 26), (15, y + 19)], fill=_TEXT)
        tags = []
        if viewer == p and names is None:
            tags.append("you")
        if game.dealer == p:
            tags.append("dealer")
        draw.text((18, y + 10), _fit(draw, who, big, 126), fill=_TEXT, font=big)
        draw.text((14, y + 32), f"{sizes[p]} card" + ("" if sizes[p] == 1 else "s"), fill=_TEXT, font=small)
        if tags:
            draw.text((14, y + 50), ", ".join(tags), fill=_TEXT, font=small)
        if viewer is None or viewer == p:
            _cards_row(draw, 150, y + 8, game.hand(p), True, width - 14)
        else:
            _cards_row(draw, 150, y + 8, [None] * sizes[p], False, width - 14)

    y = _HEADER + n * _ROW
    draw.text((12, y + 4), _fit(draw, _status(game, label), big, width - 24), fill=_TEXT, font=big)
    if recent:
        # Plain action text ("play 8H"): the bundled font has no suit glyphs.
        text = "Last: " + " · ".join(f"{label[s]} {game.action_to_string(a)}" for s, a in recent)
        draw.text((12, y + 28), _fit(draw, text, small, width - 24), fill=_TEXT, font=small)
    return np.asarray(img, dtype=np.uint8)

// The cards, drawn by the server's HTML renderer (eights.render.card_svg) and fetched once.
import { get } from "./api.js";
import { h } from "./dom.js";

let art = null;

export async function loadCards() {
  if (!art) art = await get("/api/cards");
  return art;
}

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

// "8H" -> "8♥", "TD" -> "10♦", jokers as words.
export function cardName(card) {
  if (card === "RJ") return "red joker";
  if (card === "BJ") return "black joker";
  if (!card || card.length !== 2) return String(card);
  const rank = card[0] === "T" ? "10" : card[0];
  return rank + (SUITS[card[1]] || card[1]);
}

export function suitSymbol(suit) {
  return SUITS[suit] || suit;
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

// One card: a button when it is a move (action id), otherwise a picture; face down when
// card is null.  The SVG comes from the server's fixed set of cards, looked up by name.
export function cardEl(card, { action = null, label = null, size = "", disabled = false } = {}) {
  const name = card ? cardName(card) : "card back";
  const attrs = {
    class: `card ${size}`.trim(),
    "data-card": card || null,
    "aria-label": label || name,
    title: label || name,
  };
  let el;
  if (action !== null) {
    el = h("button", { ...attrs, type: "button", "data-action": action, class: `${attrs.class} playable` });
  } else {
    el = h("span", { ...attrs, role: "img", class: `${attrs.class}${disabled ? " dim" : ""}` });
  }
  const svg = card ? art && art.cards[card] : art && art.back;
  if (svg) el.innerHTML = svg;
  else el.textContent = name;
  return el;
}

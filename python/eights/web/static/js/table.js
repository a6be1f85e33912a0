// The table drawn from a state of the server (a played or watched game, or a position of a
// replay): the seats, the piles and what is pending, the person's hand and moves, the last
// moves, the hands of a match and the session's tally.  Only the moves the server listed as
// legal are buttons.
import { cardEl, cardName, isRed, suitSymbol } from "./cards.js";
import { h } from "./dom.js";

const PROMPTS = {
  play: "Your turn: play a card",
  chain: "A penalty is on you: answer it or take it",
  continue: "You may play another card, or end your turn",
  after_draw: "You drew: play a card, or pass",
  nominate: "Name the suit to follow",
  give: "Choose a card to give away",
  keep: "Choose a card to keep",
  target: "Swap hands with another player, or not",
  ask: "Ask for a rank",
  challenge: "Challenge the joker, or let it stand?",
};

const CARD_KINDS = ["play", "give", "keep"];
const SEAT_CARDS_SHOWN = 14;

function seatOrder(state, mode) {
  const n = state.players;
  if (mode !== "play" || state.you === null) return [...Array(n).keys()];
  return [...Array(n - 1).keys()].map((k) => (state.you + 1 + k) % n);
}

function seatBox(state, seat, opts) {
  const s = state.seats[seat];
  const acting = !state.over && state.to_act === seat;
  const thinking = opts.thinking === seat;
  const cards = h("div", { class: "seat-cards" });
  if (s.cards) {
    for (const card of s.cards) cards.append(cardEl(card, { size: "small" }));
  } else {
    for (let i = 0; i < Math.min(s.count, SEAT_CARDS_SHOWN); i++) cards.append(cardEl(null, { size: "small back" }));
    if (s.count > SEAT_CARDS_SHOWN) cards.append(h("span", { class: "more", text: `+${s.count - SEAT_CARDS_SHOWN}` }));
  }
  const chips = [];
  if (state.dealer === seat) chips.push(h("span", { class: "chip", title: "the dealer", text: "dealer" }));
  if (state.over && state.result && state.result.winner === seat) chips.push(h("span", { class: "chip win", text: "winner" }));
  return h(
    "div",
    { class: `seat${acting ? " to-act" : ""}${s.name === "You" ? " you" : ""}`, "data-seat": seat },
    h("div", { class: "seat-head" }, h("span", { class: "seat-name", text: s.name }), chips),
    h(
      "div",
      { class: "seat-meta" },
      `seat ${seat}${s.agent && s.agent !== s.name ? ` · ${s.agent}` : ""} · ${s.count} card${s.count === 1 ? "" : "s"}`,
      state.rules && state.rules.match ? ` · score ${s.score}` : "",
    ),
    cards,
    thinking ? h("div", { class: "thinking", role: "status", text: "thinking…" }) : null,
  );
}

function chips(state) {
  const out = [];
  const top = state.top;
  if (state.nominated) {
    out.push(suitChip(state.nominated, "nominated"));
  } else if (state.suit && top && top.length === 2 && top[1] !== state.suit && !["RJ", "BJ"].includes(top)) {
    out.push(suitChip(state.suit, "to follow"));
  }
  if (state.pending_draw) out.push(h("span", { class: "chip alert", text: `penalty: draw ${state.pending_draw}` }));
  out.push(h("span", { class: "chip", text: state.direction > 0 ? "↻ clockwise" : "↺ anticlockwise" }));
  if (state.wild_rank) out.push(h("span", { class: "chip", text: `wild: ${cardName(state.wild_rank + "C").slice(0, -1)}s` }));
  if (state.free_play) out.push(h("span", { class: "chip", text: "free play" }));
  return out;
}

function suitChip(suit, what) {
  return h("span", { class: `chip suit ${isRed(suit) ? "red" : "black"}`, "data-suit": suit }, `${suitSymbol(suit)} ${what}`);
}

function center(state, legal, opts) {
  const draw = legal.find((m) => m.kind === "draw");
  const stock = cardEl(null, draw ? { action: draw.id, label: "Draw a card" } : { size: "back" });
  if (draw) stock.addEventListener("click", () => opts.onMove(draw));
  const piles = [
    h("div", { class: "pile" }, stock, h("div", { class: "pile-label", text: `stock ${state.stock}` })),
    h(
      "div",
      { class: "pile discard" },
      state.top ? cardEl(state.top, { size: "big" }) : h("span", { class: "card empty", text: "—" }),
      h("div", { class: "pile-label", text: `discard ${state.discard}` }),
    ),
  ];
  if (state.rogue && state.rogue.length) {
    piles.push(
      h(
        "div",
        { class: "pile rogue" },
        cardEl(state.rogue[state.rogue.length - 1]),
        h("div", { class: "pile-label", text: `rogue pile ${state.rogue.length}` }),
      ),
    );
  }
  return h("div", { class: "center" }, h("div", { class: "piles" }, piles), h("div", { class: "chips" }, chips(state)));
}

export function promptText(state, opts) {
  if (state.over) return state.result ? state.result.text : "The game is over.";
  const actor = state.seats[state.to_act];
  if (opts.mode === "play" && state.waiting_for === "you") {
    if (state.phase === "chain" && state.pending_draw) return `Penalty of ${state.pending_draw} on you: answer it or take it`;
    return PROMPTS[state.phase] || `Your turn (${state.phase})`;
  }
  if (opts.thinking === state.to_act) return `${actor.name} is thinking…`;
  return `${actor.name} to act (${state.phase.replace("_", " ")})`;
}

function moveButton(move, opts, extra = "") {
  const attrs = { type: "button", class: `move ${move.kind} ${extra}`.trim(), "data-action": move.id, "data-kind": move.kind };
  const button = h("button", attrs, move.label);
  if (move.suit) button.classList.add(isRed(move.suit) ? "red" : "black");
  button.addEventListener("click", () => opts.onMove(move));
  return button;
}

function controls(legal, opts) {
  const box = h("div", { class: "controls", role: "group", "aria-label": "Your moves" });
  const groups = { suit: [], target: [], ask: [], other: [] };
  for (const move of legal) {
    if (CARD_KINDS.includes(move.kind)) continue;
    (groups[move.kind] || groups.other).push(move);
  }
  if (groups.suit.length) box.append(h("div", { class: "suits" }, groups.suit.map((m) => moveButton(m, opts, "suit-move"))));
  if (groups.target.length) box.append(h("div", { class: "targets" }, groups.target.map((m) => moveButton(m, opts))));
  if (groups.ask.length) box.append(h("div", { class: "asks" }, groups.ask.map((m) => moveButton(m, opts))));
  if (groups.other.length) box.append(h("div", { class: "others" }, groups.other.map((m) => moveButton(m, opts))));
  return box;
}

function hand(state, legal, opts) {
  const mine = state.seats[state.you];
  const byCard = new Map(legal.filter((m) => CARD_KINDS.includes(m.kind)).map((m) => [m.card, m]));
  const yourTurn = state.waiting_for === "you";
  const cards = (mine.cards || []).map((card) => {
    const move = byCard.get(card);
    if (!move) return cardEl(card, { disabled: yourTurn && byCard.size > 0 });
    const el = cardEl(card, { action: move.id, label: move.label });
    el.dataset.kind = move.kind;
    el.addEventListener("click", () => opts.onMove(move));
    return el;
  });
  return h(
    "div",
    { class: `hand-area${state.to_act === state.you && !state.over ? " to-act" : ""}` },
    h("div", { class: "hand-label" }, `Your hand · ${mine.count} card${mine.count === 1 ? "" : "s"}`,
      state.dealer === state.you ? h("span", { class: "chip", text: "dealer" }) : null),
    h("div", { class: "hand", role: "group", "aria-label": "Your hand" }, cards),
  );
}

// The board: seats, piles, prompt, moves and (at a played table) the person's hand.
export function board(state, opts) {
  const legal = opts.mode === "play" && !opts.busy ? state.legal || [] : [];
  const seats = seatOrder(state, opts.mode).map((seat) => seatBox(state, seat, opts));
  const parts = [
    h("div", { class: `seats n${seats.length}` }, seats),
    center(state, legal, opts),
    h("div", { class: `prompt${state.waiting_for === "you" && opts.mode === "play" ? " yours" : ""}`, role: "status" },
      promptText(state, opts)),
  ];
  if (opts.mode === "play" && state.you !== null) {
    parts.push(controls(legal, opts));
    parts.push(hand(state, legal, opts));
  }
  return h("div", { class: `board mode-${opts.mode}${opts.busy ? " busy" : ""}` }, parts);
}

function seatName(state, seat) {
  return state.seats[seat] ? state.seats[seat].name : `P${seat}`;
}

export function movesLog(state) {
  const history = state.history || [];
  const items = history.map((m) =>
    h("li", { value: m.decision, "data-decision": m.decision }, h("b", { text: seatName(state, m.seat) }), ` ${m.text}`),
  );
  return h("section", { class: "log" }, h("h3", { text: "Last moves" }),
    items.length ? h("ol", {}, items) : h("p", { class: "muted", text: "No move yet." }));
}

export function handsTable(state) {
  if (!state.hands || !state.hands.length) return null;
  const head = h("tr", {}, h("th", { text: "Hand" }), state.seats.map((s) => h("th", { text: s.name })));
  const rows = state.hands.map((r) =>
    h("tr", {}, h("td", { text: r.hand }), r.points.map((p, i) => h("td", { title: `total ${r.scores[i]}`, text: p }))),
  );
  const total = h("tr", { class: "total" }, h("td", { text: "Total" }), state.seats.map((s) => h("td", { text: s.score })));
  return h("section", { class: "hands" }, h("h3", { text: "Hands (points)" }), h("table", {}, head, rows, total));
}

export function tallyTable(state) {
  if (!state.tally) return null;
  const head = h("tr", {}, ["Player", "Seat", "Deals", "Wins", "Points"].map((t) => h("th", { text: t })));
  const rows = state.tally.map((t) =>
    h("tr", {}, h("td", { text: t.name }), h("td", { text: t.seat }), h("td", { text: t.deals }),
      h("td", { text: t.wins }), h("td", { text: t.points })),
  );
  return h("section", { class: "tally" }, h("h3", { text: "This session" }), h("table", {}, head, rows));
}

export function resultPanel(state, actions) {
  const r = state.result;
  const head = h("tr", {}, ["Player", "Hand points", "Score"].map((t) => h("th", { text: t })));
  const rows = state.seats.map((s, i) =>
    h("tr", { class: r.winner === i ? "winner" : "" }, h("td", { text: s.name }), h("td", { text: r.hand_points[i] }),
      h("td", { text: r.scores[i] })),
  );
  return h(
    "div",
    { class: "result", role: "dialog", "aria-label": "Result" },
    h("h2", { text: r.text }),
    h("table", {}, head, rows),
    handsTable(state),
    state.seed !== null ? h("p", { class: "muted", text: `Deal ${state.deal}, seed ${state.seed}.` }) : null,
    h("div", { class: "result-actions" }, actions),
  );
}

// A played or watched table: the websocket to the server, the pacing of the bots' moves
// (the delay setting), pause and step when watching, the result with "new deal" and
// "rematch", and the rules one click away.
import { connect, get, post } from "./api.js";
import { loadCards } from "./cards.js";
import { clear, h, settings, showRules, sleep, toast } from "./dom.js";
import { board, handsTable, movesLog, resultPanel, tallyTable } from "./table.js";

const SPEEDS = [
  [0, "instant"],
  [150, "fast"],
  [600, "normal"],
  [1500, "slow"],
];

export class GameView {
  constructor(main, gameId) {
    this.main = main;
    this.id = gameId;
    this.state = null;
    this.queue = [];
    this.pumping = false;
    this.busy = false;
    this.paused = false;
    this.inflight = false;
    this.thinking = null;
    this.showResult = true;
    this.closed = false;
  }

  async start() {
    await loadCards();
    if (this.closed) return; // left while the cards were loading
    if (this.ws) this.ws.close(); // "Reconnect" clicked twice
    this.lost = false;
    clear(this.main).append(h("p", { class: "loading", text: "Connecting to the table…" }));
    this.ws = connect(this.id, (m) => this.onMessage(m), (e) => this.onClose(e));
  }

  stop() {
    this.closed = true;
    if (this.ws) this.ws.close();
    clearTimeout(this.timer);
  }

  get mode() {
    return this.state ? this.state.mode : "play";
  }

  onMessage(message) {
    this.queue.push(message);
    this.pump();
  }

  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length) {
        const message = this.queue.shift();
        if (message.type === "error") {
          this.onError(message);
          continue;
        }
        if (message.type === "thinking") {
          // In order with the moves: a bot's move still paced must not wipe it.
          this.thinking = message.seat;
          if (this.state) this.render();
          continue;
        }
        const move = message.move;
        const byBot = move && message.state.you !== move.seat;
        if (byBot && this.state && this.mode === "play" && settings.delay) await sleep(settings.delay);
        if (this.closed || this.lost) return;
        this.thinking = null;
        this.update(message.state);
      }
    } finally {
      this.pumping = false;
    }
  }

  update(state) {
    const before = this.state;
    this.state = state;
    if (before && state.hands.length > before.hands.length && !state.over && before.deal === state.deal) {
      const last = state.hands[state.hands.length - 1];
      const points = state.seats.map((s, i) => `${s.name} ${last.points[i]}`).join(", ");
      toast(`Hand ${last.hand} is over. Points: ${points}.`, "info", 6000);
    }
    if (before && before.deal !== state.deal) this.showResult = true;
    if (state.waiting_for !== "bot" || state.mode === "watch") this.busy = false;
    this.inflight = false;
    this.render();
    this.scheduleAdvance();
  }

  onError(message) {
    this.busy = false;
    this.inflight = false;
    if (message.status === 404) {
      this.state = null;
      clear(this.main).append(
        h("div", { class: "notice" }, h("p", { class: "error", text: message.error }), h("a", { href: "#/play", text: "Set up a new game" })),
      );
      return;
    }
    toast(message.error, "error", 7000);
    if (message.status === 409) this.ws.send({ op: "state" });
    else if (this.state) this.render();
  }

  onClose(event) {
    if (this.closed || event.code === 4404) return;
    this.lost = true; // the moves still queued belong to the lost connection
    this.queue.length = 0;
    this.state = null;
    clear(this.main).append(
      h(
        "div",
        { class: "notice" },
        h("p", { class: "error", text: "The connection to the server was lost." }),
        h("button", { type: "button", onclick: () => this.start(), text: "Reconnect" }),
      ),
    );
  }

  // ---------------------------------------------------------------- moves

  move(move) {
    if (this.busy || !this.state || this.state.waiting_for !== "you") return;
    this.busy = true;
    this.ws.send({ op: "act", action: move.id, decision: this.state.decision });
    this.render();
  }

  scheduleAdvance() {
    clearTimeout(this.timer);
    const s = this.state;
    if (!s || s.mode !== "watch" || s.over || this.paused || this.inflight) return;
    this.timer = setTimeout(() => this.step(), settings.delay);
  }

  step() {
    if (!this.state || this.state.over || this.inflight) return;
    this.inflight = true;
    this.ws.send({ op: "advance", steps: 1 });
  }

  deal(swap) {
    if (this.busy) return; // a double click deals once (twice would undo a rematch's swap)
    this.showResult = true;
    this.busy = true;
    this.ws.send({ op: "deal", swap });
  }

  async rules() {
    try {
      const rules = await get(`/api/games/${encodeURIComponent(this.id)}/rules`);
      showRules(rules.title, rules.describe);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async replay() {
    try {
      const record = await get(`/api/games/${encodeURIComponent(this.id)}/record`);
      const summary = await post("/api/replays", { record });
      location.hash = `#/replay?id=${summary.id}&step=0`;
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async download() {
    try {
      const record = await get(`/api/games/${encodeURIComponent(this.id)}/record`);
      const blob = new Blob([JSON.stringify(record)], { type: "application/json" });
      const link = h("a", { href: URL.createObjectURL(blob), download: `eights-${record.preset}-${record.seed}.json` });
      document.body.append(link);
      link.click();
      link.remove();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  // ---------------------------------------------------------------- drawing

  speedControl() {
    const select = h(
      "select",
      { id: "speed", "aria-label": "Delay between the bots' moves", title: "Delay between the bots' moves" },
      SPEEDS.map(([ms, name]) => h("option", { value: ms, selected: settings.delay === ms, text: `${name}` })),
    );
    select.addEventListener("change", () => {
      settings.delay = Number(select.value);
      this.scheduleAdvance();
    });
    return h("label", { class: "speed" }, "Speed ", select);
  }

  // The bar is built once and updated in place: its buttons stay the same elements while
  // the bots play, so that a click is never lost to a redraw.
  buildBar() {
    const pause = h("button", { type: "button", id: "pause" });
    pause.addEventListener("click", () => {
      this.paused = !this.paused;
      this.render();
      this.scheduleAdvance();
    });
    const step = h("button", { type: "button", id: "step" }, "Step ▶|");
    step.addEventListener("click", () => this.step());
    const resultButton = h("button", { type: "button", id: "result-button" }, "Result");
    resultButton.addEventListener("click", () => {
      this.showResult = true;
      this.render();
    });
    const title = h("span", { class: "table-title" });
    const watching = this.state.mode === "watch";
    this.barParts = { title, pause, step, resultButton };
    return h(
      "div",
      { class: "table-bar" },
      title,
      h("span", { class: "bar-actions" },
        watching ? [pause, step] : null,
        this.speedControl(),
        h("button", { type: "button", id: "rules-button", onclick: () => this.rules() }, "Rules"),
        resultButton,
        h("a", { class: "button", href: watching ? "#/watch" : "#/play", text: "Leave" }),
      ),
    );
  }

  updateBar() {
    const s = this.state;
    const { title, pause, step, resultButton } = this.barParts;
    title.textContent = `${s.rules.title} · ${s.players} players · deal ${s.deal} · decision ${s.decision}`;
    pause.textContent = this.paused ? "Play ▶" : "Pause";
    pause.setAttribute("aria-pressed", String(this.paused));
    pause.disabled = s.over;
    step.disabled = !this.paused || s.over || this.inflight;
    resultButton.hidden = !(s.over && !this.showResult);
  }

  result() {
    const s = this.state;
    if (!s.over || !this.showResult) return null;
    const swapText = s.players === 2 ? "Rematch: same deal, seats swapped" : "Rematch: same deal, seats rotated";
    const actions = [
      h("button", { type: "button", id: "new-deal", class: "primary", onclick: () => this.deal(false) }, "New deal"),
      h("button", { type: "button", id: "rematch", onclick: () => this.deal(true) }, swapText),
      h("button", { type: "button", id: "replay-game", onclick: () => this.replay() }, "Replay this game"),
      h("button", { type: "button", id: "download", onclick: () => this.download() }, "Save the record"),
      h("button", { type: "button", id: "show-table", onclick: () => { this.showResult = false; this.render(); } }, "Show the table"),
    ];
    return resultPanel(s, actions);
  }

  render() {
    const s = this.state;
    if (!s || this.closed) return;
    if (!this.view || !this.view.isConnected || this.view.dataset.mode !== s.mode) {
      this.board = h("div");
      this.side = h("aside");
      this.panel = h("div", { hidden: true });
      this.view = h("section", { class: `table-view mode-${s.mode}`, "data-mode": s.mode }, this.buildBar(), this.board, this.side, this.panel);
      clear(this.main).append(this.view);
    }
    this.view.dataset.over = s.over;
    this.view.dataset.decision = s.decision;
    this.updateBar();
    const opts = { mode: s.mode, busy: this.busy, thinking: this.thinking ?? s.thinking, onMove: (m) => this.move(m) };
    this.board = swap(this.board, board(s, opts));
    this.side = swap(this.side, h("aside", { class: "side" }, movesLog(s), s.over ? null : handsTable(s), tallyTable(s)));
    this.panel = swap(this.panel, this.result() || h("div", { hidden: true }));
  }
}

function swap(old, fresh) {
  old.replaceWith(fresh);
  return fresh;
}

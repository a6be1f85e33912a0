// The setup of a table: the rules (a preset and its variants, or an uploaded house-rules
// TOML file, checked by the server, whose errors are shown), the players, the person's seat
// and a bot for every other seat; or, to watch, a bot for every seat.
import { post } from "./api.js";
import { clear, h, showRules } from "./dom.js";

const STORE = "eights.setup";
const OTHER = "__other__";

function saved() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || {};
  } catch (err) {
    return {};
  }
}

// Whether two lists of variant names name the same variants, in any order.
function sameNames(a, b) {
  return a.length === b.length && a.every((name) => b.includes(name));
}

export class SetupView {
  constructor(main, mode, meta) {
    this.main = main;
    this.mode = mode; // "play" or "watch"
    this.meta = meta;
    const last = saved();
    this.source = "preset";
    this.preset = meta.presets.some((p) => p.name === last.preset) ? last.preset : "crazy_eights";
    this.variants = [];
    this.toml = null;
    this.fileName = null;
    this.players = last.players || 2;
    this.seat = 0;
    this.bots = last.bots || {};
    this.rules = null;
    this.rulesError = null;
  }

  async start() {
    await this.loadRules();
  }

  // What the rules answer, variants aside: the preset, or the house-rules file.
  base() {
    return this.source === "file" ? `file:${this.toml}` : `preset:${this.preset}`;
  }

  request() {
    const body = this.source === "file" ? { toml: this.toml } : { preset: this.preset };
    if (this.variants.length) body.variants = this.variants;
    return body;
  }

  // Asks the server about the rules as chosen now. Answers can come back out of order, so
  // only the answer to the latest question is shown; returns whether this one was.
  async loadRules() {
    const asked = (this.rulesAsked = (this.rulesAsked || 0) + 1);
    const base = this.base();
    this.rulesError = null;
    if (this.source === "file" && this.toml === null) {
      this.rules = null;
      this.render();
      return true;
    }
    let rules = null;
    let error = null;
    try {
      rules = await post("/api/rules", this.request());
    } catch (err) {
      error = err.message;
    }
    if (asked !== this.rulesAsked) return false;
    this.rules = rules;
    this.rulesBase = rules ? base : null;
    this.rulesError = error;
    if (rules) {
      const { min, max } = rules.players;
      this.players = Math.min(Math.max(this.players, min, 2), max);
      this.seat = Math.min(this.seat, this.players - 1);
    }
    this.render();
    return true;
  }

  botSeats() {
    const seats = [...Array(this.players).keys()];
    return this.mode === "play" ? seats.filter((s) => s !== this.seat) : seats;
  }

  botChoice(seat) {
    // The learned bot plays only the presets it was trained for (a house-rules file is checked by the server).
    const preset = this.meta.presets.find((p) => p.name === this.preset);
    const bots = this.meta.bots.filter((b) => b !== "net" || this.source !== "preset" || (preset && preset.net));
    if (!this.bots[seat] || (this.bots[seat] === "net" && !bots.includes("net"))) this.bots[seat] = "heuristic";
    const value = this.bots[seat];
    const known = [...bots, ...this.meta.policies];
    const select = h("select", { id: `bot-${seat}`, name: `bot-${seat}`, "aria-label": `Bot at seat ${seat}` });
    for (const bot of bots) select.append(h("option", { value: bot, selected: value === bot, text: bot }));
    for (const policy of this.meta.policies) {
      select.append(h("option", { value: policy, selected: value === policy, text: `${policy} (policy)` }));
    }
    select.append(h("option", { value: OTHER, selected: !known.includes(value), text: "other…" }));
    const other = h("input", {
      type: "text",
      id: `bot-${seat}-other`,
      placeholder: "e.g. ismcts:20000",
      value: known.includes(value) ? "" : value,
      hidden: known.includes(value),
      "aria-label": `Bot name at seat ${seat}`,
    });
    select.addEventListener("change", () => {
      other.hidden = select.value !== OTHER;
      if (select.value !== OTHER) this.bots[seat] = select.value;
      else other.focus();
    });
    other.addEventListener("input", () => (this.bots[seat] = other.value.trim()));
    return h("div", { class: "bot-row" }, h("label", { for: `bot-${seat}`, text: `Seat ${seat}` }), select, other);
  }

  rulesBlock() {
    const presetSelect = h(
      "select",
      { id: "preset", name: "preset", disabled: this.source !== "preset" },
      this.meta.presets.map((p) => h("option", { value: p.name, selected: p.name === this.preset, text: `${p.title} (${p.name})` })),
    );
    presetSelect.addEventListener("change", () => {
      this.preset = presetSelect.value;
      this.variants = [];
      this.loadRules();
    });
    const file = h("input", { type: "file", id: "rules-file", accept: ".toml,text/plain,application/toml", disabled: this.source !== "file" });
    file.addEventListener("change", () => this.readFile(file.files[0]));
    const radio = (value, label, control) =>
      h("label", { class: "source" },
        h("input", {
          type: "radio", name: "source", value, checked: this.source === value,
          onchange: () => { this.source = value; this.variants = []; this.loadRules(); },
        }),
        ` ${label} `, control);
    return h(
      "fieldset",
      { class: "rules-block" },
      h("legend", { text: "Rules" }),
      radio("preset", "Preset", presetSelect),
      radio("file", "House rules (TOML file)", file),
      this.fileName && this.source === "file" ? h("span", { class: "muted", text: ` ${this.fileName}` }) : null,
      this.rulesError ? h("p", { class: "error", id: "rules-error", role: "alert", text: this.rulesError }) : null,
      this.variantsBlock(),
      this.rules ? this.rulesSummary() : null,
    );
  }

  variantsBlock() {
    if (!this.rules || !this.rules.variants.length) return null;
    const boxes = this.rules.variants.map((v) => {
      const box = h("input", { type: "checkbox", value: v.name, checked: this.rules.active_variants.includes(v.name) });
      box.addEventListener("change", async () => {
        const [before, shown, shownBase] = [this.variants, this.rules, this.rulesBase];
        this.variants = box.checked ? [...this.variants, v.name] : this.variants.filter((x) => x !== v.name);
        if (!(await this.loadRules()) || this.rules) return;
        // Refused (two variants that set one field two ways): the message stays, and the
        // variants chosen before this box come back with their rules, so the table can still
        // be dealt. The rules shown may be older than that choice (a box ticked before the
        // answer to the previous one came back): then they are asked for again.
        const refused = this.rulesError;
        this.variants = before;
        if (shown && shownBase === this.base() && sameNames(shown.active_variants, before)) {
          [this.rules, this.rulesBase] = [shown, shownBase];
        } else if (!(await this.loadRules()) || !this.rules) return;
        this.rulesError = refused;
        this.render();
      });
      return h("label", { class: "variant", title: v.changes.join("\n") }, box, ` ${v.name}`);
    });
    return h("div", { class: "variants" }, h("span", { class: "muted", text: "Documented variants: " }), boxes);
  }

  rulesSummary() {
    const r = this.rules;
    const specials = r.special_cards.map((c) => c.name).join(", ") || "none";
    return h(
      "p",
      { class: "rules-summary" },
      h("b", { text: r.title }),
      ` · ${r.players.min}–${r.players.max} players · special cards: ${specials}${r.match ? " · a match over several hands" : ""} `,
      h("button", { type: "button", id: "setup-rules", onclick: () => showRules(r.title, r.describe) }, "Rules in words"),
    );
  }

  async readFile(file) {
    if (!file) return;
    const limit = this.meta.limits.rules_bytes;
    this.fileName = file.name;
    if (file.size > limit) {
      this.rulesAsked = (this.rulesAsked || 0) + 1; // an earlier file's answer still coming is stale
      this.toml = null;
      this.rules = null;
      this.rulesError = `${file.name} is ${file.size} bytes; the limit is ${limit} bytes`;
      this.render();
      return;
    }
    this.toml = await file.text();
    this.variants = [];
    await this.loadRules();
  }

  tableBlock() {
    const r = this.rules;
    const players = h("select", { id: "players", name: "players" });
    for (let n = Math.max(2, r.players.min); n <= r.players.max; n++) players.append(h("option", { value: n, selected: n === this.players, text: n }));
    players.addEventListener("change", () => {
      this.players = Number(players.value);
      this.seat = Math.min(this.seat, this.players - 1);
      this.render();
    });
    const rows = [h("div", { class: "row" }, h("label", { for: "players", text: "Players" }), players)];
    if (this.mode === "play") {
      const seat = h("select", { id: "seat", name: "seat" });
      for (let s = 0; s < this.players; s++) seat.append(h("option", { value: s, selected: s === this.seat, text: `seat ${s}` }));
      seat.addEventListener("change", () => {
        this.seat = Number(seat.value);
        this.render();
      });
      rows.push(h("div", { class: "row" }, h("label", { for: "seat", text: "Your seat" }), seat));
    }
    const seed = h("input", { type: "text", id: "seed", inputmode: "numeric", placeholder: "random", value: this.seed || "" });
    seed.addEventListener("input", () => (this.seed = seed.value.trim()));
    rows.push(h("div", { class: "row" }, h("label", { for: "seed", text: "Seed" }), seed));
    return h(
      "fieldset",
      { class: "table-block" },
      h("legend", { text: this.mode === "play" ? "Table" : "Bots" }),
      rows,
      h("div", { class: "bots" }, h("p", { class: "muted", text: this.mode === "play" ? "Your opponents:" : "A bot at every seat:" }), this.botSeats().map((s) => this.botChoice(s))),
    );
  }

  async submit(event) {
    event.preventDefault();
    if (this.submitting) return; // a double click opens one table
    this.submitting = true;
    const body = { ...this.request(), mode: this.mode, players: this.players, bots: this.botSeats().map((s) => this.bots[s] || "heuristic") };
    if (this.mode === "play") body.seat = this.seat;
    if (this.seed) body.seed = this.seed;
    localStorage.setItem(STORE, JSON.stringify({ preset: this.preset, players: this.players, bots: this.bots }));
    try {
      const state = await post("/api/games", body);
      location.hash = `#/game/${state.id}`;
    } catch (err) {
      this.submitting = false;
      this.startError = err.message;
      this.render();
    }
  }

  render() {
    const intro = this.mode === "play"
      ? "Sit at a table with bots. Only legal moves can be clicked; the server checks every one."
      : "Watch bots play each other, at the speed you choose, paused or step by step.";
    const form = h(
      "form",
      { class: "setup", id: "setup", novalidate: true, "data-mode": this.mode },
      h("h1", { text: this.mode === "play" ? "Play" : "Watch" }),
      h("p", { class: "muted", text: intro }),
      this.rulesBlock(),
      this.rules ? this.tableBlock() : null,
      this.startError ? h("p", { class: "error", id: "start-error", role: "alert", text: this.startError }) : null,
      h("button", { type: "submit", class: "primary", id: "start", disabled: !this.rules }, this.mode === "play" ? "Deal" : "Start watching"),
    );
    form.addEventListener("submit", (e) => this.submit(e));
    clear(this.main).append(form);
  }
}

// Replays: the records folder's files and an upload, then a record stepped forwards and
// back with a slider; the address always names the position shown, so a link reopens it.
import { get, post } from "./api.js";
import { loadCards } from "./cards.js";
import { clear, h, toast } from "./dom.js";
import { board, movesLog } from "./table.js";

export async function showReplayPicker(main, meta) {
  const error = h("p", { class: "error", id: "upload-error", role: "alert", hidden: true });
  const file = h("input", { type: "file", id: "record-file", accept: ".json,application/json" });
  file.addEventListener("change", async () => {
    error.hidden = true;
    const chosen = file.files[0];
    if (!chosen) return;
    try {
      if (chosen.size > meta.limits.record_bytes) throw new Error(`${chosen.name} is ${chosen.size} bytes; the limit is ${meta.limits.record_bytes} bytes`);
      let record;
      try {
        record = JSON.parse(await chosen.text());
      } catch (err) {
        throw new Error(`${chosen.name} is not JSON: ${err.message}`);
      }
      const summary = await post("/api/replays", { record });
      location.hash = `#/replay?id=${summary.id}&step=0`;
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  const parts = [
    h("h1", { text: "Replay" }),
    h("p", { class: "muted", text: "Open a game record: json.dump(game.record(), f), a file of an env's record_dir, or of the arena's." }),
    h("div", { class: "row" }, h("label", { for: "record-file", text: "Upload a record" }), file),
    error,
  ];
  if (meta.records) {
    const listing = await get("/api/records");
    const rows = listing.records.map((r) =>
      h("li", {}, h("a", { href: `#/replay?path=${encodeURIComponent(r.path)}&step=0`, text: r.path }),
        h("span", { class: "muted", text: ` ${(r.size / 1024).toFixed(1)} KiB · ${new Date(r.mtime * 1000).toLocaleString()}` })),
    );
    parts.push(h("h2", { text: "The records folder" }),
      rows.length ? h("ul", { class: "records" }, rows) : h("p", { class: "muted", text: "No *.json record in it yet." }));
  } else {
    parts.push(h("p", { class: "muted", text: "Start the server with --records DIR to list a folder of records here." }));
  }
  clear(main).append(h("section", { class: "setup" }, parts));
}

export class ReplayView {
  constructor(main, params) {
    this.main = main;
    this.params = params;
    this.cache = new Map();
    this.step = Math.max(0, Number(params.get("step")) || 0);
    this.viewer = params.get("viewer") || "";
    this.playing = false;
  }

  async start() {
    await loadCards();
    if (this.stopped) return; // left while the cards were loading
    this.keys = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keys);
    clear(this.main).append(h("p", { class: "loading", text: "Opening the record…" }));
    try {
      if (this.params.get("path")) this.summary = await post("/api/replays", { path: this.params.get("path") });
      else this.summary = { id: this.params.get("id") };
      await this.show(this.step);
    } catch (err) {
      const again = this.params.get("path") ? "" : " Upload the record again.";
      clear(this.main).append(h("div", { class: "notice" }, h("p", { class: "error", text: err.message + again }),
        h("a", { href: "#/replay", text: "Back to the records" })));
    }
  }

  stop() {
    this.stopped = true;
    this.playing = false;
    clearTimeout(this.timer);
    document.removeEventListener("keydown", this.keys);
  }

  // The arrow keys step back and forth, Home and End go to the deal and the end (unless a
  // form control has the focus: the slider moves by itself).
  onKey(event) {
    if (!this.view || event.altKey || event.ctrlKey || event.metaKey) return;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement && document.activeElement.tagName)) return;
    const at = this.wanted ?? this.step;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: this.summary.steps }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    this.go(to);
  }

  async position(step) {
    const key = `${step}/${this.viewer}`;
    if (!this.cache.has(key)) {
      const query = `step=${step}${this.viewer !== "" ? `&viewer=${this.viewer}` : ""}`;
      this.cache.set(key, get(`/api/replays/${encodeURIComponent(this.summary.id)}?${query}`));
    }
    try {
      return await this.cache.get(key);
    } catch (err) {
      this.cache.delete(key);
      throw err;
    }
  }

  link() {
    const p = new URLSearchParams();
    if (this.params.get("path")) p.set("path", this.params.get("path"));
    else p.set("id", this.summary.id);
    p.set("step", this.step);
    if (this.viewer !== "") p.set("viewer", this.viewer);
    return `#/replay?${p.toString()}`;
  }

  async show(step) {
    this.wanted = step;
    const view = await this.position(step);
    if (this.wanted !== step || this.stopped) return; // a later step asked for meanwhile, or left
    this.summary = view.replay;
    this.step = view.step;
    this.view = view;
    history.replaceState(null, "", this.link());
    this.render();
    if (step + 1 <= view.steps) this.position(step + 1).catch(() => {});
  }

  go(step) {
    const target = Math.min(Math.max(step, 0), this.summary.steps);
    if (target !== (this.wanted ?? this.step) || !this.view) this.show(target).catch((err) => toast(err.message, "error"));
  }

  togglePlay() {
    this.playing = !this.playing;
    clearTimeout(this.timer);
    const run = (this.run = (this.run || 0) + 1); // a loop of an earlier Play stops at its next tick
    this.render();
    const tick = async () => {
      if (!this.playing || run !== this.run) return;
      if (this.step >= this.summary.steps) {
        this.playing = false;
        this.render();
        return;
      }
      await this.show(this.step + 1);
      if (run === this.run) this.timer = setTimeout(tick, 500);
    };
    if (this.playing) tick();
  }

  controls() {
    const steps = this.summary.steps;
    const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: steps, value: this.step, "aria-label": "Position in the game" });
    slider.addEventListener("input", () => this.go(Number(slider.value)));
    const button = (id, text, label, onclick, disabled) => h("button", { type: "button", id, title: label, "aria-label": label, onclick, disabled }, text);
    const viewer = h("select", { id: "viewer", "aria-label": "Whose hand to show" },
      h("option", { value: "", selected: this.viewer === "", text: "every hand" }),
      this.summary.names.map((name, i) => h("option", { value: i, selected: this.viewer === String(i), text: `${name}'s view` })));
    viewer.addEventListener("change", () => {
      this.viewer = viewer.value;
      this.show(this.step).catch((err) => toast(err.message, "error"));
    });
    const copy = button("copy-link", "Copy link", "Copy a link to this position", async () => {
      const url = location.href;
      try {
        await navigator.clipboard.writeText(url);
        toast("Link copied.");
      } catch (err) {
        toast(url, "info", 10000);
      }
    });
    return h("div", { class: "replay-controls" },
      button("first", "|◀", "The deal", () => this.go(0), this.step === 0),
      button("prev", "◀", "One move back", () => this.go((this.wanted ?? this.step) - 1), this.step === 0),
      slider,
      button("next", "▶", "One move on", () => this.go((this.wanted ?? this.step) + 1), this.step >= steps),
      button("last", "▶|", "The end", () => this.go(steps), this.step >= steps),
      button("autoplay", this.playing ? "Pause" : "Play ▶", this.playing ? "Pause" : "Play the moves", () => this.togglePlay()),
      h("span", { class: "step-label", id: "step-label", text: `move ${this.step} / ${steps}` }),
      viewer, copy);
  }

  render() {
    const v = this.view;
    const s = this.summary;
    const names = s.names;
    const state = { ...v, seats: v.seats.map((seat, i) => ({ ...seat, name: names[i] })), rules: { title: s.rules.title }, you: null };
    const last = v.last ? `${names[v.last.seat]}: ${v.last.text}` : "the deal";
    clear(this.main).append(
      h("section", { class: "table-view mode-replay", "data-step": this.step },
        h("div", { class: "table-bar" },
          h("span", { class: "table-title", text: `${s.rules.title} · ${s.players} players · ${s.source}${s.seed !== null ? ` · seed ${s.seed}` : ""}` }),
          h("a", { class: "button", href: "#/replay", text: "Records" })),
        this.controls(),
        h("p", { class: "last-move", id: "last-move", text: `Move ${this.step}: ${last}` }),
        board(state, { mode: "replay" }),
        h("aside", { class: "side" }, movesLog(state))),
    );
  }
}

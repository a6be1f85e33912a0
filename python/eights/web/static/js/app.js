// The page: a router over the address's fragment (#/play, #/watch, #/game/<id>, #/replay...)
// that shows the setup, a table or a replay.
import { get } from "./api.js";
import { clear, h } from "./dom.js";
import { GameView } from "./game.js";
import { ReplayView, showReplayPicker } from "./replay.js";
import { SetupView } from "./setup.js";

const main = document.getElementById("main");
let meta = null;
let current = null;
let routed = 0;

async function route() {
  const mine = ++routed;
  if (current && current.stop) current.stop();
  current = null;
  const [path, query] = location.hash.replace(/^#\/?/, "").split("?");
  const parts = path.split("/").filter(Boolean);
  const params = new URLSearchParams(query || "");
  const page = parts[0] || "play";
  for (const link of document.querySelectorAll("[data-nav]")) {
    link.classList.toggle("active", link.dataset.nav === (page === "game" ? "" : page));
  }
  // Each page draws into its own element: a page still loading when the address changes
  // draws into an element no longer shown.
  const root = h("div", { class: "view" });
  clear(main).append(root);
  try {
    if (!meta) {
      meta = await get("/api/meta");
      document.getElementById("version").textContent = `v${meta.version}`;
    }
    if (mine !== routed) return; // the address changed while the meta loaded
    if (page === "game" && parts[1]) current = new GameView(root, parts[1]);
    else if (page === "replay" && (params.get("id") || params.get("path"))) current = new ReplayView(root, params);
    else if (page === "replay") return await showReplayPicker(root, meta);
    else current = new SetupView(root, page === "watch" ? "watch" : "play", meta);
    await current.start();
  } catch (err) {
    clear(root).append(h("div", { class: "notice" }, h("p", { class: "error", text: err.message })));
  }
}

window.addEventListener("hashchange", route);
route();

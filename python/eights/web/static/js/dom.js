// Small DOM helpers: elements are built with text nodes (never from untrusted HTML), toasts,
// the rules dialog, and the page's persistent settings.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function toast(message, kind = "info", ms = 4000) {
  const box = document.getElementById("toasts");
  const item = h("div", { class: `toast ${kind}`, text: message });
  box.append(item);
  setTimeout(() => item.remove(), ms);
}

// The rules in words (the engine's describe(): a title underlined with "=", "## " headings,
// "- " items, paragraphs) as headings, lists and paragraphs.
export function rulesText(text) {
  const out = document.createDocumentFragment();
  const lines = text.split("\n");
  let list = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^=+$/.test(line.trim())) continue;
    if (i + 1 < lines.length && /^=+$/.test(lines[i + 1].trim()) && line.trim()) {
      out.append(h("h3", { text: line.trim() }));
      list = null;
    } else if (line.startsWith("## ")) {
      out.append(h("h4", { text: line.slice(3) }));
      list = null;
    } else if (line.startsWith("- ")) {
      if (!list) out.append((list = h("ul")));
      list.append(h("li", { text: line.slice(2) }));
    } else if (line.trim()) {
      out.append(h("p", { text: line.trim() }));
      list = null;
    }
  }
  return out;
}

export function showRules(title, text) {
  const dialog = document.getElementById("rules-dialog");
  document.getElementById("rules-title").textContent = title;
  clear(document.getElementById("rules-body")).append(rulesText(text));
  if (!dialog.open) dialog.showModal();
}

// Settings kept between visits (the delay between bots' moves).
export const settings = {
  get delay() {
    const value = Number(localStorage.getItem("eights.delay"));
    return Number.isFinite(value) && localStorage.getItem("eights.delay") !== null ? value : 600;
  },
  set delay(ms) {
    localStorage.setItem("eights.delay", String(ms));
  },
};

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

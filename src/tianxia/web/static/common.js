// Shared by every page: translated strings, who this browser is, the seats it holds.
"use strict";

// A page's data comes in JSON data blocks (`<script type="application/json" id=...>`),
// never in an inline script: the content security policy runs scripts from /static only.
function pageData(id, otherwise) {
  const block = document.getElementById(id);
  try { return block ? JSON.parse(block.textContent) : otherwise; } catch { return otherwise; }
}

window.LANG = document.documentElement.lang || "en";

// The page's strings: the data block `#strings`.
function strings() {
  if (!window.T) window.T = pageData("strings", {});
  return window.T;
}

function t(text, vars) {
  let out = strings()[text] || text;
  for (const [k, v] of Object.entries(vars || {})) out = out.replaceAll("{" + k + "}", v);
  return out;
}

// A count's sentence: `tn("{n} move", "{n} moves", n, {n})`. The server sends a plural as
// its [one, other] forms under the two English forms joined by U+0004; every language
// the pages speak says "one" for 1 alone.
function tn(one, other, n, vars) {
  const forms = strings()[one + "\u0004" + other] || [one, other];
  let out = forms[n === 1 ? 0 : 1];
  for (const [k, v] of Object.entries(vars || {})) out = out.replaceAll("{" + k + "}", v);
  return out;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}

// What a thing drawn on a board is: the nearest SVG title from it up to the board.
function drawnTitle(node, board) {
  for (let n = node; n && n !== board; n = n.parentNode) {
    const title = [...(n.children || [])].find((c) => c.tagName.toLowerCase() === "title");
    if (title) return title.textContent;
  }
  return "";
}

// A long run of amounts of one move (bids, miles): one checked number field with − and
// +, and a button that plays the amount chosen. The table's and the lessons': `o.pick(n)`
// is the move of amount n (or nothing), `o.show(button, move)` writes it on the button,
// `o.play(move)` sends it, `o.blocked()` says a move is on its way, `o.typed(n)` keeps
// what was typed.
function amountField(head, amounts, start, o) {
  const steps = amounts.slice(1).map((a, i) => a - amounts[i]);
  const step = steps.length ? steps.reduce((g, d) => { let a = g, b = d; while (b) [a, b] = [b, a % b]; return a; }) : 1;
  const lo = amounts[0], hi = amounts[amounts.length - 1];
  const id = "amount-" + head.replace(/\W+/g, "-");
  const input = el("input", { type: "number", id, class: "amount", min: lo, max: hi, step, value: start, inputmode: "numeric" });
  // The range in the page's number format ("20.000" in Dutch and German).
  const num = new Intl.NumberFormat(document.documentElement.lang || "en");
  const label = el("label", { for: id, text: t("Amount ({min} to {max})", { min: num.format(lo), max: num.format(hi) }) });
  const words = el("span", { class: "amount-words", "aria-live": "polite" });
  const go = el("button", { class: "move", disabled: o.blocked() });
  const current = () => o.pick(Number(input.value));
  const update = () => {
    if (o.typed) o.typed(Number(input.value));
    const m = current();
    input.setAttribute("aria-invalid", m ? "false" : "true");
    go.disabled = !m || o.blocked();
    words.textContent = m ? "" : t("Not an amount you may choose");
    o.show(go, m);
  };
  const nudge = (dir) => {
    const v = Number(input.value);
    const next = dir > 0 ? amounts.find((a) => a > v) : [...amounts].reverse().find((a) => a < v);
    if (next !== undefined) { input.value = next; update(); }
  };
  input.addEventListener("input", update);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); if (current()) o.play(current()); } });
  go.addEventListener("click", () => { const m = current(); if (m) o.play(m); });
  update();
  return el("span", { class: "move-group stepper", "data-amounts": JSON.stringify(amounts) },
    label,
    // Less, the amount and more wrap as one: a + alone on the next line reads as a move.
    el("span", { class: "amount-set" },
      el("button", { class: "nudge", "aria-label": t("Less"), onclick: () => nudge(-1) }, "−"),
      input,
      el("button", { class: "nudge", "aria-label": t("More"), onclick: () => nudge(1) }, "+")),
    go, words);
}

const Me = {
  // A random identity kept by this browser: the server rates players by it.
  player() {
    let id = localStorage.getItem("tianxia.player");
    if (!id) {
      id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem("tianxia.player", id);
    }
    return id;
  },
  name() { return localStorage.getItem("tianxia.name") || ""; },
  setName(name) { if (name) localStorage.setItem("tianxia.name", name); },
  seats(gameId) {
    const all = JSON.parse(localStorage.getItem("tianxia.seats") || "{}");
    return all[gameId] || {};
  },
  keep(gameId, seat, secret) {
    const all = JSON.parse(localStorage.getItem("tianxia.seats") || "{}");
    all[gameId] = Object.assign(all[gameId] || {}, { [seat]: secret });
    localStorage.setItem("tianxia.seats", JSON.stringify(all));
  },
};

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const r = await fetch(path, init);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    let why = data.detail;
    if (Array.isArray(why)) why = why.map((d) => d.msg).join("; ");
    throw new Error(why || r.statusText);
  }
  return data;
}

async function join(gameId, seat) {
  const name = Me.name() || "P" + (Number(seat) + 1);
  const r = await api(`/api/games/${gameId}/join`, { seat: Number(seat), name, player: Me.player() });
  Me.keep(gameId, r.seat, r.secret);
  return r;
}

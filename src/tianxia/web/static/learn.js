// A title's lessons: each sets up a position and asks for one move, played on the title's
// own board with the table's pick-then-place (docs/web.md). The server judges every move
// with the engine; this page knows no rule. Which lessons are done is kept in this
// browser (localStorage).
"use strict";

const root = document.getElementById("learn");
const gameName = root.dataset.name;
const $ = (id) => document.getElementById(id);
const LESSONS = JSON.parse($("lessons-data").textContent);
const STORE = "tianxia.lessons." + gameName;

let current = null; // the lesson on the board
let view = null; // the server's last answer for it
let picked = null; // the data-pick key selected on the board
let busy = false;

const progress = {
  done() { try { return new Set(JSON.parse(localStorage.getItem(STORE) || "[]")); } catch { return new Set(); } },
  add(id) { const d = progress.done(); d.add(id); localStorage.setItem(STORE, JSON.stringify([...d])); },
  clear() { localStorage.removeItem(STORE); },
};

function drawProgress() {
  const done = progress.done();
  for (const mark of document.querySelectorAll("[data-mark]")) {
    const ok = done.has(mark.dataset.mark);
    mark.textContent = ok ? t("done") : "";
    mark.classList.toggle("done", ok);
  }
  $("lesson-progress").textContent = t("{done} of {all} lessons done", { done: String(LESSONS.filter((l) => done.has(l.id)).length), all: String(LESSONS.length) });
}

async function ask(played, move) {
  const r = await fetch(`/api/learn/${gameName}/${current.id}?lang=${window.LANG}`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ played, move }),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const why = data.detail && (data.detail.reason || data.detail);
    throw new Error(typeof why === "string" ? why : r.statusText);
  }
  return data;
}

async function open(id) {
  current = LESSONS.find((l) => l.id === id) || null;
  if (!current) { $("lesson").hidden = true; return; }
  picked = null;
  view = null;
  delete $("board").dataset.lesson;
  $("lesson").hidden = false;
  $("lesson-h").textContent = current.title;
  $("lesson-explanation").textContent = current.explanation;
  $("lesson-task").textContent = current.task;
  $("lesson-rules").replaceChildren(t("Rules taught:"), " ", ...current.rules.flatMap((r, i) => [i ? ", " : "", el("a", { href: `/rules/${gameName}#${r}`, text: r })]));
  $("lesson-result").replaceChildren();
  $("lesson-hint").replaceChildren();
  $("lesson-next").hidden = true;
  for (const a of document.querySelectorAll("#lesson-list a")) a.toggleAttribute("aria-current", a.dataset.lesson === id);
  try { draw(await ask([], null)); } catch (e) { $("lesson-hint").textContent = e.message; }
  // The lesson stands below how to play and the list: bring it into view.
  $("lesson").scrollIntoView({ block: "start" });
}

function spotActions(spot) {
  try { return JSON.parse(spot.dataset.actions || "[]"); } catch { return []; }
}

function pickSpot(key) {
  if (key === null) return null;
  return [...$("board").querySelectorAll(".spot[data-pick]")].find((s) => s.dataset.pick === key) || null;
}

function wordsOf(action) {
  const l = view && view.legal.find((x) => x.action === action);
  return l ? l.text : action;
}

function draw(v) {
  view = v;
  $("menu").hidden = true;
  $("board").innerHTML = v.board;
  $("board").dataset.lesson = current.id;
  const expected = new Set(v.expected || []);
  // The element of the move the lesson asks for: a place on the board that takes it, or
  // its button when it has none.
  for (const spot of $("board").querySelectorAll(".spot:not([data-pick])")) {
    const hit = spotActions(spot).find((a) => expected.has(a));
    if (hit) spot.setAttribute("data-lesson-expected", hit);
  }
  decorate();
  drawMoves();
  if (v.outcome === "done") finish(v);
}

function decorate() {
  const sel = pickSpot(picked);
  if (!sel) picked = null;
  const mine = new Set(sel ? spotActions(sel) : []);
  for (const spot of $("board").querySelectorAll(".spot")) {
    if (spot.dataset.pick !== undefined) {
      spot.setAttribute("aria-pressed", spot === sel ? "true" : "false");
      spot.classList.toggle("picked", spot === sel);
      spot.classList.add("pickable");
    } else {
      spot.classList.toggle("target", !!sel && spotActions(spot).some((a) => mine.has(a)));
    }
    spot.classList.toggle("busy", busy);
  }
  $("board").classList.toggle("choosing", !!sel);
}

function moveButton(action, onclick) {
  const b = el("button", { class: "move", "data-action": action, onclick }, wordsOf(action));
  if ((view.expected || []).includes(action)) b.setAttribute("data-lesson-expected", action);
  if (busy) b.disabled = true;
  return b;
}

// The moves without a place on the board (and the picked thing's own), in words.
function drawMoves() {
  const v = view;
  const placed = new Set(v.placed || []);
  const sel = pickSpot(picked);
  let rest = v.legal.map((l) => l.action).filter((a) => !placed.has(a));
  if (sel) {
    const onTargets = new Set();
    for (const spot of $("board").querySelectorAll(".spot:not([data-pick])")) for (const a of spotActions(spot)) onTargets.add(a);
    const own = spotActions(sel).filter((a) => !onTargets.has(a));
    rest = [...own, ...rest.filter((a) => !own.includes(a))];
    $("moves-h").textContent = t("{what}: choose where it goes on the board, or a move below", { what: sel.getAttribute("aria-label") || "" });
  } else if (v.outcome === "done") $("moves-h").textContent = "";
  else $("moves-h").textContent = rest.length ? t("Other moves") : t("Your moves are on the board: click a marked piece or place");
  const controls = rest.map((a) => moveButton(a, () => play(a)));
  if (sel) controls.unshift(el("button", { class: "unpick", onclick: () => { picked = null; decorate(); drawMoves(); } }, t("Put it back")));
  $("moves").replaceChildren(...controls);
}

function activate(spot) {
  if (!view || busy || view.outcome === "done") return;
  if (spot.dataset.pick !== undefined) {
    picked = picked === spot.dataset.pick ? null : spot.dataset.pick;
    decorate();
    drawMoves();
    return;
  }
  let actions = spotActions(spot);
  const sel = pickSpot(picked);
  if (sel) {
    const mine = new Set(spotActions(sel));
    const both = actions.filter((a) => mine.has(a));
    if (both.length) actions = both;
  }
  if (!actions.length) return;
  if (actions.length === 1) play(actions[0]);
  else menu(actions, spot.getAttribute("aria-label"));
}

function menu(actions, label) {
  const box = $("menu");
  $("menu-h").textContent = label || t("Which move?");
  // While the question is open its buttons, not the board, carry the lesson's move.
  for (const s of $("board").querySelectorAll("[data-lesson-expected]")) s.removeAttribute("data-lesson-expected");
  $("menu-items").replaceChildren(...actions.map((a) => moveButton(a, () => { box.hidden = true; play(a); })));
  $("menu-cancel").textContent = t("Cancel");
  $("menu-cancel").onclick = () => { box.hidden = true; draw(view); };
  box.hidden = false;
  box.querySelector("button").focus();
}

async function play(action) {
  if (busy || !view) return;
  busy = true;
  picked = null;
  decorate();
  const before = view;
  try {
    const v = await ask(before.played, action);
    if (v.outcome === "hint") {
      $("lesson-hint").replaceChildren(hint(v));
      busy = false;
      draw(v);
      return;
    }
    $("lesson-hint").replaceChildren();
    busy = false;
    draw(v);
  } catch (e) {
    busy = false;
    $("lesson-hint").replaceChildren(t("Not possible: {reason}", { reason: e.message }));
    draw(before);
  }
}

function hint(v) {
  const box = el("div", { "data-lesson-hint": "" });
  box.append(el("p", { text: t("Not this time: {move}", { move: v.tried || "" }) }));
  box.append(el("p", { text: v.hint }));
  const rules = el("p", {}, t("Rules taught:"), " ");
  current.rules.forEach((r, i) => { if (i) rules.append(", "); rules.append(el("a", { href: `/rules/${gameName}#${r}`, text: r })); });
  box.append(rules);
  return box;
}

function finish(v) {
  progress.add(current.id);
  drawProgress();
  const box = el("div", { "data-lesson-done": "" });
  box.append(el("h3", { text: t("Well played") }));
  box.append(el("p", { text: v.result }));
  $("lesson-result").replaceChildren(box);
  const i = LESSONS.findIndex((l) => l.id === current.id);
  $("lesson-next").hidden = i < 0 || i + 1 >= LESSONS.length;
}

$("board").addEventListener("click", (e) => {
  const spot = e.target.closest && e.target.closest(".spot");
  if (spot && $("board").contains(spot)) activate(spot);
});
$("board").addEventListener("keydown", (e) => {
  const spot = e.target.closest && e.target.closest(".spot");
  if (spot && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); activate(spot); }
});
function detail(spot) {
  if (!spot || !view) return;
  const actions = spotActions(spot);
  let text = spot.getAttribute("aria-label") || "";
  if (actions.length === 1) text += ": " + wordsOf(actions[0]);
  $("details").textContent = text;
}
$("board").addEventListener("focusin", (e) => detail(e.target.closest && e.target.closest(".spot")));
$("board").addEventListener("pointerover", (e) => detail(e.target.closest && e.target.closest(".spot")));

$("lesson-again").addEventListener("click", () => current && open(current.id));
$("lesson-next").addEventListener("click", () => {
  const i = LESSONS.findIndex((l) => l.id === current.id);
  if (i >= 0 && i + 1 < LESSONS.length) location.hash = LESSONS[i + 1].id;
});
$("lesson-reset").addEventListener("click", () => { progress.clear(); drawProgress(); });
window.addEventListener("hashchange", () => open(decodeURIComponent(location.hash.slice(1))));

drawProgress();
if (location.hash.length > 1) open(decodeURIComponent(location.hash.slice(1)));

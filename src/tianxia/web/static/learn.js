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
  const r = await request("POST", `/api/learn/${gameName}/${current.id}?lang=${window.LANG}`, { played, move });
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
  $("board").dataset.played = String(v.played.length);
  decorate();
  drawMoves();
  if (v.outcome === "done") finish(v);
}

function intoActions(spot) {
  try { return JSON.parse(spot.dataset.into || "[]"); } catch { return []; }
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
      // A picked thing's moves may go to another thing one could pick (a province units
      // move into): that one is its target too.
      spot.classList.toggle("target", !!sel && spot !== sel && intoActions(spot).some((a) => mine.has(a)));
    } else {
      spot.classList.toggle("target", !!sel && spotActions(spot).some((a) => mine.has(a)));
    }
    spot.classList.toggle("busy", busy);
  }
  $("board").classList.toggle("choosing", !!sel);
  markExpected(sel);
}

// The element to press next for the move the lesson asks for: the place on the board
// that takes it; when it is played by picking first, the thing to pick, then its place;
// its button when it has no place (moveButton marks those).
function markExpected(sel) {
  const board = $("board");
  for (const s of board.querySelectorAll("[data-lesson-expected]")) s.removeAttribute("data-lesson-expected");
  const expected = new Set((view && view.expected) || []);
  if (!expected.size) return;
  const mark = (spot, actions) => {
    const hit = actions.find((a) => expected.has(a));
    if (hit) spot.setAttribute("data-lesson-expected", hit);
    return !!hit;
  };
  const mine = sel ? spotActions(sel).filter((a) => expected.has(a)) : [];
  if (mine.length) {
    // The right thing is picked: its place (or, with none, its button, which moveButton
    // marks).
    const held = new Set(mine);
    for (const spot of board.querySelectorAll(".spot")) {
      if (spot === sel) continue;
      const here = spot.dataset.pick !== undefined ? intoActions(spot) : spotActions(spot);
      mark(spot, here.filter((a) => held.has(a)));
    }
    return;
  }
  let direct = false;
  for (const spot of board.querySelectorAll(".spot:not([data-pick])")) direct = mark(spot, spotActions(spot)) || direct;
  if (direct) return;
  for (const spot of board.querySelectorAll(".spot[data-pick]")) mark(spot, spotActions(spot));
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
    for (const spot of $("board").querySelectorAll(".spot[data-into]")) for (const a of intoActions(spot)) onTargets.add(a);
    const own = spotActions(sel).filter((a) => !onTargets.has(a));
    rest = [...own, ...rest.filter((a) => !own.includes(a))];
    $("moves-h").textContent = t("{what}: choose where it goes on the board, or a move below", { what: sel.getAttribute("aria-label") || "" });
  } else if (v.outcome === "done") $("moves-h").textContent = "";
  else $("moves-h").textContent = rest.length ? t("Other moves") : t("Your moves are on the board: click a marked piece or place");
  // A finished lesson has no moves: the box goes, not left as an unnamed region.
  $("moves-box").hidden = v.outcome === "done";
  const controls = moveControls(rest);
  if (v.outcome !== "done" && v.legal.length) controls.push(MoveHelp.control(gameName, v.legal));
  if (sel) controls.unshift(el("button", { class: "unpick", onclick: () => { picked = null; decorate(); drawMoves(); } }, t("Put it back")));
  $("moves").replaceChildren(...controls);
}

// A number at the end of a move ("bid 400", "advance 3"): many of one kind become one
// number field with the legal amounts, as at the table.
const AMOUNT = /^(.*\S)\s+([+-]?\d+)$/;
const MANY = 8;

function moveControls(moves) {
  const groups = new Map();
  for (const a of moves) {
    const m = AMOUNT.exec(a);
    const key = m ? "#" + m[1] : "=" + a;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(a);
  }
  const out = [];
  for (const [key, list] of groups) {
    if (key.startsWith("#") && list.length > MANY) out.push(stepper(key.slice(1), list));
    else for (const a of list) out.push(moveButton(a, () => play(a)));
  }
  return out;
}

function stepper(head, list) {
  const amountOf = (a) => Number(AMOUNT.exec(a)[2]);
  const byAmount = new Map(list.map((a) => [amountOf(a), a]));
  // The task names the amount it asks for: the field starts there, so the lesson's move
  // is one press away, as its other moves are one click.
  const asked = list.find((a) => (view.expected || []).includes(a));
  const amounts = list.map(amountOf).sort((x, y) => x - y);
  return amountField(head, amounts, asked ? amountOf(asked) : amounts[0], {
    pick: (n) => byAmount.get(n),
    blocked: () => !!busy,
    play: (a) => play(a),
    show: (go, a) => {
      go.textContent = a ? wordsOf(a) : head;
      go.dataset.action = a || "";
      go.toggleAttribute("data-lesson-expected", false);
      if (a && (view.expected || []).includes(a)) go.setAttribute("data-lesson-expected", a);
    },
  });
}

function activate(spot) {
  if (!view || busy || view.outcome === "done") return;
  const held = pickSpot(picked);
  const mineHeld = new Set(held ? spotActions(held) : []);
  const arriving = held && held !== spot ? intoActions(spot).filter((a) => mineHeld.has(a)) : [];
  if (arriving.length) {
    // Another thing is picked and its moves go here: this is its place, not a new pick.
    if (arriving.length === 1) play(arriving[0]);
    else menu(arriving, spot.getAttribute("aria-label"));
    return;
  }
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
  // Anything drawn says what it is when tapped, not only under a mouse: a piece, a
  // border, a marker, the deck (its SVG title).
  else $("details").textContent = drawnTitle(e.target, $("board"));
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

// How to play's components, each drawn on its own: the part of the worked example's board
// (drawn by the title's renderer) that shows it, cut out by its elements' places. The
// cut-outs are pictures only: their spots lose their roles, focus and ids.
async function drawComponents() {
  const figures = [...document.querySelectorAll("figure.component[data-crop]")];
  if (!figures.length) return;
  const lang = encodeURIComponent(window.LANG || document.documentElement.lang || "en");
  const boards = new Map(); // lesson -> its board's SVG text
  for (const figure of figures) {
    const lesson = figure.dataset.lesson || "";
    if (!boards.has(lesson)) {
      const r = await fetch(`/learn/${gameName}/example.svg?lang=${lang}&lesson=${encodeURIComponent(lesson)}`);
      boards.set(lesson, r.ok ? await r.text() : "");
    }
    const box = figure.querySelector(".crop");
    box.innerHTML = boards.get(lesson);
    const svg = box.querySelector("svg");
    if (!svg) continue;
    let parts = [];
    try { parts = [...svg.querySelectorAll(figure.dataset.crop)]; } catch { parts = []; }
    const whole = svg.getBoundingClientRect();
    const view = svg.viewBox.baseVal;
    if (!parts.length || !whole.width || !view || !view.width) { box.replaceChildren(); continue; }
    const scale = view.width / whole.width;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const p of parts) {
      const b = p.getBoundingClientRect();
      if (!b.width && !b.height) continue;
      x0 = Math.min(x0, b.left); y0 = Math.min(y0, b.top); x1 = Math.max(x1, b.right); y1 = Math.max(y1, b.bottom);
    }
    if (x0 === Infinity) { box.replaceChildren(); continue; }
    const pad = 6;
    const x = view.x + (x0 - whole.left) * scale - pad, y = view.y + (y0 - whole.top) * scale - pad;
    const w = (x1 - x0) * scale + 2 * pad, h = (y1 - y0) * scale + 2 * pad;
    svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
    // At most 220 by 160 CSS px, in the part's own proportions (no neighbour shows beside it).
    const fit = Math.min(220 / w, 160 / h);
    svg.setAttribute("width", String(Math.round(w * fit)));
    svg.setAttribute("height", String(Math.round(h * fit)));
    svg.setAttribute("class", "cutout");
    svg.removeAttribute("role");
    svg.removeAttribute("aria-label");
    for (const e of svg.querySelectorAll("[tabindex], [role], [id], [aria-label], [aria-pressed]")) {
      for (const a of ["tabindex", "role", "id", "aria-label", "aria-pressed"]) e.removeAttribute(a);
    }
  }
}
drawComponents();

// A first game: the easy bot in every other seat, this browser in the first, hints on.
$("first-game").addEventListener("click", async () => {
  const players = Number($("first-game").dataset.players) || 2;
  const seats = ["open", ...Array(players - 1).fill("bot:easy")];
  try {
    const g = await api("/api/games", { game: gameName, players, seats });
    const r = await api(`/api/games/${g.id}/join`, { seat: 0, name: Me.name() || t("You"), player: Me.player() });
    Me.keep(g.id, r.seat, r.secret);
    MoveHelp.setHints(g.id, true);
    location.href = `/games/${g.id}`;
  } catch (e) {
    $("first-game-error").textContent = e.message;
  }
});

drawProgress();
if (location.hash.length > 1) open(decodeURIComponent(location.hash.slice(1)));

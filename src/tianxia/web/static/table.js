// A game's table: one websocket per seat this browser holds (several: hotseat), or one
// as a spectator. Everything shown comes from the server's view messages; the page
// knows no rule of any game.
//
// The interaction rules every title follows (docs/web.md):
// - pick then place: a spot with `data-pick` (a card in hand, a piece) is selected by a
//   click and never plays by itself; the targets its moves go to are marked, its moves
//   without a target are buttons; a click on a target plays the one move there (or asks
//   which, in words);
// - a move the server marks with `confirm` asks first, in words;
// - a control is disabled while its move is on the way, so a double click plays once;
// - the board is morphed, not replaced, so a piece keeps its element and CSS moves it.
"use strict";

const root = document.getElementById("table");
const gameId = root.dataset.game;
const gameName = root.dataset.name;
const $ = (id) => document.getElementById(id);

// A seat link (`/games/ID#s=SECRET`) lets a player return from any device.
const fromLink = new URLSearchParams(location.hash.slice(1)).get("s");
const conns = new Map(); // key: seat number or "spectator"
let shown = null; // the key whose view is on screen
let curtainFor = null; // hotseat: the seat waiting behind the hand-over screen
let lastMsg = null;
const events = new Map(); // key -> list of events
let chat = [];
let picked = null; // the data-pick key selected on the board
const PACE_MS = 450; // views that arrive together are shown this far apart

const prefs = {
  get(name) { return localStorage.getItem("tianxia." + name) === "1"; },
  set(name, on) { localStorage.setItem("tianxia." + name, on ? "1" : "0"); },
};

function held() { return Me.seats(gameId); }

// Ids for actions and undos: random, never the clock (two tabs share a clock).
function newId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// `byAccount`: a seat of the signed-in account, which the socket's session cookie names
// (no secret on this device: the seat was taken on another).
function connect(key, secret, byAccount) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const c = { key, secret, ws: null, view: null, seq: 0, tries: 0, queue: [], shownAt: 0, timer: null, busy: null };
  conns.set(key, c);
  // A hello again on the open socket is a word from the seat: a stand-in playing it
  // steps aside (docs/server.md, "Clocks").
  c.greet = () => {
    const hello = { type: "hello", last_seq: c.seq, board: true, lang: window.LANG || document.documentElement.lang, player: Me.player() };
    if (secret) hello.secret = secret; else if (byAccount) hello.seat = key; else hello.spectator = true;
    c.ws.send(JSON.stringify(hello));
  };
  const open = () => {
    c.ws = new WebSocket(`${proto}://${location.host}/ws/games/${gameId}`);
    c.ws.onopen = () => {
      c.tries = 0;
      c.greet();
    };
    c.ws.onmessage = (ev) => receive(c, JSON.parse(ev.data));
    c.ws.onclose = (ev) => {
      if (c.closed) return;
      c.busy = null;
      if (ev.code === 1012) {
        // The server process is restarting and said so (Service Restart): another
        // serves the game already. At once and without a word: nothing went wrong, and
        // the hello with the last seq brings the view up to date.
        c.tries = 0;
        open();
        return;
      }
      // Exponential back-off with jitter: a restarted server is not met by every page
      // at the same instant.
      const wait = Math.min(15000, 500 * 2 ** c.tries) * (0.7 + Math.random() * 0.6);
      c.tries += 1;
      status(t("Connection lost: reconnecting"));
      setTimeout(open, wait);
    };
  };
  open();
  return c;
}

function receive(c, msg) {
  if (msg.type === "view") {
    if (msg.seat !== null && msg.seat !== undefined && c.secret && c.key !== msg.seat) {
      // A seat link: now we know which seat its secret holds.
      Me.keep(gameId, msg.seat, c.secret);
      conns.delete(c.key); c.key = msg.seat; conns.set(msg.seat, c);
    }
    // The log grows by the events after `since`; it is cut back when an undo took
    // events away or the end sends it whole. A view waiting in the queue shows the log
    // as long as it was when that view came.
    let list = events.get(c.key);
    if (!list || msg.since === 0 || msg.since < list.length) {
      list = (list && msg.since > 0 ? list.slice(0, msg.since) : []);
      events.set(c.key, list);
      for (const q of c.queue) q.logLength = Math.min(q.logLength, list.length);
    }
    list.push(...msg.events);
    msg.logLength = list.length;
    // The server's clock against the page's, as this view arrived: the clocks count on
    // from the server's `now` however far the page's own clock is off.
    if (msg.clock && typeof msg.clock.now === "number") msg.clockOffset = msg.clock.now - Date.now() / 1000;
    // Sent once, in the first view after a stand-in played for this seat: kept until the
    // player dismisses it, whichever view is on screen.
    if (msg.away && msg.away.moves > 0) showAway(msg.away);
    // The board comes whole, or as a patch of the last one this socket was sent.
    if (msg.board_patch) msg.board = patchBoard(c.boardText || "", msg.board_patch);
    if (typeof msg.board === "string") c.boardText = msg.board;
    c.seq = msg.seq;
    c.queue.push(msg);
    pump(c);
  } else if (msg.type === "refused") {
    c.busy = null;
    // A race lost to a move that came first: the next view shows where the game is.
    if (msg.code === "stale" || msg.code === "conflict") { redrawControls(); return; }
    refusal(msg);
    redrawControls();
  } else if (msg.type === "error") {
    if (msg.code === "unknown_secret") {
      c.closed = true; c.ws.close(); conns.delete(c.key);
      $("refusal").textContent = t("This seat's link is not valid any more: you watch the game as a spectator.");
      if (!conns.size) connect("spectator", null);
      return;
    }
    c.busy = null;
    $("refusal").textContent = msg.reason;
    redrawControls();
  } else if (msg.type === "accepted" || msg.type === "undone") {
    $("refusal").replaceChildren();
  } else if (msg.type === "chat") {
    if (c.key === firstKey()) { chat.push(msg); drawChat(); }
  }
}

// Bots' moves arrive faster than a person can follow: views that come together are
// shown one after another, PACE_MS apart, the last (your turn, say) too. The answer to
// this viewer's own move is never held back; a backlog longer than BACKLOG views drops
// its oldest (their log lines stay), so nobody waits more than a couple of seconds; a
// tab in the background, or "Fast mode", shows the newest at once.
const BACKLOG = 4;

function pump(c) {
  if (c.timer) return;
  while (c.queue.length) {
    const fast = !c.view || !!c.busy || document.hidden || prefs.get("fast");
    const drop = fast ? c.queue.length - 1 : c.queue.length - BACKLOG;
    if (drop > 0) c.queue.splice(0, drop); // the newest's log holds theirs
    const wait = c.shownAt + PACE_MS - Date.now();
    if (wait > 0 && !fast) {
      c.timer = setTimeout(() => { c.timer = null; pump(c); }, wait);
      return;
    }
    const next = c.queue.shift();
    const before = c.view;
    c.view = next;
    c.busy = null;
    c.shownAt = Date.now();
    choose();
    noticeTurn(c, before, next);
  }
}

// Tags of the board's SVG, cut as the server cuts them (web/tableview.py): a number
// keeps that many of the old board's tags, a negative one drops them, text is new.
function patchBoard(old, ops) {
  const tags = old.match(/[^>]*>|[^>]+$/g) || [];
  const out = [];
  let i = 0;
  for (const op of ops) {
    if (typeof op === "string") out.push(op);
    else if (op > 0) { for (let k = 0; k < op; k++) out.push(tags[i + k]); i += op; }
    else i -= op;
  }
  return out.join("");
}

function firstKey() { return conns.keys().next().value; }

// Which view to show: the held seat that decides now, else the one shown before.
function choose() {
  const deciding = [...conns.values()].find((c) => c.view && c.view.legal.length);
  let key = deciding ? deciding.key : shown ?? firstKey();
  if (!conns.has(key)) key = firstKey();
  const seatsHeld = [...conns.keys()].filter((k) => k !== "spectator");
  if (seatsHeld.length > 1 && deciding && shown !== null && key !== shown && curtainFor !== key) {
    curtainFor = key; // hotseat: hide the last hand before the next person looks
    shown = null;
  }
  if (curtainFor !== null) return drawCurtain();
  if (shown !== key) picked = null;
  shown = key;
  draw(conns.get(key));
}

function drawCurtain() {
  const v = conns.get(curtainFor).view;
  const name = seatName(v, curtainFor);
  $("board").replaceChildren();
  $("moves").replaceChildren();
  $("details").textContent = "";
  $("curtain").hidden = false;
  $("curtain-text").textContent = t("Pass the device to {name}", { name });
  $("curtain-go").textContent = t("I am {name}: show my hand", { name });
  $("curtain-go").onclick = () => { $("curtain").hidden = true; shown = curtainFor; curtainFor = null; choose(); };
  $("curtain-go").focus();
}

function seatName(v, seat) {
  const s = v && v.seats ? v.seats.find((x) => x.seat === seat) : null;
  return s ? s.name : "P" + (Number(seat) + 1);
}

// A seat's swatch: its colour and shape, as its pieces on the board.
function swatch(seat) {
  return el("span", { class: "swatch seat" + seat, "aria-hidden": "true", text: String(Number(seat) + 1) });
}

// Engine sentences name seats "P1".."P7": the page writes each seat's one name, with
// its swatch, so the log, the chat and the board agree.
function withNames(text, v) {
  const frag = document.createDocumentFragment();
  const n = v && v.seats ? v.seats.length : 7;
  let at = 0;
  for (const m of String(text).matchAll(/\bP([1-7])\b/g)) {
    const seat = Number(m[1]) - 1;
    if (seat >= n) continue;
    frag.append(String(text).slice(at, m.index));
    frag.append(el("span", { class: "who" }, swatch(seat), seatName(v, seat)));
    at = m.index + m[0].length;
  }
  frag.append(String(text).slice(at));
  return frag;
}

function status(text) { $("status").textContent = text; }

function entryOf(v, action) { return v.legal.find((x) => x.action === action); }
function wordsOf(v, action) { const l = entryOf(v, action); return l ? (l.text || l.explain || action) : action; }

// Plays `action`, asking first when the server says the move deserves a question.
function play(c, action) {
  if (c.busy || !c.view) return;
  const l = entryOf(c.view, action);
  if (!l) return;
  if (l.confirm) {
    ask(l.confirm, wordsOf(c.view, action), () => send(c, action));
    return;
  }
  send(c, action);
}

function send(c, action) {
  if (c.busy || !c.ws || c.ws.readyState !== WebSocket.OPEN) return;
  c.busy = action;
  picked = null;
  typedAmounts.clear();
  // From here to the next "tianxia-drawn": what benchmarks/web measures.
  performance.clearMarks("tianxia-send");
  performance.clearMarks("tianxia-drawn");
  performance.mark("tianxia-send");
  $("refusal").replaceChildren();
  c.ws.send(JSON.stringify({ type: "act", action_id: newId(), expected_seq: c.view.seq, action }));
  redrawControls();
}

function refusal(msg) {
  const box = $("refusal");
  box.replaceChildren(t("Not possible: {reason}", { reason: msg.reason }));
  const rule = msg.rule || "";
  if (rule && !/^(SERVER|ENGINE|TABLE)-/.test(rule)) {
    box.append(" ", el("a", { href: `/rules/${gameName}#${rule}`, target: "_blank", text: t("rule {rule}", { rule }) }));
  }
}

// A question or menu gives the keyboard back to what opened it when it closes, as any
// modal dialog does (or to the board, when a new view took that away).
let opener = null;
function closeDialog(box) {
  if (box.hidden) return;
  box.hidden = true;
  if (!box.contains(document.activeElement) && document.activeElement !== document.body) return;
  if (opener && opener.isConnected && !opener.disabled) opener.focus();
  else keepFocus();
}

function ask(question, what, yes) {
  const box = $("confirm");
  const c = conns.get(shown);
  if (!$("menu").contains(document.activeElement)) opener = document.activeElement;
  $("confirm-text").replaceChildren(withNames(question + (what ? " (" + what + ")" : ""), c && c.view));
  $("confirm-yes").textContent = t("Play this move");
  $("confirm-no").textContent = t("Cancel");
  const close = () => closeDialog(box);
  $("confirm-yes").onclick = () => { close(); yes(); };
  $("confirm-no").onclick = close;
  box.hidden = false;
  $("confirm-no").focus();
}

function menu(c, actions, label) {
  const box = $("menu");
  opener = document.activeElement;
  $("menu-h").textContent = label || t("Which move?");
  $("menu-items").replaceChildren(...actions.map((a) => moveButton(c, entryOf(c.view, a) || { action: a }, () => { closeDialog(box); play(c, a); })));
  $("menu-cancel").textContent = t("Cancel");
  $("menu-cancel").onclick = () => closeDialog(box);
  box.hidden = false;
  box.querySelector("button").focus();
}

function moveButton(c, l, onclick) {
  const b = el("button", { class: "move", "data-action": l.action, onclick }, withNames(l.text || l.explain || l.action, c.view));
  if (prefs.get("notation")) b.append(" ", el("code", { class: "notation", text: l.action }));
  if (l.confirm) b.classList.add("asks");
  if (c.busy) b.disabled = true;
  return b;
}

// --- the board ------------------------------------------------------------------------
function spotActions(spot) {
  try { return JSON.parse(spot.dataset.actions || "[]"); } catch { return []; }
}

// A pick that is a place too (a province that sends and receives units): the moves
// that go there.
function intoActions(spot) {
  try { return JSON.parse(spot.dataset.into || "[]"); } catch { return []; }
}

function pickSpot(key) {
  if (key === null) return null;
  return [...$("board").querySelectorAll(".spot[data-pick]")].find((s) => s.dataset.pick === key) || null;
}

function activate(spot) {
  const c = conns.get(shown);
  if (!c || !c.view || c.busy || curtainFor !== null) return;
  const held = pickSpot(picked);
  const mineHeld = new Set(held ? spotActions(held) : []);
  const arriving = held && held !== spot ? intoActions(spot).filter((a) => mineHeld.has(a)) : [];
  if (arriving.length) {
    // Another thing is picked and its moves go here: this is its place, not a new pick.
    if (arriving.length === 1) play(c, arriving[0]);
    else menu(c, arriving, spot.getAttribute("aria-label"));
    return;
  }
  if (spot.dataset.pick !== undefined) {
    picked = picked === spot.dataset.pick ? null : spot.dataset.pick;
    decorate(c);
    drawMoves(c);
    detail(spot);
    if (picked !== null) showTargets();
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
  if (actions.length === 1) play(c, actions[0]);
  else menu(c, actions, spot.getAttribute("aria-label"));
}

// A thing picked where none of its places is on screen (China's hand lies under the
// map): the page brings the nearest of them into view, between the players' strip and
// the moves' bar, so the player sees where it may go.
function showTargets() {
  const targets = [...$("board").querySelectorAll(".spot.target")];
  if (!targets.length) return;
  const top = $("players").getBoundingClientRect().bottom;
  const bar = $("moves-box");
  const bottom = bar.hidden ? innerHeight : Math.min(innerHeight, bar.getBoundingClientRect().top);
  const boxes = targets.map((t) => t.getBoundingClientRect());
  if (boxes.some((b) => b.bottom > top && b.top < bottom)) return;
  const middle = (top + bottom) / 2;
  const dist = (b) => Math.abs((b.top + b.bottom) / 2 - middle);
  const near = boxes.reduce((best, b, i) => (dist(b) < dist(boxes[best]) ? i : best), 0);
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  scrollBy({ top: (boxes[near].top + boxes[near].bottom) / 2 - middle, behavior: still ? "auto" : "smooth" });
}

// Marks on the board: the picked thing, the targets its moves go to, the busy state.
function decorate(c) {
  const board = $("board");
  const sel = pickSpot(picked);
  if (!sel) picked = null;
  const mine = new Set(sel ? spotActions(sel) : []);
  for (const spot of board.querySelectorAll(".spot")) {
    const isPick = spot.dataset.pick !== undefined;
    if (isPick) {
      spot.setAttribute("aria-pressed", spot === sel ? "true" : "false");
      spot.classList.toggle("picked", spot === sel);
      spot.classList.add("pickable");
      spot.classList.toggle("target", !!sel && spot !== sel && intoActions(spot).some((a) => mine.has(a)));
    } else {
      spot.classList.toggle("target", !!sel && spotActions(spot).some((a) => mine.has(a)));
    }
    spot.classList.toggle("busy", !!c.busy);
    spot.setAttribute("aria-disabled", c.busy ? "true" : "false");
  }
  board.classList.toggle("choosing", !!sel);
}

function drawBoard(v) {
  const box = $("board");
  const svg = v.board || "";
  if (window.Idiomorph && box.firstElementChild) {
    // Elements keep their identity (by id) across views: CSS moves and fades them.
    Idiomorph.morph(box, svg, { morphStyle: "innerHTML" });
  } else {
    box.innerHTML = svg;
  }
  forgetStaleDetail();
}

// One listener for the board, whatever the morph keeps or replaces.
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
  else if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Home", "End"].includes(e.key) && !e.altKey && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    walkBoard(spot, e.key);
  }
});
// What a spot's title tells a mouse, a tap or the keyboard's focus tells too.
function detail(spot) {
  const c = conns.get(shown);
  if (!spot || !c || !c.view) return;
  const actions = spotActions(spot);
  let text = spot.getAttribute("aria-label") || "";
  if (actions.length === 1) text += ": " + wordsOf(c.view, actions[0]) + (prefs.get("notation") ? ` [${actions[0]}]` : "");
  else if (actions.length > 1 && spot.dataset.pick === undefined) text += " · " + tn("{n} move", "{n} moves", actions.length, { n: actions.length });
  $("details").replaceChildren(withNames(text, c.view));
  detailOf = { id: spot.id, actions: spot.dataset.actions };
}
// The spot the line under the board tells of: a view in which it is gone, or offers
// other moves, empties the line, so it never describes a move that is no longer there.
let detailOf = null;
function forgetStaleDetail() {
  if (!detailOf) return;
  const spot = detailOf.id && document.getElementById(detailOf.id);
  if (spot && spot.classList.contains("spot") && spot.dataset.actions === detailOf.actions) return;
  $("details").textContent = "";
  detailOf = null;
}
$("board").addEventListener("focusin", (e) => detail(e.target.closest && e.target.closest(".spot")));
$("board").addEventListener("pointerover", (e) => detail(e.target.closest && e.target.closest(".spot")));

// --- the keyboard -------------------------------------------------------------------------
// Where the keyboard was at the table: a board spot (by id or pick), a move (by action),
// or the board. A view's morph or a move's disabled button can take the focused element
// away; the keyboard then comes back to the same thing, or to the board, never to the
// page's start. Only after keys: a mouse's clicks leave the focus where they put it.
let usingKeys = false;
let focusWas = null;
document.addEventListener("keydown", () => { usingKeys = true; }, true);
document.addEventListener("pointerdown", () => { usingKeys = false; }, true);
root.addEventListener("focusin", (e) => {
  const el = e.target;
  const spot = el.closest && el.closest(".spot");
  if (spot && $("board").contains(spot)) focusWas = { id: spot.id || null, pick: spot.dataset.pick ?? null };
  else if (el === $("board")) focusWas = { board: true };
  else if ($("moves").contains(el) || $("moves-box").contains(el)) focusWas = { action: el.dataset.action || null, id: el.id || null };
});

function keepFocus() {
  if (!usingKeys || !focusWas) return;
  const now = document.activeElement;
  const lost = !now || now === document.body || !now.isConnected || !!now.closest("[hidden]");
  if (!$("scores-box").hidden && (lost || now === $("board"))) {
    // The game is over: the keyboard goes to what comes next (rematch, replay, lobby).
    const next = $("summary-actions").querySelector("button, a");
    if (next) { next.focus(); return; }
  }
  if (!lost) return;
  if (!$("menu").hidden || !$("confirm").hidden || !$("curtain").hidden) return;
  // The same thing if it is still there and takes the focus (a spot without moves now
  // keeps its id but is no spot), else the board, where the next Tab starts.
  const same = [
    focusWas.id ? document.getElementById(focusWas.id) : null,
    focusWas.pick !== null && focusWas.pick !== undefined ? pickSpot(focusWas.pick) : null,
    focusWas.action ? [...$("moves").querySelectorAll("button:not([disabled])")].find((b) => b.dataset.action === focusWas.action) : null,
  ];
  for (const to of same) {
    if (!to || to.tabIndex < 0 || to.disabled || to.closest("[hidden]")) continue;
    to.focus();
    if (document.activeElement === to) return;
  }
  $("board").focus({ preventScroll: true });
}

// Arrow keys walk the board's spots (Home and End to either end): with a thing picked,
// only it and the places it may go, so a few presses reach any of them.
function walkBoard(from, key) {
  const all = [...$("board").querySelectorAll(".spot")];
  const live = picked !== null ? all.filter((s) => s.classList.contains("picked") || s.classList.contains("target")) : all;
  const list = live.length ? live : all;
  if (!list.length) return;
  let i = list.indexOf(from);
  if (key === "Home") i = 0;
  else if (key === "End") i = list.length - 1;
  else if (key === "ArrowRight" || key === "ArrowDown") i = i < 0 ? 0 : (i + 1) % list.length;
  else i = i < 0 ? list.length - 1 : (i - 1 + list.length) % list.length;
  list[i].focus();
}

// --- drawing a view --------------------------------------------------------------------
function draw(c) {
  const v = c.view;
  if (!v) return;
  lastMsg = v;
  $("curtain").hidden = true;
  $("menu").hidden = true; // its moves belonged to the view this one replaces
  $("confirm").hidden = true;
  const env = v.view;
  drawBoard(v);
  decorate(c);
  drawMoves(c);
  requestAnimationFrame(() => performance.mark("tianxia-drawn"));
  // Whose turn.
  if (v.terminal) status(t("Game over"));
  else if (v.status === "open") status(t("The game waits for every seat to be taken."));
  else if (v.legal.length) status(t("Your turn") + (c.key !== "spectator" ? ` (${seatName(v, c.key)})` : ""));
  else if (typeof env.to_move === "number") status(t("Waiting for {name}", { name: seatName(v, env.to_move) }));
  else status(c.key === "spectator" ? t("Spectating") : "");
  drawPlayers(v, c);
  tick();
  drawSeats(v, c);
  drawLog(v, c);
  drawSummary(v, c);
  drawLinks(c);
  keepFocus();
  $("resign").hidden = c.key === "spectator" || v.terminal || v.status !== "running";
  $("resign").textContent = t("Resign");
  $("resign").onclick = async () => {
    if (!confirm(t("Resign this game? A bot plays your seat to the end."))) return;
    try {
      await api(`/api/games/${gameId}/resign`, seatBody(c));
    } catch (e) {
      $("refusal").textContent = e.message;
    }
  };
  $("log-h").textContent = t("Log");
  $("chat-h").textContent = t("Chat");
  $("chat-send").textContent = t("Send");
  $("chat-box").hidden = c.key === "spectator";
  drawPrefs();
}

function redrawControls() {
  const c = conns.get(shown);
  if (!c || !c.view || curtainFor !== null) return;
  decorate(c);
  drawMoves(c);
  keepFocus();
}

// The moves beside the board: those without a place on it, and those of the picked
// thing that have no target (exchanging a card, say), in words.
function drawMoves(c) {
  const v = c.view;
  const placed = new Set(v.placed || []);
  const sel = pickSpot(picked);
  let rest = v.legal.filter((l) => !placed.has(l.action));
  let heading;
  if (sel) {
    const onTargets = new Set();
    for (const spot of $("board").querySelectorAll(".spot:not([data-pick])")) for (const a of spotActions(spot)) onTargets.add(a);
    for (const spot of $("board").querySelectorAll(".spot[data-into]")) for (const a of intoActions(spot)) onTargets.add(a);
    const own = spotActions(sel).filter((a) => !onTargets.has(a)).map((a) => entryOf(v, a)).filter(Boolean);
    heading = t("{what}: choose where it goes on the board, or a move below", { what: sel.getAttribute("aria-label") || "" });
    rest = [...own, ...rest.filter((l) => !own.includes(l))];
  } else if (!placed.size) heading = t("Moves");
  else heading = rest.length ? t("Other moves") : t("Your moves are on the board: click a marked piece or place");
  $("moves-h").textContent = heading;
  $("moves-h").classList.toggle("hint", placed.size > 0 && !rest.length && !sel);
  const controls = moveControls(c, rest);
  if (v.legal.length && typeof MoveHelp !== "undefined") {
    controls.push(MoveHelp.control(gameName, v.legal));
    const hint = MoveHelp.hintLine(gameId, c.secret, v.seq, () => drawMoves(c));
    if (hint) controls.unshift(hint);
  }
  if (sel) controls.unshift(el("button", { class: "unpick", onclick: () => { picked = null; decorate(c); drawMoves(c); if (usingKeys) sel.focus(); } }, t("Put it back")));
  // A view that changes nothing of the moves (a player connects) must not take the
  // keyboard's place away: the control that had the focus gets it back.
  const had = document.activeElement;
  const focusKey = had && $("moves").contains(had) ? (had.id || had.dataset.action || "") : "";
  $("moves").replaceChildren(...controls);
  if (focusKey) {
    const again = [...$("moves").querySelectorAll("button, input")].find((e) => (e.id || e.dataset.action || "") === focusKey);
    if (again) again.focus();
  }
  $("moves-box").hidden = !v.legal.length;
  $("moves-box").classList.toggle("busy", !!c.busy);
  $("undo").hidden = !v.undo;
  $("undo").disabled = !!c.busy;
  $("undo").textContent = t("Undo");
  $("undo").onclick = () => {
    if (c.busy) return;
    c.busy = "undo";
    c.ws.send(JSON.stringify({ type: "undo", action_id: newId(), expected_seq: v.seq }));
    redrawControls();
  };
}

// A number at the end of a move ("bid 400", "miles white +3"): many of one kind become
// one number field with the legal range, checked against the legal amounts.
const AMOUNT = /^(.*\S)\s+([+-]?\d+)$/;
const MANY = 8;

function moveControls(c, moves) {
  const groups = new Map();
  const order = [];
  for (const l of moves) {
    const m = AMOUNT.exec(l.action);
    const key = m ? "#" + m[1] : "=" + l.action;
    if (!groups.has(key)) { groups.set(key, []); order.push(key); }
    groups.get(key).push(l);
  }
  const out = [];
  for (const key of order) {
    const list = groups.get(key);
    if (key.startsWith("#") && list.length > MANY) out.push(stepper(c, key.slice(1), list));
    else for (const l of list) out.push(moveButton(c, l, () => play(c, l.action)));
  }
  return out;
}

// What was typed in an amount field, kept while views come and redraw the field.
const typedAmounts = new Map();

function stepper(c, head, list) {
  const byAmount = new Map(list.map((l) => [Number(AMOUNT.exec(l.action)[2]), l]));
  const amounts = [...byAmount.keys()].sort((x, y) => x - y);
  const kept = typedAmounts.get(head);
  const start = kept !== undefined && kept >= amounts[0] && kept <= amounts[amounts.length - 1] ? kept : amounts[0];
  return amountField(head, amounts, start, {
    pick: (n) => byAmount.get(n),
    blocked: () => !!c.busy,
    typed: (n) => typedAmounts.set(head, n),
    play: (l) => play(c, l.action),
    show: (go, l) => {
      go.replaceChildren(l ? withNames(l.text || l.action, c.view) : head);
      go.dataset.action = l ? l.action : "";
      if (l && prefs.get("notation")) go.append(" ", el("code", { class: "notation", text: l.action }));
    },
  });
}

// --- clocks -------------------------------------------------------------------------------
// Each seat's time: its bank (the initial time, plus the increment after each of its
// moves), then its vacation. The view says what each seat had at the server's `now`; the
// page counts the running seat's down on its own clock, corrected by `clockOffset`. A
// server of the older clock sends only `{seconds, deadline}` for the seat to move.
function seatTimes(v) {
  const c = v && v.clock;
  if (!c) return null;
  const serverNow = Date.now() / 1000 + (v.clockOffset || 0);
  if (Array.isArray(c.seats)) {
    return c.seats.map((s) => {
      if (!s || s.bank === null || s.bank === undefined) return null; // a bot's seat: no clock
      let bank = Number(s.bank) || 0, vacation = Number(s.vacation_left) || 0;
      if (s.running) {
        let spent = Math.max(0, serverNow - c.now);
        const fromBank = Math.min(bank, spent);
        bank -= fromBank; spent -= fromBank;
        vacation = Math.max(0, vacation - spent);
      }
      return { bank, vacation, running: !!s.running, standIn: !!s.stand_in, initial: Number(c.initial) || 0 };
    });
  }
  const toMove = v.view ? v.view.to_move : null;
  if (typeof c.deadline !== "number" || typeof toMove !== "number") return null;
  return (v.seats || []).map((s) => s.seat === toMove
    ? { bank: Math.max(0, c.deadline - serverNow), vacation: 0, running: true, standIn: false, initial: Number(c.seconds) || 0 }
    : null);
}

const pad2 = (n) => String(n).padStart(2, "0");
// A clock as a player reads it: 0:45 and 12:30 under an hour, 3:05:00 under a day, then
// days and hours (2 d 4 h), where seconds no longer matter.
function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 3600) return `${Math.floor(s / 60)}:${pad2(s % 60)}`;
  if (s < 86400) return `${Math.floor(s / 3600)}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}`;
  return t("{d} d {h} h", { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
}

// A length of time in words, for the clock's rules ("5 minutes", "1 hour 30 minutes").
function spanWords(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const parts = [];
  if (d) parts.push(tn("{n} day", "{n} days", d, { n: d }));
  if (h) parts.push(tn("{n} hour", "{n} hours", h, { n: h }));
  if (m) parts.push(tn("{n} minute", "{n} minutes", m, { n: m }));
  if (r || !parts.length) parts.push(tn("{n} second", "{n} seconds", r, { n: r }));
  return parts.join(" ");
}

// Urgent under a tenth of the initial time, or under 30 seconds.
function urgent(time) {
  const left = time.bank + time.vacation;
  return left < 30 || (time.initial > 0 && left < time.initial / 10);
}

function clockCell(time) {
  const onVacation = time.bank <= 0 && time.vacation > 0;
  const text = clockText(onVacation ? time.vacation : time.bank);
  const words = onVacation ? t("vacation: {time}", { time: text }) : text;
  return { words, label: onVacation ? t("Time left: {time} of vacation", { time: text }) : t("Time left: {time}", { time: text }) };
}

// The panels' clocks, written again every second (the running one moves).
function tick() {
  const c = conns.get(shown);
  const times = seatTimes(c && c.view && !c.view.terminal ? c.view : null);
  for (const box of document.querySelectorAll("#players .seat-clock")) {
    const time = times ? times[Number(box.dataset.seat)] : null;
    box.hidden = !time;
    if (!time) continue;
    const cell = clockCell(time);
    box.textContent = cell.words;
    box.setAttribute("aria-label", cell.label);
    box.classList.toggle("running", time.running);
    box.classList.toggle("urgent", urgent(time));
  }
}
setInterval(tick, 1000);

// The clock's rules in words, where the seats are listed: a tooltip alone would hide
// them from a phone and from the keyboard.
function clockPolicy(v) {
  const c = v.clock;
  if (!c) return "";
  if (!Array.isArray(c.seats)) {
    return t("Clock: {time} per move.", { time: spanWords(c.seconds) }) + " " + t("When it runs out, a bot plays for the player until they return.");
  }
  const out = [c.increment
    ? t("Clock: {time} per player, plus {more} per move.", { time: spanWords(c.initial), more: spanWords(c.increment) })
    : t("Clock: {time} per player.", { time: spanWords(c.initial) })];
  if (c.vacation) out.push(t("Then {time} of vacation per player.", { time: spanWords(c.vacation) }));
  out.push(c.policy === "lose" ? t("When a player's time runs out, they lose the game.")
    : c.policy === "skip" ? t("When a player's time runs out, that turn is skipped (passed, or played by a bot where the game has no pass), and their time starts again at their next turn.")
    : t("When a player's time runs out, a bot plays for them until they return."));
  return out.join(" ");
}

// A person's seat that a stand-in bot plays (past their clock, until they return).
function standingIn(v, seat) {
  const s = v.seats ? v.seats.find((x) => x.seat === seat) : null;
  if (!s || s.kind !== "human" || s.resigned) return false;
  const clocked = v.clock && Array.isArray(v.clock.seats) ? v.clock.seats[seat] : null;
  return !!(s.bot_playing || (clocked && clocked.stand_in));
}

// The players' strip: one panel per seat, always in view.
function drawPlayers(v, c) {
  const list = v.players || v.seats.map((s) => ({ seat: s.seat, name: s.name, kind: s.kind, present: s.present }));
  $("players").replaceChildren(...list.map((p) => {
    const li = el("li", { class: "player seat" + p.seat + (p.turn ? " turn" : "") + (p.seat === c.key ? " me" : "") },
      swatch(p.seat), el("span", { class: "pname", text: p.name }));
    if (p.seat === c.key) li.append(el("span", { class: "tag you", text: t("you") }));
    if (p.bot && !standingIn(v, p.seat)) li.append(el("span", { class: "tag", text: t("bot") }));
    const facts = el("span", { class: "facts" });
    if (p.score !== null && p.score !== undefined) facts.append(el("span", { class: "score", text: t("Score: {n}", { n: p.score }) }));
    if (p.hand !== null && p.hand !== undefined) facts.append(el("span", { class: "hand", text: t("Hand: {n}", { n: p.hand }) }));
    li.append(facts);
    if (p.turn) li.append(el("span", { class: "tag turn", text: t("to move") }));
    if (standingIn(v, p.seat)) li.append(el("span", { class: "tag standin", text: t("stand-in bot") }));
    li.append(el("span", { class: "seat-clock", role: "timer", "data-seat": p.seat, hidden: true }));
    if (p.kind === "human") {
      const on = !!p.present;
      li.append(el("span", { class: "presence " + (on ? "on" : "off"), text: on ? t("connected") : t("away") }));
    }
    return li;
  }));
}

function drawSeats(v, c) {
  $("seats-h").textContent = t("Seats");
  const ul = $("seats");
  ul.replaceChildren(...v.seats.map((s) => {
    const li = el("li", { class: "seat seat" + s.seat }, swatch(s.seat), " " + s.name);
    const open = s.invited ? t("kept for {name}", { name: s.invited }) : t("open");
    const kind = s.kind === "bot" || (s.bot_playing && !standingIn(v, s.seat)) ? t("bot") : s.kind === "open" ? open : t("human");
    li.append(el("span", { class: "tag", text: kind }));
    if (s.seat === c.key) li.append(el("span", { class: "tag you", text: t("you") }));
    if (standingIn(v, s.seat)) {
      const words = v.clock && v.clock.policy === "skip"
        ? t("{name}'s time ran out: this turn is skipped.", { name: s.name })
        : t("A bot plays for {name} until they return.", { name: s.name });
      li.append(el("span", { class: "standin-words", text: words }));
      // The player is here, watching a bot play for them: one press takes the seat back
      // (their bank whole again), as a move or a chat line of theirs would.
      if (s.seat === c.key && v.status === "running" && !v.terminal && c.ws && c.ws.readyState === WebSocket.OPEN) {
        li.append(el("button", { class: "take-back", id: "take-back", text: t("I am back: let me play"), onclick: () => c.greet() }));
      }
    }
    // A kept seat is the invited account's to take: a guest is not offered it (another
    // account that tries is told by the server whom it is kept for).
    if (s.kind === "open" && (!s.invited || Account.maybe())) li.append(el("button", { class: "take", text: t("Take this seat"), onclick: async () => {
      // Signed in, the seat takes the account's name: nothing to ask.
      const me = await Account.me();
      const name = me ? me.name : prompt(t("Your name"), Me.name() || "");
      if (name === null) return;
      if (!me) Me.setName(name.trim());
      try { await join(gameId, s.seat); restart(); } catch (e) { $("refusal").textContent = e.message; }
    } }));
    return li;
  }));
  const policy = clockPolicy(v);
  let line = $("clock-policy");
  if (!line) { line = el("p", { id: "clock-policy", class: "clock-policy" }); ul.after(line); }
  line.textContent = policy;
  line.hidden = !policy;
}

// What the log on screen shows, so a new view only appends its new lines: a long game
// has thousands, and redrawing them all on every move slows the page to a crawl.
let logShown = { list: null, n: 0, why: false, recent: "" };

function drawLog(v, c) {
  const all = events.get(c.key) || [];
  const n = Math.min(v.logLength ?? all.length, all.length);
  const why = v.why || {};
  const hasWhy = Object.keys(why).length > 0;
  const recentFrom = v.terminal ? Infinity : (v.recent_from ?? Infinity);
  const item = (e) => {
    // The sentence in words; the engine's notation follows it behind "Show notation".
    const li = el("li", { value: e.seq }, withNames(e.words || e.text, v));
    // A move a stand-in bot made for a person's seat says so, in words.
    if (e.stand_in) li.append(" ", el("span", { class: "tag standin", text: t("played by a stand-in bot") }));
    if (e.action && prefs.get("notation")) li.append(" ", el("code", { class: "notation", text: e.action }));
    if (why[e.seq]) {
      const d = el("details", {}, el("summary", { text: t("Why?") }), el("pre", { text: why[e.seq] }));
      li.append(" ", d);
    }
    return li;
  };
  const ul = $("log");
  const key = `${recentFrom}:${prefs.get("notation")}`;
  if (logShown.list === all && logShown.why === hasWhy && logShown.key === key && logShown.n <= n && ul.children.length === logShown.n) {
    if (n === logShown.n) return;
    ul.append(...all.slice(logShown.n, n).map(item));
  } else {
    ul.replaceChildren(...all.slice(0, n).map(item));
  }
  // The lines of the moves others made since this viewer's own: marked as on the board.
  for (const li of ul.children) li.classList.toggle("recent", Number(li.value) >= recentFrom);
  logShown = { list: all, n, why: hasWhy, key };
  ul.scrollTop = ul.scrollHeight; // the log's own scroll, never the page's
}

// The end: ranks, scores and their parts, and what to do next.
function drawSummary(v, c) {
  const box = $("scores-box");
  const appears = box.hidden && v.terminal;
  box.hidden = !v.terminal;
  if (!v.terminal) return;
  // The summary stands above the board: a player who ended the game down at the hand
  // (China's, the Great Wall's) is brought up to it, as BGA shows its end at once.
  if (appears) requestAnimationFrame(() => box.scrollIntoView({ block: "nearest" }));
  $("summary-h").textContent = t("Game over");
  const sum = v.summary || { ranks: v.scores.map((s) => 1 + v.scores.filter((x) => x > s).length), scores: v.scores, parts: null };
  const partNames = sum.parts ? [...new Set(sum.parts.flatMap((p) => Object.keys(p)))] : [];
  // A rated game: each seat's rating before and after it, as lichess shows it.
  const ratings = new Map((sum.ratings || []).map((r) => [r.seat, r]));
  const head = el("tr", {}, el("th", { text: t("Rank") }), el("th", { text: t("Player") }), el("th", { text: t("Score") }),
    ...partNames.map((k) => el("th", { class: "part", text: (sum.labels || {})[k] || k })),
    ...(ratings.size ? [el("th", { text: t("Rating") })] : []));
  // On a phone the parts are a sum under each score, named once under the table, rather
  // than columns that would run off the screen's side.
  const sumOf = (i) => "= " + partNames.map((k) => String((sum.parts[i] || {})[k] ?? 0)).join(" + ");
  const order = sum.scores.map((_, i) => i).sort((a, b) => sum.ranks[a] - sum.ranks[b]);
  const rows = order.map((i) => el("tr", { class: sum.ranks[i] === 1 ? "winner" : "" },
    el("td", { text: sum.ranks[i] === 1 ? t("Winner") : String(sum.ranks[i]) }),
    el("th", {}, swatch(i), " " + seatName(v, i)),
    el("td", { class: "num" }, String(sum.scores[i] ?? ""),
      ...(partNames.length ? [el("span", { class: "parts-line", text: sumOf(i) })] : [])),
    ...partNames.map((k) => el("td", { class: "num part", text: String((sum.parts[i] || {})[k] ?? "") })),
    ...(ratings.size ? [ratingCell(ratings.get(i))] : [])));
  $("scores").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  // How the winner was found, where the score alone does not say it (Mandarin).
  let note = $("summary-note");
  if (!note) { note = el("p", { id: "summary-note" }); $("scores").after(note); }
  note.textContent = sum.note || "";
  note.hidden = !sum.note;
  let named = $("summary-parts");
  if (!named) { named = el("p", { id: "summary-parts" }); $("scores").after(named); }
  named.textContent = partNames.length ? t("Score") + " = " + partNames.map((k) => (sum.labels || {})[k] || k).join(" + ") : "";
  named.hidden = !partNames.length;
  const actions = [];
  if (c.secret || typeof c.key === "number") {
    const label = v.rematch ? t("Join the rematch") : t("Rematch");
    actions.push(el("button", { class: "primary", id: "rematch", text: label, onclick: () => rematch(c) }));
  }
  actions.push(el("a", { class: "button", href: `/games/${gameId}/replay`, text: t("Replay") }));
  actions.push(el("a", { class: "button", href: "/", text: t("Back to the lobby") }));
  $("summary-actions").replaceChildren(...actions);
}

function ratingCell(r) {
  if (!r) return el("td", { class: "num" });
  const lang = window.LANG || document.documentElement.lang || "en";
  const num = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const signed = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "exceptZero" });
  // The change is the difference of the two numbers shown, so the cell adds up
  // ("9.0 → 11.2 (+2.2)", not the unrounded +2.3).
  const tenth = (x) => Math.round(x * 10) / 10;
  const delta = tenth(tenth(r.after) - tenth(r.before));
  // The rating and its change each hold together, so a narrow screen breaks the cell
  // between them, not inside a number.
  const words = t("{before} → {after} ({delta})", { before: num.format(r.before), after: num.format(r.after), delta: signed.format(delta) });
  const cut = words.lastIndexOf(" (");
  const td = el("td", { class: "num rating " + (delta > 0 ? "up" : delta < 0 ? "down" : "same") },
    ...(cut > 0 ? [el("span", { text: words.slice(0, cut) }), " ", el("span", { text: words.slice(cut + 1) })] : [words]));
  td.dataset.before = String(r.before);
  td.dataset.after = String(r.after);
  return td;
}

// What names this connection's seat to the server: its secret, or (a seat of the
// signed-in account taken on another device, whose secret this one lacks) its number,
// which the session cookie vouches for.
function seatBody(c) {
  return c.secret ? { secret: c.secret } : { seat: c.key };
}

// Same title, options and seats: this browser takes again the seats it held (a seat
// of the account's, held by the session alone, is taken again by the account).
async function rematch(c) {
  try {
    const r = await api(`/api/games/${gameId}/rematch`, seatBody(c));
    const mine = c.secret ? Object.keys(held()).map(Number).sort((a, b) => a - b) : [c.key];
    const summary = await api(`/api/games/${r.game}`);
    for (const seat of mine) {
      const s = summary.seats.find((x) => x.seat === seat);
      if (s && s.kind === "open") {
        const res = await api(`/api/games/${r.game}/join`, { seat, name: seatName(c.view, seat), player: Me.player() });
        Me.keep(r.game, res.seat, res.secret);
      }
    }
    location.href = `/games/${r.game}`;
  } catch (e) {
    $("refusal").textContent = e.message;
  }
}

// "While you were away": how many moves a stand-in bot made for this player's seat.
function showAway(away) {
  const box = $("away");
  $("away-text").textContent = tn("While you were away, a bot made {n} move for you.", "While you were away, a bot made {n} moves for you.", away.moves, { n: away.moves });
  $("away-ok").textContent = t("Dismiss");
  $("away-ok").onclick = () => { box.hidden = true; };
  box.hidden = false;
}

// Two links, kept apart: the game's address, to invite anyone, and this seat's key, which
// plays as you wherever it is opened (lichess and BGA keep the two apart the same way).
function linkRow(id, label, value, note, cls) {
  const input = el("input", { id, readonly: true, value, class: "link-field" });
  const said = el("span", { class: "copied", role: "status", "aria-live": "polite" });
  const copy = el("button", { class: "copy", "aria-describedby": id + "-l", text: t("Copy"), onclick: () => copyLink(input, said) });
  input.addEventListener("focus", () => input.select());
  return el("div", { class: "link-box " + cls },
    el("label", { for: id, id: id + "-l", text: label }),
    ...(note ? [el("p", { class: "link-note", text: note })] : []),
    el("span", { class: "link-row" }, input, copy), said);
}

async function copyLink(input, said) {
  let done = false;
  try {
    if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(input.value); done = true; }
  } catch { /* refused: the older way below */ }
  if (!done) {
    input.focus(); input.select();
    try { done = document.execCommand("copy"); } catch { done = false; }
  }
  said.textContent = done ? t("Copied") : t("Select the link and copy it");
  clearTimeout(said.timer);
  said.timer = setTimeout(() => { said.textContent = ""; }, 4000);
}

let linksFor = null;
function drawLinks(c) {
  const box = $("links");
  const base = `${location.origin}/games/${gameId}`;
  // Drawn again only when the seat changes: a view must not take away a field's
  // selection or the "copied" that was just said.
  const key = `${c.key}:${c.secret || ""}:${window.LANG}`;
  if (linksFor === key && box.children.length) return;
  linksFor = key;
  const items = [linkRow("invite-link", t("Link to invite a friend"), base, t("Anyone with it can watch the game or take an open seat."), "invite")];
  if (c.secret) {
    items.push(linkRow("key-link", t("Your key to this seat"), `${base}#s=${c.secret}`,
      t("Anyone with this link plays as you: keep it private. Open it on another device to play there."), "key"));
  }
  box.replaceChildren(...items);
}

function drawChat() {
  const v = lastMsg;
  $("chat").replaceChildren(...chat.slice(-50).map((m) => el("li", {}, el("span", { class: "who" }, swatch(m.seat), el("strong", { text: seatName(v, m.seat) + ": " })), m.text)));
}

$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("chat-text").value.trim();
  const c = conns.get(shown) || conns.get(firstKey());
  if (!text || !c || c.key === "spectator") return;
  c.ws.send(JSON.stringify({ type: "chat", text }));
  $("chat-text").value = "";
});

document.addEventListener("keydown", (e) => {
  // Tab stays inside an open question or menu, as in any modal dialog.
  if (e.key === "Tab") {
    const box = !$("confirm").hidden ? $("confirm") : !$("menu").hidden ? $("menu") : null;
    if (box) {
      const items = [...box.querySelectorAll("button")];
      const i = items.indexOf(document.activeElement);
      const next = e.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i + 1) % items.length;
      e.preventDefault();
      items[next].focus();
    }
    return;
  }
  if (e.key !== "Escape") return;
  if (!$("confirm").hidden) { closeDialog($("confirm")); return; }
  if (!$("menu").hidden) { closeDialog($("menu")); return; }
  if (picked !== null) { picked = null; redrawControls(); }
});

// --- your turn, noticed ------------------------------------------------------------------
const baseTitle = document.title;
const icon = document.querySelector("link[rel=icon]");
const baseIcon = icon ? icon.href : "";

function noticeTurn(c, before, now) {
  const mine = [...conns.values()].some((x) => x.view && x.view.legal.length);
  document.title = (mine ? "● " + t("Your turn") + " · " : "") + baseTitle;
  if (icon) icon.href = mine ? "/static/favicon-turn.svg" : baseIcon;
  if (!(now.legal.length && !(before && before.legal.length))) return;
  if (prefs.get("sound")) chime();
  // A tab in the background, or a window behind another: the browser's notification,
  // if the player asked for it here and the browser allows it.
  const unseen = document.hidden || !document.hasFocus();
  if (unseen && prefs.get("notify") && window.Notification && Notification.permission === "granted") {
    try {
      const n = new Notification(t("Your turn"), { body: document.querySelector("h1").textContent, tag: "tianxia-" + gameId });
      n.onclick = () => { window.focus(); n.close(); };
    } catch { /* a browser that allows notifications only from a service worker */ }
  }
}

function chime() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 660; g.gain.value = 0.08;
    o.connect(g); g.connect(ctx.destination);
    o.start(); g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.4); o.stop(ctx.currentTime + 0.45);
  } catch { /* no sound here */ }
}

function drawPrefs() {
  $("pref-notation-l").textContent = t("Show notation");
  $("pref-sound-l").textContent = t("Sound on your turn");
  $("pref-fast-l").textContent = t("Fast mode: show other players' moves at once");
  $("pref-fast").checked = prefs.get("fast");
  $("pref-notation").checked = prefs.get("notation");
  $("pref-sound").checked = prefs.get("sound");
  // Asked only after the player ticks it: a page that asks on load is refused by most.
  const n = $("pref-notify");
  const allowed = window.Notification ? Notification.permission : "denied";
  $("pref-notify-box").hidden = !window.Notification;
  $("pref-notify-l").textContent = t("Notify me when it is my turn");
  n.checked = prefs.get("notify") && allowed === "granted";
  $("pref-notify-why").textContent = prefs.get("notify") && allowed === "denied"
    ? t("This browser blocks notifications from this site: allow them in its settings.") : "";
}
$("pref-notation").addEventListener("change", (e) => {
  prefs.set("notation", e.target.checked);
  root.classList.toggle("notation", e.target.checked);
  const c = conns.get(shown);
  if (c && c.view) draw(c);
});
$("pref-fast").addEventListener("change", (e) => { prefs.set("fast", e.target.checked); for (const c of conns.values()) pump(c); });
$("pref-sound").addEventListener("change", (e) => { prefs.set("sound", e.target.checked); if (e.target.checked) chime(); });
$("pref-notify").addEventListener("change", async (e) => {
  prefs.set("notify", e.target.checked);
  if (e.target.checked && window.Notification && Notification.permission === "default") {
    try { await Notification.requestPermission(); } catch { /* an older browser's callback form */ }
  }
  drawPrefs();
});
root.classList.toggle("notation", prefs.get("notation"));

function restart() {
  for (const c of conns.values()) { c.closed = true; c.ws.close(); if (c.timer) clearTimeout(c.timer); }
  conns.clear(); events.clear(); shown = null; curtainFor = null; picked = null;
  start();
}

function start() {
  const seats = held();
  if (fromLink && !Object.values(seats).includes(fromLink)) connect("link", fromLink);
  for (const [seat, secret] of Object.entries(seats)) connect(Number(seat), secret);
  if (conns.size) return;
  // The signed-in account's seats at this table, taken on any device.
  Account.me().then((me) => {
    if (conns.size) return;
    for (const g of (me && me.games) || []) if (g.game === gameId) connect(g.seat, null, true);
    if (!conns.size) connect("spectator", null);
  });
}

start();

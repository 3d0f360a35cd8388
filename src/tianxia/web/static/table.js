// A game's table: one websocket per seat this browser holds (several: hotseat), or one
// as a spectator. Everything shown comes from the server's view messages; the page
// knows no rule of any game.
"use strict";

const root = document.getElementById("table");
const gameId = root.dataset.game;
const $ = (id) => document.getElementById(id);

// A seat link (`/games/ID#s=SECRET`) lets a player return from any device.
const fromLink = new URLSearchParams(location.hash.slice(1)).get("s");
const conns = new Map(); // key: seat number or "spectator"
let shown = null; // the key whose view is on screen
let curtainFor = null; // hotseat: the seat waiting behind the hand-over screen
let lastMsg = null;
const events = new Map(); // key -> list of events
let chat = [];

function held() { return Me.seats(gameId); }

function connect(key, secret) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const c = { key, secret, ws: null, view: null, seq: 0, retry: 500, pending: new Map() };
  conns.set(key, c);
  const open = () => {
    c.ws = new WebSocket(`${proto}://${location.host}/ws/games/${gameId}`);
    c.ws.onopen = () => {
      c.retry = 500;
      const hello = { type: "hello", last_seq: c.seq, board: true, lang: window.LANG, player: Me.player() };
      if (secret) hello.secret = secret; else hello.spectator = true;
      c.ws.send(JSON.stringify(hello));
    };
    c.ws.onmessage = (ev) => receive(c, JSON.parse(ev.data));
    c.ws.onclose = () => {
      if (c.closed) return;
      status(t("Connection lost: reconnecting"));
      setTimeout(open, c.retry);
      c.retry = Math.min(c.retry * 2, 10000);
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
    // The log grows by the events after `since`; it is redrawn whole only when it was
    // cut back (an undo) or sent again (the end shows every event whole).
    let list = events.get(c.key);
    if (!list || msg.since === 0 || msg.since < list.length) {
      list = (list && msg.since > 0 ? list.slice(0, msg.since) : []);
      events.set(c.key, list);
    }
    list.push(...msg.events);
    c.view = msg; c.seq = msg.seq;
    choose();
  } else if (msg.type === "refused") {
    $("refusal").textContent = `${t("Refused")}: ${msg.rule ? msg.rule + ": " : ""}${msg.reason}`;
  } else if (msg.type === "error") {
    if (msg.code === "unknown_secret") { c.closed = true; c.ws.close(); conns.delete(c.key); start(); return; }
    $("refusal").textContent = msg.reason;
  } else if (msg.type === "accepted" || msg.type === "undone") {
    $("refusal").textContent = "";
  } else if (msg.type === "chat") {
    if (c.key === firstKey()) { chat.push(msg); drawChat(); }
  }
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
  shown = key;
  draw(conns.get(key));
}

function drawCurtain() {
  const v = conns.get(curtainFor).view;
  const name = seatName(v, curtainFor);
  $("board").replaceChildren();
  $("moves").replaceChildren();
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

function status(text) { $("status").textContent = text; }

function act(c, action) {
  const id = crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2);
  c.ws.send(JSON.stringify({ type: "act", action_id: id, expected_seq: c.view.seq, action }));
}

function explainOf(v, action) {
  const l = v.legal.find((x) => x.action === action);
  return l ? l.explain : "";
}

function menu(c, actions, label) {
  const box = $("menu");
  $("menu-h").textContent = label || t("Which move?");
  $("menu-items").replaceChildren(...actions.map((a) => el("button", {
    class: "move", title: explainOf(c.view, a), text: a,
    onclick: () => { box.hidden = true; act(c, a); },
  })));
  $("menu-cancel").textContent = t("Cancel");
  $("menu-cancel").onclick = () => { box.hidden = true; };
  box.hidden = false;
  box.querySelector("button").focus();
}

function draw(c) {
  const v = c.view;
  if (!v) return;
  lastMsg = v;
  $("curtain").hidden = true;
  $("menu").hidden = true; // its moves belonged to the view this one replaces
  const env = v.view;
  // The board: an SVG the server drew from this viewer's observation.
  $("board").innerHTML = v.board || "";
  for (const spot of $("board").querySelectorAll(".spot")) {
    const actions = JSON.parse(spot.dataset.actions);
    const go = () => (actions.length === 1 ? act(c, actions[0]) : menu(c, actions, spot.getAttribute("aria-label")));
    spot.addEventListener("click", go);
    spot.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
    if (actions.length === 1) spot.querySelector("title").textContent += " · " + explainOf(v, actions[0]);
  }
  // Moves without a place on the board, as buttons.
  const placed = new Set(v.placed || []);
  const rest = v.legal.filter((l) => !placed.has(l.action));
  // Every move on the board: say where to look rather than head an empty list.
  $("moves-h").textContent = !placed.size ? t("Moves")
    : rest.length ? t("Other moves") : t("Your moves are on the board: click a marked piece or place");
  $("moves-h").classList.toggle("hint", placed.size > 0 && !rest.length);
  $("moves").replaceChildren(...moveControls(c, rest));
  $("moves-box").hidden = !v.legal.length;
  $("undo").hidden = !v.undo;
  $("undo").textContent = t("Undo");
  $("undo").onclick = () => c.ws.send(JSON.stringify({ type: "undo", action_id: String(Date.now()), expected_seq: v.seq }));
  // Whose turn.
  if (v.terminal) status(t("Game over"));
  else if (v.status === "open") status(t("The game waits for every seat to be taken."));
  else if (v.legal.length) status(t("Your turn") + (c.key !== "spectator" ? ` (${seatName(v, c.key)})` : ""));
  else if (typeof env.to_move === "number") status(t("Waiting for {name}", { name: seatName(v, env.to_move) }));
  else status(c.key === "spectator" ? t("Spectating") : "");
  clockDeadline = v.clock ? v.clock.deadline : null;
  tick();
  drawSeats(v, c);
  drawLog(v, c);
  drawScores(v);
  drawLinks(c);
  $("resign").hidden = c.key === "spectator" || v.terminal || v.status !== "running";
  $("resign").textContent = t("Resign");
  $("resign").onclick = async () => {
    if (!confirm(t("Resign this game? A bot plays your seat to the end."))) return;
    await api(`/api/games/${gameId}/resign`, { secret: c.secret });
  };
  $("log-h").textContent = t("Log");
  $("chat-h").textContent = t("Chat");
  $("chat-send").textContent = t("Send");
  $("chat-box").hidden = c.key === "spectator";
}

// Moves as buttons; a long run of moves with the same first word (bids from 100 to
// 20,000, say) becomes one list to pick from, so the page stays usable.
function moveControls(c, moves) {
  const groups = new Map();
  for (const l of moves) {
    const head = l.action.split(" ")[0];
    if (!groups.has(head)) groups.set(head, []);
    groups.get(head).push(l);
  }
  const out = [];
  for (const [head, list] of groups) {
    if (list.length <= 8) {
      for (const l of list) out.push(el("button", { class: "move", title: l.explain, "aria-description": l.explain, text: l.action, onclick: () => act(c, l.action) }));
      continue;
    }
    const sel = el("select", { class: "move-pick", "aria-label": head });
    for (const l of list) sel.append(el("option", { value: l.action, title: l.explain, text: l.action }));
    const go = el("button", { class: "move", text: head, onclick: () => act(c, sel.value) });
    out.push(el("span", { class: "move-group" }, sel, go));
  }
  return out;
}

// The move clock: past it, a bot plays the seat until its player is back.
let clockDeadline = null;
function tick() {
  const box = $("clock");
  if (!clockDeadline) { box.hidden = true; return; }
  const left = Math.max(0, Math.round(clockDeadline - Date.now() / 1000));
  const m = Math.floor(left / 60), s = String(left % 60).padStart(2, "0");
  box.hidden = false;
  box.textContent = `⏱ ${m}:${s}`;
  box.title = `${left} ${t("seconds left")}`;
}
setInterval(tick, 1000);

function drawSeats(v, c) {
  const ul = $("seats");
  ul.replaceChildren(...v.seats.map((s) => {
    const li = el("li", { class: "seat seat" + s.seat }, el("span", { class: "swatch", "aria-hidden": "true", text: "P" + (s.seat + 1) }), " " + s.name);
    const kind = s.kind === "bot" || s.bot_playing ? t("bot") : s.kind === "open" ? t("open") : t("human");
    li.append(el("span", { class: "tag", text: kind }));
    if (s.seat === c.key) li.append(el("span", { class: "tag you", text: t("you") }));
    if (v.view.to_move === s.seat && !v.terminal) li.append(el("span", { class: "tag turn", text: "◀" }));
    if (s.kind === "open") li.append(el("button", { class: "take", text: t("Take this seat"), onclick: async () => {
      const name = prompt(t("Your name"), Me.name() || "");
      if (name === null) return;
      Me.setName(name.trim());
      try { await join(gameId, s.seat); restart(); } catch (e) { $("refusal").textContent = e.message; }
    } }));
    return li;
  }));
}

// What the log on screen shows, so a new view only appends its new lines: a long game
// has thousands, and redrawing them all on every move slows the page to a crawl.
let logShown = { list: null, n: 0, why: false };

function drawLog(v, c) {
  const list = events.get(c.key) || [];
  const why = v.why || {};
  const hasWhy = Object.keys(why).length > 0;
  const item = (e) => {
    const li = el("li", { value: e.seq }, e.text);
    if (why[e.seq]) {
      const d = el("details", {}, el("summary", { text: t("Why?") }), el("pre", { text: why[e.seq] }));
      li.append(" ", d);
    }
    return li;
  };
  const ul = $("log");
  if (logShown.list === list && logShown.why === hasWhy && logShown.n <= list.length && ul.children.length === logShown.n) {
    if (list.length === logShown.n) return;
    ul.append(...list.slice(logShown.n).map(item));
  } else {
    ul.replaceChildren(...list.map(item));
  }
  logShown = { list, n: list.length, why: hasWhy };
  ul.lastElementChild?.scrollIntoView({ block: "nearest" });
}

function drawScores(v) {
  const box = $("scores-box");
  box.hidden = !v.terminal;
  if (!v.terminal) return;
  box.querySelector("h2").textContent = t("Scores");
  const best = Math.max(...v.scores);
  $("scores").replaceChildren(...v.scores.map((sc, i) => el("tr", {},
    el("th", { text: seatName(v, i) }), el("td", { text: String(sc) }),
    el("td", { text: sc === best ? t("Winner") : "" }))));
}

function drawLinks(c) {
  const box = $("links");
  const base = `${location.origin}/games/${gameId}`;
  const items = [el("p", { text: t("Link to invite a friend:") }), el("input", { readonly: true, value: base, "aria-label": t("Link to invite a friend:") })];
  if (c.secret) items.push(el("p", { text: t("Link to return to this seat from any device (keep it private):") }), el("input", { readonly: true, value: `${base}#s=${c.secret}`, "aria-label": t("Link to return to this seat from any device (keep it private):") }));
  box.replaceChildren(...items);
}

function drawChat() {
  $("chat").replaceChildren(...chat.slice(-50).map((m) => el("li", {}, el("strong", { text: "P" + (m.seat + 1) + ": " }), m.text)));
}

$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("chat-text").value.trim();
  const c = conns.get(shown) || conns.get(firstKey());
  if (!text || !c || c.key === "spectator") return;
  c.ws.send(JSON.stringify({ type: "chat", text }));
  $("chat-text").value = "";
});

document.addEventListener("keydown", (e) => { if (e.key === "Escape") $("menu").hidden = true; });

function restart() {
  for (const c of conns.values()) { c.closed = true; c.ws.close(); }
  conns.clear(); events.clear(); shown = null; curtainFor = null;
  start();
}

function start() {
  const seats = held();
  if (fromLink && !Object.values(seats).includes(fromLink)) connect("link", fromLink);
  for (const [seat, secret] of Object.entries(seats)) connect(Number(seat), secret);
  if (!conns.size) connect("spectator", null);
}

start();

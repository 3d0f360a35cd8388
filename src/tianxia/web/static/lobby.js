// The lobby: a card per title, a new game's form, lists of games, leaderboards.
"use strict";

const form = document.getElementById("new-game");
const fGame = document.getElementById("f-game");
const fPlayers = document.getElementById("f-players");
const fOptions = document.getElementById("f-options");
const fSeats = document.getElementById("f-seats");
const fName = document.getElementById("f-name");
const fClock = document.getElementById("f-clock");
fName.value = Me.name();
fName.addEventListener("change", () => {
  const before = Me.name();
  Me.setName(fName.value.trim());
  // The first seat marked "me" is this person: it follows the name unless changed by hand.
  const first = fSeats.querySelector("input[data-name]:not([hidden])");
  if (first && (first.value === before || !first.value)) first.value = fName.value.trim();
});

// Each title's counts and options, and the bots' strengths in words, as the server sent them.
const GAMES = pageData("games-data", []);
const STRENGTHS = pageData("strengths-data", {});

function info(name) { return GAMES.find((g) => g.name === name); }

// --- the new game's form --------------------------------------------------------------
// What the form may offer comes from the server (`counts`: per player count, each
// option's default and the choices that count allows): the page holds no rule.
function fillPlayers() {
  const g = info(fGame.value);
  const before = Number(fPlayers.value);
  fPlayers.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) fPlayers.append(el("option", { value: n, text: n }));
  fPlayers.value = before >= g.min_players && before <= g.max_players ? before : Math.max(g.min_players, Math.min(3, g.max_players));
  fillOptions();
  fillSeats();
}

function fillOptions() {
  const g = info(fGame.value);
  const count = g.counts[fPlayers.value];
  const before = {};
  for (const sel of fOptions.querySelectorAll("[data-option]")) before[sel.dataset.option] = sel.value;
  fOptions.replaceChildren(fOptions.firstElementChild);
  fOptions.hidden = g.options.length === 0;
  for (const o of g.options) {
    const allowed = count.allowed[o.name];
    const keep = before[o.name] !== undefined && allowed.includes(Number(before[o.name]));
    const value = String(keep ? before[o.name] : count.defaults[o.name]);
    if (allowed.length === 1) {
      // Nothing to choose at this player count: say what it is, and send it.
      const only = el("input", { type: "hidden", "data-option": o.name, value: String(allowed[0]) });
      fOptions.append(el("p", { class: "option fixed" }, el("span", { class: "option-name", text: o.label + ": " }), o.words[allowed[0]], only));
      continue;
    }
    const sel = el("select", { name: o.name, "data-option": o.name });
    for (const i of allowed) sel.append(el("option", { value: i, text: o.words[i] }));
    sel.value = value;
    fOptions.append(el("label", { class: "option" }, el("span", { class: "option-name", text: o.label }), " ", sel));
  }
}

function fillSeats() {
  const before = [...fSeats.querySelectorAll(".seat-row")].map((row) => ({
    plan: row.querySelector("select").value,
    name: row.querySelector("input").value,
  }));
  fSeats.replaceChildren(fSeats.firstElementChild);
  const tpl = document.getElementById("seat-choices");
  for (let s = 0; s < Number(fPlayers.value); s++) {
    const label = "P" + (s + 1);
    const sel = el("select", { "data-seat": s, "aria-label": t("Seat {seat}", { seat: label }) });
    sel.append(tpl.content.cloneNode(true));
    // A strength the server does not offer at this count (the learned bot where no
    // weights ship) leaves the menu.
    const offered = (info(fGame.value).counts[fPlayers.value] || {}).strengths;
    for (const opt of [...sel.options]) {
      if (offered && opt.value.startsWith("bot:") && !offered.includes(opt.value.slice(4))) opt.remove();
    }
    const wanted = before[s] ? before[s].plan : s === 0 ? "me" : "bot:easy";
    sel.value = [...sel.options].some((o) => o.value === wanted) ? wanted : "bot:easy";
    const name = el("input", {
      "data-name": s, maxlength: 40, autocomplete: s === 0 ? "nickname" : "off",
      placeholder: t("Name"), "aria-label": t("Name of {seat}", { seat: label }),
    });
    name.value = before[s] ? before[s].name : s === 0 ? Me.name() : "";
    const row = el("div", { class: "seat-row" }, el("span", { class: "seat-label", text: label }), sel, name);
    sel.addEventListener("change", showNames);
    fSeats.append(row);
  }
  showNames();
}

// Every seat played at this device asks for its own name: the hand-over screen, the
// board and the log name the person whose turn it is.
function showNames() {
  const mine = [...fSeats.querySelectorAll(".seat-row")].filter((row) => row.querySelector("select").value === "me");
  for (const row of fSeats.querySelectorAll(".seat-row")) {
    const input = row.querySelector("input");
    input.hidden = !mine.includes(row);
    input.required = mine.length > 1 && mine.includes(row);
  }
}

async function joinAs(gameId, seat, name) {
  const r = await api(`/api/games/${gameId}/join`, { seat, name, player: Me.player() });
  Me.keep(gameId, r.seat, r.secret);
}

async function create(game, players, options, plan, names, clock) {
  const seats = plan.map((p) => (p === "me" ? "open" : p));
  const g = await api("/api/games", { game, players, options, seats, clock });
  // Seats marked "me" are taken by this browser: several of them make a hotseat game.
  for (let s = 0; s < plan.length; s++) if (plan[s] === "me") await joinAs(g.id, s, names[s]);
  location.href = `/games/${g.id}`;
}

fGame.addEventListener("change", fillPlayers);
fPlayers.addEventListener("change", () => { fillOptions(); fillSeats(); });
form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const error = document.getElementById("f-error");
  error.textContent = "";
  const g = info(fGame.value);
  const options = {};
  for (const input of fOptions.querySelectorAll("[data-option]")) {
    options[input.dataset.option] = g.options.find((o) => o.name === input.dataset.option).choices[Number(input.value)];
  }
  const rows = [...fSeats.querySelectorAll(".seat-row")];
  const plan = rows.map((row) => row.querySelector("select").value);
  const names = rows.map((row, s) => row.querySelector("input").value.trim() || (s === plan.indexOf("me") && Me.name()) || "P" + (s + 1));
  const people = names.filter((_, s) => plan[s] === "me");
  if (new Set(people).size !== people.length) {
    error.textContent = t("Each seat played at this device needs a name of its own.");
    return;
  }
  if (plan[0] === "me" && rows[0].querySelector("input").value.trim()) Me.setName(names[0]);
  // The form's minutes, exactly: half a minute is thirty seconds.
  const minutes = fClock.value === "" ? 0 : Number(fClock.value);
  const button = form.querySelector("button.create");
  button.disabled = true;
  try {
    await create(fGame.value, Number(fPlayers.value), options, plan, names, minutes > 0 ? Math.round(minutes * 60) : undefined);
  } catch (e) {
    error.textContent = e.message;
    button.disabled = false;
  }
});

for (const b of document.querySelectorAll("button.quick")) {
  b.addEventListener("click", async () => {
    const n = Number(b.dataset.players);
    Me.setName(fName.value.trim());
    const plan = Array.from({ length: n }, (_, i) => (i === 0 ? "me" : "bot:easy"));
    const names = plan.map((_, i) => (i === 0 ? Me.name() || "P1" : ""));
    b.disabled = true;
    try {
      await create(b.dataset.game, n, {}, plan, names);
    } catch (e) {
      document.getElementById("q-error").textContent = e.message;
      b.disabled = false;
    }
  });
}

for (const b of document.querySelectorAll("button.new")) {
  b.addEventListener("click", () => {
    fGame.value = b.dataset.game;
    fillPlayers();
    document.getElementById("new-h").scrollIntoView({ behavior: "smooth", block: "start" });
    fPlayers.focus({ preventScroll: true });
  });
}

// --- dates --------------------------------------------------------------------------
// The server's clock, from the answer's Date header: a browser whose clock is off still
// says "3 minutes ago" of a game three minutes old.
let skew = 0;
const lang = window.LANG || document.documentElement.lang || "en";
const relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
const exact = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });

function ago(seconds) {
  const now = Date.now() / 1000 + skew;
  const d = Math.round(seconds - now);
  const a = Math.abs(d);
  if (a < 45) return relative.format(0, "second");
  if (a < 3600) return relative.format(Math.round(d / 60), "minute");
  const day = new Date(seconds * 1000), today = new Date((now) * 1000);
  const days = Math.round((new Date(today.getFullYear(), today.getMonth(), today.getDate()) - new Date(day.getFullYear(), day.getMonth(), day.getDate())) / 86400000);
  if (days === 0) return relative.format(Math.round(d / 3600), "hour");
  if (days < 7) return relative.format(-days, "day");
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium" }).format(day);
}

// A game's date as a sentence of its status ("last move 3 minutes ago").
function dated(status, w) {
  if (status === "open") return t("created {when}", { when: w });
  if (status === "finished") return t("finished {when}", { when: w });
  return t("last move {when}", { when: w });
}

// The date in words, and the exact time on focus and tap as well as on hover (a phone
// has no hover): the element takes focus, and the exact time shows while it has it.
function when(status, seconds) {
  const at = new Date(seconds * 1000);
  const node = el("time", { class: "when", datetime: at.toISOString(), tabindex: 0, "data-at": seconds, "data-status": status, title: exact.format(at) });
  node.append(el("span", { class: "ago", text: dated(status, ago(seconds)) }), el("span", { class: "exact", text: " (" + exact.format(at) + ")" }));
  return node;
}

function redate() {
  for (const node of document.querySelectorAll("time.when")) {
    node.querySelector(".ago").textContent = dated(node.dataset.status, ago(Number(node.dataset.at)));
  }
}

// --- lists of games ---------------------------------------------------------------------
// An open game nobody joins leaves "Open games" after two hours, and a running game
// without a move for a day leaves "Running games"; both stay under "My games" for their
// players, and at their address.
const OPEN_FOR = 2 * 3600;
const RUNNING_FOR = 24 * 3600;
// A list shows its first ten games, and up to fifty when asked.
const FIRST = 10;
const MOST = 50;
const shown = new Set();

function seatText(s) {
  if (s.kind === "bot") {
    // Two bots of one strength carry a letter ("easy bot A"), as at the table.
    const strength = STRENGTHS[s.strength] || s.strength;
    const letter = / bot ([A-Z])$/.exec(s.name || "");
    return letter ? t("{strength} bot {letter}", { strength, letter: letter[1] }) : `${t("bot")} (${strength})`;
  }
  if (s.kind === "open") return t("open");
  // Who is at the table now (a window of theirs holds the seat): said in words.
  return s.present ? t("{name} (connected)", { name: s.name }) : s.name;
}

function gameItem(g) {
  const mine = Object.keys(Me.seats(g.id));
  const title = (info(g.game) || g).title;
  const li = el("li", { "data-game": g.id, "data-status": g.status });
  li.append(el("a", { class: "game-link", href: `/games/${g.id}`, text: title }), " ");
  li.append(el("span", { class: "seats-text", text: g.seats.map(seatText).join(", ") }), " ");
  li.append(el("span", { class: "tag", text: t(g.status) }));
  if (g.your_turn) li.append(" ", el("strong", { class: "tag turn", text: t("your turn") }));
  const stamp = g.status === "open" ? g.created : g.updated ?? g.created;
  if (stamp) li.append(" ", when(g.status, stamp));
  if (g.status === "finished") li.append(" ", el("a", { class: "action", href: `/games/${g.id}/replay`, text: t("Replay") }));
  else if (!mine.length) li.append(" ", el("a", { class: "action", href: `/games/${g.id}`, text: g.status === "open" ? t("Play") : t("Watch") }));
  return li;
}

async function listed(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(r.statusText);
  const date = Date.parse(r.headers.get("date") || "");
  if (!Number.isNaN(date)) skew = date / 1000 - Date.now() / 1000;
  return r.json();
}

async function refresh() {
  const [all, mine] = await Promise.all([listed("/api/games"), listed(`/api/games?player=${Me.player()}`)]);
  const now = Date.now() / 1000 + skew;
  const recent = (g) => now - (g.updated ?? g.created);
  const lists = { open: [], running: [], finished: [] };
  for (const g of all) {
    if (g.status === "open" && recent(g) > OPEN_FOR) continue;
    if (g.status === "running" && recent(g) > RUNNING_FOR) continue;
    (lists[g.status] || []).push(g);
  }
  lists.finished.sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
  // Mine: where it is my turn first, then the games going on, then the finished ones.
  const rank = (g) => (g.your_turn ? 0 : g.status === "running" ? 1 : g.status === "open" ? 2 : 3);
  mine.sort((a, b) => rank(a) - rank(b) || (b.updated ?? 0) - (a.updated ?? 0));
  const fill = (id, games) => {
    const ul = document.getElementById(id);
    // Drawn again only when something in it changed: a refresh must not take away the
    // focus (and with it a date's exact time) from someone reading the list.
    const key = JSON.stringify([shown.has(id), games.map((g) => [g.id, g.status, g.updated, g.your_turn, g.seats.map(seatText)])]);
    if (ul.dataset.key === key) return;
    ul.dataset.key = key;
    if (!games.length) {
      ul.replaceChildren(el("li", { class: "none", text: t("No games here yet.") }));
      return;
    }
    const all = shown.has(id) || games.length <= FIRST;
    const items = games.slice(0, all ? MOST : FIRST).map(gameItem);
    if (!all) {
      const more = el("button", { type: "button", class: "more", text: t("Show all ({n})", { n: Math.min(games.length, MOST) }) });
      more.addEventListener("click", () => { shown.add(id); refresh(); });
      items.push(el("li", { class: "more-row" }, more));
    }
    // What had the focus keeps it, if its game is still listed.
    const had = ul.contains(document.activeElement) ? document.activeElement : null;
    const where = had && had.closest("li[data-game]") ? [had.closest("li[data-game]").dataset.game, had.className] : null;
    ul.replaceChildren(...items);
    if (where) {
      const again = [...ul.querySelectorAll(`li[data-game="${where[0]}"] *`)].find((n) => n.className === where[1]);
      if (again) again.focus();
    }
  };
  fill("mine", mine);
  for (const k of Object.keys(lists)) fill(k, lists[k]);
}

// --- leaderboards -----------------------------------------------------------------------
// Answers may come back out of order (the page's first title's, asked at load, after the
// one the player then chose): only the latest choice's is shown.
let leaderboardAsked = 0;
async function leaderboard() {
  const asked = ++leaderboardAsked;
  const rows = await api(`/api/leaderboard/${document.getElementById("lb-game").value}`);
  if (asked !== leaderboardAsked) return;
  const body = document.querySelector("#leaderboard tbody");
  const name = (r) => (r.bot ? `${t("bot")} (${STRENGTHS[r.bot] || r.bot})` : r.player_name);
  // A rating in the page's number format, as the end of a game shows it ("3,4" in Dutch).
  const num = new Intl.NumberFormat(document.documentElement.lang || "en", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  body.replaceChildren(...(rows.length
    ? rows.map((r, i) => el("tr", {}, el("td", { text: i + 1 }), el("td", { class: "lb-name", text: name(r) }), el("td", { class: "lb-rating", text: num.format(Number(r.rating ?? 0)) }), el("td", { text: r.games ?? "" })))
    : [el("tr", {}, el("td", { colspan: 4, class: "none", text: t("No rated games yet.") }))]));
}
document.getElementById("lb-game").addEventListener("change", leaderboard);

fillPlayers();
refresh();
leaderboard();
setInterval(refresh, 10000);
setInterval(redate, 30000);

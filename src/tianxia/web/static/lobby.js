// The lobby: a card per title, a new game's form, lists of games, leaderboards.
"use strict";

const form = document.getElementById("new-game");
const fGame = document.getElementById("f-game");
const fPlayers = document.getElementById("f-players");
const fOptions = document.getElementById("f-options");
const fSeats = document.getElementById("f-seats");
const fName = document.getElementById("f-name");
const fClock = document.getElementById("f-clock");
const fClockUnit = document.getElementById("f-clock-unit");
const fIncrement = document.getElementById("f-increment");
const fIncrementUnit = document.getElementById("f-increment-unit");
const fPolicy = document.getElementById("f-policy");
const fVacation = document.getElementById("f-vacation");
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
// The server's bounds of a clock, in seconds: its stated minimum bank, and the largest.
const CLOCK = pageData("clock-data", { minimum: 60, maximum: 30 * 86400, max_increment: 7 * 86400, max_vacation: 30 });

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
// board and the log name the person whose turn it is. A seat kept for an invited player
// asks for that player's account name.
// Signed in, the first seat marked "me" is the account's, under its name.
let accountName = "";
function showNames() {
  const mine = [...fSeats.querySelectorAll(".seat-row")].filter((row) => row.querySelector("select").value === "me");
  for (const row of fSeats.querySelectorAll(".seat-row")) {
    const input = row.querySelector("input");
    input.readOnly = Boolean(accountName) && row === mine[0];
    if (input.readOnly) input.value = accountName;
    const invite = row.querySelector("select").value === "invite";
    const label = "P" + (Number(input.dataset.name) + 1);
    input.hidden = !mine.includes(row) && !invite;
    input.required = invite || (mine.length > 1 && mine.includes(row));
    input.placeholder = invite ? t("Their account name") : t("Name");
    input.setAttribute("aria-label", invite ? t("Account name of the player invited to {seat}", { seat: label }) : t("Name of {seat}", { seat: label }));
    input.autocomplete = invite ? "off" : input.dataset.name === "0" ? "nickname" : "off";
  }
}

async function joinAs(gameId, seat, name, asGuest) {
  const r = await api(`/api/games/${gameId}/join`, { seat, name, player: Me.player() }, "POST", asGuest);
  Me.keep(gameId, r.seat, r.secret);
}

async function create(game, players, options, plan, names, clock) {
  const seats = plan.map((p, s) => (p === "me" ? "open" : p === "invite" ? "invite:" + names[s] : p));
  const g = await api("/api/games", { game, players, options, seats, ...(clock || {}) });
  // Seats marked "me" are taken by this browser: several of them make a hotseat game.
  // Signed in, the first is the account's seat; the others of a hotseat game are the
  // other people at this device, guests under the names given.
  const first = plan.indexOf("me");
  for (let s = 0; s < plan.length; s++) if (plan[s] === "me") await joinAs(g.id, s, names[s], s !== first);
  location.href = `/games/${g.id}`;
}

// --- the clock -----------------------------------------------------------------------------
// A span of seconds in words of the page's language ("90 minutes", "1.5 hours", "3 days").
function duration(seconds) {
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  const [unit, size] = units.find(([, size]) => seconds >= size && (seconds % size === 0 || size === 1 || seconds >= 2 * size)) || units[3];
  const fmt = new Intl.NumberFormat(window.LANG || "en", { style: "unit", unit, unitDisplay: "long", maximumFractionDigits: 1 });
  return fmt.format(seconds / size);
}

// The clock the form asks for, in the fields of `POST /api/games` (seconds exactly: half
// a minute is thirty seconds), undefined for none, or a sentence saying what is wrong.
function clockChosen() {
  if (fClock.value.trim() === "") return undefined;
  const bank = Number(fClock.value) * Number(fClockUnit.value);
  const increment = fIncrement.value.trim() === "" ? 0 : Number(fIncrement.value) * Number(fIncrementUnit.value);
  const vacation = fVacation.value.trim() === "" ? 0 : Number(fVacation.value);
  if (!Number.isFinite(bank) || bank < CLOCK.minimum || bank > CLOCK.maximum) {
    return t("A time bank is at least {least} and at most {most}.", { least: duration(CLOCK.minimum), most: duration(CLOCK.maximum) });
  }
  if (!Number.isFinite(increment) || increment < 0 || increment > CLOCK.max_increment) {
    return t("The time added per move is at most {most}.", { most: duration(CLOCK.max_increment) });
  }
  if (!Number.isInteger(vacation) || vacation < 0 || vacation > CLOCK.max_vacation) {
    return t("Vacation is a whole number of days, 0 to {most}.", { most: CLOCK.max_vacation });
  }
  // Rounded to the millisecond, so 0.1 minutes is 6 seconds, not 6.000000000000001.
  const clock = { clock: Math.round(bank * 1000) / 1000 };
  // The defaults are left out, so a server without them still takes the clock.
  if (increment > 0) clock.increment = Math.round(increment * 1000) / 1000;
  if (fPolicy.value !== "bot") clock.clock_policy = fPolicy.value;
  if (vacation > 0) clock.vacation = vacation;
  return clock;
}

// The least bank in the chosen unit, as the field's own minimum and in its hint.
function showClockBounds() {
  const unit = Number(fClockUnit.value);
  fClock.min = String(Math.ceil((CLOCK.minimum / unit) * 1000) / 1000);
  fClock.max = String(CLOCK.maximum / unit);
  document.getElementById("f-clock-help").textContent = t("for the whole game, at least {least}; empty for no clock", { least: duration(CLOCK.minimum) });
  const none = fClock.value.trim() === "";
  for (const field of [fIncrement, fIncrementUnit, fPolicy, fVacation]) field.disabled = none;
  // The browser's own check of the form says what is wrong in the page's words.
  const wrong = clockChosen();
  fClock.setCustomValidity(typeof wrong === "string" ? wrong : "");
}
for (const field of [fClock, fIncrement, fVacation]) field.addEventListener("input", showClockBounds);
for (const field of [fClockUnit, fIncrementUnit, fPolicy]) field.addEventListener("change", showClockBounds);
showClockBounds();

// A game's clock in words for the lists: "3 days + 1 hour per move; a bot plays when a
// time bank runs out".
const POLICY_WORDS = {
  bot: () => t("a bot plays when time runs out"),
  skip: () => t("turns are skipped when time runs out"),
  lose: () => t("a player whose time runs out loses"),
};
function clockWords(c) {
  if (!c) return "";
  if (typeof c === "number") return duration(c);
  const bank = c.increment ? t("{initial} + {increment} per move", { initial: duration(c.initial), increment: duration(c.increment) }) : duration(c.initial);
  const policy = POLICY_WORDS[c.policy];
  return policy ? `${bank}; ${policy()}` : bank;
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
  const me = await Account.me();
  const names = rows.map((row, s) => (me && s === plan.indexOf("me") ? me.name : "") || row.querySelector("input").value.trim() || (s === plan.indexOf("me") && Me.name()) || "P" + (s + 1));
  const people = names.filter((_, s) => plan[s] === "me");
  if (new Set(people).size !== people.length) {
    error.textContent = t("Each seat played at this device needs a name of its own.");
    return;
  }
  if (plan.some((p, s) => p === "invite" && !rows[s].querySelector("input").value.trim())) {
    error.textContent = t("Give the account name of each player you invite.");
    return;
  }
  const clock = clockChosen();
  if (typeof clock === "string") {
    error.textContent = clock;
    return;
  }
  if (plan[0] === "me" && rows[0].querySelector("input").value.trim()) Me.setName(names[0]);
  const button = form.querySelector("button.create");
  button.disabled = true;
  try {
    await create(fGame.value, Number(fPlayers.value), options, plan, names, clock);
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
  // A seat kept for an account (invited by name) is not open to anyone else.
  if (s.kind === "open") return s.invited ? t("kept for {name}", { name: s.invited }) : t("open");
  // Who is at the table now (a window of theirs holds the seat): said in words.
  return s.present ? t("{name} (connected)", { name: s.name }) : s.name;
}

// How long a seat has waited for its player, in words ("3 hours").
function waited(since) {
  return duration(Math.max(60, Math.round(Date.now() / 1000 + skew - since)));
}

function gameItem(g) {
  const mine = g.account ? [g.seat] : Object.keys(Me.seats(g.id));
  const title = (info(g.game) || g).title;
  const li = el("li", { "data-game": g.id, "data-status": g.status });
  li.append(el("a", { class: "game-link", href: `/games/${g.id}`, text: title }), " ");
  li.append(el("span", { class: "seats-text", text: g.seats.map(seatText).join(", ") }), " ");
  li.append(el("span", { class: "tag", text: t(g.status) }));
  if (g.your_turn) {
    const turn = g.since ? t("your turn for {time}", { time: waited(g.since) }) : t("your turn");
    li.append(" ", el("strong", { class: "tag turn", text: turn }));
  }
  if (g.clock) li.append(" ", el("span", { class: "clock-words", text: clockWords(g.clock) }));
  const stamp = g.status === "open" ? g.created ?? g.updated : g.updated ?? g.created;
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

// A seat of `GET /api/me`'s games as the lists show seats: a bot's name ("bot (easy)",
// "easy bot A") named in the page's language, an open seat as open.
function namedSeat(name) {
  if (!name) return { kind: "open" };
  const bot = /^bot \((\w+)\)$/.exec(name) || /^(\w+) bot [A-Z]$/.exec(name);
  return bot ? { kind: "bot", strength: bot[1], name } : { kind: "human", name };
}

// One of the account's games (`GET /api/me`) in the shape of the lobby's summaries.
function accountGame(g) {
  return {
    id: g.game, game: g.title, seat: g.seat, account: true, status: g.status,
    your_turn: g.your_turn, since: g.since, updated: g.updated, created: g.updated,
    // An open game's seat named by its label alone ("P2") is a seat nobody has taken.
    seats: (g.names || []).map((n, i) => (g.status === "open" && n === "P" + (i + 1) ? { kind: "open" } : namedSeat(n))),
  };
}

// The games of this person: the account's from every device when signed in (in the
// server's order: your turn first, the longest waiting first, then running, open and
// finished), else the seats this browser holds.
async function myGames() {
  const me = await Account.me(true);
  if (me) return { me, mine: (me.games || []).map(accountGame) };
  const mine = await listed(`/api/games?player=${Me.player()}`);
  // Mine: where it is my turn first, then the games going on, then the finished ones.
  const rank = (g) => (g.your_turn ? 0 : g.status === "running" ? 1 : g.status === "open" ? 2 : 3);
  mine.sort((a, b) => rank(a) - rank(b) || (b.updated ?? 0) - (a.updated ?? 0));
  return { me: null, mine };
}

// Invitations by name: the seat kept for this account, who invited, and Accept (which
// takes the seat and opens the table).
function invitationItem(inv) {
  const title = (info(inv.title) || { title: inv.title }).title;
  const li = el("li", { "data-game": inv.game, "data-seat": inv.seat });
  li.append(el("a", { class: "game-link", href: `/games/${inv.game}`, text: title }), " ");
  li.append(el("span", { class: "invited-by", text: inv.by ? t("{name} invites you to seat {seat}", { name: inv.by, seat: "P" + (inv.seat + 1) }) : t("Seat {seat} is kept for you", { seat: "P" + (inv.seat + 1) }) }), " ");
  const error = el("span", { class: "error", role: "alert" });
  const accept = el("button", { type: "button", class: "accept", text: t("Accept") });
  accept.addEventListener("click", async () => {
    accept.disabled = true;
    try {
      await join(inv.game, inv.seat);
      location.href = `/games/${inv.game}`;
    } catch (e) {
      error.textContent = e.message;
      accept.disabled = false;
    }
  });
  li.append(accept, " ", error);
  return li;
}

function showInvitations(me) {
  const box = document.getElementById("invitations-box");
  const list = (me && me.invitations) || [];
  box.hidden = !list.length;
  const ul = document.getElementById("invitations");
  const key = JSON.stringify(list.map((i) => [i.game, i.seat, i.by]));
  if (ul.dataset.key === key) return;
  ul.dataset.key = key;
  ul.replaceChildren(...list.map(invitationItem));
}

// "Next game": the game that has waited longest for this person (the first of the
// list whose turn it is: the server puts the longest waiting first).
let nextGame = null;
function showNextGame(mine) {
  const waiting = mine.filter((g) => g.your_turn);
  if (waiting.some((g) => g.since)) waiting.sort((a, b) => (a.since ?? Infinity) - (b.since ?? Infinity));
  nextGame = waiting.length ? waiting[0].id : null;
  document.getElementById("next-game").hidden = !nextGame;
  document.getElementById("next-game-help").hidden = !nextGame;
}
document.getElementById("next-game").addEventListener("click", () => {
  if (nextGame) location.href = `/games/${nextGame}`;
});

async function refresh() {
  const [all, { me, mine }] = await Promise.all([listed("/api/games"), myGames()]);
  if ((me ? me.name : "") !== accountName) {
    accountName = me ? me.name : "";
    // Signed in, "Your name" is the account's.
    if (accountName) fName.value = accountName;
    fName.readOnly = Boolean(accountName);
    showNames();
  }
  document.getElementById("mine-guest").hidden = Boolean(me);
  showInvitations(me);
  showNextGame(mine);
  const now = Date.now() / 1000 + skew;
  const recent = (g) => now - (g.updated ?? g.created);
  const lists = { open: [], running: [], finished: [] };
  for (const g of all) {
    if (g.status === "open" && recent(g) > OPEN_FOR) continue;
    if (g.status === "running" && recent(g) > RUNNING_FOR) continue;
    (lists[g.status] || []).push(g);
  }
  lists.finished.sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
  const fill = (id, games) => {
    const ul = document.getElementById(id);
    // Drawn again only when something in it changed: a refresh must not take away the
    // focus (and with it a date's exact time) from someone reading the list.
    const key = JSON.stringify([shown.has(id), games.map((g) => [g.id, g.status, g.updated, g.your_turn && g.since ? waited(g.since) : g.your_turn, g.seats.map(seatText), clockWords(g.clock)])]);
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
// Only while the lobby is in view: a signed-in request counts as the player being here
// (no turn mail is sent to someone active in the last minute), and a tab left behind
// is not someone reading it. Back in view, the lists are asked for at once.
setInterval(() => { if (!document.hidden) refresh(); }, 10000);
document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
setInterval(redate, 30000);

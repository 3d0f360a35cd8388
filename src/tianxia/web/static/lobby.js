// The lobby: new games, quick games against bots, lists of games, leaderboards.
"use strict";

const form = document.getElementById("new-game");
const fGame = document.getElementById("f-game");
const fPlayers = document.getElementById("f-players");
const fOptions = document.getElementById("f-options");
const fSeats = document.getElementById("f-seats");
const fName = document.getElementById("f-name");
fName.value = Me.name();

function info(name) { return window.GAMES.find((g) => g.name === name); }

function fillPlayers() {
  const g = info(fGame.value);
  fPlayers.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) fPlayers.append(el("option", { value: n, text: n }));
  fPlayers.value = Math.max(g.min_players, Math.min(3, g.max_players));
  fOptions.replaceChildren(fOptions.firstElementChild);
  for (const o of g.options) {
    const sel = el("select", { name: o.name, "data-option": o.name });
    o.choices.forEach((c, i) => sel.append(el("option", { value: i, text: String(c) })));
    sel.value = o.choices.findIndex((c) => c === o.default);
    fOptions.append(el("label", { title: o.help }, o.name + " ", sel));
  }
  fillSeats();
}

function fillSeats() {
  fSeats.replaceChildren(fSeats.firstElementChild);
  const tpl = document.getElementById("seat-choices");
  for (let s = 0; s < Number(fPlayers.value); s++) {
    const sel = el("select", { "data-seat": s });
    sel.append(tpl.content.cloneNode(true));
    sel.value = s === 0 ? "me" : "bot:easy";
    fSeats.append(el("label", {}, "P" + (s + 1) + " ", sel));
  }
}

async function create(game, players, options, plan, clock) {
  const seats = plan.map((p) => (p === "me" ? "open" : p));
  const g = await api("/api/games", { game, players, options, seats, clock });
  // Seats marked "me" are taken by this browser: several of them make a hotseat game.
  for (let s = 0; s < plan.length; s++) if (plan[s] === "me") await join(g.id, s);
  location.href = `/games/${g.id}`;
}

fGame.addEventListener("change", fillPlayers);
fPlayers.addEventListener("change", fillSeats);
form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  Me.setName(fName.value.trim());
  const g = info(fGame.value);
  const options = {};
  for (const sel of fOptions.querySelectorAll("select")) options[sel.dataset.option] = g.options.find((o) => o.name === sel.dataset.option).choices[Number(sel.value)];
  const plan = [...fSeats.querySelectorAll("select")].map((s) => s.value);
  const minutes = Number(document.getElementById("f-clock").value);
  try {
    await create(fGame.value, Number(fPlayers.value), options, plan, minutes > 0 ? minutes * 60 : undefined);
  } catch (e) {
    document.getElementById("f-error").textContent = e.message;
  }
});

for (const b of document.querySelectorAll("button.quick")) {
  b.addEventListener("click", async () => {
    const n = Number(b.dataset.players);
    Me.setName(fName.value.trim());
    const plan = Array.from({ length: n }, (_, i) => (i === 0 ? "me" : "bot:easy"));
    try { await create(b.dataset.game, n, {}, plan); } catch (e) { document.getElementById("f-error").textContent = e.message; }
  });
}

function gameItem(g) {
  const mine = Object.keys(Me.seats(g.id));
  const title = `${g.title} · ${g.seats.map((s) => s.name).join(", ")}`;
  const li = el("li", { "data-game": g.id }, el("a", { href: `/games/${g.id}`, text: title }));
  li.append(" ", el("span", { class: "tag", text: t(g.status) }));
  if (g.your_turn) li.append(" ", el("strong", { class: "tag turn", text: t("your turn") }));
  if (g.status === "finished") li.append(" ", el("a", { href: `/games/${g.id}/replay`, text: t("Replay") }));
  else if (!mine.length) li.append(" ", el("a", { href: `/games/${g.id}`, text: g.status === "open" ? t("Play") : t("Watch") }));
  return li;
}

async function refresh() {
  const [all, mine] = await Promise.all([api("/api/games"), api(`/api/games?player=${Me.player()}`)]);
  const lists = { open: [], running: [], finished: [] };
  for (const g of all) (lists[g.status] || []).push(g);
  const fill = (id, games) => {
    const ul = document.getElementById(id);
    ul.replaceChildren(...(games.length ? games.slice(0, 50).map(gameItem) : [el("li", { class: "none", text: t("No games here yet.") })]));
  };
  fill("mine", mine);
  for (const k of Object.keys(lists)) fill(k, lists[k]);
}

async function leaderboard() {
  const rows = await api(`/api/leaderboard/${document.getElementById("lb-game").value}`);
  const body = document.querySelector("#leaderboard tbody");
  body.replaceChildren(...rows.map((r, i) => el("tr", {}, el("td", { text: i + 1 }), el("td", { text: r.player_name }), el("td", { text: Number(r.ordinal ?? r.rating ?? 0).toFixed(1) }), el("td", { text: r.games ?? "" }))));
}
document.getElementById("lb-game").addEventListener("change", leaderboard);

fillPlayers();
refresh();
leaderboard();
setInterval(refresh, 10000);

// A finished game, decision by decision, as everyone or as one seat saw it. Chance
// (a deal, a die, a revealed tile) is folded into the decision it follows: one step
// forward is one decision and what chance did after it.
"use strict";

const box = document.getElementById("replay");
const gameId = box.dataset.game;
const range = document.getElementById("r-step");
const seatSel = document.getElementById("r-seat");
const byId = (id) => document.getElementById(id);
let marks = null; // {decisions: [step], seats: [seat that made decision k], rounds: [step]}
let k = 0; // where we are: an index into marks.decisions

// The seats' names as at the table, a bot's in the page's language: the "Seen by" list
// holds them from the start, and every step's answer brings them again.
let names = Array.from(seatSel.options).slice(1).map((o) => o.textContent);

// The engine's "P1".."P7" in a sentence, written as the seat's swatch and name.
function withNames(text) {
  const frag = document.createDocumentFragment();
  let last = 0;
  for (const m of String(text).matchAll(/\bP([1-7])\b/g)) {
    const seat = Number(m[1]) - 1;
    if (seat >= names.length) continue;
    frag.append(String(text).slice(last, m.index));
    frag.append(el("span", { class: "who" }, el("span", { class: "swatch seat" + seat, "aria-hidden": "true", text: String(seat + 1) }), names[seat]));
    last = m.index + m[0].length;
  }
  frag.append(String(text).slice(last));
  return frag;
}

function at() { return marks ? marks.decisions[k] : 0; }

async function show(index) {
  const seat = seatSel.value === "" ? "" : `&seat=${seatSel.value}`;
  const first = marks === null;
  const step = first ? 0 : marks.decisions[Math.max(0, Math.min(index, marks.decisions.length - 1))];
  const r = await api(`/api/games/${gameId}/replay?step=${step}&board=true&lang=${window.LANG || document.documentElement.lang}${seat}${first ? "&marks=true" : ""}`);
  if (r.names) names = r.names;
  if (first) {
    marks = r.marks;
    return show(0);
  }
  k = Math.max(0, Math.min(index, marks.decisions.length - 1));
  range.max = marks.decisions.length - 1;
  range.value = k;
  const board = byId("board");
  if (window.Idiomorph && board.firstElementChild) Idiomorph.morph(board, r.board, { morphStyle: "innerHTML" });
  else board.innerHTML = r.board;
  byId("r-where").textContent = t("Decision {k} of {n}", { k, n: marks.decisions.length - 1 });
  byId("log").replaceChildren(...r.events.map((e) => {
    const li = el("li", { value: e.seq }, withNames(e.words || e.text));
    if (r.why[e.seq]) li.append(" ", el("details", {}, el("summary", { text: t("Why?") }), el("pre", { text: r.why[e.seq] })));
    return li;
  }));
  const log = byId("log");
  log.scrollTop = log.scrollHeight;
  const mine = seatSel.value !== "";
  byId("r-prev-mine").disabled = !mine;
  byId("r-next-mine").disabled = !mine;
}

// The decision index where a round starts, before or after the current one.
function roundFrom(dir) {
  const starts = marks.rounds.map((s) => marks.decisions.indexOf(s)).filter((i) => i >= 0);
  if (dir > 0) return starts.find((i) => i > k) ?? marks.decisions.length - 1;
  return [...starts].reverse().find((i) => i < k) ?? 0;
}

// The position just before the chosen seat's next (or previous) own decision.
function mineFrom(dir) {
  const seat = Number(seatSel.value);
  const n = marks.decisions.length;
  if (dir > 0) { for (let i = k + 1; i < n - 1; i++) if (marks.seats[i + 1] === seat) return i; return k; }
  for (let i = k - 1; i >= 0; i--) if (marks.seats[i + 1] === seat) return i;
  return k;
}

const last = () => (marks ? marks.decisions.length - 1 : 0);
byId("r-first").onclick = () => show(0);
byId("r-prev").onclick = () => show(k - 1);
byId("r-next").onclick = () => show(k + 1);
byId("r-last").onclick = () => show(last());
byId("r-prev-round").onclick = () => show(roundFrom(-1));
byId("r-next-round").onclick = () => show(roundFrom(1));
byId("r-prev-mine").onclick = () => show(mineFrom(-1));
byId("r-next-mine").onclick = () => show(mineFrom(1));
range.addEventListener("change", () => show(Number(range.value)));
seatSel.addEventListener("change", () => show(k));
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowRight") show(k + 1);
  if (e.key === "ArrowLeft") show(k - 1);
  if (e.key === "PageDown") show(roundFrom(1));
  if (e.key === "PageUp") show(roundFrom(-1));
  if (e.key === "Home") show(0);
  if (e.key === "End") show(last());
});
if (box.dataset.finished === "1") show(0);

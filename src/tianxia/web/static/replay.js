// A finished game, step by step, as everyone or as one seat saw it.
"use strict";

const box = document.getElementById("replay");
const gameId = box.dataset.game;
const range = document.getElementById("r-step");
const seatSel = document.getElementById("r-seat");
let steps = 0;

async function show(step) {
  const seat = seatSel.value === "" ? "" : `&seat=${seatSel.value}`;
  const r = await api(`/api/games/${gameId}/replay?step=${step}&board=true&lang=${window.LANG}${seat}`);
  steps = r.steps;
  range.max = r.steps;
  range.value = r.step;
  document.getElementById("board").innerHTML = r.board;
  document.getElementById("r-where").textContent = t("Step {step} of {steps}", { step: r.step, steps: r.steps });
  document.getElementById("log").replaceChildren(...r.events.map((e) => {
    const li = el("li", { value: e.seq }, e.text);
    if (r.why[e.seq]) li.append(" ", el("details", {}, el("summary", { text: t("Why?") }), el("pre", { text: r.why[e.seq] })));
    return li;
  }));
  document.getElementById("log").lastElementChild?.scrollIntoView({ block: "nearest" });
}

const at = () => Number(range.value);
document.getElementById("r-first").onclick = () => show(0);
document.getElementById("r-prev").onclick = () => show(Math.max(0, at() - 1));
document.getElementById("r-next").onclick = () => show(Math.min(steps, at() + 1));
document.getElementById("r-last").onclick = () => show(steps);
range.addEventListener("change", () => show(at()));
seatSel.addEventListener("change", () => show(at()));
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowRight") show(Math.min(steps, at() + 1));
  if (e.key === "ArrowLeft") show(Math.max(0, at() - 1));
  if (e.key === "Home") show(0);
  if (e.key === "End") show(steps);
});
if (box.dataset.finished === "1") show(0);

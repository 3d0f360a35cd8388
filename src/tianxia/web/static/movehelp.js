// "What can I do now?": the kinds of move open now, in plain words in the page's language,
// each with a link to its rule on the player rules page. The words come from the title's
// how-to file (`/learn/{game}/moves.json`); the moves open now from the view. Used by the
// table and by a lesson.
"use strict";

const MoveHelp = {
  kinds: new Map(), // game -> the kinds' words and rules, once fetched
  open: false, // kept while views redraw the list

  async load(game) {
    if (!MoveHelp.kinds.has(game)) {
      const lang = window.LANG || document.documentElement.lang || "en";
      const r = await fetch(`/learn/${game}/moves.json?lang=${encodeURIComponent(lang)}`);
      MoveHelp.kinds.set(game, r.ok ? await r.json() : {});
    }
    return MoveHelp.kinds.get(game);
  },

  // A first game's hint line, kept per game in this browser: on for a game started as a
  // first game, until its player turns it off.
  hintsOn(gameId) { return localStorage.getItem("tianxia.hints." + gameId) === "on"; },
  hasHints(gameId) { return localStorage.getItem("tianxia.hints." + gameId) !== null; },
  setHints(gameId, on) { localStorage.setItem("tianxia.hints." + gameId, on ? "on" : "off"); },
  hints: new Map(), // "<game>/<seq>" -> the hint's words, once asked

  // The hint line for the seat whose `secret` this is, at position `seq`: what the easy
  // bot would play in its place, and why. Null for a game that was not a first game.
  hintLine(gameId, secret, seq, redraw) {
    if (!secret || !MoveHelp.hasHints(gameId)) return null;
    const on = MoveHelp.hintsOn(gameId);
    const words = el("span", { class: "hint-words" });
    const toggle = el("button", { type: "button", class: "hint-toggle", "aria-pressed": on ? "true" : "false" },
      on ? t("Turn hints off") : t("Turn hints on"));
    toggle.addEventListener("click", () => { MoveHelp.setHints(gameId, !on); redraw(); });
    const line = el("p", { class: "hint-line", "aria-live": "polite" }, words, " ", toggle);
    if (!on) return line;
    const key = gameId + "/" + seq;
    const say = (text) => { words.textContent = t("Hint: {hint}", { hint: text }); line.dataset.hint = "shown"; };
    if (MoveHelp.hints.has(key)) say(MoveHelp.hints.get(key));
    else {
      words.textContent = t("Thinking of a hint…");
      api(`/api/learn/hint/${gameId}?lang=${encodeURIComponent(window.LANG || document.documentElement.lang || "en")}`, { secret })
        .then((r) => { if (r.hint) { MoveHelp.hints.set(key, r.hint); say(r.hint); } else words.textContent = ""; })
        .catch(() => { words.textContent = ""; });
    }
    return line;
  },

  // A disclosure button for the moves open now: `legal` is the view's list of
  // {action, text}. Each kind is listed once, in the order its first move comes.
  control(game, legal) {
    const box = el("details", { class: "movehelp" });
    if (MoveHelp.open) box.open = true;
    const list = el("ul", { class: "movehelp-list" });
    box.append(el("summary", { text: t("What can I do now?") }), list);
    const fill = async () => {
      const kinds = await MoveHelp.load(game);
      const seen = new Map();
      for (const l of legal) {
        const kind = l.action.split(" ", 1)[0];
        if (!seen.has(kind)) seen.set(kind, l);
      }
      list.replaceChildren(...[...seen].map(([kind, first]) => {
        const k = kinds[kind];
        const item = el("li", { "data-kind": kind });
        if (!k) { item.append(first.text || first.action); return item; }
        item.append(k.words, " ", el("a", { href: `/rules/${game}#${k.rule}`, target: "_blank", text: t("rule {rule}", { rule: k.rule }) }));
        return item;
      }));
    };
    box.addEventListener("toggle", () => {
      MoveHelp.open = box.open;
      if (box.open) fill();
    });
    if (box.open) fill();
    return box;
  },
};

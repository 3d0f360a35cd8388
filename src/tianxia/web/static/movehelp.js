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

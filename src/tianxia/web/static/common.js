// Shared by every page: translated strings, who this browser is, the seats it holds.
"use strict";

// A page's data comes in JSON data blocks (`<script type="application/json" id=...>`),
// never in an inline script: the content security policy runs scripts from /static only.
function pageData(id, otherwise) {
  const block = document.getElementById(id);
  try { return block ? JSON.parse(block.textContent) : otherwise; } catch { return otherwise; }
}

window.LANG = document.documentElement.lang || "en";

// The page's strings: the data block `#strings`.
function strings() {
  if (!window.T) window.T = pageData("strings", {});
  return window.T;
}

function t(text, vars) {
  let out = strings()[text] || text;
  for (const [k, v] of Object.entries(vars || {})) out = out.replaceAll("{" + k + "}", v);
  return out;
}

// A count's sentence: `tn("{n} move", "{n} moves", n, {n})`. The server sends a plural as
// its [one, other] forms under the two English forms joined by U+0004; every language
// the pages speak says "one" for 1 alone.
function tn(one, other, n, vars) {
  const forms = strings()[one + "\u0004" + other] || [one, other];
  let out = forms[n === 1 ? 0 : 1];
  for (const [k, v] of Object.entries(vars || {})) out = out.replaceAll("{" + k + "}", v);
  return out;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c);
  return node;
}

// What a thing drawn on a board is: the nearest SVG title from it up to the board.
function drawnTitle(node, board) {
  for (let n = node; n && n !== board; n = n.parentNode) {
    const title = [...(n.children || [])].find((c) => c.tagName.toLowerCase() === "title");
    if (title) return title.textContent;
  }
  return "";
}

// A long run of amounts of one move (bids, miles): one checked number field with − and
// +, and a button that plays the amount chosen. The table's and the lessons': `o.pick(n)`
// is the move of amount n (or nothing), `o.show(button, move)` writes it on the button,
// `o.play(move)` sends it, `o.blocked()` says a move is on its way, `o.typed(n)` keeps
// what was typed.
function amountField(head, amounts, start, o) {
  const steps = amounts.slice(1).map((a, i) => a - amounts[i]);
  const step = steps.length ? steps.reduce((g, d) => { let a = g, b = d; while (b) [a, b] = [b, a % b]; return a; }) : 1;
  const lo = amounts[0], hi = amounts[amounts.length - 1];
  const id = "amount-" + head.replace(/\W+/g, "-");
  const input = el("input", { type: "number", id, class: "amount", min: lo, max: hi, step, value: start, inputmode: "numeric" });
  // The range in the page's number format ("20.000" in Dutch and German).
  const num = new Intl.NumberFormat(document.documentElement.lang || "en");
  const label = el("label", { for: id, text: t("Amount ({min} to {max})", { min: num.format(lo), max: num.format(hi) }) });
  const words = el("span", { class: "amount-words", "aria-live": "polite" });
  const go = el("button", { class: "move", disabled: o.blocked() });
  const current = () => o.pick(Number(input.value));
  const update = () => {
    if (o.typed) o.typed(Number(input.value));
    const m = current();
    input.setAttribute("aria-invalid", m ? "false" : "true");
    go.disabled = !m || o.blocked();
    words.textContent = m ? "" : t("Not an amount you may choose");
    o.show(go, m);
  };
  const nudge = (dir) => {
    const v = Number(input.value);
    const next = dir > 0 ? amounts.find((a) => a > v) : [...amounts].reverse().find((a) => a < v);
    if (next !== undefined) { input.value = next; update(); }
  };
  input.addEventListener("input", update);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); if (current()) o.play(current()); } });
  go.addEventListener("click", () => { const m = current(); if (m) o.play(m); });
  update();
  return el("span", { class: "move-group stepper", "data-amounts": JSON.stringify(amounts) },
    label,
    // Less, the amount and more wrap as one: a + alone on the next line reads as a move.
    el("span", { class: "amount-set" },
      el("button", { class: "nudge", "aria-label": t("Less"), onclick: () => nudge(-1) }, "−"),
      input,
      el("button", { class: "nudge", "aria-label": t("More"), onclick: () => nudge(1) }, "+")),
    go, words);
}

const Me = {
  // A random identity kept by this browser: the server rates players by it.
  player() {
    let id = localStorage.getItem("tianxia.player");
    if (!id) {
      id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem("tianxia.player", id);
    }
    return id;
  },
  name() { return localStorage.getItem("tianxia.name") || ""; },
  setName(name) { if (name) localStorage.setItem("tianxia.name", name); },
  seats(gameId) {
    const all = JSON.parse(localStorage.getItem("tianxia.seats") || "{}");
    return all[gameId] || {};
  },
  keep(gameId, seat, secret) {
    const all = JSON.parse(localStorage.getItem("tianxia.seats") || "{}");
    all[gameId] = Object.assign(all[gameId] || {}, { [seat]: secret });
    localStorage.setItem("tianxia.seats", JSON.stringify(all));
  },
};

// The signed-in account as `GET /api/me` tells it, asked once per page: null for a guest.
// The session cookie is HttpOnly, so the page learns whether there may be one from the
// server (`data-session` on the header's account link) and a guest's page asks nothing.
const Account = {
  asked: null,
  csrf: "",
  maybe() {
    const link = document.getElementById("account-link");
    return Boolean(link && link.dataset.session);
  },
  async me(fresh) {
    if (!this.maybe()) return null;
    if (!this.asked || fresh) {
      this.asked = fetch("/api/me", { cache: "no-store" }).then(async (r) => {
        if (!r.ok) return null;
        const me = await r.json();
        this.csrf = me.csrf || "";
        return me;
      }).catch(() => null);
    }
    return this.asked;
  },
  // After signing in or up: the reply carries the token; the header names the account.
  signedIn(reply) {
    this.csrf = reply.csrf || "";
    const link = document.getElementById("account-link");
    if (link) link.dataset.session = "1";
    this.asked = null;
  },
  signedOut() {
    this.csrf = "";
    const link = document.getElementById("account-link");
    if (link) delete link.dataset.session;
    this.asked = Promise.resolve(null);
  },
};

// Every request of a page that changes something goes through here: when a session may
// exist it carries the session's token (`X-CSRF-Token`), which another site's forged
// request cannot know, so the server takes it as the player's own.
// `asGuest`: sent without the session's cookie, as a guest's request (a hotseat game's
// other people, at the signed-in player's device).
async function request(method, path, body, asGuest) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET" && Account.maybe() && !asGuest) {
    if (!Account.csrf) await Account.me();
    if (Account.csrf) headers["x-csrf-token"] = Account.csrf;
  }
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  if (asGuest) init.credentials = "omit";
  return fetch(path, init);
}

// The server speaks English; the sentences it refuses an account's request with are
// templates of the catalogues, their values read back from its text.
const SERVER_SENTENCES = [
  [/^the name or the password is wrong$/, () => t("the name or the password is wrong")],
  [/^the server is checking many passwords just now: try again in a second$/, () => t("the server is checking many passwords just now: try again in a second")],
  [/^not signed in$/, () => t("not signed in")],
  [/^a name has 1 to (\d+) characters$/, (m) => t("a name has 1 to {n} characters", { n: m[1] })],
  [/^a name has letters, digits, spaces, '-', '_' and '\.' only$/, () => t("a name has letters, digits, spaces, '-', '_' and '.' only")],
  [/^a name has at least one letter or digit$/, () => t("a name has at least one letter or digit")],
  [/^a name may not pose as a bot$/, () => t("a name may not pose as a bot")],
  [/^a name may not pose as a guest or an empty seat$/, () => t("a name may not pose as a guest or an empty seat")],
  [/^that is not an e-mail address$/, () => t("that is not an e-mail address")],
  [/^a password has at least (\d+) characters$/, (m) => t("a password has at least {n} characters", { n: m[1] })],
  [/^the name '(.+)' is taken$/, (m) => t("the name '{name}' is taken", { name: m[1] })],
  [/^too many wrong passwords: try again in (\d+) s$/, (m) => t("too many wrong passwords: try again in {n} s", { n: m[1] })],
  [/^this address has created (\d+) accounts in the last hour: try again in (\d+) s$/, (m) => t("this address has created {count} accounts in the last hour: try again in {n} s", { count: m[1], n: m[2] })],
  [/^this address has asked for (\d+) password resets in the last hour: try again in (\d+) s$/, (m) => t("this address has asked for {count} password resets in the last hour: try again in {n} s", { count: m[1], n: m[2] })],
  [/^this account has been sent (\d+) verification mails in the last hour: try again in (\d+) s$/, (m) => t("this account has been sent {count} verification mails in the last hour: try again in {n} s", { count: m[1], n: m[2] })],
  [/^the old password is wrong$/, () => t("the old password is wrong")],
  [/^the password is wrong$/, () => t("the password is wrong")],
  [/^give the account's name or its e-mail address$/, () => t("give the account's name or its e-mail address")],
  [/^this link is used, or older than an hour: ask for a new one$/, () => t("this link is used, or older than an hour: ask for a new one")],
  [/^no account is named '(.+)': nobody to invite$/, (m) => t("no account is named '{name}': nobody to invite", { name: m[1] })],
  [/^seat (\d+) is kept for the player invited to it, signed in$/, (m) => t("seat {n} is kept for the player invited to it, signed in", { n: m[1] })],
  [/^a page of another site may not do this$/, () => t("a page of another site may not do this")],
];

// One of those in the page's language, begun with a capital; another sentence as sent.
function serverSentence(text) {
  for (const [form, say] of SERVER_SENTENCES) {
    const m = form.exec(text);
    if (m) {
      const said = say(m);
      return said.charAt(0).toUpperCase() + said.slice(1);
    }
  }
  return text;
}

// The server's refusal as one sentence, in the page's language where it has one.
function refusalText(r, data) {
  let why = data.detail;
  if (why && typeof why === "object" && !Array.isArray(why)) why = why.reason || why.msg;
  if (Array.isArray(why)) why = why.map((d) => d.msg).join("; ");
  return typeof why === "string" && why ? serverSentence(why) : r.statusText;
}

async function api(path, body, method, asGuest) {
  const verb = method || (body === undefined ? "GET" : "POST");
  let r = await request(verb, path, body, asGuest);
  let data = await r.json().catch(() => ({}));
  if (r.status === 403 && !asGuest && /X-CSRF-Token/.test(String(data.detail)) && Account.maybe()) {
    // Signed in again in another tab (a new session, a new token): ask for it once more.
    await Account.me(true);
    r = await request(verb, path, body, asGuest);
    data = await r.json().catch(() => ({}));
  }
  if (!r.ok) {
    const e = new Error(refusalText(r, data));
    e.status = r.status;
    throw e;
  }
  return data;
}

async function join(gameId, seat) {
  const name = Me.name() || "P" + (Number(seat) + 1);
  const r = await api(`/api/games/${gameId}/join`, { seat: Number(seat), name, player: Me.player() });
  Me.keep(gameId, r.seat, r.secret);
  return r;
}

// The header names the signed-in account (a link to its settings), or offers to sign in
// when the session has ended.
async function nameInHeader() {
  const link = document.getElementById("account-link");
  if (!link || !Account.maybe()) return;
  const me = await Account.me();
  if (me) {
    link.textContent = me.name;
    link.href = "/account/settings";
  } else {
    link.textContent = t("Sign in");
    link.href = "/account";
    delete link.dataset.session;
  }
}

// A sentence kept for the next page (after signing in, the lobby says how many seats
// this browser's account took over), shown once at the top of the page.
function tellNextPage(text) { sessionStorage.setItem("tianxia.notice", text); }
function showToldNotice() {
  const text = sessionStorage.getItem("tianxia.notice");
  const main = document.getElementById("main");
  if (!text || !main) return;
  sessionStorage.removeItem("tianxia.notice");
  main.prepend(el("p", { class: "notice", role: "status", id: "notice", text }));
}

nameInHeader();
showToldNotice();

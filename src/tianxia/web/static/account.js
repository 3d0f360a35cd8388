// The account's pages: signing in and up, a forgotten password, a new password from a
// reset mail's link, and the signed-in account's settings.
"use strict";

const $ = (id) => document.getElementById(id);

// Where to go once signed in: the page that sent the player here (a path of this site
// only, never another site's address), else the lobby.
function nextPage() {
  const next = new URLSearchParams(location.search).get("next") || "";
  return next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

// The seats this browser holds as a guest become the account's (`POST /api/me/claim`):
// "my games" then shows them on every device. Of a hotseat game (several seats held
// here) only the first is the player's, as the lobby's form makes it: the others are the
// other people at the device, and stay theirs.
async function claimThisBrowsersSeats() {
  let all = {};
  try { all = JSON.parse(localStorage.getItem("tianxia.seats") || "{}"); } catch { all = {}; }
  const seats = [];
  for (const [game, held] of Object.entries(all)) {
    const first = Object.keys(held || {}).map(Number).filter(Number.isInteger).sort((a, b) => a - b)[0];
    const secret = first === undefined ? null : held[first];
    if (typeof secret === "string") seats.push({ game, secret });
  }
  if (!seats.length) return null;
  // The server takes at most 500 at once; the newest are last in the browser's list.
  const r = await api("/api/me/claim", { seats: seats.slice(-500) });
  return Number(r.claimed) || 0;
}

const LANGS = ["en", "nl", "de"];

async function afterSigningIn(reply, signedUp) {
  Account.signedIn(reply);
  // A new account's mails speak the language its player signed up in.
  if (signedUp && LANGS.includes(window.LANG)) {
    try { await api("/api/me", { settings: { language: window.LANG } }, "PATCH"); } catch { /* the default stays */ }
  }
  await Account.me(true);
  let claimed = null;
  try { claimed = await claimThisBrowsersSeats(); } catch { claimed = null; }
  const said = [t("Signed in as {name}.", { name: reply.name })];
  if (claimed !== null) {
    said.push(tn("{n} seat this browser held is now your account's.", "{n} seats this browser held are now your account's.", claimed, { n: claimed }));
  }
  tellNextPage(said.join(" "));
  location.href = nextPage();
}

// What is wrong with a field before anything is sent: said, and the field gets the focus.
function problem(text, field) {
  const e = new Error(text);
  e.field = field;
  return e;
}

// A form's button is disabled while its request is on its way: a double press sends once.
function handle(form, errorId, work) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const error = $(errorId);
    error.textContent = "";
    for (const field of form.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await work();
    } catch (e) {
      error.textContent = e.message;
      if (e.field) {
        e.field.setAttribute("aria-invalid", "true");
        e.field.focus();
      }
    } finally {
      button.disabled = false;
    }
  });
}

// --- signing in and up, a forgotten password ----------------------------------------------
// Already signed in: the account's page is its settings (a verified address's landing
// says so first).
if ($("account-page") && Account.maybe()) {
  Account.me().then((me) => {
    if (me && !$("verified")) location.replace(nextPage() === "/" ? "/account/settings" : nextPage());
  });
}

if ($("signin")) {
  handle($("signin"), "signin-error", async () => {
    const name = $("in-name").value.trim();
    const password = $("in-password").value;
    if (!name || !password) throw problem(t("Give your name and your password."), name ? $("in-password") : $("in-name"));
    await afterSigningIn(await api("/api/session", { name, password }));
  });
}

if ($("signup")) {
  handle($("signup"), "signup-error", async () => {
    const name = $("up-name").value.trim();
    const password = $("up-password").value;
    const email = $("up-email").value.trim();
    if (!name) throw problem(t("Choose a name."), $("up-name"));
    if (password.length < 8) throw problem(t("The password needs at least 8 characters."), $("up-password"));
    const body = { name, password };
    if (email) body.email = email;
    await afterSigningIn(await api("/api/accounts", body), true);
  });
}

if ($("reset-ask")) {
  handle($("reset-ask"), "reset-error", async () => {
    const who = $("reset-who").value.trim();
    $("reset-sent").textContent = "";
    if (!who) throw problem(t("Give your name or your e-mail address."), $("reset-who"));
    await api("/api/password-reset", who.includes("@") ? { email: who } : { name: who });
    // The server says the same whether or not such an account exists.
    $("reset-sent").textContent = t("If an account of that name or address has a verified e-mail address, a mail with a link to choose a new password is on its way. The link works for one hour.");
  });
}

if ($("reset")) {
  const form = $("reset");
  handle(form, "reset-error", async () => {
    const password = $("new-password").value;
    $("reset-done").textContent = "";
    if (!form.dataset.token) throw new Error(t("This link has no key: open the link of the mail again."));
    if (password.length < 8) throw problem(t("The password needs at least 8 characters."), $("new-password"));
    if (password !== $("new-password-again").value) throw problem(t("The two passwords differ."), $("new-password-again"));
    await api("/api/password-reset/confirm", { token: form.dataset.token, password });
    $("reset-done").textContent = t("Your password is changed: sign in with it.");
    form.querySelectorAll("input, button").forEach((n) => { n.disabled = true; });
  });
}

// --- the account's settings -----------------------------------------------------------------
const NOTIFY = ["turn", "start", "end", "invite"];

function showAddress(me) {
  $("s-email").value = me.email || "";
  const mail = $("settings-page").dataset.mail === "1";
  let state;
  if (!me.email) state = t("No address: no mail is sent to you.");
  else if (me.email_verified) state = t("Verified.");
  else state = mail ? t("Not verified yet: open the link in the mail sent to this address.") : t("Not verified yet. This server sends no mail at present.");
  $("s-email-state").textContent = state;
  $("s-email-state").classList.toggle("unverified", Boolean(me.email && !me.email_verified));
  $("s-resend").hidden = !(me.email && !me.email_verified && mail);
}

function showSettings(me) {
  $("s-name").textContent = me.name;
  showAddress(me);
  const settings = me.settings || {};
  const notify = settings.notify || {};
  const form = $("notify-form");
  for (const kind of NOTIFY) form.elements[kind].checked = Boolean(notify[kind]);
  form.querySelector(`input[name=digest][value="${settings.digest ? 1 : 0}"]`).checked = true;
  $("s-language").value = settings.language || window.LANG;
}

async function settingsPage() {
  const me = await Account.me(true);
  if (!me) {
    location.href = "/account?next=" + encodeURIComponent(location.pathname);
    return;
  }
  showSettings(me);
  $("settings-wait").hidden = true;
  $("settings").hidden = false;
  const asked = new URLSearchParams(location.search);
  if (asked.get("saved") === "1") {
    $("notify-done").textContent = t("Saved.");
    asked.delete("saved");
    history.replaceState(null, "", location.pathname + (asked.toString() ? "?" + asked : ""));
  }

  handle($("email-form"), "email-error", async () => {
    $("email-done").textContent = "";
    const email = $("s-email").value.trim();
    const now = await api("/api/me", { email: email || null }, "PATCH");
    const again = await Account.me(true);
    showAddress(again || now);
    $("email-done").textContent = email ? t("Saved. A mail with a link to verify the address is on its way.") : t("Saved: no address.");
  });

  $("s-resend").addEventListener("click", async () => {
    const button = $("s-resend");
    $("email-done").textContent = "";
    $("email-error").textContent = "";
    button.disabled = true;
    try {
      // To the address as saved (not as typed in the field, which "Save" changes).
      await api("/api/me/verify", {});
      $("email-done").textContent = t("A new link is on its way.");
    } catch (e) {
      $("email-error").textContent = e.message;
    } finally {
      const again = await Account.me(true);
      if (again) showAddress(again);
      button.disabled = false;
    }
  });

  handle($("notify-form"), "notify-error", async () => {
    $("notify-done").textContent = "";
    const form = $("notify-form");
    const notify = {};
    for (const kind of NOTIFY) notify[kind] = form.elements[kind].checked;
    const language = $("s-language").value;
    const digest = form.querySelector("input[name=digest]:checked").value === "1";
    await api("/api/me", { settings: { notify, digest, language } }, "PATCH");
    if (language !== window.LANG) {
      // The page itself in the chosen language (the switch's cookie is set by the
      // server), saying in it that the settings are saved.
      location.href = `/account/settings?lang=${encodeURIComponent(language)}&saved=1`;
      return;
    }
    $("notify-done").textContent = t("Saved.");
  });

  handle($("password-form"), "password-error", async () => {
    $("password-done").textContent = "";
    const old = $("s-old").value;
    const fresh = $("s-new").value;
    if (fresh.length < 8) throw problem(t("The password needs at least 8 characters."), $("s-new"));
    await api("/api/me/password", { old, new: fresh });
    $("s-old").value = "";
    $("s-new").value = "";
    $("password-done").textContent = t("Your password is changed.");
  });

  $("s-signout").addEventListener("click", async () => {
    $("s-signout").disabled = true;
    try {
      await api("/api/session", undefined, "DELETE");
    } finally {
      Account.signedOut();
      tellNextPage(t("You are signed out."));
      location.href = "/";
    }
  });

  handle($("delete-form"), "delete-error", async () => {
    const password = $("d-password").value;
    if (!password) throw problem(t("Give your password to confirm."), $("d-password"));
    await api("/api/me", { password }, "DELETE");
    Account.signedOut();
    tellNextPage(t("Your account is deleted."));
    location.href = "/";
  });
}

if ($("settings-page")) settingsPage();

// Sudoku Arena: the account page (/account: sign up, sign in and out, change the
// password, export, delete) and the header's link to it on every page that has one.

import { showMyGames } from "./mygames.js";
import { $, $input, ApiError, api, device, formReady } from "./util.js";

/**
 * The answer of GET /api/account and of the account's changes.
 * @typedef {{signed_in: boolean, id: number | null, name: string | null,
 *   csrf: string | null, linked_seats: number}} AccountInfo
 */

/** @returns {Promise<AccountInfo>} */
async function whoAmI() {
  return /** @type {AccountInfo} */ (await api("/api/account"));
}

/**
 * The header's link: "Sign in", or the signed-in name (as text, whatever it holds).
 * Pages without the link are left alone. The style sheet keeps it invisible until
 * ``data-known`` is set, so a signed-in person does not see "Sign in" flash first.
 */
export async function accountLink() {
  const link = document.getElementById("account-link");
  if (!link) return;
  try {
    const me = await whoAmI();
    link.textContent = me.signed_in && me.name ? me.name : "Sign in";
    link.title = me.signed_in ? "your account" : "sign in or make an account (optional)";
  } catch (e) { /* the link still leads to the page */ }
  link.dataset.known = "1";
}

/**
 * Shows the refusal or the news on the page (text only).
 * @param {string} text
 * @param {boolean} [good]
 */
function say(text, good) {
  const err = $("account-error");
  const news = $("account-news");
  err.hidden = good === true || !text;
  news.hidden = good !== true || !text;
  (good ? news : err).textContent = text;
}

/** @param {AccountInfo} me */
function show(me) {
  $("guest-box").hidden = me.signed_in;
  $("member-box").hidden = !me.signed_in;
  $("account-name").textContent = me.name || "";
  if (me.name) $("profile-link").setAttribute("href", `/players/${encodeURIComponent(me.name)}`);
  $("account-status").textContent = me.signed_in
    ? `Signed in as ${me.name}.` : "You are playing as a guest.";
  const link = document.getElementById("account-link");
  if (link) link.textContent = me.signed_in && me.name ? me.name : "Sign in";
  if (me.signed_in) void showMyGames();  // just signed in here: the games appear at once
}

/**
 * Runs one of the page's requests: the answer shown (the form's passwords cleared), or
 * its refusal said. A wrong password is said in the page's words: the API names its
 * field ("old_password: that is not the password"), which a person never saw.
 * @param {() => Promise<unknown>} ask
 * @param {string} done what to say once it worked
 * @param {string} [form] the form whose password fields are emptied once it worked
 */
async function run(ask, done, form) {
  try {
    const me = /** @type {AccountInfo} */ (await ask());
    show(me);
    const joined = me.linked_seats ? ` ${me.linked_seats} seat(s) played here joined the account.` : "";
    say(done + joined, true);
    if (form) /** @type {HTMLFormElement} */ ($(form)).reset();
  } catch (e) {
    const wrong = e instanceof ApiError && e.code === "bad_credentials" && form;
    say(wrong ? "That is not your password: nothing was changed."
      : e instanceof Error ? e.message : String(e));
  }
}

/**
 * @param {string} id
 * @param {() => Promise<void>} submit
 */
function onSubmit(id, submit) {
  $(id).addEventListener("submit", (ev) => { ev.preventDefault(); void submit(); });
}

/** The account page. */
export async function account() {
  bindForms();
  try { show(await whoAmI()); } catch (e) { say(e instanceof Error ? e.message : String(e)); }
}

/** The forms' handlers, bound before anything is awaited (see formReady). */
function bindForms() {
  onSubmit("signin-form", () => run(() => api("/api/account/signin", {
    json: { name: $input("signin-name").value, password: $input("signin-password").value, device: device() },
  }), "Signed in."));
  onSubmit("signup-form", () => run(() => api("/api/account/signup", {
    json: { name: $input("signup-name").value, password: $input("signup-password").value, device: device() },
  }), "Your account is made; you are signed in."));
  $("signout").addEventListener("click", () => {
    void run(() => api("/api/account/signout", { json: {} }), "Signed out.");
  });
  onSubmit("password-form", () => run(() => api("/api/account/password", {
    json: { old_password: $input("old-password").value, new_password: $input("new-password").value },
  }), "The password is changed; other browsers are signed out.", "password-form"));
  onSubmit("delete-form", async () => {
    if (!confirm("Delete your account for good? Your games stay, without your name.")) return;
    await run(() => api("/api/account", {
      method: "DELETE", json: { password: $input("delete-password").value },
    }), "The account is deleted.", "delete-form");
  });
  for (const form of ["signin-form", "signup-form", "password-form", "delete-form"]) formReady(form);
}

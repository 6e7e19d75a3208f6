// Sudoku Arena home page: challenges to a named player (server/challenges.py). The
// challenger names an account under "Play now" (the game, clock and Rated chosen there)
// and waits here; the challenged player, signed in, sees the challenge in the same panel
// and accepts (both pages open the game) or declines. A module beside arena.js.

import { chosenClock } from "./seek.js";
import { $, $input, api, csrfToken, el, formReady } from "./util.js";

/**
 * A challenge as the API answers it (the parts used).
 * @typedef {{id: string, challenger: string, opponent: string, game: string, rated: boolean,
 *   status: string, url?: string, token?: string}} Challenge
 */

/** @type {{id: string, token: string} | null} the challenge this page waits on */
let waiting = null;

/** @param {string} text */
function say(text) {
  $("challenge-status").textContent = text;
}

function showButtons() {
  $("challenge-start").hidden = waiting !== null;
  $("challenge-cancel").hidden = waiting === null;
}

/** Polls the challenge this page made until it is answered, then opens the game. */
async function follow() {
  while (waiting) {
    const mine = waiting;
    await new Promise((r) => setTimeout(r, 2000));
    if (waiting !== mine) return;
    let data;
    try {
      const answer = await fetch(`/api/challenges/${encodeURIComponent(mine.id)}`,
        { headers: { "x-challenge-token": mine.token } });
      if (!answer.ok) continue;
      data = /** @type {Challenge} */ (await answer.json());
    } catch (e) { continue; }
    if (data.status === "accepted" && data.url) {
      say(`${data.opponent} accepted: opening the game…`);
      location.href = data.url;
      return;
    }
    if (data.status !== "open") {
      say(`${data.opponent} ${data.status === "declined" ? "declined" : "did not answer"} the challenge.`);
      waiting = null;
      showButtons();
    }
  }
}

/** @param {string} game */
function gameName(game) {
  const opt = /** @type {HTMLOptionElement | null} */ (
    document.querySelector(`#seek-game option[value="${CSS.escape(game)}"]`));
  return opt ? opt.text : game;
}

/** Shows the open challenges to the signed-in player, each with Accept and Decline. */
async function incoming() {
  if (!csrfToken()) return false; // a guest (no session): nobody can challenge a guest
  let list;
  try {
    list = /** @type {Challenge[]} */ (await api("/api/challenges"));
  } catch (e) { return false; }
  const box = $("challenges");
  box.textContent = "";
  box.hidden = list.length === 0;
  for (const c of list) {
    /** @param {string} how */
    const reply = async (how) => {
      try {
        const done = /** @type {Challenge} */ (
          await api(`/api/challenges/${encodeURIComponent(c.id)}/${how}`, { json: {} }));
        if (done.url) { location.href = done.url; return; }
      } catch (e) { say(/** @type {Error} */ (e).message); }
      void incoming();
    };
    box.append(el("li", { class: "challenge" },
      el("span", { text: `${c.challenger} challenges you: ${gameName(c.game)}${c.rated ? ", rated" : ""} ` }),
      el("button", { class: "primary", type: "button", text: "Accept", onclick: () => reply("accept") }),
      " ",
      el("button", { type: "button", text: "Decline", onclick: () => reply("decline") })));
  }
  return true;
}

async function start() {
  const wanted = new URLSearchParams(location.search).get("challenge");
  if (wanted) {
    $input("challenge-name").value = wanted;
    $("play-now").scrollIntoView();
  }
  $("challenge-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const opponent = $input("challenge-name").value.trim();
    if (!opponent) { say("Type the user name of the player to challenge."); return; }
    // The server keeps a challenge to any name for a day: a mistyped one would wait in vain.
    const known = await fetch(`/api/players/${encodeURIComponent(opponent)}`);
    if (known.status === 404) { say(`Nobody is called ${opponent} here: check the user name.`); return; }
    /** @type {Record<string, unknown>} */
    const body = { opponent, game: $input("seek-game").value, rated: $input("seek-rated").checked };
    const clock = chosenClock();
    if (clock) body.clock = clock;
    try {
      const made = /** @type {Challenge & {token: string}} */ (await api("/api/challenges", { json: body }));
      waiting = { id: made.id, token: made.token };
      say(`Challenge sent: waiting for ${opponent} to accept (it is shown on their home page).`);
      showButtons();
      void follow();
    } catch (e) {
      say(/** @type {Error} */ (e).message);
    }
  });
  formReady("challenge-form");
  $("challenge-cancel").addEventListener("click", () => {
    waiting = null;
    say("Stopped waiting; the challenge stays open for a day.");
    showButtons();
  });
  // The challenges to this player, looked at again every 15 s while the page is open.
  if (await incoming()) setInterval(() => { if (!document.hidden) void incoming(); }, 15000);
}

if (document.body.dataset.page === "home") start();

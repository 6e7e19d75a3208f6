// Sudoku Arena home page: "Play now" (a seek: the server pairs it with another player's
// compatible seek and opens the game for both) and the bots' ratings shown beside their
// levels in the new-game form ("normal, about 1500"). A module beside arena.js.

import { $, $input, ApiError, api, csrfToken, el, formReady } from "./util.js";

/**
 * What GET /api/seeks/{id} answers (server/seeks.py), the parts used.
 * @typedef {{id: string, status: string, game_id: string | null, url?: string}} Seek
 */

/** @type {Partial<Record<string, Partial<Record<string, number>>>>} game -> level -> rating */
const botRatings = {};

/**
 * Load the rated bot levels' ratings of ``games`` (GET /api/bots/{game}/ratings).
 * @param {string[]} games
 */
export async function loadBotRatings(games) {
  await Promise.all(games.map(async (g) => {
    try {
      botRatings[g] = /** @type {Record<string, number>} */ (
        await api(`/api/bots/${encodeURIComponent(g)}/ratings`));
    } catch (e) { /* shown without ratings */ }
  }));
}

/**
 * ", about 1500" for a rated level of ``game``, else "".
 * @param {string} game
 * @param {string} level
 */
export function ratedLabel(game, level) {
  const r = (botRatings[game] || {})[level];
  return r === undefined ? "" : `, about ${r}`;
}

/**
 * The Play now form's clock as the API takes it: {minutes, increment} ("5+3"), {days}
 * per move for a correspondence game ("3d"), or null (untimed). Challenges use it too.
 * @returns {{minutes: number, increment: number} | {days: number} | null}
 */
export function chosenClock() {
  const clock = $input("seek-clock").value;
  if (!clock) return null;
  if (clock.endsWith("d")) return { days: parseInt(clock, 10) };
  const [minutes, increment] = clock.split("+").map(Number);
  return { minutes, increment };
}

/**
 * A refusal in the page's words: a guest asking for a rated game is told where to sign
 * in (the API's "make it with rated false" names a field, not the Rated box).
 * @param {unknown} e
 * @param {string} [instead] what else a guest may do ("untick Rated" by default)
 */
export function refusal(e, instead) {
  if (e instanceof ApiError && e.code === "sign_in_required") {
    return `Rated games are for signed-in players: sign in (top right), or ${instead || "untick Rated"}.`;
  }
  return e instanceof Error ? e.message : String(e);
}

/** @type {{id: string, token: string} | null} the seek this page waits on */
let waiting = null;

/** @param {string} text */
function say(text) {
  $("seek-status").textContent = text;
}

/**
 * GET or DELETE (cancel) the seek with its secret token in the X-Seek-Token header.
 * @param {{id: string, token: string}} seek
 * @param {string} method
 * @param {number} wait
 */
async function call(seek, method, wait) {
  /** @type {Record<string, string>} */
  const headers = { "x-seek-token": seek.token };
  const csrf = csrfToken();
  if (csrf && method !== "GET") headers["x-csrf-token"] = csrf;
  return fetch(`/api/seeks/${encodeURIComponent(seek.id)}?wait=${wait}`, { method, headers });
}

/** Wait (long polls of 25 s) until the seek is paired, then open the game. */
async function follow() {
  while (waiting) {
    const seek = waiting;
    let answer;
    try {
      answer = await call(seek, "GET", 25);
    } catch (e) {
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    if (!answer.ok || waiting !== seek) break;
    const data = /** @type {Seek} */ (await answer.json());
    if (data.status === "paired" && data.url) {
      say("Opponent found: opening the game…");
      location.href = data.url;
      return;
    }
    if (data.status !== "open" && data.status !== "pairing") {
      say(`The seek is ${data.status}.`);
      break;
    }
  }
  waiting = null;
  showButtons();
}

function showButtons() {
  $("seek-start").hidden = waiting !== null;
  $("seek-cancel").hidden = waiting === null;
}

async function start() {
  /** @type {import("./types.js").GameFacts[]} */
  let games = [];
  try {
    games = /** @type {import("./types.js").GameFacts[]} */ (await api("/api/games"));
  } catch (e) { return; }
  const sel = $input("seek-game");
  for (const g of games) {
    if (g.max_players >= 2) sel.append(el("option", { value: g.id, text: g.name }));
  }
  const players = $input("seek-players");
  // The player counts the chosen game is played with (two or more: a seek finds others).
  const counts = () => {
    const g = games.find((x) => x.id === sel.value);
    players.textContent = "";
    if (!g) return;
    for (let n = Math.max(2, g.min_players); n <= g.max_players; n++) {
      players.append(el("option", { value: n, text: n }));
    }
  };
  sel.addEventListener("change", counts);
  counts();
  $("seek-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    /** @type {Record<string, unknown>} */
    const body = { game: sel.value, players: parseInt(players.value, 10),
      rated: $input("seek-rated").checked };
    const clock = chosenClock();
    if (clock) body.clock = clock;
    const range = $input("seek-range").value;
    if (range) body.range = parseInt(range, 10);
    try {
      const made = /** @type {Seek & {token: string}} */ (await api("/api/seeks", { json: body }));
      waiting = { id: made.id, token: made.token };
      say("Waiting for an opponent…");
      showButtons();
      follow();
    } catch (e) {
      say(refusal(e, "untick Rated and seek anybody"));
    }
  });
  formReady("seek-form");
  $("seek-cancel").addEventListener("click", async () => {
    const seek = waiting;
    if (!seek) return;
    waiting = null;
    await call(seek, "DELETE", 0);
    say("Seek cancelled.");
    showButtons();
  });
}

if (document.body.dataset.page === "home") start();

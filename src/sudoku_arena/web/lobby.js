// Sudoku Arena home page: the lobby (public games waiting for a player, joined with one
// click) and the list of public games with dates, filters and pages. Private games
// (invite links) are never listed by the server. A module beside arena.js (the form
// above the lists is home.js's).

import { $, $input, api, device, el } from "./util.js";

const PER_PAGE = 10;

/**
 * What /api/lobby and /api/matches list (models.py), the parts shown.
 * @typedef {{id: string, name: string, players: string[], open_seats: {name: string}[],
 *   clock: string | null, created: number}} OpenGame
 * @typedef {{id: string, game: string, players: string[], status: string,
 *   outcome: {reason: string} | null, clock: string | null, created: number,
 *   updated: number}} Listed
 */

/** @param {number} seconds */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined,
    { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** @type {Partial<Record<string, string>>} the games' names by id */
let names = {};

// -- lobby ----------------------------------------------------------------------------

/**
 * @param {string} id
 * @param {HTMLButtonElement} button
 */
async function join(id, button) {
  button.disabled = true;
  try {
    const made = /** @type {{url: string}} */ (await api(`/api/matches/${encodeURIComponent(id)}/join`,
      { json: { device: device() } }));
    location.href = made.url;
  } catch (e) {
    $("lobby-error").textContent = /** @type {Error} */ (e).message;
    $("lobby-error").hidden = false;
    button.disabled = false;
    loadLobby();
  }
}

async function loadLobby() {
  const list = $("lobby");
  /** @type {OpenGame[]} */
  let games;
  try {
    games = /** @type {OpenGame[]} */ (await api("/api/lobby"));
  } catch (e) {
    list.textContent = "";
    list.append(el("li", { class: "muted", text: "Could not load the open games: " + /** @type {Error} */ (e).message }));
    return;
  }
  list.textContent = "";
  if (!games.length) list.append(el("li", { class: "muted", text: "No open games right now: start one and list it publicly." }));
  for (const g of games) {
    const open = g.open_seats.map((s) => s.name).join(", ");
    const button = el("button", { type: "button", class: "primary", text: "Join",
      "aria-label": `Join ${g.name}: ${g.players.join(" vs ")}` });
    button.addEventListener("click", () => join(g.id, button));
    list.append(el("li", { class: "lobby-game" },
      el("span", { class: "lobby-what", text: `${g.name}: ${g.players.join(" vs ")}` }),
      el("span", { class: "muted small", text: ` · seat open: ${open}` +
        (g.clock ? ` · clock ${g.clock}` : " · no clock") + ` · since ${when(g.created)} ` }),
      button));
  }
}

// -- the games list ----------------------------------------------------------------------

let page = 1;

async function loadGames() {
  const params = new URLSearchParams({ page: String(page), per_page: String(PER_PAGE) });
  const game = $input("list-game").value;
  const status = $input("list-status").value;
  if (game) params.set("game", game);
  if (status) params.set("status", status);
  const list = $("recent");
  /** @type {{games: Listed[], total: number}} */
  let data;
  try {
    data = /** @type {{games: Listed[], total: number}} */ (await api("/api/matches?" + params));
  } catch (e) {
    list.textContent = "";
    list.append(el("li", { class: "muted", text: "Could not load the games: " + /** @type {Error} */ (e).message }));
    return;
  }
  list.textContent = "";
  if (!data.games.length) list.append(el("li", { class: "muted", text: "No games to show." }));
  for (const r of data.games) {
    const done = r.status === "finished";
    const result = done && r.outcome ? ` · ${r.outcome.reason}` : "";
    list.append(el("li", {},
      el("span", { text: `${names[r.game] || r.game}: ${r.players.join(" vs ")} ` }),
      el("span", { class: "muted small", text: (done ? `finished ${when(r.updated)}` :
        `in play, started ${when(r.created)}`) + (r.clock ? ` · clock ${r.clock}` : "") + result + " " }),
      el("a", { href: done ? `/replay/${r.id}` : `/play/${r.id}`, text: done ? "replay" : "watch" })));
  }
  const pages = Math.max(1, Math.ceil(data.total / PER_PAGE));
  $("list-page").textContent = `Page ${page} of ${pages} (${data.total} game${data.total === 1 ? "" : "s"})`;
  /** @type {HTMLButtonElement} */ ($("list-prev")).disabled = page <= 1;
  /** @type {HTMLButtonElement} */ ($("list-next")).disabled = page >= pages;
}

async function start() {
  try {
    const games = /** @type {import("./types.js").GameFacts[]} */ (await api("/api/games"));
    names = Object.fromEntries(games.map((g) => [g.id, g.name]));
    for (const g of games) $("list-game").append(el("option", { value: g.id, text: g.name }));
  } catch (e) { /* the list shows game ids instead of names */ }
  $("list-game").addEventListener("change", () => { page = 1; loadGames(); });
  $("list-status").addEventListener("change", () => { page = 1; loadGames(); });
  $("list-prev").addEventListener("click", () => { page = Math.max(1, page - 1); loadGames(); });
  $("list-next").addEventListener("click", () => { page += 1; loadGames(); });
  loadLobby();
  loadGames();
  setInterval(loadLobby, 15000);
}

if (document.body.dataset.page === "home") start();

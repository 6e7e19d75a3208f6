// Sudoku Arena: "Your games", a signed-in person's games on the home and account pages
// (GET /api/account/games), from any device. A seat's token lives only in the browser
// that got it: opening a game here takes the seat back on this device
// (POST /api/matches/{id}/seats/{seat}/resume: a fresh token; the device that had the
// seat is told and loses it), then opens the game with the new token.

import { $, api, csrfToken, device, el } from "./util.js";

/**
 * One game of GET /api/account/games (server/my_games.py's MyGame).
 * @typedef {{id: string, game: string, name: string, seats: number[], opponents: string[],
 *   status: string, your_turn: boolean, clock: string | null, updated: number,
 *   url: string}} MyGame
 */

/** @param {MyGame} g @returns {string} */
function words(g) {
  const against = g.opponents.length ? ` against ${g.opponents.join(", ")}` : "";
  const clock = g.clock ? ` · ${g.clock}` : "";
  const state = g.status === "active" ? "" : " · finished";
  return `${g.name}${against}${clock}${state}`;
}

/** Takes the game's (first) seat back on this device and opens the game. @param {MyGame} g */
async function open(g) {
  const status = $("my-games-status");
  status.textContent = "Opening the game…";
  try {
    const made = /** @type {{url: string}} */ (await api(
      `/api/matches/${encodeURIComponent(g.id)}/seats/${g.seats[0]}/resume`,
      { json: { device: device() } }));
    location.href = made.url;
  } catch (e) {
    status.textContent = /** @type {Error} */ (e).message;
  }
}

/** Shows the signed-in person's games; nothing for a guest. */
export async function showMyGames() {
  const box = document.getElementById("my-games-box");
  if (!box || !csrfToken()) return;
  let list;
  try {
    list = /** @type {MyGame[]} */ (await api("/api/account/games"));
  } catch (e) { return; }
  const ul = $("my-games");
  ul.textContent = "";
  for (const g of list) {
    const link = el("a", { href: g.url, class: "my-game" }, words(g));
    link.addEventListener("click", (ev) => { ev.preventDefault(); void open(g); });
    const item = el("li", { "data-game": g.id }, link);
    if (g.your_turn) item.append(" ", el("strong", { class: "your-turn" }, "your turn"));
    ul.append(item);
  }
  $("my-games-empty").hidden = list.length > 0;
  box.hidden = false;
}

void showMyGames();

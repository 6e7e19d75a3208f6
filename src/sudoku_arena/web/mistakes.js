// Sudoku Arena replay page: "Learn from your mistakes". From the stored analysis
// (/api/matches/{id}/analysis, made in the background once the game is over), each
// player's moves that lost him the most chance of winning, with the move the search
// preferred there (searched from his own view). Clicking one takes the replay to the
// position before that move and marks on the board the move played (✗) and the
// better one (★), each with the chance it left.

import { badge, clearBadges, pct } from "./coach.js";
import { api, el, gameIdFromPath } from "./util.js";

/**
 * @typedef {{ply: number, seat: number, action: string, before: number, after: number,
 *   better: string, better_chance: number | null}} Mistake
 * @typedef {{status: string, seats: string[], mistakes?: Mistake[]}} Analysis
 */

/** The replay page's mistakes list. */
export function mistakes() {
  const gameId = gameIdFromPath();
  const list = el("ol", { id: "mistakes", class: "mistakes", "aria-label": "mistakes: choose one to see it" });
  const said = el("p", { id: "mistakes-said", role: "status", class: "small", text: "Waiting for the analysis…" });
  const section = el("section", { id: "mistakes-panel", class: "panel", "aria-labelledby": "mistakes-title" },
    el("h2", { id: "mistakes-title", text: "Mistakes" }), said, list);
  const anchor = document.getElementById("analysis-panel");
  if (!anchor) return;
  anchor.before(section);
  /** @type {Mistake | null} */
  let chosen = null;
  let reveal = false;

  /** The replay's slider moves the board to `ply`. */
  function jump(/** @type {number} */ ply) {
    const slider = /** @type {HTMLInputElement | null} */ (document.getElementById("r-slider"));
    if (!slider) return;
    slider.value = String(ply);
    slider.dispatchEvent(new Event("input"));
  }
  /** The chosen mistake's badges, if the board shows the position before it. */
  function mark() {
    const m = chosen;
    clearBadges();
    if (!m) return;
    const slider = /** @type {HTMLInputElement | null} */ (document.getElementById("r-slider"));
    if (!slider || slider.value !== String(m.ply - 1)) { chosen = null; return; }
    badge(m.action, "✗", pct(m.after), "played");
    badge(m.better, "★", m.better_chance === null ? "" : pct(m.better_chance), "better");
  }
  // The replay says when it has drawn a position (and scrolled its move log into
  // sight); only then are the badges placed and, once per choice, the board brought
  // into sight, which on a phone is far above the list.
  document.addEventListener("replay-shown", (ev) => {
    if (!chosen || /** @type {CustomEvent<number>} */ (ev).detail !== chosen.ply - 1) return;
    mark();
    const top = document.getElementById("status");
    if (reveal && top && top.getBoundingClientRect().top < 0) top.scrollIntoView({ block: "start" });
    reveal = false;
  });
  // A board drawn again for another reason (zoom, resize) gets its badges back.
  const board = document.getElementById("board");
  if (board) new MutationObserver(() => { if (chosen && !board.querySelector(".coach-badge")) mark(); })
    .observe(board, { childList: true });

  /**
   * @param {Analysis} data
   * @param {Set<number>} people the seats people played (all seats if none did)
   */
  function show(data, people) {
    // The people's mistakes: a bot's are no lesson to anybody.
    const found = (data.mistakes || []).filter((m) => people.has(m.seat));
    said.textContent = found.length ?
      `${found.length} move${found.length > 1 ? "s" : ""} lost 10 points or more of the player's chance of winning. ` +
      "Choose one: the board shows the position before it, the move played (✗) and the search's better move (★)." :
      "No move lost 10 points or more of a player's chance of winning.";
    list.replaceChildren(...found.map((m) => {
      const who = data.seats[m.seat] || `seat ${m.seat + 1}`;
      const b = el("button", { type: "button", "aria-pressed": "false", "data-ply": m.ply },
        el("span", { class: "rank", text: "✗", "aria-hidden": "true" }),
        `Move ${m.ply}, ${who}: ${m.action} (${pct(m.before)} → ${pct(m.after)}). ` +
        `Better: ${m.better}${m.better_chance === null ? "" : ` (${pct(m.better_chance)})`}.`);
      b.onclick = () => {
        for (const o of list.querySelectorAll("button")) o.setAttribute("aria-pressed", String(o === b));
        chosen = m;
        reveal = true;
        jump(m.ply - 1);
      };
      return el("li", {}, b);
    }));
  }

  /** The seats people played, from the game's facts (all seats if no person played). */
  async function people() {
    try {
      const info = /** @type {import("./types.js").GameInfo} */ (await api(`/api/matches/${encodeURIComponent(gameId)}`));
      const humans = info.seats.filter((s) => s.kind === "human").map((s) => s.seat);
      return new Set(humans.length ? humans : info.seats.map((s) => s.seat));
    } catch (e) {
      return new Set(Array.from({ length: 8 }, (_, i) => i));
    }
  }

  async function load() {
    let data;
    try {
      const resp = await fetch(`/api/matches/${encodeURIComponent(gameId)}/analysis`);
      if (resp.status === 409) { said.textContent = "Mistakes are shown once the game is over."; return; }
      data = /** @type {Analysis} */ (await resp.json());
      if (!resp.ok) { said.textContent = "The analysis is not available."; return; }
    } catch (e) {
      setTimeout(load, 5000);
      return;
    }
    if (data.status === "off") said.textContent = "This server does not analyse games.";
    else if (data.status === "done") show(data, await people());
    else if (data.status === "failed") said.textContent = "The analysis of this game failed.";
    else setTimeout(load, 1500);
  }
  load();
}

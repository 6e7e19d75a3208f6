// Sudoku Arena play page: takebacks. A player asks to take back his last move; his
// opponent accepts or declines. The server says who asks and at which ply
// ("takeback" messages); a request stands only while the game is at that ply, and the
// server checks everything again (unrated games between two people, no bots, no chance
// or secrets crossed).

import { sendRaw } from "./connection.js";
import { info, st } from "./state.js";
import { $, api, el, notice, playerLabel } from "./util.js";

/**
 * @typedef {{type: "takeback", seat: number | null, ply: number, event: string,
 *   by: number | null, text?: string}} TakebackMessage
 */

/** Whether the game is rated (no takebacks: the server refuses them; the header says
 * "Rated"), once known. */
let rated = false;
/** @type {Promise<void> | null} GET /api/matches/{id} asked once: it says ``rated`` */
let ratedAsked = null;

function askRated() {
  ratedAsked = ratedAsked || api(`/api/matches/${encodeURIComponent(st.gameId)}`).then((m) => {
    rated = /** @type {{rated?: boolean}} */ (m).rated === true;
    if (rated) $("takeback-ask").hidden = true;
    $("rated-badge").hidden = !rated;  // the header says a rated game is one
  }).catch(() => { /* offered; the server still refuses in a rated game */ });
}

/** The standing request: who asks, at which ply (null: none). */
let request = /** @type {{seat: number, ply: number} | null} */ (null);

/**
 * The request box (above the game's buttons, beside the draw offer) and the "Take
 * back" button among the game's buttons, made the first time they are needed.
 */
function parts() {
  if (document.getElementById("takeback-box")) return;
  const box = el("div", { id: "takeback-box", class: "offer", hidden: true },
    el("p", { id: "takeback-text" }),
    el("div", { class: "buttons" },
      el("button", { id: "takeback-accept", class: "primary", type: "button", text: "Accept the takeback" }),
      el("button", { id: "takeback-decline", type: "button", text: "Decline" })));
  $("game-buttons").before(box);
  $("resign").before(el("button", {
    id: "takeback-ask", type: "button", hidden: true, text: "Take back",
    title: "Ask your opponent to let you take back your last move",
  }));
}

/**
 * A takeback message from the server: the request standing now, and news for the
 * players (declined, accepted).
 * @param {TakebackMessage} m
 */
export function takebackMessage(m) {
  request = m.seat === null ? null : { seat: m.seat, ply: m.ply };
  if (m.text && m.event === "declined" && m.by !== null && !st.seats.includes(m.by)) {
    notice(m.text, "info");
  } else if (m.text && m.event === "accepted") {
    notice(m.text, "info");
  }
}

/**
 * The takeback parts for the seat on screen: "Take back" while it has a move to take
 * back and nothing stands; the request with Accept / Decline for the opponent.
 * @param {number | null} seat
 * @param {import("./types.js").StateHead} head
 * @param {import("./types.js").Outcome | null} outcome
 */
export function renderTakeback(seat, head, outcome) {
  parts();
  askRated();
  const game = info();
  const live = seat !== null && st.seats.includes(seat) && !outcome &&
    head.status !== "finished" && !game.read_only;
  const people = game.seats.length === 2 && game.seats.every((s) => s.kind === "human");
  const offered = live && people && !rated && !game.hidden_information && st.seats.length === 1;
  const entries = st.log[String(seat)] || [];
  const standing = request !== null && request.ply === head.ply ? request : null;
  const ask = $("takeback-ask");
  ask.hidden = !offered || standing !== null || !entries.some((e) => e.actor === seat);
  const box = $("takeback-box");
  box.hidden = !offered || standing === null;
  if (seat === null || !offered) return;
  ask.onclick = () => {
    sendRaw({ type: "takeback", seat, answer: "ask", id: st.nextId++ });
    notice("Takeback asked: it stands until the next move.", "info");
  };
  if (standing === null) return;
  const theirs = standing.seat !== seat;
  $("takeback-text").textContent = theirs
    ? `${playerLabel(game.seats, head.view, standing.seat)} asks to take back the last move.`
    : "You asked to take back your last move; waiting for an answer.";
  $("takeback-accept").hidden = !theirs;
  $("takeback-decline").hidden = !theirs;
  $("takeback-accept").onclick = () => sendRaw({ type: "takeback", seat, answer: "accept", id: st.nextId++ });
  $("takeback-decline").onclick = () => sendRaw({ type: "takeback", seat, answer: "decline", id: st.nextId++ });
}

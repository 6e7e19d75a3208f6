// Sudoku Arena play page: the controls around the board. The keyboard cursor on the
// board, the buttons for legal actions with no place in the drawings, the typed-move
// form, and the game's own buttons (resign, abort, draw offers, claiming the win over
// players who left).

import { applySelection, focusTarget } from "./board.js";
import { send, sendEnding } from "./connection.js";
import { info, st } from "./state.js";
import { $, $input, el, notice, playerLabel } from "./util.js";

// -- the keyboard cursor ----------------------------------------------------------------

/**
 * The targets a keyboard can reach now, with their centres on screen.
 * @returns {{t: Element, x: number, y: number}[]}
 */
function liveTargets() {
  const out = [];
  for (const r of st.roots) {
    for (const t of r.querySelectorAll(".live")) {
      const from = /** @type {HTMLElement | SVGElement | null} */ (t.closest("[data-from]"));
      if (from && from.style.display === "none") continue;
      const b = t.getBoundingClientRect();
      if (b.width && b.height) out.push({ t, x: b.left + b.width / 2, y: b.top + b.height / 2 });
    }
  }
  return out;
}

/** @type {Partial<Record<string, [number, number]>>} */
const DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * Arrows move focus to the nearest visible target in that direction (board and panel
 * alike), Enter plays it (makeTarget's own key handler), Escape drops a selection.
 * @param {KeyboardEvent} ev
 */
function boardKey(ev) {
  if (ev.key === "Escape") { st.selected = null; applySelection(); return; }
  const d = DIRECTIONS[ev.key];
  if (!d) return;
  ev.preventDefault();
  const all = liveTargets();
  if (!all[0]) return;
  const here = all.find((c) => c.t === document.activeElement);
  if (!here) { focusTarget(all[0].t); return; }
  let best = null;
  let bestScore = Infinity;
  for (const c of all) {
    const dx = c.x - here.x;
    const dy = c.y - here.y;
    const along = dx * d[0] + dy * d[1];
    if (along <= 1) continue;
    const across = Math.abs(dx * d[1]) + Math.abs(dy * d[0]);
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = c; }
  }
  if (best) focusTarget(best.t);
}

/** The board takes the arrow keys and Escape (its targets take Enter themselves). */
export function installKeyboard() {
  $("board").onkeydown = boardKey;
}

// -- buttons for what the drawings do not show, and the typed move ---------------------

/**
 * The buttons for the legal actions that have no place in the drawings, worded by the
 * server where it can, and the form for a move typed in notation.
 * @param {number | null} seat
 * @param {import("./types.js").StateHead} head
 * @param {boolean} canAct
 * @param {Set<string>} onBoard
 */
export function renderActions(seat, head, canAct, onBoard) {
  const { ply } = head;
  const legal = head.view.legal || [];
  const actions = $("actions");
  actions.textContent = "";
  if (seat !== null && canAct) {
    const words = head.buttons || {};
    const off = legal.filter((a) => !onBoard.has(a));
    for (const a of off.slice(0, 80)) {
      const said = words[a];
      actions.append(el("button", { type: "button", class: said ? "action worded" : "action",
        "data-offboard": a, title: said ? `${said[1]} (${a})` : a, text: said ? said[0] : a,
        onclick: () => send(seat, ply, a) }));
    }
    if (off.length > 80) actions.append(el("span", { class: "muted small", text: ` … ${off.length - 80} more: type a move below` }));
  }
  const field = $input("type-input");
  /** @type {HTMLFormElement} */ ($("type-form")).onsubmit = (ev) => {
    ev.preventDefault();
    const text = field.value.trim();
    if (seat !== null && text && canAct) send(seat, ply, text);
    field.value = "";
  };
}

// -- resign, abort, draw offers ----------------------------------------------------------

/**
 * The game's own buttons for the seat on screen, while the game goes on.
 * @param {number | null} seat
 * @param {import("./types.js").StateHead} head
 * @param {import("./types.js").Outcome | null} outcome
 */
export function etiquette(seat, head, outcome) {
  const game = info();
  const view = head.view;
  const live = seat !== null && st.seats.includes(seat) && !outcome && head.status !== "finished" && !game.read_only;
  $("game-buttons").hidden = !live;
  const entries = st.log[String(seat)] || [];
  $("abort").hidden = !live || entries.some((e) => e.actor === seat);
  $("offer-draw").hidden = !live || !game.draws || head.draw_offer !== null && head.draw_offer !== undefined;
  const offer = head.draw_offer;
  const box = $("draw-offer");
  box.hidden = !live || offer === null || offer === undefined;
  renderLeft(live ? seat : null, head.view);
  if (seat === null) return;
  const who = st.seats.length > 1 ? `${playerLabel(game.seats, view, seat)}: ` : "";
  $("resign").onclick = () => {
    const win = game.seats.length > 2 ? "Your opponents win" : "Your opponent wins";
    if (confirm(`${who}Resign this game? ${win}.`)) sendEnding("resign", seat);
  };
  $("abort").onclick = () => {
    if (confirm("Abort this game? It ends with no winner.")) sendEnding("abort", seat);
  };
  $("offer-draw").onclick = () => { sendEnding("draw", seat, "offer"); notice("Draw offered: it stands until the next move.", "info"); };
  if (!box.hidden && offer !== null && offer !== undefined) {
    const theirs = offer !== seat;
    $("draw-text").textContent = theirs ? `${playerLabel(game.seats, view, offer)} offers a draw.` : "You offered a draw; waiting for an answer.";
    $("draw-accept").hidden = !theirs;
    $("draw-decline").hidden = !theirs;
    $("draw-accept").onclick = () => sendEnding("draw", seat, "accept");
    $("draw-decline").onclick = () => sendEnding("draw", seat, "decline");
  }
}

// -- a win claimed over players who left ----------------------------------------------

/**
 * The box that says who left and offers the claim, made the first time it is needed,
 * above the game's buttons. Its words change every second while it counts down, so it
 * is not a live region: the live region says once that the claim is open.
 * @returns {HTMLElement}
 */
function leftBox() {
  const found = document.getElementById("left-box");
  if (found) return found;
  const box = el("div", { id: "left-box", class: "offer", hidden: true },
    el("p", { id: "left-text" }),
    el("div", { class: "buttons" }, el("button", { id: "claim-win", class: "primary", type: "button",
      hidden: true, title: "End the game as won: the other players left it", text: "Claim the win" })));
  $("game-buttons").before(box);
  return box;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let leftTimer;
/** The players whose leaving the live region has told of (said once). */
let toldLeft = "";

/**
 * In an invite game without a clock whose every other person left (no device
 * connected): who left and, counted down from the server's figure, when the win may be
 * claimed; then "Claim the win". The server checks the absence again when asked.
 * @param {number | null} seat the seat on screen, if it plays on
 * @param {import("./types.js").View} view
 */
function renderLeft(seat, view) {
  clearTimeout(leftTimer);
  const game = info();
  const after = st.claimAfter;
  const others = (game.seats || []).filter((s) => s.kind === "human" && !st.seats.includes(s.seat));
  const since = others.map((s) => st.awaySince[s.seat]);
  const gone = others.length > 0 && others.every((s, i) =>
    st.presence && !st.presence[s.seat] && since[i] !== null && since[i] !== undefined &&
    game.claimed && game.claimed[s.seat]);
  const box = leftBox();
  box.hidden = seat === null || after === null || !gone;
  if (seat === null || after === null || !gone) { toldLeft = ""; return; }
  const names = others.map((s) => playerLabel(game.seats, view, s.seat)).join(" and ");
  const wait = Math.ceil(Math.max(...since.map((t) => t || 0)) + after - Date.now() / 1000);
  const claim = $("claim-win");
  claim.hidden = wait > 0;
  claim.onclick = () => sendEnding("claim_win", seat);
  if (wait > 0) {
    $("left-text").textContent = `${names} left the game: if nobody comes back, you can claim the win in ${wait} s.`;
    leftTimer = setTimeout(() => renderLeft(seat, view), 1000);
    return;
  }
  $("left-text").textContent = `${names} left the game and did not come back.`;
  if (toldLeft !== names) {
    toldLeft = names;
    $("announce").textContent = `${names} left the game: you can claim the win.`;
  }
}

// Sudoku Arena play page: the game's drawings (board, and the panel beside it) made
// into controls, the selection of a two-step move, and the keyboard cursor's focus.
//
// Boards arrive as two SVG drawings made by the game's renderer: the board, and the
// panel beside it (scores, hands, dice). Clickable elements carry
// data-action="<notation>" (clicking sends that action) or data-select="<key>"
// (clicking selects key; elements with data-from="<key>" show only while key is
// selected). data-try="<notation>" marks a place that cannot be played now: clicking it
// asks the server, whose refusal gives the engine's reason ("{sel}" in it stands for
// the selected key). Legal actions with no element are controls.js's buttons.

import { send } from "./connection.js";
import { info, st } from "./state.js";
import { $, hide, notice, playerLabel, showBoard } from "./util.js";
import { fitBoard, keepView, wireMagnifier } from "./zoom.js";

const CHOOSE_FIRST = "Choose a value first, then the square.";

/**
 * Draws the position for `seat` and wires its places: live targets play, selectable
 * elements select, places that cannot be played ask for the engine's reason.
 * @param {number | null} seat
 * @param {import("./types.js").StateHead} head
 * @param {string} svg
 * @param {string} panelSvg
 * @param {boolean} over
 * @returns {{canAct: boolean, onBoard: Set<string>}} whether this seat plays now, and
 *   the actions that have a place in the drawings (the rest get buttons)
 */
export function drawBoard(seat, head, svg, panelSvg, over) {
  const { ply, view } = head;
  const board = $("board");
  // A new position keeps a selection made before somebody else's move (Cat Sudoku
  // players write at the same time) but not past one's own.
  if (ply !== st.drawnPly) {
    const entries = st.log[String(seat)] || [];
    const last = entries[entries.length - 1];
    if (last && last.actor === seat) st.selected = null;
  }
  st.drawnPly = ply;
  // Redrawing must not throw a keyboard player's cursor away.
  const had = document.activeElement;
  const focusKey = had && had.closest("#board, #game-panel") ?
    had.getAttribute("data-action") || had.getAttribute("data-select") : null;
  const kept = keepView(board);
  const root = showBoard(board, svg);
  const side = $("game-panel");
  const panelRoot = panelSvg ? showBoard(side, panelSvg, true) : null;
  side.hidden = !panelRoot;
  if (panelRoot) panelRoot.setAttribute("role", "group");
  /** @type {Element[]} */
  const roots = [root, panelRoot].filter((r) => r !== null);
  const legal = view.legal || [];
  const mine = seat !== null && st.seats.includes(seat);
  const canAct = seat !== null && mine && (view.to_move || []).includes(seat) && !over;
  board.classList.toggle("my-turn", canAct);
  side.classList.toggle("my-turn", canAct);
  board.classList.remove("busy");
  /** @type {Set<string>} */
  const onBoard = new Set();
  for (const r of roots) {
    for (const t of r.querySelectorAll("[data-action]")) {
      const action = t.getAttribute("data-action") || "";
      onBoard.add(action);
      if (seat !== null && canAct && legal.includes(action)) {
        makeTarget(t, () => send(seat, ply, action));
      }
    }
    for (const t of r.querySelectorAll("[data-select]")) {
      const key = t.getAttribute("data-select");
      if (!canAct) continue;
      makeTarget(t, () => {
        st.selected = st.selected === key ? null : key;
        // The value asked for is chosen now: its request must not stay on screen.
        if (st.selected !== null && $("notice").textContent === CHOOSE_FIRST) notice("");
        applySelection();
      });
    }
    for (const t of r.querySelectorAll("[data-try]")) {
      if (seat === null || !canAct) continue;
      t.classList.add("tryable");
      t.addEventListener("click", (ev) => {
        ev.stopPropagation();
        const template = t.getAttribute("data-try") || "";
        if (template.includes("{sel}")) {
          if (!st.selected) { notice(CHOOSE_FIRST, "error"); return; }
          send(seat, ply, template.replace("{sel}", st.selected), true);
        } else {
          send(seat, ply, template, true);
        }
      });
    }
  }
  st.roots = roots;
  // A drawing with things to press is a group of controls, not a picture.
  for (const r of roots) if (r.querySelector(".live, .tryable")) r.setAttribute("role", "group");
  // Sized (and magnified if it was) before the cursor's place is focused and scrolled to.
  fitBoard(board, kept);
  wireMagnifier(panelRoot);
  if (focusKey) {
    const again = roots.map((r) => Array.from(r.querySelectorAll(".live")).find((t) =>
      t.getAttribute("data-action") === focusKey || t.getAttribute("data-select") === focusKey)).find(Boolean);
    if (again) focusTarget(again); else board.focus();
  }
  if (st.selected !== null && !roots.some((r) => Array.from(r.querySelectorAll("[data-select]")).some((x) => x.getAttribute("data-select") === st.selected))) {
    st.selected = null;
  }
  applySelection();
  // Out of turn, a click on the board says whose turn it is instead of nothing.
  board.onclick = () => {
    if (canAct || over || !mine) return;
    const toMove = view.to_move || [];
    notice(toMove.length ? `Not your turn: waiting for ${toMove.map((x) => playerLabel(info().seats, view, x)).join(", ")}.` : "Not your turn.", "info");
  };
  return { canAct, onBoard };
}

/**
 * A clickable element: a button for keyboards and screen readers, named by its title.
 * (The tutorial page, tutorial.js, makes its targets with it too.)
 * @param {Element} t
 * @param {() => void} go
 */
export function makeTarget(t, go) {
  t.classList.add("live");
  t.setAttribute("tabindex", "-1");
  t.setAttribute("role", "button");
  const title = t.querySelector("title");
  if (title) t.setAttribute("aria-label", title.textContent || "");
  t.addEventListener("click", (ev) => { ev.stopPropagation(); go(); });
  t.addEventListener("keydown", (ev) => {
    const key = /** @type {KeyboardEvent} */ (ev).key;
    if (key === "Enter" || key === " ") { ev.preventDefault(); ev.stopPropagation(); go(); }
  });
}

/**
 * Moves the keyboard cursor (the one target in the tab order) to `t`.
 * @param {Element} t
 */
export function focusTarget(t) {
  for (const o of document.querySelectorAll(".live[tabindex='0']")) o.setAttribute("tabindex", "-1");
  t.setAttribute("tabindex", "0");
  /** @type {HTMLElement | SVGElement} */ (t).focus();
}

/**
 * Shows what the selection allows: the parts drawn for it (data-from), the selected
 * element highlighted, and in the status line what the next click does.
 */
export function applySelection() {
  for (const root of st.roots) {
    for (const f of root.querySelectorAll("[data-from]")) hide(f, f.getAttribute("data-from") === st.selected);
    for (const s of root.querySelectorAll("[data-select]")) {
      s.classList.toggle("selected", s.getAttribute("data-select") === st.selected);
    }
  }
  showStep();
}

// The second step of a two-step move (a Sudoku Warriors bid of two villages, a Cat
// Sudoku value then its square, a Citadel warrior then its move) is easy to miss: the
// status line says what was chosen and what the next click does.
function showStep() {
  const step = $("step");
  const chosen = st.selected === null ? null : st.roots.map((r) => Array.from(r.querySelectorAll("[data-select].live"))
    .find((s) => s.getAttribute("data-select") === st.selected)).find(Boolean);
  step.hidden = !chosen || !$("board").classList.contains("my-turn");
  if (!chosen || step.hidden) { step.textContent = ""; return; }
  // What a second click on the chosen element itself does (Sudoku Warriors draws "bid
  // this village alone" over it); otherwise a second click drops the choice.
  const box = chosen.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const over = top && top.closest(".live[data-action]");
  const again = over && over.getAttribute("data-from") === st.selected ? over.getAttribute("aria-label") : null;
  step.textContent = `${st.selected} chosen: ` + (again ? `click it again to ${again}, or` : "click") +
    " a marked place to finish the move (Escape cancels).";
}

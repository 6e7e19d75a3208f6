// Sudoku Arena play page: magnifying what is drawn too small for a finger.
//
// A board whose places come out under MIN_TAP CSS px (Citadel's 19x19 on a phone: 17
// px) gets a magnifier button beside the status line. On a touch screen a tap on such a
// board while it is whole magnifies it around the tap instead of playing there, and
// the next tap, on a place now at least MIN_TAP px, plays: the first tap shows where,
// the second confirms. The magnified board scrolls inside its own box (a finger pans
// it), so the page around it stays where it was; it stays magnified from move to move
// until the button is pressed again. Mouse clicks and keys play at any size as before:
// only taps are held back.
//
// A part of a drawing marked data-zoom="<caption>" (Cat Sudoku's small sheets of the
// other players) opens larger in a dialog when tapped or clicked, or with its button
// under the drawing.

import { $, el, notice } from "./util.js";

/** The smallest place a finger hits reliably, in CSS px. */
const MIN_TAP = 40;
/** What magnifying brings the smallest place to: above MIN_TAP, so that rounding and
 * a board a pixel narrower never take a place under it. */
const AIM = 44;
const SVG_NS = "http://www.w3.org/2000/svg";

const zoom = {
  /** The magnification now (1: the whole board in its box). */
  factor: 1,
  /** The magnification that brings the smallest place to AIM px (1: none needed). */
  need: 1,
  /** The kind of pointer that pressed the board last ("touch", "mouse", "pen"). */
  pointer: "",
  /** The board's box height and its drawing's size when whole, in CSS px. */
  whole: { box: 0, w: 0, h: 0 },
  installed: false,
};

/** The caption of the part shown in the magnifier dialog, to show it again redrawn. */
let magnified = "";

/**
 * Where the magnified board is scrolled to, kept across a redraw (the new drawing
 * arrives whole, which would reset it).
 * @param {HTMLElement} board
 * @returns {{left: number, top: number}}
 */
export function keepView(board) {
  return { left: board.scrollLeft, top: board.scrollTop };
}

/**
 * After a new drawing of the board: measures its places, shows the Magnify button if
 * they are small, and magnifies the new drawing as much as the last one was.
 * @param {HTMLElement} board
 * @param {{left: number, top: number}} kept from keepView before the redraw
 */
export function fitBoard(board, kept) {
  install(board);
  const svg = board.querySelector("svg");
  if (!svg) return;
  // Measured whole: the new drawing has no sizes of its own yet.
  board.style.height = "";
  const least = smallestPlace(board);
  // A drawing with no place in sight (nothing to play) keeps the last measure.
  if (least !== null) zoom.need = least < MIN_TAP ? AIM / least : 1;
  const box = svg.getBoundingClientRect();
  zoom.whole = { box: board.getBoundingClientRect().height, w: box.width, h: box.height };
  if (zoom.factor > 1) zoom.factor = zoom.need;
  apply(board, svg);
  board.scrollLeft = kept.left;
  board.scrollTop = kept.top;
}

/**
 * The smallest place of the board in sight, in CSS px, or null if none shows.
 * @param {HTMLElement} board
 * @returns {number | null}
 */
function smallestPlace(board) {
  let least = Infinity;
  for (const t of board.querySelectorAll("[data-action], [data-select], [data-try]")) {
    const r = t.getBoundingClientRect();
    if (r.width && r.height) least = Math.min(least, r.width, r.height);
  }
  return least === Infinity ? null : least;
}

/**
 * Sizes the drawing for the magnification now, and words the button for it.
 * @param {HTMLElement} board
 * @param {SVGSVGElement} svg
 */
function apply(board, svg) {
  const button = $("zoom");
  button.hidden = zoom.need <= 1;
  const on = zoom.factor > 1;
  const words = on ? "Show the whole board" : "Magnify the board";
  button.setAttribute("aria-label", words);
  button.title = words;
  button.setAttribute("aria-pressed", String(on));
  board.classList.toggle("zoomed", on);
  const s = svg.style;
  if (!on) {
    board.style.height = s.width = s.height = s.maxWidth = s.maxHeight = "";
    return;
  }
  // The box keeps the whole board's height; the drawing in it grows and scrolls.
  board.style.height = `${zoom.whole.box}px`;
  s.maxWidth = s.maxHeight = "none";
  s.width = `${zoom.whole.w * zoom.factor}px`;
  s.height = `${zoom.whole.h * zoom.factor}px`;
}

/**
 * Magnifies the whole board with (x, y) in the middle of its box, or shows it whole.
 * @param {HTMLElement} board
 * @param {number | null} x client coordinates of the point to centre, or null for the middle
 * @param {number | null} y
 */
function setZoom(board, x, y) {
  const svg = board.querySelector("svg");
  if (!svg) return;
  const was = svg.getBoundingClientRect();
  const fx = x === null ? 0.5 : (x - was.left) / was.width;
  const fy = y === null ? 0.5 : (y - was.top) / was.height;
  zoom.factor = zoom.factor > 1 ? 1 : zoom.need;
  apply(board, svg);
  if (zoom.factor > 1) {
    const now = svg.getBoundingClientRect();
    board.scrollLeft = fx * now.width - board.clientWidth / 2;
    board.scrollTop = fy * now.height - board.clientHeight / 2;
  }
}

/**
 * The board's listeners, once (the board element stays; its drawing is replaced).
 * @param {HTMLElement} board
 */
function install(board) {
  if (zoom.installed) return;
  zoom.installed = true;
  $("zoom").onclick = () => setZoom(board, null, null);
  board.addEventListener("pointerdown", (ev) => { zoom.pointer = ev.pointerType; }, true);
  // Before any place sees it: a tap on a whole board of small places magnifies it.
  board.addEventListener("click", (ev) => {
    const kind = ev instanceof PointerEvent && ev.pointerType ? ev.pointerType : zoom.pointer;
    if (kind !== "touch" || zoom.need <= 1 || zoom.factor > 1) return;
    ev.stopImmediatePropagation();
    ev.preventDefault();
    setZoom(board, ev.clientX, ev.clientY);
    notice("Magnified: tap the place again to play it.", "info");
  }, true);
}

/**
 * Makes the parts of a drawing marked data-zoom open larger: a tap or click on the part,
 * or a button under the drawing named by its caption (for keys and screen readers: the
 * part itself holds the digits it shows, not its name). Shows a part open in the
 * magnifier as newly drawn.
 * @param {Element | null} root
 */
export function wireMagnifier(root) {
  const dialog = /** @type {HTMLDialogElement} */ ($("magnifier"));
  if (!dialog.onclick) {
    // A tap beside the dialog (on its backdrop) closes it too.
    dialog.onclick = (ev) => { if (ev.target === dialog) dialog.close(); };
    dialog.onclose = () => { magnified = ""; };
  }
  const parts = root ? Array.from(root.querySelectorAll("[data-zoom]")) : [];
  if (!root || !parts.length) return;
  const buttons = el("div", { class: "zoom-parts" }, el("span", { class: "muted small", text: "Larger:" }));
  for (const part of parts) {
    const caption = part.getAttribute("data-zoom") || "";
    part.classList.add("zoomable");
    part.addEventListener("click", () => openMagnifier(dialog, part));
    buttons.append(el("button", { type: "button", text: caption, onclick: () => openMagnifier(dialog, part) }));
    if (dialog.open && caption === magnified) fillMagnifier(part);
  }
  root.after(buttons);
}

/**
 * @param {HTMLDialogElement} dialog
 * @param {Element} part
 */
function openMagnifier(dialog, part) {
  fillMagnifier(part);
  if (!dialog.open) dialog.showModal();
}

/**
 * A copy of one part of a drawing, alone in a drawing of its own that fills the
 * dialog's width.
 * @param {Element} part
 */
function fillMagnifier(part) {
  const caption = part.getAttribute("data-zoom") || "";
  magnified = caption;
  $("magnifier-title").textContent = caption;
  const box = /** @type {SVGGraphicsElement} */ (part).getBBox();
  const pad = 2;
  const copy = document.createElementNS(SVG_NS, "svg");
  copy.setAttribute("viewBox", `${box.x - pad} ${box.y - pad} ${box.width + 2 * pad} ${box.height + 2 * pad}`);
  copy.setAttribute("class", "drawing");
  copy.setAttribute("role", "img");
  copy.setAttribute("aria-label", caption);
  const source = part.closest("svg");
  copy.setAttribute("font-family", (source && source.getAttribute("font-family")) || "sans-serif");
  const clone = /** @type {Element} */ (part.cloneNode(true));
  for (const a of ["data-zoom", "class"]) clone.removeAttribute(a);
  copy.append(clone);
  $("magnifier-view").replaceChildren(copy);
}

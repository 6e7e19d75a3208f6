// Sudoku Arena: the small helpers every page script shares (elements, the JSON API, the
// notice line, this device's secret, drawing the game's SVG into a box).

/** @typedef {string | number | boolean | null | undefined | ((ev: Event) => void)} AttrValue */

/**
 * The page's element with this id. The pages are ours, so a missing one is a bug: it
 * throws at once, saying which, instead of a TypeError a few lines later.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found;
}

/**
 * Enables a form's submit buttons once its handler is bound. Pages ship them disabled:
 * a form sent before its script took it would go natively, reloading the page with its
 * fields (a password among them) in the address, and the click would be lost.
 * @param {string} id the form
 */
export function formReady(id) {
  for (const b of $(id).querySelectorAll("button[type=submit]")) {
    /** @type {HTMLButtonElement} */ (b).disabled = false;
  }
}

/**
 * A form field by id (an <input>, or a <select> where the page says so).
 * @param {string} id
 * @returns {HTMLInputElement}
 */
export const $input = (id) => /** @type {HTMLInputElement} */ ($(id));

/**
 * A new element: attributes ("class", "text" for its text, "on<event>" for listeners;
 * null, undefined and false leave an attribute out), then its children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttrValue>} [attrs]
 * @param {...(Node | string | null | undefined)} kids
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = String(v);
    else if (k === "text") e.textContent = String(v);
    else if (typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

/** A refusal of the API: its message, and its code ("seat_elsewhere"...) if it gave one. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {string | null} code
   */
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

/**
 * A request to the JSON API; `json` is sent as the body (POST unless said otherwise).
 * The answer is the JSON the API documents for that path: callers name its type.
 * @param {string} path
 * @param {{json?: unknown, method?: string}} [options]
 * @returns {Promise<unknown>}
 */
export async function api(path, options) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const opts = { headers: {} };
  if (options && options.method) opts.method = options.method;
  if (options && options.json !== undefined) {
    opts.method = opts.method || "POST";
    opts.body = JSON.stringify(options.json);
    opts.headers["content-type"] = "application/json";
  }
  const token = csrfToken();
  if (token && opts.method && opts.method !== "GET") opts.headers["x-csrf-token"] = token;
  const resp = await fetch(path, opts);
  /** @type {{error?: {message: string, code: string}} | null} */
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) {
    const msg = data && data.error ? data.error.message : `request failed (${resp.status})`;
    throw new ApiError(msg, data && data.error ? data.error.code : null);
  }
  return data;
}

/**
 * The signed-in session's CSRF token (the server's readable "csrf" cookie), or "" for a
 * guest. Every change a signed-in browser asks for carries it as X-CSRF-Token: the
 * server refuses a change without it, so another site cannot make one in our name.
 * @returns {string}
 */
export function csrfToken() {
  const m = /(?:^|;\s*)csrf=([^;]*)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : "";
}

/**
 * The engine's sentences cite rulings ("(SW-10)"); for players those move out of the
 * sentence into its tooltip.
 * @param {string | null | undefined} text
 * @returns {[string, string]} the words, and "rule SW-10" or ""
 */
export function plain(text) {
  /** @type {string[]} */
  const ids = [];
  const words = (text || "").replace(/\s*\(([A-Z]{2,3}-\d+(?:[,;] ?[A-Z]{2,3}-\d+)*)\)/g,
    (_m, id) => { ids.push(id); return ""; });
  return [words, ids.length ? `rule ${ids.join(", ")}` : ""];
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let noticeTimer;

/**
 * The notice line under the board: an error, or news ("info") that goes after 4 s.
 * @param {string} text
 * @param {"error" | "info"} [kind]
 */
export function notice(text, kind) {
  const n = document.getElementById("notice");
  if (!n) return;
  [text, n.title] = plain(text);
  n.textContent = text || "";
  n.hidden = !text;
  n.className = "notice " + (kind || "error");
  clearTimeout(noticeTimer);
  if (text && kind === "info") noticeTimer = setTimeout(() => { n.hidden = true; }, 4000);
}

/** The game's id: the last part of the page's path (/play/<id>, /replay/<id>). */
export function gameIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[parts.length - 1] || "");
}

/**
 * The secret this browser keeps for itself: seat links opened here are claimed with it,
 * so a link works on the first device that opens it (the lobby joins with it too).
 * @returns {string}
 */
export function device() {
  let d = localStorage.getItem("arena:device");
  if (!d) {
    const bytes = new Uint8Array(18);
    crypto.getRandomValues(bytes);
    d = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("arena:device", d);
  }
  return d;
}

/** The seat tokens of a seat link (/play/<id>#t=<token>.<token>). */
export function tokensFromHash() {
  const m = /(?:^|[#&])t=([^&]*)/.exec(location.hash);
  return m ? m[1].split(".").filter(Boolean) : [];
}

/**
 * A seat as players know it: the person's name, and the role he plays if it differs.
 * @param {import("./types.js").Seat[] | null | undefined} seats
 * @param {import("./types.js").View | null | undefined} view
 * @param {number} seat
 */
export function playerLabel(seats, view, seat) {
  const found = seats ? seats[seat] : undefined;
  const person = found ? found.name : `seat ${seat + 1}`;
  const role = view && view.players && view.players[seat];
  return role && role !== person ? `${person} (${role})` : person;
}

/**
 * Puts one of the game's SVG drawings into a box. A drawing fills its container's
 * width; a panel (natural: true) keeps its own size, one unit a CSS pixel, so its text
 * stays as large as drawn, and only shrinks to fit. Parts shown only while something
 * is selected (data-from) start hidden.
 * @param {HTMLElement} container
 * @param {string} svg
 * @param {boolean} [natural]
 * @returns {SVGSVGElement | null}
 */
export function showBoard(container, svg, natural) {
  container.innerHTML = svg;
  const root = container.querySelector("svg");
  if (root) {
    root.removeAttribute("width");
    root.removeAttribute("height");
    root.setAttribute("preserveAspectRatio", "xMidYMid meet");
    root.classList.add("drawing");
    const vb = (root.getAttribute("viewBox") || "").split(/\s+/).map(Number);
    if (natural && vb.length === 4 && vb[2] > 0) root.style.width = `${vb[2]}px`;
  }
  for (const f of container.querySelectorAll("[data-from]")) hide(f);
  return root;
}

/**
 * Hides or shows one element of a drawing (SVG and HTML elements both have a style).
 * @param {Element} e
 * @param {boolean} [shown]
 */
export function hide(e, shown) {
  /** @type {HTMLElement | SVGElement} */ (e).style.display = shown ? "" : "none";
}

// Sudoku Arena play page: the connection to the server. Seat links are claimed over
// HTTP first; then one WebSocket carries the positions in and the moves out, and is
// opened again whenever it drops.

import { st } from "./state.js";
import { $, api, device, notice } from "./util.js";

/**
 * Each seat link is claimed for this device before connecting; a seat held by another
 * device moves here only if the person says so (that device is told). The first claim
 * asks ("ask"): a seat held elsewhere is an expected answer, not a 409 in the console.
 */
export async function claimSeats() {
  /** @type {string[]} */
  const kept = [];
  for (const t of st.tokens) {
    /** @param {boolean} move */
    const claim = async (move) => /** @type {{seat: number, elsewhere?: boolean}} */ (
      await api(`/api/matches/${encodeURIComponent(st.gameId)}/claim`,
        { json: { token: t, device: device(), move, ask: !move } }));
    let first;
    try {
      first = await claim(false);
    } catch (e) {
      kept.push(t); // a link the server refuses: the socket says why
      continue;
    }
    if (!first.elsewhere) {
      st.tokenOf[first.seat] = t;
      kept.push(t);
      continue;
    }
    const ask = "This seat is being played on another device. Play it on this device " +
      "instead? The other device will be told, and can only watch from then on.";
    if (!confirm(ask)) { notice("This seat is played on another device: you are watching here.", "info"); continue; }
    try {
      st.tokenOf[(await claim(true)).seat] = t;
      kept.push(t);
    } catch (e2) { notice(/** @type {Error} */ (e2).message, "error"); }
  }
  st.tokens = kept;
}

// While the connection is down the board takes no input and says so; reconnecting
// starts at once (first retry within a quarter second, then at most every second) and
// again as soon as the browser says it is back online or the tab is shown.

/** @param {boolean} on */
function setOnline(on) {
  st.online = on;
  $("offline").hidden = on || st.closedForGood;
  $("board").classList.toggle("offline", !on);
  const conn = $("conn");
  conn.textContent = on ? "live" : st.closedForGood ? "no such game" : "reconnecting…";
  conn.className = on ? "conn ok" : "conn bad";
}

/** @type {(data: string) => void} */
let handle = () => {};

/**
 * Opens the game's WebSocket; each message goes to `onMessage` (as its raw text).
 * @param {(data: string) => void} onMessage
 */
export function startConnection(onMessage) {
  handle = onMessage;
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) reconnectNow(); });
  connect();
}

function connect() {
  if (st.timer !== null) clearTimeout(st.timer);
  st.timer = null;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(st.gameId)}`);
  st.ws = ws;
  ws.onopen = () => {
    st.retry = 0;
    setOnline(true);
    ws.send(JSON.stringify({ type: "hello", tokens: st.tokens, device: device() }));
  };
  ws.onmessage = (ev) => handle(ev.data);
  ws.onclose = (ev) => {
    if (st.ws !== ws) return;
    st.pending = null;
    if (ev.code === 4404) st.closedForGood = true;
    setOnline(false);
    if (st.closedForGood) return;
    // 1012 (service restart): the server is draining; another process takes the page at
    // once (the proxy sends it there), so the first try does not wait.
    const first = ev.code === 1012 ? 0 : 150;
    const delay = st.retry === 0 ? first : Math.min(1000, 250 * 2 ** st.retry) * (0.8 + 0.4 * Math.random());
    st.retry++;
    st.timer = setTimeout(connect, delay);
  };
}

function reconnectNow() {
  if (st.closedForGood || !st.ws || st.ws.readyState === WebSocket.OPEN ||
      st.ws.readyState === WebSocket.CONNECTING) return;
  st.retry = 0;
  connect();
}

/**
 * The WebSocket if it is open (a message sent now is sent), else null.
 * @returns {WebSocket | null}
 */
function open() {
  return st.ws && st.ws.readyState === WebSocket.OPEN ? st.ws : null;
}

/**
 * Sends a message that is not a move (a resync request).
 * @param {object} msg
 */
export function sendRaw(msg) {
  const ws = open();
  if (ws) ws.send(JSON.stringify(msg));
}

/**
 * Plays `action` for `seat` at `ply`; one move at a time (another is ignored until
 * the first is answered, or 5 s passed). `asking`: a place that cannot be played,
 * sent for the engine's reason, so the board does not dim.
 * @param {number} seat
 * @param {number} ply
 * @param {string} action
 * @param {boolean} [asking]
 */
export function send(seat, ply, action, asking) {
  const ws = open();
  if (!ws) {
    notice("Not connected: your move was not sent. The board comes back when the connection does.", "error");
    return;
  }
  if (st.pending) return;
  const id = st.nextId++;
  st.pending = id;
  if (!asking) $("board").classList.add("busy");
  ws.send(JSON.stringify({ type: "act", seat, ply, action, id }));
  setTimeout(() => { if (st.pending === id) st.pending = null; }, 5000);
}

/**
 * Resign, abort, a draw offer or answer, or claiming the win over players who left,
 * for `seat`.
 * @param {"resign" | "abort" | "draw" | "claim_win"} type
 * @param {number} seat
 * @param {"offer" | "accept" | "decline"} [answer]
 */
export function sendEnding(type, seat, answer) {
  const ws = open();
  if (!ws) {
    notice("Not connected: nothing was sent. Try again when the board is back.", "error");
    return;
  }
  /** @type {{type: string, seat: number, id: number, answer?: string}} */
  const msg = { type, seat, id: st.nextId++ };
  if (answer) msg.answer = answer;
  ws.send(JSON.stringify(msg));
}

// Sudoku Arena play page: the game's chat. Players chat in the players' room,
// spectators in theirs; neither sees the other's. The server sends the room's history
// when the page connects ("chat_history": whether chat is on here, and why not), then
// each new message ("chat"). Every message is the author's plain text: it is put on the
// page with textContent only, so markup in it shows as the characters typed.

import { sendRaw } from "./connection.js";
import { info, st } from "./state.js";
import { $, el, playerLabel } from "./util.js";

/** Longest message the server takes, in characters (server/chat.py's MAX_CHARS). */
const MAX_CHARS = 300;

/**
 * One message as the server sends it.
 * @typedef {{id: number, room: string, seat: number | null, name: string, text: string,
 *   at: number}} ChatMessage
 * @typedef {{type: "chat_history", enabled: boolean, off: string | null, room: string,
 *   messages: ChatMessage[], muted: number[]}} ChatHistory
 */

/** The seats this page's player mutes (the server's word for it). */
let muted = /** @type {number[]} */ ([]);

/**
 * The chat panel, made the first time chat is on, after the players' panel.
 * @returns {HTMLElement}
 */
function panel() {
  const found = document.getElementById("chat");
  if (found) return found;
  const input = el("input", {
    id: "chat-input", maxlength: MAX_CHARS, autocomplete: "off",
    "aria-label": "message", placeholder: "Say something…",
  });
  const form = el("form", { id: "chat-form", class: "chat-form" },
    input,
    el("button", { type: "submit", text: "Send" }));
  const box = el("section", { id: "chat", class: "panel chat", hidden: true },
    el("h2", { id: "chat-title", text: "Chat" }),
    el("ol", { id: "chat-log", class: "chat-log", tabindex: "0", "aria-live": "polite",
      "aria-label": "chat messages" }),
    form,
    el("p", { class: "muted small chat-foot" },
      el("span", { id: "chat-count", text: `0/${MAX_CHARS}` }),
      el("span", { id: "chat-mutes", class: "chat-mutes" })));
  input.addEventListener("input", count);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text || text.length > MAX_CHARS) return;
    sendRaw({ type: "chat", text, id: st.nextId++ });
    input.value = "";
    count();
  });
  const players = $("players").closest("section");
  if (players) players.after(box);
  else $("invites").before(box);
  return box;
}

/** The characters typed so far, of the most allowed. */
function count() {
  const input = /** @type {HTMLInputElement} */ ($("chat-input"));
  const n = input.value.length;
  const counter = $("chat-count");
  counter.textContent = `${n}/${MAX_CHARS}`;
  counter.classList.toggle("over", n > MAX_CHARS);
}

/**
 * A message as a line of the log: the author's name, then the text, both as text.
 * @param {ChatMessage} m
 * @returns {HTMLLIElement}
 */
function line(m) {
  const mine = m.seat !== null && st.seats.includes(m.seat);
  return el("li", { class: mine ? "chat-line mine" : "chat-line", "data-seat": m.seat },
    el("span", { class: "chat-name", text: m.name }),
    el("span", { class: "chat-text", text: m.text }));
}

/** Keeps the newest message in sight. */
function scrollDown() {
  const log = $("chat-log");
  log.scrollTop = log.scrollHeight;
}

/**
 * The room's history: the panel shown (or hidden where chat is off) and filled.
 * @param {ChatHistory} h
 */
export function chatHistory(h) {
  if (!h.enabled) {
    const found = document.getElementById("chat");
    if (found) found.hidden = true;
    return;
  }
  const box = panel();
  box.hidden = false;
  $("chat-title").textContent = h.room === "players" ? "Chat with your opponent" : "Spectators' chat";
  muted = h.muted || [];
  const log = $("chat-log");
  log.replaceChildren(...h.messages.map(line));
  renderMutes();
  scrollDown();
}

/**
 * A new message in this page's room.
 * @param {ChatMessage} m
 */
export function chatMessage(m) {
  const found = document.getElementById("chat");
  if (!found || found.hidden) return;
  if (m.seat !== null && muted.includes(m.seat)) return;
  const log = $("chat-log");
  log.append(line(m));
  while (log.children.length > 200) log.firstElementChild?.remove();
  scrollDown();
}

/**
 * The server's answer to a mute: the seats muted now.
 * @param {number[]} seats
 */
export function chatMuted(seats) {
  muted = seats;
  renderMutes();
}

/** A Mute / Unmute button per other person, for a player (spectators mute nobody). */
function renderMutes() {
  const box = $("chat-mutes");
  if (!st.seats.length || !st.info) { box.replaceChildren(); return; }
  const game = info();
  const others = game.seats.filter((s) => s.kind === "human" && !st.seats.includes(s.seat));
  const view = (st.states[String(st.seats[0])] || { head: { view: {} } }).head.view;
  box.replaceChildren(...others.map((s) => {
    const off = muted.includes(s.seat);
    const who = playerLabel(game.seats, /** @type {import("./types.js").View} */ (view), s.seat);
    return el("button", {
      type: "button", class: "chat-mute", "aria-pressed": off ? "true" : "false",
      title: off ? `Show ${who}'s messages again` : `Stop showing ${who}'s messages`,
      text: off ? `Unmute ${s.name}` : `Mute ${s.name}`,
      onclick: () => sendRaw({ type: "chat_mute", seat: s.seat, mute: !off, id: st.nextId++ }),
    });
  }));
}

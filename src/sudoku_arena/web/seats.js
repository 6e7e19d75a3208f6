// Sudoku Arena play page: the seats and their links. The other people's invite links
// (shown once after the game was created, and re-issued by the host), a player's own
// link to continue on another device, and a seat taken over by another device.

import { st } from "./state.js";
import { $, api, device, el, notice } from "./util.js";

/**
 * The links of the other seats, shown once after the game was created (the home page
 * leaves them in this tab's session storage; they are not kept).
 */
export function takeNewLinks() {
  try {
    const key = "arena:new-invites:" + st.gameId;
    /** @type {{seat: number, url: string}[]} */
    const invites = JSON.parse(sessionStorage.getItem(key) || "[]");
    for (const inv of invites) st.newLinks[inv.seat] = location.origin + inv.url;
    sessionStorage.removeItem(key);
  } catch (e) { /* nothing to show */ }
}

/**
 * A read-only field with a link, and its Copy button.
 * @param {string} url
 * @param {string} label
 * @returns {[HTMLInputElement, HTMLButtonElement]}
 */
function linkField(url, label) {
  const input = el("input", { readonly: true, value: url, "aria-label": label });
  const button = el("button", { type: "button", text: "Copy", onclick: () => copy(input, button, url) });
  return [input, button];
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let copiedTimer;

/**
 * Copies a link and says whether it worked: "Copied" on the button for a moment (and
 * in the live region, since a button's new text is not read out); a clipboard that
 * refuses (no permission, an old browser) leaves the link selected, with a message.
 * @param {HTMLInputElement} input
 * @param {HTMLButtonElement} button
 * @param {string} url
 */
async function copy(input, button, url) {
  input.select();
  let done = false;
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(url);
      done = true;
    } else {
      done = document.execCommand("copy");
    }
  } catch (e) { done = false; }
  if (!done) {
    notice("The link could not be copied: it is selected, copy it with your keyboard or menu.", "error");
    return;
  }
  for (const b of document.querySelectorAll("button.copied")) { b.textContent = "Copy"; b.classList.remove("copied"); }
  button.textContent = "Copied";
  button.classList.add("copied");
  $("announce").textContent = "Link copied.";
  clearTimeout(copiedTimer);
  copiedTimer = setTimeout(() => { button.textContent = "Copy"; button.classList.remove("copied"); }, 2500);
}

/**
 * The other people's seats: their links right after creation, and for the creator a
 * new link for any seat nobody has opened yet (the old link then stops working).
 */
export function renderInvites() {
  const info = st.info;
  if (!info) return;
  const list = $("invite-list");
  list.textContent = "";
  const host = info.host_seat !== null && st.seats.includes(info.host_seat);
  const live = info.status !== "finished";
  let shown = 0;
  for (const s of info.seats) {
    if (s.kind !== "human" || st.seats.includes(s.seat)) continue;
    const link = st.newLinks[s.seat];
    const claimed = info.claimed && info.claimed[s.seat];
    if (!link && !(host && live)) continue;
    const li = el("li", {}, el("span", { text: `${s.name}: ` }));
    if (claimed) {
      li.append(el("span", { class: "muted small", text: "has opened the link" }));
    } else {
      if (link) li.append(...linkField(link, `link for ${s.name}`));
      else li.append(el("span", { class: "muted small", text: "has not opened the link yet" }));
      if (host && live) {
        li.append(el("button", { type: "button", text: link ? "Replace the link" : "New link",
          title: "Make a new link for this seat; the old one stops working",
          onclick: () => reissue(s.seat) }));
      }
    }
    list.append(li);
    shown++;
  }
  $("invites").hidden = !shown;
  renderContinue();
}

/** @param {number} seat */
async function reissue(seat) {
  const host = st.info ? st.info.host_seat : null;
  try {
    const made = /** @type {{url: string}} */ (
      await api(`/api/matches/${encodeURIComponent(st.gameId)}/seats/${seat}/invite`,
        { json: { token: (host !== null && st.tokenOf[host]) || st.tokens[0], device: device() } }));
    st.newLinks[seat] = location.origin + made.url;
    notice("New link made: the old one no longer works.", "info");
  } catch (e) {
    notice(/** @type {Error} */ (e).message, "error");
  }
  renderInvites();
}

/**
 * A player's own link, to go on playing on another device (opened there, it asks
 * before taking the seat, and this device is told).
 */
function renderContinue() {
  const box = $("continue");
  const live = st.info && st.info.status !== "finished";
  box.hidden = !st.tokens.length || !st.seats.length || !live;
  if (box.hidden || $("continue-link").childElementCount) return;
  $("continue-show").onclick = () => {
    const url = `${location.origin}/play/${st.gameId}#t=${st.tokens.join(".")}`;
    $("continue-link").append(...linkField(url, "link to continue on another device"));
    $("continue-show").hidden = true;
    $("continue-help").hidden = false;
  };
}

/**
 * This device lost a seat to another device: it watches from now on, and says so.
 * @param {{seat: number, text: string}} head
 */
export function seatMoved(head) {
  st.seats = st.seats.filter((s) => s !== head.seat);
  const lost = st.tokenOf[head.seat];
  st.tokens = st.tokens.filter((t) => t !== lost);
  delete st.states[String(head.seat)];
  st.shown = null;
  notice(head.text, "error");
  renderInvites();
}

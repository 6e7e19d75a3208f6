// Sudoku Arena "your turn" alerts on the play page: when the player's turn comes while
// the page is in the background, the tab's title and icon change, a sound plays (if
// turned on) and a notification shows (if allowed); all is put back once the page is
// seen. "Tell me when it's my turn" asks the browser's permission (only on that click)
// and subscribes this browser to the server's Web Push alerts for the seat, which reach
// it through the service worker (/sw.js) when no page of the game is open.

import { st } from "./state.js";
import { $, $input, api } from "./util.js";

const TURN_ICON = "/favicon-turn.svg";
const SOUND_KEY = "arena:alerts:sound";
/** @param {string} game */
const linkKey = (game) => `arena:alerts:link:${game}`;

/** Whether the player's turn was known, and was his, at the last position. */
let lastTurn = /** @type {boolean | null} */ (null);
let alerted = false;
let baseTitle = "";
/** @type {AudioContext | null} */
let audio = null;

/**
 * A page opened without its link's token (from a notification) takes the link this
 * browser kept when it asked to be told: call before the page reads its tokens.
 * @param {string} game
 */
export function restoreLink(game) {
  if (/(?:^|[#&])t=/.test(location.hash)) return;
  let saved = null;
  try { saved = localStorage.getItem(linkKey(game)); } catch (e) { /* storage off */ }
  if (saved) history.replaceState(null, "", `${location.pathname}${location.search}#${saved}`);
}

/** The button and the sound toggle (a page that holds a seat shows them). */
export function installAlerts() {
  const sound = $input("alerts-sound");
  try { sound.checked = localStorage.getItem(SOUND_KEY) === "1"; } catch (e) { /* storage off */ }
  sound.addEventListener("change", () => {
    try { localStorage.setItem(SOUND_KEY, sound.checked ? "1" : "0"); } catch (e) { /* off */ }
    if (sound.checked) unlockSound();
  });
  $("alerts-on").addEventListener("click", () => { void askToBeTold(); });
  if (typeof Notification !== "undefined" && Notification.permission === "granted") {
    status("This page tells you when it is your turn.");
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") putBack();
  });
}

/** Called with every position: alerts once when the turn becomes the player's. */
export function turnAlert() {
  $("alerts-box").hidden = !st.seats.length;
  if (!st.seats.length) return;
  const mine = st.seats.some((s) => {
    const cur = st.states[String(s)];
    if (!cur || cur.head.status === "finished") return false;
    return (cur.head.view.to_move || []).includes(s);
  });
  const came = mine && lastTurn === false;  // not at the page's first position
  lastTurn = mine;
  if (!mine) { putBack(); return; }
  if (came && document.visibilityState === "hidden") alert();
}

function alert() {
  if (!alerted) baseTitle = document.title;
  alerted = true;
  document.title = `(your turn) ${baseTitle}`;
  icon().href = TURN_ICON;
  if ($input("alerts-sound").checked) beep();
  if (typeof Notification !== "undefined" && Notification.permission === "granted") {
    const shown = new Notification(`Your turn: ${(st.info && st.info.name) || "Sudoku Arena"}`, {
      body: "Your opponent has moved.", tag: `turn-${st.gameId}`, icon: TURN_ICON,
    });
    shown.onclick = () => { window.focus(); shown.close(); };
  }
}

/** The title and icon as they were before the alert. */
function putBack() {
  if (!alerted) return;
  alerted = false;
  document.title = baseTitle;
  icon().href = "/favicon.ico";
}

/** The page's icon link (made if the page has none). */
function icon() {
  let link = /** @type {HTMLLinkElement | null} */ (document.querySelector("link[rel~='icon']"));
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    link.href = "/favicon.ico";
    document.head.append(link);
  }
  return link;
}

/** Browsers let a page play sound only after a click on it: the toggle is one. */
function unlockSound() {
  if (!audio) audio = new AudioContext();
  void audio.resume();
}

function beep() {
  if (!audio) return;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = 880;
  gain.gain.value = 0.15;
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.2);
}

/** @param {string} text */
function status(text) {
  $("alerts-status").textContent = text;
}

/** The click: permission, then the service worker and the push subscription. */
async function askToBeTold() {
  if (typeof Notification === "undefined") {
    status("This browser cannot show notifications; the tab's title still changes.");
    return;
  }
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    status("Notifications are blocked for this site; the tab's title still changes.");
    return;
  }
  try {
    localStorage.setItem(linkKey(st.gameId), location.hash.slice(1));
  } catch (e) { /* storage off: a notification opens the page without its link */ }
  status("This page tells you when it is your turn.");
  try {
    await subscribe();
    status("You will be told when it is your turn, also when this page is closed.");
  } catch (e) {
    // No push service reachable (or none in this browser): the open page still tells.
  }
}

async function subscribe() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) throw new Error("no push");
  const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const { key } = /** @type {{key: string}} */ (await api("/api/push/key"));
  const sub = await reg.pushManager.subscribe({
    userVisibleOnly: true, applicationServerKey: fromBase64Url(key),
  });
  const token = st.tokens.find((t) => t) || null;
  await api("/api/push/subscribe", {
    json: { subscription: sub.toJSON(), game_id: token ? st.gameId : null, token },
  });
}

/**
 * @param {string} text URL-safe base64 without padding
 * @returns {Uint8Array<ArrayBuffer>}
 */
function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

// Sudoku Arena play page: what the page says about the game around the board. Whose
// turn it is, the players and scores, the move log, the clocks, the result and rematch,
// the symbols' legend, the fair-chance box, and the screen reader's news of moves.

import { info, st } from "./state.js";
import { $, api, el, notice, plain, playerLabel } from "./util.js";

/** @typedef {import("./types.js").StateHead} StateHead */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Outcome} Outcome */

/**
 * Whose turn: the status line.
 * @param {number | null} seat
 * @param {StateHead} head
 * @param {Outcome | null} outcome
 */
export function renderStatus(seat, head, outcome) {
  const game = info();
  const view = head.view;
  const status = $("status");
  const text = $("status-text");
  const toMove = view.to_move || [];
  if (head.status === "finished" || outcome) {
    text.textContent = "Game over";
    status.className = "status over";
  } else if (seat !== null && toMove.includes(seat)) {
    text.textContent = st.seats.length > 1 ? `${playerLabel(game.seats, view, seat)}: your turn` : "Your turn";
    // What to do now and where, in the server's words for this seat (inside the live
    // region, so a screen reader hears it with the turn).
    if (head.guide) text.append(": ", el("span", { class: "guide", text: head.guide }));
    status.className = "status mine";
  } else if (toMove.length) {
    text.textContent = "Waiting for " + toMove.map((s) => playerLabel(game.seats, view, s)).join(", ");
    status.className = "status wait";
  } else {
    text.textContent = "…";
    status.className = "status wait";
  }
}

/**
 * The players with their scores and presence, the move log and the watchers.
 * @param {string} key the seat key whose log is shown
 * @param {View} view
 */
export function renderPlayers(key, view) {
  const game = info();
  const toMove = view.to_move || [];
  const players = $("players");
  players.textContent = "";
  (game.seats || []).forEach((s, i) => {
    const score = view.scores ? view.scores[i] : null;
    const me = st.seats.includes(i);
    const here = st.presence && s.kind !== "bot" ? st.presence[i] : null;
    players.append(el("li", { class: (toMove.includes(i) ? "to-move " : "") + (me ? "me" : "") },
      el("span", { class: "who", text: playerLabel(game.seats, view, i) + (me && st.seats.length === 1 ? " (you)" : "") }),
      el("span", { class: "kind muted small", text: s.kind === "bot" && !/\bbot\b/.test(s.name || "") ? " bot" : "" }),
      here === null ? null : el("span", { class: "presence " + (here ? "on" : "off"),
        title: here ? "connected" : "not connected", text: here ? "online" : "away" }),
      score === null || score === undefined ? null : el("span", { class: "score", text: String(score) })));
  });

  const logEl = $("log");
  const entries = st.log[key] || [];
  logEl.textContent = "";
  for (const e of entries) {
    const who = e.actor === null ? "chance" : playerLabel(game.seats, view, e.actor);
    // The notation in words on hover and for screen readers ("r7c5: row 7, column 5").
    const said = e.says ? `${e.action}: ${e.says}` : null;
    logEl.append(el("li", { class: e.actor === null ? "chance" : "", title: said,
      "aria-label": said && `${who}: ${said}` },
      el("span", { class: "who", text: who + ": " }),
      el("code", { text: e.action === null ? "(hidden)" : e.action })));
  }
  logEl.scrollTop = logEl.scrollHeight;

  const w8 = $("watchers");
  w8.hidden = !st.watchers;
  w8.textContent = st.watchers === 1 ? "1 person watching" : `${st.watchers} people watching`;
}

/**
 * The result box once the game is over, with the rematch button.
 * @param {View} view
 * @param {Outcome | null} outcome
 */
export function renderResult(view, outcome) {
  const game = info();
  const result = $("result");
  if (!outcome) {
    result.hidden = true;
    return;
  }
  result.hidden = false;
  const w = outcome.winners || [];
  const mineWon = w.some((x) => st.seats.includes(x));
  let title;
  if (!w.length) title = "Draw";
  else if (st.seats.length === 1) title = mineWon ? "You won!" : "You lost";
  else title = w.map((x) => playerLabel(game.seats, view, x)).join(" and ") + (w.length > 1 ? " win" : " wins");
  $("result-title").textContent = title;
  const scores = (outcome.scores || []).map((s, i) => `${playerLabel(game.seats, view, i)} ${s}`).join(", ");
  const [reason, rule] = plain(outcome.reason);
  $("result-reason").textContent = `${reason}. ${scores}`;
  $("result-reason").title = rule;
  const rm = $("rematch");
  if (st.seats.length) {
    rm.hidden = false;
    rm.textContent = game.rematch ? "Join the rematch" : "Rematch";
    rm.onclick = rematch;
  } else if (game.rematch) {
    rm.hidden = false;
    rm.textContent = "Watch the rematch";
    rm.onclick = () => { location.href = `/play/${game.rematch}`; };
  } else {
    rm.hidden = true;
  }
}

async function rematch() {
  try {
    const made = /** @type {{id: string, url: string}} */ (
      await api(`/api/matches/${st.gameId}/rematch`, { json: { tokens: st.tokens } }));
    location.href = made.url;
    if (location.pathname === `/play/${made.id}`) location.reload();
  } catch (e) {
    notice(/** @type {Error} */ (e).message, "error");
  }
}

// -- clocks ------------------------------------------------------------------------------

/**
 * Timed games: each seat's time, counted down between messages from the server's time
 * (each position carries it), so a wrong clock on this device does not matter. Called
 * with the newest position, and with null four times a second to count down.
 * @param {StateHead | null} head
 */
export function renderClock(head) {
  const box = $("clocks");
  if (head && head !== st.clockHead) {
    st.clockHead = head;
    if (typeof head.server_time === "number") st.clockOffset = head.server_time - Date.now() / 1000;
  }
  const h = st.clockHead;
  const clock = h && h.clock;
  box.hidden = !clock;
  if (!h || !clock) return;
  const now = Date.now() / 1000 + st.clockOffset;
  const view = h.view || {};
  box.textContent = "";
  box.append(el("span", { class: "clock-control muted small", text: `Clock ${clock.words}` }));
  clock.left.forEach((left, i) => {
    const since = clock.since[i];
    const running = since !== null && since !== undefined && h.status !== "finished";
    const secs = Math.max(0, running ? left - (now - since) : left);
    const name = playerLabel(info().seats, view, i);
    box.append(el("span", {
      class: "clock" + (running ? " running" : "") + (secs < 20 ? " low" : "") + (secs <= 0 ? " out" : ""),
      "aria-label": `${name}: ${clockText(secs)} left` + (running ? ", running" : ""),
    }, el("span", { class: "clock-who", text: name + " " }), el("b", { text: clockText(secs) })));
  });
}

/** @param {number} secs */
function clockText(secs) {
  // A correspondence game's days per move: days and hours, then hours and minutes.
  if (secs >= 86400) return `${Math.floor(secs / 86400)}d ${Math.floor((secs % 86400) / 3600)}h`;
  if (secs >= 3 * 3600) return `${Math.floor(secs / 3600)}h ${Math.floor((secs % 3600) / 60)}m`;
  if (secs < 10) return `0:0${secs.toFixed(1)}`;
  const s = Math.floor(secs);
  const hours = Math.floor(s / 3600);
  const mins = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(mins).padStart(2, "0")}:${rest}` : `${mins}:${rest}`;
}

// -- what the game is: its symbols, its fair chance ------------------------------------

/**
 * The game's own key to its symbols (icons are the game's drawings, not user text).
 * @param {{icon: string, text: string}[]} items
 */
export function showLegend(items) {
  const list = $("legend-list");
  list.textContent = "";
  for (const item of items) {
    const icon = el("span", { class: "icon" });
    icon.innerHTML = `<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">${item.icon}</svg>`;
    list.append(el("li", {}, icon, el("span", { text: item.text })));
  }
  $("legend").hidden = !items.length;
}

/**
 * Games with chance show the commitment to their secret, and once over the record that
 * reveals it (replay --verify recomputes every draw from it).
 * @param {import("./types.js").GameInfo} game
 */
export function showFairness(game) {
  if (!game.chance || !game.commitment) return;
  $("fair").hidden = false;
  const c = $("fair-commit");
  c.textContent = game.commitment.slice(0, 16) + "…";
  c.title = game.commitment;
  const record = /** @type {HTMLAnchorElement} */ ($("fair-record"));
  record.href = `/api/matches/${st.gameId}/record`;
  record.setAttribute("download", `${game.game}-${st.gameId}.json`);
  if (game.status === "finished") {
    $("fair-text").textContent = "The game is over and its secret is revealed in the record: anyone can check every die and tile against the commitment published when the game began.";
  }
}

/**
 * Screen readers hear each move by somebody else, and the result.
 * @param {string} key the seat key the position is for
 * @param {string} shownKey the seat key on screen
 * @param {number} had how many log entries this key had before
 * @param {StateHead} head
 */
export function announceMoves(key, shownKey, had, head) {
  if (key !== shownKey && st.states[key]) return;
  const fresh = head.log.slice(Math.max(0, had - head.log_from));
  const said = [];
  for (const e of fresh) {
    if (e.actor !== null && st.seats.includes(e.actor)) continue;
    const who = e.actor === null ? "Chance" : playerLabel(info().seats, head.view, e.actor);
    said.push(`${who}: ${e.says || e.action}.`);
  }
  const outcome = head.outcome || head.view.outcome;
  if (outcome && !st.announcedEnd) {
    st.announcedEnd = true;
    said.push(`Game over: ${plain(outcome.reason)[0]}.`);
  }
  if (said.length && had > 0 || outcome) $("announce").textContent = said.slice(-4).join(" ");
}

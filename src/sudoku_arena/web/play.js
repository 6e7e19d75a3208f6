// Sudoku Arena play page: starts the page (links, seat claims, the connection), reads
// each message from the server, and redraws the page for the seat on screen.

import { installAlerts, restoreLink, turnAlert } from "./alerts.js";
import { drawBoard } from "./board.js";
import { chatHistory, chatMessage, chatMuted } from "./chat.js";
import { claimSeats, sendRaw, startConnection } from "./connection.js";
import { etiquette, installKeyboard, renderActions } from "./controls.js";
import { offerLessons, rememberFinished } from "./learn.js";
import {
  announceMoves, renderClock, renderPlayers, renderResult, renderStatus, showFairness, showLegend,
} from "./panel.js";
import { renderInvites, seatMoved, takeNewLinks } from "./seats.js";
import { info, st } from "./state.js";
import { renderTakeback, takebackMessage } from "./takeback.js";
import { $, gameIdFromPath, notice, playerLabel, tokensFromHash } from "./util.js";

export function play() {
  st.gameId = gameIdFromPath();
  restoreLink(st.gameId);  // opened from a "your turn" notification: the kept link
  st.tokens = tokensFromHash();
  const gameId = st.gameId;
  const watch = /** @type {HTMLAnchorElement} */ ($("watch-link"));
  watch.href = `/play/${gameId}`;
  watch.textContent = `${location.origin}/play/${gameId}`;
  /** @type {HTMLAnchorElement} */ ($("replay-link")).href = `/replay/${gameId}`;
  /** @type {HTMLAnchorElement} */ ($("print-link")).href = `/api/matches/${gameId}/print`;
  takeNewLinks();
  installKeyboard();
  installAlerts();
  setInterval(() => { if (st.clockHead && st.clockHead.clock) renderClock(null); }, 250);
  $("cover").hidden = true;
  const start = () => startConnection(onMessage);
  claimSeats().then(start, start);
}

/**
 * One message: a JSON head line, then for positions the board and the panel drawings
 * a line each.
 * @param {string} data
 */
function onMessage(data) {
  const cut = data.indexOf("\n");
  const head = /** @type {import("./types.js").Message} */ (JSON.parse(cut < 0 ? data : data.slice(0, cut)));
  const drawings = cut < 0 ? "" : data.slice(cut + 1);
  const cut2 = drawings.indexOf("\n");
  const svg = cut2 < 0 ? drawings : drawings.slice(0, cut2);
  const panel = cut2 < 0 ? "" : drawings.slice(cut2 + 1);
  switch (head.type) {
    case "welcome":
      st.info = head.game;
      st.seats = head.seats;
      showFairness(head.game);
      $("title").textContent = head.game.name;
      document.title = `${head.game.name} · Sudoku Arena`;
      /** @type {HTMLAnchorElement} */ ($("rules-link")).href = `/rules/${head.game.game}`;
      $("type-box").hidden = !st.seats.length;
      renderInvites();
      showLegend(head.legend || []);
      offerLessons(head.game.game, st.seats.length > 0);
      break;
    case "state": {
      if (head.ack) { st.pending = null; notice(""); }
      const key = head.seat === null ? "spectator" : String(head.seat);
      const log = st.log[key] || [];
      if (head.log_from !== log.length && head.log_from !== 0) {
        sendRaw({ type: "resync" });
        return;
      }
      announceMoves(key, chooseSeat(), log.length, head);
      st.log[key] = log.slice(0, head.log_from).concat(head.log);
      st.states[key] = { head, svg, panel };
      const game = info();
      game.status = head.status;
      if (head.status === "finished") { showFairness(game); renderInvites(); }
      if (head.status === "finished" && st.seats.length) rememberFinished(game.game);
      game.rematch = head.rematch;
      render();
      turnAlert();
      break;
    }
    case "ack":
      st.pending = null;
      notice("");
      break;
    case "error":
      st.pending = null;
      $("board").classList.remove("busy");
      notice(head.message, "error");
      break;
    case "rematch":
      info().rematch = head.rematch;
      render();
      break;
    case "seats":
      if (st.info) st.info.claimed = head.claimed;
      renderInvites();
      break;
    case "seat_moved":
      seatMoved(head);
      render();
      break;
    case "presence":
      st.presence = head.seats;
      st.watchers = head.watchers;
      // The server's count of each seat's time away, from now on this device's clock.
      st.awaySince = (head.away || []).map((a) => a === null ? null : Date.now() / 1000 - a);
      st.claimAfter = head.claim_after === undefined ? null : head.claim_after;
      render();
      break;
    case "notice":
      notice(head.text, "info");
      break;
    case "chat_history":
      chatHistory(head);
      break;
    case "chat":
      chatMessage(head);
      break;
    case "chat_muted":
      chatMuted(head.muted);
      break;
    case "takeback":
      takebackMessage(head);
      render();
      break;
    default:
      break;
  }
}

/**
 * The seat key whose board is on screen: in hot seat the seat to move (or the one shown
 * before); "spectator" for a page that holds no seat.
 * @returns {string}
 */
function chooseSeat() {
  if (!st.seats.length) return "spectator";
  const any = st.states[String(st.seats[0])];
  const toMove = any ? any.head.view.to_move || [] : [];
  const mine = st.seats.filter((s) => toMove.includes(s));
  if (mine[0] !== undefined && (st.shown === null || !mine.includes(st.shown))) return String(mine[0]);
  if (st.shown !== null && st.states[String(st.shown)]) return String(st.shown);
  return String(st.seats[0]);
}

/** Redraws the page for the seat on screen from the newest position it was sent. */
function render() {
  const key = chooseSeat();
  const cur = st.states[key];
  if (!cur) return;
  const seat = key === "spectator" ? null : parseInt(key, 10);
  const { head, svg, panel } = cur;
  const view = head.view;
  const game = info();
  // An ending the players decided (resignation, abort, agreed draw) comes with the
  // message, not with the rules' view.
  const outcome = head.outcome || view.outcome || null;
  $("watching").hidden = st.seats.length > 0;
  const hidden = game.hidden_information && st.seats.length > 1;
  if (seat !== st.shown) {
    st.selected = null;
    if (hidden && st.shown !== null && seat !== null) st.revealed = null;
  }
  st.shown = seat;

  // Hot seat with secrets: cover the board until the right person looks.
  const cover = $("cover");
  if (hidden && seat !== null && st.revealed !== seat && !outcome) {
    cover.hidden = false;
    $("cover-text").textContent = `Pass the device to ${playerLabel(game.seats, view, seat)}.`;
    $("cover-show").onclick = () => { st.revealed = seat; render(); };
    $("board").textContent = "";
    $("game-panel").textContent = "";
    $("game-panel").hidden = true;
    $("actions").textContent = "";
    $("step").hidden = true;
  } else {
    cover.hidden = true;
    const { canAct, onBoard } = drawBoard(seat, head, svg, panel, !!outcome);
    renderActions(seat, head, canAct, onBoard);
  }

  renderStatus(seat, head, outcome);
  renderPlayers(key, view);
  etiquette(seat, head, outcome);
  renderTakeback(seat, head, outcome);
  renderClock(head);
  renderResult(view, outcome);
}

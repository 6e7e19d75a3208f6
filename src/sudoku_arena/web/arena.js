// Sudoku Arena: the entry module of every page that plays or shows games (index.html,
// play.html, replay.html load it with <script type="module">). It starts the page that
// <body data-page> names; the work is in the modules it imports:
//
//   home.js        the home page's game cards and new-game form (lobby.js: its lists)
//   seek.js        the home page's "Play now" (a seek, paired by the server) and bots' ratings
//   challenge.js   the home page's challenges to a named player, made and answered
//   play.js        the play page: startup, the server's messages, redrawing
//     connection.js  seat claims, the WebSocket and reconnecting, sending moves
//     board.js       the game's drawings made into controls, two-step selections
//     zoom.js        a board of small places magnified for a finger, parts shown larger
//     controls.js    keyboard cursor, off-board action buttons, typed moves, resign/draw
//     panel.js       status, players, move log, clocks, result, legend, fair chance
//     seats.js       invite links, continuing on another device, a seat moved away
//     state.js       the state the play page's modules share
//   replay.js      the replay page (mistakes.js: its list of the moves that lost most)
//   coach.js       the play page's coach: hints, numbered on the board
//   learn.js       learn to play: the lessons list, progress kept here (tutorial.js: a lesson)
//   account.js     the account page (/account) and the header's "Sign in" link
//   util.js        helpers every page shares (elements, API, notices, drawings)
//   types.js       JSDoc types of the server's messages, for the type check only

import { account, accountLink } from "./account.js";
import { coach } from "./coach.js";
import { home } from "./home.js";
import { lessonList } from "./learn.js";
import { mistakes } from "./mistakes.js";
import { play } from "./play.js";
import { replay } from "./replay.js";
import { lesson } from "./tutorial.js";

// Older versions kept every opponent's link in the creator's browser: forget them.
try {
  for (const k of Object.keys(localStorage)) if (k.startsWith("arena:invites:")) localStorage.removeItem(k);
} catch (e) { /* storage unavailable */ }

const page = document.body.dataset.page;
if (page === "home") home();
else if (page === "play") { play(); coach(); }
else if (page === "replay") { replay(); mistakes(); }
else if (page === "lessons") lessonList();
else if (page === "lesson") lesson();
else if (page === "account") account();
void accountLink();

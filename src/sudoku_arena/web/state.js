// Sudoku Arena play page: the one state object the play page's modules share (the
// connection, the positions each seat was sent, the selection, the seats held here).
// Only play.js's startup fills in the game's id and the tokens; nothing runs on import.

/**
 * What the server last sent for one seat (or "spectator"): the JSON head and the two
 * drawings (board, panel).
 * @typedef {{head: import("./types.js").StateHead, svg: string, panel: string}} Shown
 */

/**
 * @typedef {object} PlayState
 * @property {string} gameId
 * @property {string[]} tokens the seat tokens this page plays with (from its link)
 * @property {WebSocket | null} ws
 * @property {import("./types.js").GameInfo | null} info
 * @property {number[]} seats the seats this page plays (several in hot seat)
 * @property {Partial<Record<string, Shown>>} states the newest position per seat key
 * @property {number | null} shown the seat on screen
 * @property {number | null} revealed hot seat with secrets: the seat whose board is uncovered
 * @property {Partial<Record<string, import("./types.js").LogEntry[]>>} log per seat key
 * @property {number} nextId the id of the next message sent
 * @property {number | null} pending the id of the move sent and not answered yet
 * @property {number} retry reconnection attempts since the last success
 * @property {boolean} closedForGood the server said the game does not exist
 * @property {string | null} selected the key selected on the board (data-select)
 * @property {number} drawnPly the ply of the position drawn
 * @property {boolean[] | null} presence which seats are connected
 * @property {(number | null)[]} awaySince per seat, when (this device's clock, in
 *   seconds) it went away as the server counts it; null while here
 * @property {number | null} claimAfter seconds away after which the win may be claimed
 *   over the players who left (null: not in this game)
 * @property {number} watchers
 * @property {boolean} online
 * @property {ReturnType<typeof setTimeout> | null} timer the pending reconnection
 * @property {Partial<Record<number, string>>} tokenOf the token of each seat held here
 * @property {Partial<Record<number, string>>} newLinks other seats' links, shown once
 * @property {import("./types.js").StateHead | null} clockHead the position the clocks count from
 * @property {number} clockOffset the server's clock minus this device's, in seconds
 * @property {Element[]} roots the drawings on screen (board, panel)
 * @property {boolean} announcedEnd
 */

/** @type {PlayState} */
export const st = {
  gameId: "", tokens: [],
  ws: null, info: null, seats: [], states: {}, shown: null, revealed: null, log: {},
  nextId: 1, pending: null, retry: 0, closedForGood: false, selected: null, drawnPly: -1,
  presence: null, awaySince: [], claimAfter: null, watchers: 0, online: false, timer: null,
  tokenOf: {}, newLinks: {}, clockHead: null, clockOffset: 0, roots: [], announcedEnd: false,
};

/**
 * The game's facts, once the welcome message brought them: every handler that needs
 * them runs after it.
 * @returns {import("./types.js").GameInfo}
 */
export function info() {
  if (!st.info) throw new Error("the game's facts have not arrived yet");
  return st.info;
}

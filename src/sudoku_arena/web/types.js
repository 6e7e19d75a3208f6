// Sudoku Arena: the shapes of what the server sends, as JSDoc types for the type check
// (web-check/tsconfig.json). Nothing here runs; modules name these types with
// import("./types.js").Name. The server side is src/sudoku_arena/server (live.py's
// state_message and info, sockets.py's welcome, models.py for the HTTP answers).

/**
 * @typedef {{seat: number, kind: string, agent?: string | null, name: string}} Seat
 * @typedef {{winners: number[], scores: number[], reason: string}} Outcome
 * @typedef {{actor: number | null, action: string | null, says?: string}} LogEntry
 *   (says: the action's notation in words)
 * @typedef {{minutes: number, increment: number, days: number, words: string,
 *   left: number[], since: (number | null)[]}} Clock
 *   (days: a correspondence game's days per move, 0 for a chess clock)
 */

/**
 * The rules' view of the position for one seat (or a spectator).
 * @typedef {object} View
 * @property {number[]} [to_move]
 * @property {string[]} [legal]
 * @property {number[] | null} [scores]
 * @property {string[]} [players] the role each seat plays ("circle", "red"...)
 * @property {Outcome | null} [outcome]
 */

/**
 * A game's public facts (live.py's info), kept up to date by later messages.
 * @typedef {object} GameInfo
 * @property {string} game the game's id
 * @property {string} name
 * @property {Seat[]} seats
 * @property {string} status
 * @property {number | null} host_seat
 * @property {boolean[]} [claimed]
 * @property {boolean} hidden_information
 * @property {boolean} chance
 * @property {string | null} [commitment]
 * @property {boolean} draws
 * @property {boolean} [read_only]
 * @property {string | null} [rematch]
 */

/**
 * The first line of a "state" message: the position as one seat sees it.
 * @typedef {object} StateHead
 * @property {"state"} type
 * @property {number | null} seat
 * @property {number} ply
 * @property {string} status
 * @property {Outcome | null} [outcome]
 * @property {string | null} [rematch]
 * @property {number | null} [draw_offer]
 * @property {Clock | null} [clock]
 * @property {number} [server_time]
 * @property {number} log_from
 * @property {LogEntry[]} log
 * @property {Record<string, [string, string]>} [buttons] words (label, tooltip) per action
 * @property {string | null} [guide] what this seat is to do now and where (only for a
 *   seat that may act)
 * @property {View} view
 * @property {object} [ack] present when the position answers this client's move
 */

/**
 * Every message the game's WebSocket sends (sockets.py), told apart by type.
 * @typedef {{type: "welcome", game: GameInfo, seats: number[],
 *     legend?: {icon: string, text: string}[]}
 *   | StateHead
 *   | {type: "ack"}
 *   | {type: "error", message: string, code?: string}
 *   | {type: "rematch", rematch: string | null}
 *   | {type: "seats", claimed: boolean[]}
 *   | {type: "seat_moved", seat: number, text: string}
 *   | {type: "presence", seats: boolean[], watchers: number, away?: (number | null)[],
 *       claim_after?: number | null}
 *   | {type: "notice", text: string, event?: string, seat?: number}
 *   | import("./chat.js").ChatHistory
 *   | ({type: "chat"} & import("./chat.js").ChatMessage)
 *   | {type: "chat_muted", muted: number[]}
 *   | import("./takeback.js").TakebackMessage
 *   | {type: "pong"}} Message
 */

/**
 * A game as /api/games lists it (pages.py's game_json), for the home page's form.
 * @typedef {object} GameFacts
 * @property {string} id
 * @property {string} name
 * @property {string} summary
 * @property {number} min_players
 * @property {number} max_players
 * @property {boolean} chance
 * @property {boolean} hidden_information
 * @property {boolean} simultaneous
 * @property {string[]} agents
 * @property {Param[]} params
 */

/**
 * One option of the new-game form (pages.py's param_json).
 * @typedef {object} Param
 * @property {string} name
 * @property {string} label
 * @property {"bool" | "int" | "str"} kind
 * @property {string | number | boolean | null} default
 * @property {string} help
 * @property {string} details
 * @property {(string | number)[] | null} choices
 * @property {number | null} minimum
 * @property {number | null} maximum
 * @property {boolean} generated
 */

export {};

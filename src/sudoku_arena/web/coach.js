// Sudoku Arena: the coach. On the play page, a "Coach" panel: whether hints are on in
// this game and why (shown to everybody who opens the game, players and watchers), and
// for the seat to move a Hint button: the search's three best moves from its own view
// (POST /api/matches/{id}/hint), numbered 1-3 on the board with their chances and
// listed in words. On the replay page, the moves that lost most (mistakes.js).
//
// Badges are drawn into the board's own SVG over the element that plays the move
// (data-action); a move with no place on the board (an off-board button) gets its
// button marked instead. A new position clears the hint: it was for the old one.
//
// Between people, a coach the creator turned on waits for every other person: the panel
// asks a seat held here that is still asked (Agree / Decline, POST .../coach/answer
// with its token) and, while anybody is asked, looks at the coach again every few
// seconds, so the creator's Hint appears once the last person agrees.

import { st } from "./state.js";
import { api, el, gameIdFromPath } from "./util.js";

const NS = "http://www.w3.org/2000/svg";

/**
 * @typedef {{rank: number, action: string, says: string, chance: number, visits: number}} HintMove
 * @typedef {{game_id: string, seat: number, ply: number, simulations: number,
 *   moves: HintMove[], hints: number}} Hint
 * @typedef {{game_id: string, enabled: boolean, why: string, hints: number[], offered: boolean,
 *   agreed: number[], asked: number[], declined: number | null}} CoachInfo
 */

/** @param {number} v */
export const pct = (v) => `${Math.round(v * 100)}%`;

/** Every badge and mark the coach drew, removed. */
export function clearBadges() {
  for (const b of document.querySelectorAll(".coach-badge")) b.remove();
  for (const b of document.querySelectorAll(".coach-marked")) b.classList.remove("coach-marked");
}

/**
 * A numbered badge over the element that plays `action` (on the board or its panel),
 * with a short label under the number; or its off-board button marked. Whether it
 * found a place.
 * @param {string} action
 * @param {string} mark the badge's text: "1", "✗"...
 * @param {string} label under the badge: "62%"
 * @param {string} kind hint, played or better
 * @returns {boolean}
 */
export function badge(action, mark, label, kind) {
  const targets = Array.from(document.querySelectorAll("#board [data-action], #game-panel [data-action]"))
    .filter((t) => t.getAttribute("data-action") === action);
  for (const t of targets) {
    const root = t.closest("svg");
    if (!(t instanceof SVGGraphicsElement) || !root) continue;
    const box = t.getBBox();
    if (!box.width && !box.height) continue;
    const r = Math.max(8, Math.min(16, Math.min(box.width, box.height) * 0.32));
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    const g = document.createElementNS(NS, "g");
    g.setAttribute("class", `coach-badge ${kind}`);
    g.setAttribute("data-badge", action);
    g.setAttribute("aria-hidden", "true");
    const c = document.createElementNS(NS, "circle");
    c.setAttribute("cx", String(cx));
    c.setAttribute("cy", String(cy - r * 0.3));
    c.setAttribute("r", String(r));
    const n = document.createElementNS(NS, "text");
    n.setAttribute("x", String(cx));
    n.setAttribute("y", String(cy - r * 0.3 + r * 0.38));
    n.setAttribute("text-anchor", "middle");
    n.setAttribute("font-size", String(r * 1.1));
    n.setAttribute("fill", "#fff");
    n.textContent = mark;
    const p = document.createElementNS(NS, "text");
    p.setAttribute("class", "chance");
    p.setAttribute("x", String(cx));
    p.setAttribute("y", String(cy + r * 0.7 + 9));
    p.setAttribute("text-anchor", "middle");
    p.textContent = label;
    g.append(c, n, p);
    root.append(g);
    return true;
  }
  for (const b of document.querySelectorAll("#actions button")) {
    if (b.getAttribute("data-offboard") !== action) continue;
    b.classList.add("coach-marked");
    return true;
  }
  return false;
}

/** The play page's coach panel (see the top of this file). */
export async function coach() {
  const gameId = gameIdFromPath();
  /** @type {CoachInfo} */
  let info;
  try {
    info = /** @type {CoachInfo} */ (await api(`/api/matches/${encodeURIComponent(gameId)}/coach`));
  } catch (e) {
    return; // no such game: the page says so
  }
  const said = el("p", { id: "coach-said", role: "status", class: "small" });
  const list = el("ol", { id: "hint-list", class: "hints", "aria-label": "the coach's moves, best first" });
  const button = el("button", { id: "hint", type: "button", class: "primary", hidden: true,
    title: "The search's three best moves for you now, from what you can see" }, "Hint");
  const why = el("p", { id: "coach-why", class: "small" });
  const agree = el("button", { id: "coach-agree", type: "button", class: "primary" }, "Agree");
  const decline = el("button", { id: "coach-decline", type: "button" }, "Decline");
  const ask = el("div", { id: "coach-ask", role: "group", "aria-labelledby": "coach-question", hidden: true },
    el("p", { id: "coach-question", text: "The creator turned on the coach (hints for everybody)." }),
    el("div", { class: "coach-ask" }, agree, decline));
  const section = el("section", { id: "coach", class: "panel coach", "aria-labelledby": "coach-title" },
    el("h2", { id: "coach-title", text: "Coach" }), why, ask, button, said, list);
  const side = document.querySelector(".side");
  const anchor = document.getElementById("result");
  if (!side) return;
  if (anchor && anchor.parentElement === side) anchor.after(section);
  else side.prepend(section);

  // Off for good (not waiting for anybody's answer): no Hint to show, ever.
  if (!info.enabled && !info.asked.length) { button.remove(); list.remove(); }

  /** The coach as the server says now: its words, the question, the Hint's place. */
  function show() {
    why.textContent = info.enabled ? `Hints are on: ${info.why}.` : `Hints are off: ${info.why}.`;
    ask.hidden = !asking();
    button.hidden = !info.enabled || !mine();
    list.hidden = !info.enabled;
  }
  /** A seat held here that the creator's coach still waits for, with its token. */
  function asking() {
    for (const seat of info.asked) {
      const token = st.tokenOf[seat];
      if (token) return { seat, token };
    }
    return null;
  }
  /** @param {boolean} yes */
  async function answer(yes) {
    const me = asking();
    if (!me) return;
    agree.disabled = decline.disabled = true;
    try {
      info = /** @type {CoachInfo} */ (await api(`/api/matches/${encodeURIComponent(gameId)}/coach/answer`,
        { json: { token: me.token, agree: yes } }));
      said.textContent = yes ? "You agreed to the coach." : "You declined: the coach is off for everybody.";
    } catch (e) {
      said.textContent = /** @type {Error} */ (e).message;
    } finally {
      agree.disabled = decline.disabled = false;
    }
    show();
  }
  agree.onclick = () => answer(true);
  decline.onclick = () => answer(false);
  // While somebody is asked, the answer may come from another device.
  const watch = setInterval(async () => {
    if (!info.asked.length) { clearInterval(watch); return; }
    try {
      info = /** @type {CoachInfo} */ (await api(`/api/matches/${encodeURIComponent(gameId)}/coach`));
    } catch (e) {
      return; // tried again at the next tick
    }
    show();
  }, 2000);
  /** @type {Hint | null} */
  let shown = null;

  /** The seat this page plays that is to move now, with its token. */
  function mine() {
    for (const seat of st.seats) {
      const s = st.states[String(seat)];
      const token = st.tokenOf[seat];
      if (s && token && s.head.status === "active" && (s.head.view.to_move || []).includes(seat)) {
        return { seat, token };
      }
    }
    return null;
  }
  function refresh() {
    show();
    if (shown && shown.ply !== st.drawnPly) {
      shown = null;
      list.replaceChildren();
      said.textContent = "";
    }
    if (shown && !document.querySelector(".coach-badge")) draw(shown);
  }
  /** @param {Hint} h */
  function draw(h) {
    clearBadges();
    for (const m of h.moves) badge(m.action, String(m.rank), pct(m.chance), "hint");
  }
  button.onclick = async () => {
    const me = mine();
    if (!me) return;
    button.disabled = true;
    said.textContent = "The coach is thinking…";
    try {
      const h = /** @type {Hint} */ (await api(`/api/matches/${encodeURIComponent(gameId)}/hint`,
        { json: { token: me.token } }));
      shown = h;
      list.replaceChildren(...h.moves.map((m) => el("li", { "data-action": m.action },
        el("span", { class: "rank", text: String(m.rank), "aria-hidden": "true" }),
        `${m.says} (${m.action}): ${pct(m.chance)} to win`)));
      said.textContent = `The coach's ${h.moves.length} best moves, marked 1 to ${h.moves.length} on the board ` +
        `(hint ${h.hints} in this game).`;
      draw(h);
    } catch (e) {
      said.textContent = /** @type {Error} */ (e).message;
    } finally {
      button.disabled = false;
    }
  };
  const board = document.getElementById("board");
  if (board) new MutationObserver(() => { if (!board.querySelector(".coach-badge")) refresh(); })
    .observe(board, { childList: true });
  setInterval(refresh, 500);
  refresh();
}

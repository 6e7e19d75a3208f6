// Sudoku Arena replay page: a finished (or running) game's record, stepped through
// position by position with buttons, the slider, the arrow keys or a click on a move.
// Each position is the server's drawing of it, fetched once and kept.

import { $, $input, api, el, gameIdFromPath, notice, plain, showBoard } from "./util.js";

/**
 * @typedef {{actions: {actor: number | "chance", action: string}[],
 *   outcome: import("./types.js").Outcome | null}} GameRecord
 * @typedef {{svg: string, panel?: string, actor: number | null, action: string}} Frame
 */

export async function replay() {
  const gameId = gameIdFromPath();
  /** @type {import("./types.js").GameInfo} */
  let info;
  /** @type {GameRecord} */
  let record;
  try {
    info = /** @type {import("./types.js").GameInfo} */ (await api(`/api/matches/${gameId}`));
    record = /** @type {GameRecord} */ (await api(`/api/matches/${gameId}/record`));
  } catch (e) {
    $("status").textContent = /** @type {Error} */ (e).message;
    return;
  }
  $("title").textContent = `${info.name}: replay`;
  document.title = `${info.name} replay · Sudoku Arena`;
  const total = record.actions.length;
  const slider = $input("r-slider");
  slider.max = String(total);
  /** @type {HTMLAnchorElement} */ ($("r-record")).href = `/api/matches/${gameId}/record`;
  /** @type {HTMLAnchorElement} */ ($("r-print")).href = `/api/matches/${gameId}/print`;
  const seats = info.seats;
  const out = record.outcome;
  if (out) {
    const w = out.winners.map((i) => seats[i].name).join(" and ");
    $("r-result").textContent = `${w ? w + (out.winners.length > 1 ? " win" : " wins") : "Draw"}: ${plain(out.reason)[0]}. Scores ${out.scores.join(" – ")}.`;
  }
  const logEl = $("log");
  record.actions.forEach((a, i) => {
    const who = a.actor === "chance" ? "chance" : seats[a.actor].name;
    logEl.append(el("li", { "data-ply": i + 1, class: a.actor === "chance" ? "chance" : "",
      onclick: () => go(i + 1) }, el("span", { class: "who", text: who + ": " }), el("code", { text: a.action })));
  });
  /** @type {Map<number, Promise<Frame>>} */
  const cache = new Map();
  let ply = 0;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timer;
  /**
   * The position after ply p, asked for once.
   * @param {number} p
   * @returns {Promise<Frame>}
   */
  function frame(p) {
    let f = cache.get(p);
    if (!f) {
      f = /** @type {Promise<Frame>} */ (api(`/api/matches/${gameId}/replay/${p}`));
      cache.set(p, f);
    }
    return f;
  }
  /** @param {number} p */
  async function go(p) {
    p = Math.max(0, Math.min(total, p));
    ply = p;
    slider.value = String(p);
    try {
      const f = await frame(p);
      if (ply !== p) return;
      showBoard($("board"), f.svg);
      const side = document.getElementById("game-panel");
      if (side) { side.hidden = !f.panel; if (f.panel) showBoard(side, f.panel, true); }
      $("status").textContent = p === 0 ? `Start (0 / ${total})` :
        `Ply ${p} / ${total}: ${f.actor === null ? "chance" : seats[f.actor].name} ${f.action}`;
      for (const li of logEl.querySelectorAll("li")) li.classList.toggle("current", li.dataset.ply === String(p));
      const cur = logEl.querySelector(".current");
      if (cur) cur.scrollIntoView({ block: "nearest" });
      // Told once the board shows ply p: what marks the board (the mistakes list) waits
      // for this, not for a timer that may run before the drawing arrives.
      document.dispatchEvent(new CustomEvent("replay-shown", { detail: p }));
      if (p < total) frame(p + 1);
    } catch (e) {
      notice(/** @type {Error} */ (e).message, "error");
    }
  }
  const play = $("r-play");
  function stop() { clearInterval(timer); timer = undefined; play.textContent = "▶ Play"; }
  $("r-first").onclick = () => { stop(); go(0); };
  $("r-prev").onclick = () => { stop(); go(ply - 1); };
  $("r-next").onclick = () => { stop(); go(ply + 1); };
  $("r-last").onclick = () => { stop(); go(total); };
  slider.oninput = () => { stop(); go(parseInt(slider.value, 10)); };
  play.onclick = () => {
    if (timer) { stop(); return; }
    if (ply >= total) go(0);
    play.textContent = "⏸ Pause";
    timer = setInterval(() => { if (ply >= total) stop(); else go(ply + 1); },
      parseInt($input("r-speed").value, 10));
  };
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowLeft") { stop(); go(ply - 1); }
    if (ev.key === "ArrowRight") { stop(); go(ply + 1); }
  });
  go(0);
}

// Sudoku Arena: the post-game analysis graph (play page once the game is over, and
// the replay page).
//
// Reads /api/matches/{id}/analysis (made by the server in the background once the game
// is over) and draws each seat's chance of winning at every position as an inline SVG,
// one line per seat (colour and dash pattern, so the lines stay apart without colour).
// The largest swings are marked; a mark, a swing in the list below the graph, or any
// point of the graph jumps to that position: on the replay page through the replay's
// own slider, on the play page by opening the replay there (/replay/{id}#ply=N).
"use strict";

/**
 * What /api/matches/{id}/analysis answers (server/analysis): each seat's chance of
 * winning at every position, and the largest swings.
 * @typedef {{ply: number, seat: number, actor: number | null, action: string,
 *   deltas: number[]}} Swing
 * @typedef {{status: string, seats: string[], values: number[][], swings: Swing[],
 *   simulations: number, analysed: number, plies: number,
 *   error?: {message: string}}} Analysis
 */

(function () {
  const found = document.getElementById("analysis");
  if (!found) return;
  const box = found;
  const page = document.body.dataset.page;
  const parts = location.pathname.split("/").filter(Boolean);
  const gameId = decodeURIComponent(parts[parts.length - 1] || "");
  const NS = "http://www.w3.org/2000/svg";
  const COLOURS = ["#1f5fbf", "#b42318", "#1e7d3a", "#b54708", "#6941c6", "#0e7490"];
  const DASHES = ["", "7 4", "2 3", "9 3 2 3", "4 4", "1 5"];
  const W = 600, H = 260, PAD = 6;

  // Its look is in arena.css (".analysis ..."): the policy allows no <style> element.
  // Short news for screen readers (the graph itself is not re-read on each change).
  const said = document.createElement("p");
  said.setAttribute("role", "status");
  said.className = "small";
  box.before(said);

  /**
   * @param {string} tag
   * @param {Record<string, string | number>} [attrs]
   */
  function svg(tag, attrs) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    return e;
  }
  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Record<string, string | number>} [attrs]
   * @param {string} [text]
   */
  function html(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }
  /** @param {number} v */
  const pct = (v) => `${Math.round(v * 100)}%`;
  /** @param {number} v */
  const signed = (v) => (v >= 0 ? "+" : "−") + pct(Math.abs(v));

  // -- moving the board to a position ---------------------------------------------------

  /** The replay's slider, on the replay page. */
  const replaySlider = () => /** @type {HTMLInputElement | null} */ (document.getElementById("r-slider"));

  /** @param {number} ply */
  function jump(ply) {
    const slider = replaySlider();
    if (page === "replay" && slider) {
      slider.value = String(ply);
      slider.dispatchEvent(new Event("input"));
    } else {
      location.href = `/replay/${encodeURIComponent(gameId)}#ply=${ply}`;
    }
  }

  // The replay page opened at a position (#ply=N): go there once the replay is ready.
  function jumpFromHash() {
    const m = /(?:^|[#&])ply=(\d+)/.exec(location.hash);
    const slider = replaySlider();
    if (!m || page !== "replay" || !slider) return;
    const want = parseInt(m[1], 10);
    const ready = () => document.querySelectorAll("#log li").length > 0 && slider.max !== "0";
    const wait = setInterval(() => {
      if (!ready()) return;
      clearInterval(wait);
      jump(Math.min(want, parseInt(slider.max, 10)));
    }, 100);
    setTimeout(() => clearInterval(wait), 20000);
  }

  // The position the replay shows (its slider).
  function currentPly() {
    const slider = replaySlider();
    return slider ? parseInt(slider.value, 10) || 0 : null;
  }

  // -- drawing --------------------------------------------------------------------------

  /** @param {Analysis} data */
  function draw(data) {
    const n = data.values.length - 1;
    // Names can repeat (two bots of one kind): then the seat's number tells them apart.
    const repeated = new Set(data.seats).size < data.seats.length;
    const seats = data.seats.map((name, i) => (repeated ? `${name} (player ${i + 1})` : name));
    /** @param {number} ply */
    const x = (ply) => PAD + (n ? (ply / n) * (W - 2 * PAD) : 0);
    /** @param {number} v */
    const y = (v) => PAD + (1 - v) * (H - 2 * PAD);
    box.textContent = "";
    const title = seats.length > 1 ? "Each player's chance of winning, move by move" :
      "Expected result, move by move";
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "group", "aria-label": title });
    const bg = svg("rect", { class: "bg", x: 0, y: 0, width: W, height: H, rx: 4 });
    bg.addEventListener("click", (ev) => {
      const r = root.getBoundingClientRect();
      const px = ((ev.clientX - r.left) / r.width) * W;
      jump(Math.max(0, Math.min(n, Math.round(((px - PAD) / (W - 2 * PAD)) * n))));
    });
    root.append(bg, svg("line", { class: "mid", x1: PAD, x2: W - PAD, y1: y(0.5), y2: y(0.5) }));
    seats.forEach((_, s) => {
      const pts = data.values.map((v, i) => `${x(i).toFixed(1)},${y(v[s]).toFixed(1)}`).join(" ");
      root.append(svg("polyline", { points: pts, fill: "none", stroke: COLOURS[s % 6],
        "stroke-width": 2, "stroke-dasharray": DASHES[s % 6], "pointer-events": "none",
        "data-seat": s }));
    });
    const cursor = svg("line", { class: "cursor", x1: 0, x2: 0, y1: 0, y2: H, visibility: "hidden" });
    root.append(cursor);
    const list = html("ol", { class: "swings", "aria-label": "largest swings" });
    for (const sw of data.swings) {
      const v = data.values[sw.ply][sw.seat];
      const who = sw.actor === null ? "chance" : seats[sw.actor];
      const text = `Move ${sw.ply}: ${who} ${sw.action} — ${seats[sw.seat]} ${signed(sw.deltas[sw.seat])} (now ${pct(v)})`;
      const mark = svg("circle", { class: "swing", cx: x(sw.ply), cy: y(v), r: 7,
        fill: COLOURS[sw.seat % 6], tabindex: 0, role: "button", "aria-label": text,
        "data-ply": sw.ply });
      const tip = svg("title");
      tip.textContent = text;
      mark.append(tip);
      mark.addEventListener("click", (ev) => { ev.stopPropagation(); jump(sw.ply); });
      mark.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); jump(sw.ply); }
      });
      root.append(mark);
      const li = html("li");
      const b = html("button", { type: "button", "data-ply": sw.ply }, text);
      b.addEventListener("click", () => jump(sw.ply));
      li.append(b);
      list.append(li);
    }
    const legend = html("div", { class: "legend small" });
    seats.forEach((name, s) => {
      const sample = svg("svg", { viewBox: "0 0 32 10", "aria-hidden": "true" });
      sample.append(svg("line", { x1: 0, x2: 32, y1: 5, y2: 5, stroke: COLOURS[s % 6],
        "stroke-width": 2.5, "stroke-dasharray": DASHES[s % 6] }));
      const last = data.values[n][s];
      const item = html("span", {});
      item.append(sample, document.createTextNode(` ${name}: ${pct(last)} at the end`));
      legend.append(item);
    });
    const note = html("p", { class: "muted small" },
      `${title}, by the search bot (${data.simulations} simulations per position). ` +
      (data.swings.length ? "Marked: the largest swings; click one, or any point, to see that position." :
        "No large swings. Click any point to see that position."));
    box.append(legend, root, list, note);
    box.dataset.state = "done";
    said.textContent = data.swings.length ?
      `Analysis ready: ${data.swings.length} large swing${data.swings.length > 1 ? "s" : ""}, listed below the graph.` :
      "Analysis ready: no large swings.";

    // Keep a cursor on the position the replay shows.
    const show = () => {
      const p = currentPly();
      if (p === null || Number.isNaN(p)) return;
      cursor.setAttribute("x1", String(x(Math.min(p, n))));
      cursor.setAttribute("x2", String(x(Math.min(p, n))));
      cursor.setAttribute("visibility", "visible");
    };
    const log = document.getElementById("log");
    const slider = replaySlider();
    if (page === "replay" && log && slider) {
      new MutationObserver(show).observe(log, { subtree: true, attributes: true, attributeFilter: ["class"] });
      slider.addEventListener("input", show);
      show();
    }
  }

  // -- fetching -------------------------------------------------------------------------

  async function load() {
    let resp;
    try {
      resp = await fetch(`/api/matches/${encodeURIComponent(gameId)}/analysis`);
    } catch (e) {
      setTimeout(load, 5000);
      return;
    }
    if (resp.status === 409) { setTimeout(waitForEnd, 2000); return; } // not over yet
    /** @type {Analysis | null} */
    let data = null;
    try { data = await resp.json(); } catch (e) { data = null; }
    if (!resp.ok || !data) {
      said.textContent = data && data.error ? data.error.message : "The analysis is not available.";
      panel(true);
      return;
    }
    if (data.status === "off") return; // this server does not analyse games: no panel
    panel(true);
    if (data.status === "done") { draw(data); return; }
    box.dataset.state = data.status;
    if (data.status === "failed") { said.textContent = "The analysis of this game failed."; return; }
    said.textContent = `The search bot is analysing the game (${data.analysed} of ${data.plies + 1} positions)…`;
    setTimeout(load, 1500);
  }

  /** @param {boolean} on */
  function panel(on) {
    const p = document.getElementById("analysis-panel");
    if (p) p.hidden = !on;
  }

  // The play page asks once the game is over (the result shows); the replay at once.
  function over() {
    const result = document.getElementById("result");
    const status = document.getElementById("status");
    return (result && !result.hidden) || (status && status.classList.contains("over"));
  }
  function waitForEnd() {
    if (page !== "play" || over()) load();
    else setTimeout(waitForEnd, 1000);
  }

  panel(false);
  jumpFromHash();
  waitForEnd();
})();

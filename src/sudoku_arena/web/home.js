// Sudoku Arena home page: the game cards and the new-game form (seats, options, clock,
// listing), which creates the game and opens it. The lobby and the games list below the
// form are lobby.js's.

import { $, $input, api, el, formReady } from "./util.js";
import { loadBotRatings, ratedLabel, refusal } from "./seek.js";

/** @typedef {import("./types.js").GameFacts} GameFacts */

/**
 * What POST /api/matches answers (models.py's CreateMatchResponse, the parts used).
 * @typedef {{id: string, watch_url: string, hotseat_url: string,
 *   seats: {seat: number, name: string, token?: string | null, url: string}[]}} Made
 */

export async function home() {
  /** @type {GameFacts[]} */
  let games = [];
  try {
    games = /** @type {GameFacts[]} */ (await api("/api/games"));
  } catch (e) {
    $("games").textContent = "Could not load the games: " + /** @type {Error} */ (e).message;
    return;
  }
  const cards = $("games");
  cards.textContent = "";
  for (const g of games) {
    const players = g.min_players === g.max_players ? `${g.min_players}` :
      `${g.min_players}–${g.max_players}`;
    const tags = [`${players} player${g.max_players > 1 ? "s" : ""}`];
    if (g.chance) tags.push("dice/draws");
    if (g.hidden_information) tags.push("hidden hands");
    if (g.simultaneous) tags.push("simultaneous");
    cards.append(el("article", { class: "card" },
      el("h3", { text: g.name }),
      el("p", { class: "muted small", text: tags.join(" · ") }),
      el("p", { text: g.summary }),
      el("div", { class: "buttons" },
        el("button", { class: "primary", type: "button", text: "Play",
          "aria-label": `Play ${g.name}`,
          onclick: () => playFromCard(g.id) }),
        el("a", { class: "button", href: `/learn/${encodeURIComponent(g.id)}`, text: "Learn to play",
          "aria-label": `Learn to play ${g.name}` }),
        el("a", { class: "button", href: `/rules/${encodeURIComponent(g.id)}`, text: "Full rules" }))));
  }
  await loadBotRatings(games.map((g) => g.id)); // "normal, about 1500" in the seat menus
  const sel = $input("f-game");
  for (const g of games) sel.append(el("option", { value: g.id, text: g.name }));
  /** @type {Partial<Record<string, GameFacts>>} */
  const byId = Object.fromEntries(games.map((g) => [g.id, g]));

  /**
   * One seat's row: person or bot, and the person's name.
   * @param {GameFacts} g
   * @param {number} i
   * @param {string | undefined} previous
   */
  function seatRow(g, i, previous) {
    const kind = el("select", { "aria-label": `seat ${i + 1}`, class: "seat-kind", "data-seat": i });
    kind.append(el("option", { value: "human", text: "Person" }));
    for (const a of g.agents) {
      kind.append(el("option", { value: "bot:" + a, text: `Bot: ${a}${ratedLabel(g.id, a)}` }));
    }
    const preferred = g.agents.includes("normal") ? "bot:normal" :
      g.agents.includes("greedy") ? "bot:greedy" : "bot:random";
    kind.value = previous || (i === 0 ? "human" : preferred);
    const name = el("input", { class: "seat-name", maxlength: "40", placeholder: `Player ${i + 1}`,
      "aria-label": `name of seat ${i + 1}` });
    const sync = () => { name.hidden = kind.value !== "human"; };
    kind.addEventListener("change", sync);
    sync();
    return el("div", { class: "seat-row" }, el("span", { class: "seat-no", text: `${i + 1}.` }), kind, name);
  }

  function renderSeats() {
    const g = byId[sel.value];
    if (!g) return;
    const n = parseInt($input("f-players").value, 10);
    const box = $("f-seats");
    const prev = Array.from(box.querySelectorAll(".seat-kind"), (s) => /** @type {HTMLSelectElement} */ (s).value);
    box.textContent = "";
    for (let i = 0; i < n; i++) box.append(seatRow(g, i, prev[i]));
  }

  /** @param {GameFacts} g */
  function renderParams(g) {
    const box = $("f-params");
    box.textContent = "";
    if (!g.params.length) box.append(el("p", { class: "muted small", text: "No options." }));
    for (const p of g.params) {
      let input;
      if (p.kind === "bool") {
        input = el("input", { type: "checkbox", "data-param": p.name, "data-kind": "bool" });
        input.checked = !!p.default;
      } else if (p.choices) {
        input = el("select", { "data-param": p.name, "data-kind": p.kind });
        for (const c of p.choices) input.append(el("option", { value: String(c), text: String(c) }));
        input.value = String(p.default);
      } else if (p.kind === "int") {
        input = el("input", { type: "number", "data-param": p.name, "data-kind": "int",
          min: p.minimum, max: p.maximum, value: p.default === null ? "" : String(p.default) });
      } else {
        input = el("input", { type: "text", "data-param": p.name, "data-kind": "str",
          placeholder: p.generated ? "random" : "", value: p.default === null ? "" : String(p.default) });
      }
      box.append(el("label", { class: "row param" }, el("span", { text: p.label || p.name }), input,
        el("span", { class: "muted small help", text: p.help, title: p.details || null })));
    }
  }

  /** The form's fields (inputs and selects) that hold the game's options. */
  const paramInputs = () =>
    /** @type {NodeListOf<HTMLInputElement>} */ ($("f-params").querySelectorAll("[data-param]"));

  /** @param {string | undefined} id */
  function selectGame(id) {
    const g = (id !== undefined && byId[id]) || games[0];
    if (!g) return;
    sel.value = g.id;
    $("f-summary").textContent = g.summary;
    const ps = $input("f-players");
    ps.textContent = "";
    for (let n = g.min_players; n <= g.max_players; n++) ps.append(el("option", { value: n, text: n }));
    ps.value = String(Math.min(g.max_players, Math.max(g.min_players, 2)));
    $("f-seats").textContent = "";
    renderSeats();
    renderParams(g);
  }
  sel.addEventListener("change", () => selectGame(sel.value));

  /**
   * A card's Play: the form set to that game, and the keyboard at its Start button
   * (Enter starts with the defaults; Shift+Tab goes back through the options). The
   * focus stayed on the card before, a dozen Tabs away from Start.
   * @param {string} id
   */
  function playFromCard(id) {
    selectGame(id);
    $("new-game").scrollIntoView({ behavior: "smooth" });
    $("f-start").focus({ preventScroll: true });
  }
  $("f-players").addEventListener("change", renderSeats);
  // The sheet of the game as chosen: its player count and the options filled in.
  const print = /** @type {HTMLAnchorElement} */ ($("f-print"));
  print.addEventListener("click", () => {
    const q = new URLSearchParams({ players: $input("f-players").value });
    for (const i of paramInputs()) {
      const v = i.dataset.kind === "bool" ? String(i.checked) : i.value.trim();
      if (v) q.set(i.dataset.param || "", v);
    }
    print.href = `/print/${encodeURIComponent(sel.value)}?${q}`;
  });
  const wanted = new URLSearchParams(location.search).get("game");
  selectGame(wanted && byId[wanted] ? wanted : games[0] && games[0].id);

  $("new-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = $("f-error");
    err.hidden = true;
    const g = byId[sel.value];
    if (!g) return;
    /** @type {Record<string, string | number | boolean>} */
    const params = { players: parseInt($input("f-players").value, 10) };
    for (const input of paramInputs()) {
      const kind = input.dataset.kind;
      const name = input.dataset.param || "";
      if (kind === "bool") params[name] = input.checked;
      else if (input.value.trim() !== "") {
        params[name] = kind === "int" ? parseInt(input.value, 10) : input.value.trim();
      }
    }
    const first = $("f-seats").querySelector(".seat-row");
    const me = await signedInName();
    const seats = Array.from($("f-seats").querySelectorAll(".seat-row"), (row) => {
      const v = /** @type {HTMLSelectElement} */ (row.querySelector(".seat-kind")).value;
      const name = /** @type {HTMLInputElement} */ (row.querySelector(".seat-name")).value.trim();
      // The creator's seat, left unnamed, carries the signed-in name ("player 1" otherwise).
      if (v === "human") return { kind: "human", name: name || (row === first ? me : "") || null };
      return { kind: "bot", agent: v.slice(4) };
    });
    const checked = /** @type {HTMLInputElement} */ (document.querySelector("input[name=mode]:checked"));
    const mode = checked.value;
    const body = Object.assign({ game: g.id, params, seats, mode }, newGameExtras());
    const start = /** @type {HTMLButtonElement} */ ($("f-start"));
    start.disabled = true;
    try {
      const made = /** @type {Made} */ (await api("/api/matches", { json: body }));
      const humans = made.seats.filter((s) => s.token);
      if (!humans[0]) { location.href = made.watch_url; return; }
      if (mode === "hotseat" || humans.length === 1) { location.href = made.hotseat_url; return; }
      // The other people's links are shown once, on the next page, and not kept: this
      // browser keeps only its own seat (a lost invite is re-issued from the game page).
      const invites = humans.slice(1).map((s) => ({ seat: s.seat, name: s.name, url: s.url }));
      sessionStorage.setItem("arena:new-invites:" + made.id, JSON.stringify(invites));
      location.href = humans[0].url;
    } catch (e) {
      err.textContent = refusal(e);
      err.hidden = false;
    } finally {
      start.disabled = false;
    }
  });
  formReady("new-form");

  // The games list and the lobby are lobby.js's.
  const clock = $input("f-clock");
  const days = $input("f-days-on");
  // One time control at a time: a chess clock or days per move.
  clock.addEventListener("change", () => {
    $("f-clock-times").hidden = !clock.checked;
    if (clock.checked) { days.checked = false; $("f-days-box").hidden = true; }
  });
  days.addEventListener("change", () => {
    $("f-days-box").hidden = !days.checked;
    if (days.checked) { clock.checked = false; $("f-clock-times").hidden = true; }
  });
}

/** The signed-in person's name, or "" for a guest. */
async function signedInName() {
  try {
    const me = /** @type {{name: string | null}} */ (await api("/api/account"));
    return me.name || "";
  } catch (e) { return ""; }
}

/** The new-game form's clock, listing and coach choices, as the API takes them. */
function newGameExtras() {
  /** @type {{visibility: string, clock?: {minutes: number, increment: number} | {days: number},
   *   coach?: boolean, rated?: boolean}} */
  const extras = { visibility: $input("f-public").checked ? "public" : "private" };
  if ($input("f-rated").checked) extras.rated = true;
  // Between people the coach is off unless the creator turns it on (against bots it is on).
  if ($input("f-coach").checked) extras.coach = true;
  if ($input("f-clock").checked) {
    extras.clock = { minutes: parseFloat($input("f-minutes").value) || 5,
      increment: parseFloat($input("f-increment").value) || 0 };
  } else if ($input("f-days-on").checked) {
    extras.clock = { days: Math.min(14, Math.max(1, parseInt($input("f-days").value, 10) || 3)) };
  }
  return extras;
}

// Sudoku Arena learn-to-play: one lesson, step by step. Each step comes from the server
// (server/tutorials.py), which rebuilds it from the lesson and judges each move; this
// page only shows it. The board is made into controls by board.js's own functions, so
// it plays as the play page does (clicks, taps, the keyboard cursor, two-step moves).
//
// A learner is never left guessing: the step's text says what to do, the move it asks
// for is marked on the board (class "asked": the place, or for a two-step move what to
// choose first), a wrong move gets the step's explanation, an illegal one the engine's
// reason, and "Next step" appears only once the step is done.

import { applySelection, focusTarget, makeTarget } from "./board.js";
import { installKeyboard } from "./controls.js";
import { progressOf, renderLessonNav, saveProgress } from "./learn.js";
import { showLegend } from "./panel.js";
import { st } from "./state.js";
import { $, $input, api, el, plain, showBoard } from "./util.js";

/**
 * GET /api/games/{game}/lessons (server/tutorials.py's LessonList).
 * @typedef {{game: string, name: string, legend: {icon: string, text: string}[],
 *   lessons: {id: string, title: string, about: string, steps: number, moves: number}[]}} LessonList
 */
/**
 * GET .../lessons/{lesson}/steps/{step} (TutorialStep, the parts used).
 * @typedef {{title: string, step: number, steps: number, id: string, text: string,
 *   asks_move: boolean, seat: number, asked: string[], answer: string | null,
 *   view: import("./types.js").View, buttons: Partial<Record<string, [string, string]>>,
 *   log: import("./types.js").LogEntry[], svg: string, panel: string,
 *   next_lesson: string | null}} Step
 */
/**
 * POST .../lessons/{lesson}/steps/{step} (TutorialMove).
 * @typedef {{result: "refused" | "wrong" | "done", message: string, action: string | null,
 *   rulings?: string[], view?: import("./types.js").View | null,
 *   log?: import("./types.js").LogEntry[] | null, svg?: string | null,
 *   panel?: string | null}} Judged
 */

const page = {
  game: "",
  lesson: "",
  /** @type {LessonList | null} */
  list: null,
  /** @type {Step | null} */
  step: null,
  done: false,
  busy: false,
};

/** The path of the current lesson's step `index` in the API. */
const stepPath = (/** @type {number} */ index) =>
  `/api/games/${encodeURIComponent(page.game)}/lessons/${encodeURIComponent(page.lesson)}/steps/${index}`;

export async function lesson() {
  page.game = document.body.dataset.game || "";
  page.lesson = document.body.dataset.lesson || "";
  installKeyboard();
  // The keyboard cursor starts on the marked place, so Enter plays what the step asks.
  $("board").addEventListener("focus", () => {
    const first = firstMarked();
    if (first && first.classList.contains("live")) focusTarget(first);
  });
  $("next").addEventListener("click", () => { if (page.step) load(page.step.step + 1, true); });
  $("show-me").addEventListener("click", () => { if (page.step && page.step.answer) tryMove(page.step.answer); });
  $("restart").addEventListener("click", () => load(0, true));
  $("step-where").addEventListener("click", showWhere);
  /** @type {HTMLFormElement} */ ($("type-form")).addEventListener("submit", (ev) => {
    ev.preventDefault();
    const field = $input("type-input");
    const text = field.value.trim();
    if (text) tryMove(text);
    field.value = "";
  });
  try {
    page.list = /** @type {LessonList} */ (await api(`/api/games/${encodeURIComponent(page.game)}/lessons`));
    showLegend(page.list.legend);
  } catch (e) {
    say(/** @type {Error} */ (e).message, "refused");
    return;
  }
  const saved = progressOf(page.game)[page.lesson];
  const resume = saved && !saved.done ? saved.step : 0;
  await load(Math.min(resume, lessonInfo().steps - 1), false);
}

/** This lesson's entry in the list. */
function lessonInfo() {
  const found = page.list && page.list.lessons.find((x) => x.id === page.lesson);
  if (!found) throw new Error(`no lesson ${page.lesson} in the list`);
  return found;
}

/**
 * Shows step `index` at its start.
 * @param {number} index
 * @param {boolean} focus move the keyboard focus to the new step's heading
 */
async function load(index, focus) {
  /** @type {Step} */
  let step;
  try {
    step = /** @type {Step} */ (await api(stepPath(index)));
  } catch (e) {
    say(/** @type {Error} */ (e).message, "refused");
    return;
  }
  page.step = step;
  page.done = !step.asks_move;
  const last = step.step + 1 === step.steps;
  saveProgress(page.game, page.lesson, step.step, page.done && last);
  const lessons = page.list ? page.list.lessons : [];
  const number = lessons.findIndex((x) => x.id === page.lesson) + 1;
  $("lesson-where").textContent = `${page.list ? page.list.name : ""} · lesson ${number} of ${lessons.length}`;
  $("lesson-title").textContent = step.title;
  $("step-heading").textContent = `Step ${step.step + 1} of ${step.steps}` + (step.asks_move ? ": your move" : "");
  $("step-text").textContent = step.text;
  const dots = $("step-dots");
  dots.textContent = "";
  for (let k = 0; k < step.steps; k++) {
    dots.append(el("li", { class: k < step.step ? "past" : k === step.step ? "now" : "" }));
  }
  $("show-me").hidden = !step.asks_move;
  draw(step.svg, step.panel, step.view, step.buttons, step.asks_move);
  renderLog(step.log, step.seat, step.view);
  hint(step.asks_move ? markAsked(step.asked) : null);
  if (page.done) finishStep(last ? "This lesson is done." : "Read this, then go on.");
  else $("feedback").hidden = true;
  renderLessonNav(page.game, page.list ? page.list.lessons : [], page.lesson);
  if (focus) $("step-heading").focus();
}

/**
 * The step's drawings; with `live`, made into controls that send the learner's move.
 * @param {string} svg
 * @param {string} panelSvg
 * @param {import("./types.js").View} view
 * @param {Partial<Record<string, [string, string]>>} words
 * @param {boolean} live
 */
function draw(svg, panelSvg, view, words, live) {
  st.selected = null;
  const board = $("board");
  const side = $("game-panel");
  const root = showBoard(board, svg);
  const panelRoot = panelSvg ? showBoard(side, panelSvg, true) : null;
  side.hidden = !panelRoot;
  /** @type {Element[]} */
  const roots = [root, panelRoot].filter((r) => r !== null);
  st.roots = roots;
  board.classList.toggle("my-turn", live);
  side.classList.toggle("my-turn", live);
  board.classList.remove("busy");
  const legal = view.legal || [];
  /** @type {Set<string>} */
  const onBoard = new Set();
  for (const r of roots) {
    for (const t of r.querySelectorAll("[data-action]")) {
      const action = t.getAttribute("data-action") || "";
      onBoard.add(action);
      if (live && legal.includes(action)) makeTarget(t, () => tryMove(action));
    }
    if (!live) continue;
    for (const t of r.querySelectorAll("[data-select]")) {
      const key = t.getAttribute("data-select");
      makeTarget(t, () => { st.selected = st.selected === key ? null : key; applySelection(); });
    }
    // A place that cannot be played still takes a click: the engine says why.
    for (const t of r.querySelectorAll("[data-try]")) {
      t.classList.add("tryable");
      t.addEventListener("click", (ev) => {
        ev.stopPropagation();
        const template = t.getAttribute("data-try") || "";
        if (!template.includes("{sel}")) tryMove(template);
        else if (st.selected) tryMove(template.replace("{sel}", st.selected));
        else say("Choose a value first, then the square.", "refused");
      });
    }
    if (r.querySelector(".live, .tryable")) r.setAttribute("role", "group");
  }
  const actions = $("actions");
  actions.textContent = "";
  if (live) {
    for (const a of legal.filter((x) => !onBoard.has(x)).slice(0, 80)) {
      const said = words[a];
      actions.append(el("button", { type: "button", class: said ? "action worded" : "action",
        "data-offboard": a, title: said ? `${said[1]} (${a})` : a, text: said ? said[0] : a,
        onclick: () => tryMove(a) }));
    }
  }
  applySelection();
}

/**
 * Marks what the step asks for: each accepted move's place, what a two-step move
 * chooses first, or its button. Returns the hint line for the card.
 * @param {string[]} asked
 * @returns {string}
 */
function markAsked(asked) {
  if (!asked.length) return "Any move that does what the step says will do; Show me plays one.";
  /** @type {Set<string>} */
  const firsts = new Set();
  /** @type {string[]} */
  const names = [];
  for (const a of asked) {
    const places = st.roots.flatMap((r) => Array.from(r.querySelectorAll("[data-action]"))
      .filter((t) => t.getAttribute("data-action") === a && t.classList.contains("live")));
    for (const t of places) {
      if (!names.length) names.push(`“${t.getAttribute("aria-label") || a}”`);
      mark(t);
      const from = t.closest("[data-from]");
      if (from) firsts.add(from.getAttribute("data-from") || "");
    }
    if (!places.length) {
      for (const b of $("actions").querySelectorAll("button")) {
        if (b.getAttribute("data-offboard") !== a) continue;
        names.push(`the “${b.textContent}” button`);
        mark(b);
      }
    }
  }
  /** @type {string[]} */
  const chosen = [];
  for (const r of st.roots) {
    for (const t of r.querySelectorAll("[data-select].live")) {
      if (!firsts.has(t.getAttribute("data-select") || "")) continue;
      if (!chosen.length) chosen.push(t.getAttribute("aria-label") || t.getAttribute("data-select") || "");
      mark(t);
    }
  }
  if (!names.length) return "This step's move has no place drawn: type it below, or press Show me.";
  const many = asked.length > 1 ? ` Any of the ${asked.length} marked moves does it.` : "";
  return (chosen.length ? `Marked in orange: first press “${chosen[0]}”, then ${names[0]}.` :
    `Marked in orange: ${names[0]}.`) + many;
}

/**
 * One marked element: highlighted, and named so for screen readers.
 * @param {Element} t
 */
function mark(t) {
  t.classList.add("asked");
  const label = t.getAttribute("aria-label");
  if (label && !label.endsWith("(asked for)")) t.setAttribute("aria-label", `${label} (asked for)`);
}

/**
 * The hint line under the step's text; "Where?" beside it when something is marked.
 * @param {string | null} text
 */
function hint(text) {
  $("step-hint").hidden = !text;
  $("step-hint-text").textContent = text || "";
  $("step-where").hidden = !firstMarked();
}

/** The first marked thing on screen (a place, what to choose first, or a button). */
function firstMarked() {
  const all = Array.from(document.querySelectorAll(".my-turn .asked.live, #actions .asked"));
  return all.find((t) => t.getBoundingClientRect().width > 0) || null;
}

/** "Where?": the marked thing scrolled into sight (on a phone the panel is far below)
 * and given the keyboard's focus, so Enter plays it. */
function showWhere() {
  const t = firstMarked();
  if (!t) return;
  t.scrollIntoView({ block: "center", behavior: "smooth" });
  if (t.classList.contains("live")) focusTarget(t);
  else /** @type {HTMLElement} */ (t).focus({ preventScroll: true });
}

/**
 * Sends the learner's move and shows the judgement.
 * @param {string} text
 */
async function tryMove(text) {
  const step = page.step;
  if (!step || page.done || page.busy) return;
  page.busy = true;
  $("board").classList.add("busy");
  /** @type {Judged} */
  let out;
  try {
    out = /** @type {Judged} */ (await api(stepPath(step.step), { json: { move: text } }));
  } catch (e) {
    say(/** @type {Error} */ (e).message, "refused");
    return;
  } finally {
    page.busy = false;
    $("board").classList.remove("busy");
  }
  if (out.result !== "done") {
    st.selected = null;
    applySelection();
    say(out.message, out.result, out.rulings);
    return;
  }
  page.done = true;
  const last = step.step + 1 === step.steps;
  saveProgress(page.game, page.lesson, last ? step.step : step.step + 1, last);
  draw(out.svg || "", out.panel || "", out.view || step.view, {}, false);
  renderLog(out.log || step.log, step.seat, out.view || step.view);
  hint(null);
  $("show-me").hidden = true;
  $("step-heading").textContent = `Step ${step.step + 1} of ${step.steps}: done ✓`;
  finishStep(out.message || "Done.");
  renderLessonNav(page.game, page.list ? page.list.lessons : [], page.lesson);
  const go = [$("next"), $("next-lesson"), $("all-lessons")].find((b) => !b.hidden);
  if (go) go.focus();
}

/**
 * The feedback bar for a move that did not do the step.
 * @param {string} text
 * @param {"refused" | "wrong"} kind
 * @param {string[]} [rulings]
 */
function say(text, kind, rulings) {
  const box = $("feedback");
  const [words, cited] = plain(text);
  box.hidden = false;
  box.className = `feedback ${kind}`;
  const shown = $("feedback-text");
  shown.textContent = (kind === "wrong" ? "Not this one: " : "Not allowed: ") + words;
  shown.title = rulings && rulings.length ? `rule ${rulings.join(", ")}` : cited;
  for (const id of ["next", "next-lesson", "all-lessons"]) $(id).hidden = true;
}

/**
 * The feedback bar once the step is done: its success text and the way on.
 * @param {string} text
 */
function finishStep(text) {
  const step = page.step;
  if (!step) return;
  const box = $("feedback");
  box.hidden = false;
  box.className = "feedback done";
  const last = step.step + 1 === step.steps;
  const after = step.next_lesson && page.list ? page.list.lessons.find((x) => x.id === step.next_lesson) : null;
  $("feedback-text").textContent = text + (last ? " Lesson complete!" : "");
  $("feedback-text").title = "";
  $("next").hidden = last;
  const nextLesson = /** @type {HTMLAnchorElement} */ ($("next-lesson"));
  nextLesson.hidden = !last || !after;
  if (after) {
    nextLesson.href = `/learn/${encodeURIComponent(page.game)}/${encodeURIComponent(after.id)}`;
    nextLesson.textContent = `Next lesson: ${after.title}`;
  }
  const all = /** @type {HTMLAnchorElement} */ ($("all-lessons"));
  all.hidden = !last || !!after;
  if (last && !after) {
    all.href = `/?game=${encodeURIComponent(page.game)}#new-game`;
    all.textContent = "Every lesson done: play a game";
  }
}

/**
 * The moves that led to the position shown, the learner's called "you".
 * @param {import("./types.js").LogEntry[]} log
 * @param {number} seat
 * @param {import("./types.js").View} view
 */
function renderLog(log, seat, view) {
  const list = $("log");
  list.textContent = "";
  for (const e of log) {
    const role = e.actor === null ? undefined : view.players && view.players[e.actor];
    const who = e.actor === null ? "chance" : e.actor === seat ? "you" : role || `player ${e.actor + 1}`;
    list.append(el("li", { class: e.actor === null ? "chance" : "" },
      el("span", { class: "who", text: `${who}: ` }), el("code", { text: e.action === null ? "(hidden)" : e.action })));
  }
  list.scrollTop = list.scrollHeight;
  list.hidden = !log.length;
}

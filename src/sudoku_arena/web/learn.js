// Sudoku Arena learn-to-play: the progress this browser keeps (localStorage), the page
// listing a game's lessons (and the lesson page's side list), and the play page's offer
// of lessons to a newcomer. The lesson page itself is tutorial.js's.
//
// Progress is kept per game under "arena:learn:<game>": for each lesson the step to
// resume at and whether it was finished. The server keeps nothing per learner.

import { $, el } from "./util.js";

/** @typedef {{step: number, done: boolean}} LessonProgress */
/** @typedef {Partial<Record<string, LessonProgress>>} GameProgress */

/** @param {string} game */
const key = (game) => `arena:learn:${game}`;

/**
 * What this browser remembers of a game's lessons (nothing when storage is off).
 * @param {string} game
 * @returns {GameProgress}
 */
export function progressOf(game) {
  try {
    const data = JSON.parse(localStorage.getItem(key(game)) || "{}");
    return data && typeof data === "object" ? /** @type {GameProgress} */ (data) : {};
  } catch (e) {
    return {};
  }
}

/**
 * Remembers that `lesson` reached `step`; `done` once finished (a finished lesson stays
 * finished when it is taken again).
 * @param {string} game
 * @param {string} lesson
 * @param {number} step
 * @param {boolean} done
 */
export function saveProgress(game, lesson, step, done) {
  const all = progressOf(game);
  const was = all[lesson];
  all[lesson] = { step, done: done || !!(was && was.done) };
  try { localStorage.setItem(key(game), JSON.stringify(all)); } catch (e) { /* storage off */ }
}

/**
 * A lesson's progress in words: "finished", "step 2 of 5" or "" (not started).
 * @param {LessonProgress | undefined} p
 * @param {number} steps
 */
export function progressWords(p, steps) {
  if (!p) return "";
  if (p.done) return "finished ✓";
  return p.step > 0 ? `step ${p.step + 1} of ${steps}` : "started";
}

/** The list of a game's lessons: each one's progress, and where to go on. */
export function lessonList() {
  const game = document.body.dataset.game || "";
  const progress = progressOf(game);
  /** @type {{id: string, title: string} | null} */
  let next = null;
  for (const item of document.querySelectorAll(".lesson-item")) {
    const id = item.getAttribute("data-lesson") || "";
    const p = progress[id];
    const words = progressWords(p, parseInt(item.getAttribute("data-steps") || "0", 10));
    const shown = item.querySelector(".lesson-progress");
    if (shown) shown.textContent = words ? ` · ${words}` : "";
    item.classList.toggle("finished", !!(p && p.done));
    const link = item.querySelector("a");
    if (!next && !(p && p.done) && link) next = { id, title: link.textContent || id };
  }
  const line = $("lessons-next");
  const total = document.querySelectorAll(".lesson-item").length;
  if (total) {
    line.hidden = false;
    line.textContent = "";
    if (next) {
      const started = Object.keys(progress).length > 0;
      const how = progress[next.id] ? "Go on with" : started ? "Next:" : "Start with";
      line.append(el("a", { class: "button primary", href: `/learn/${encodeURIComponent(game)}/${encodeURIComponent(next.id)}`,
        text: `${how} “${next.title.replace(/^\d+\.\s*/, "")}”` }));
    } else {
      line.append(el("span", { text: "Every lesson finished. " }),
        el("a", { class: "button primary", href: `/?game=${encodeURIComponent(game)}#new-game`, text: "Play a game" }));
    }
  }
  $("lessons-forget").addEventListener("click", () => {
    try { localStorage.removeItem(key(game)); } catch (e) { /* storage off */ }
    lessonList();
  }, { once: true });
}

/**
 * The lesson page's side list of the game's lessons, with this browser's progress.
 * @param {string} game
 * @param {{id: string, title: string, steps: number}[]} all
 * @param {string} current the lesson on screen
 */
export function renderLessonNav(game, all, current) {
  const nav = $("lesson-nav");
  nav.textContent = "";
  const progress = progressOf(game);
  for (const x of all) {
    const here = x.id === current;
    const words = progressWords(progress[x.id], x.steps);
    nav.append(el("li", { class: here ? "here" : "" },
      el("a", { href: `/learn/${encodeURIComponent(game)}/${encodeURIComponent(x.id)}`, text: x.title,
        "aria-current": here ? "page" : null }),
      words ? el("span", { class: "muted", text: ` · ${words}` }) : null));
  }
}

// -- the play page's offer ------------------------------------------------------------------

/**
 * Offers the lessons on the play page of a person who has not finished a game of this
 * kind in this browser yet (a spectator is not offered them).
 * @param {string} game
 * @param {boolean} playing whether this page holds a seat
 */
export function offerLessons(game, playing) {
  const offer = document.getElementById("learn-offer");
  const link = document.getElementById("learn-link");
  if (!offer || !link) return;
  let finished = false;
  try { finished = localStorage.getItem(`arena:finished:${game}`) !== null; } catch (e) { /* storage off */ }
  /** @type {HTMLAnchorElement} */ (link).href = `/learn/${encodeURIComponent(game)}`;
  offer.hidden = !playing || finished;
}

/**
 * Remembers that a game of this kind was played to its end here: the play page stops
 * offering the lessons.
 * @param {string} game
 */
export function rememberFinished(game) {
  try { localStorage.setItem(`arena:finished:${game}`, "1"); } catch (e) { /* storage off */ }
}

// Sudoku Arena service worker (served at /sw.js, scope /): shows the server's "your
// turn" Web Push messages, and on a click focuses the game's open page or opens it.
// A push for a game whose page is open and visible shows nothing: the page tells the
// player itself.

/**
 * The parts of the service worker's global scope used here (tsc checks this file with
 * the page's DOM types, which do not describe a worker).
 * @typedef {{url: string, visibilityState?: string, focus: () => Promise<unknown>}} WindowClient
 * @typedef {{
 *   addEventListener: (type: string, listener: (e: any) => void) => void,
 *   registration: {showNotification: (title: string, options: object) => Promise<void>},
 *   clients: {matchAll: (o: object) => Promise<WindowClient[]>,
 *     openWindow: (url: string) => Promise<unknown>},
 *   location: Location,
 * }} WorkerScope
 * @typedef {{title?: string, body?: string, url?: string, tag?: string, game_id?: string}} Alert
 */

const worker = /** @type {WorkerScope} */ (/** @type {unknown} */ (self));

/**
 * The open windows showing ``url``'s page.
 * @param {string} url
 */
async function windowsOf(url) {
  const all = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
  const path = new URL(url, worker.location.origin).pathname;
  return all.filter((c) => new URL(c.url).pathname === path);
}

/** @param {Alert} alert */
async function show(alert) {
  const url = alert.url || "/";
  const open = await windowsOf(url);
  if (open.some((c) => c.visibilityState === "visible")) return;
  await worker.registration.showNotification(alert.title || "Your turn", {
    body: alert.body || "",
    tag: alert.tag || url,
    icon: "/favicon-turn.svg",
    data: { url },
    renotify: true,
  });
}

worker.addEventListener("push", (event) => {
  /** @type {Alert} */
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch (e) {
    alert = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(show(alert));
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(windowsOf(url).then((open) =>
    open[0] ? open[0].focus() : worker.clients.openWindow(url)));
});

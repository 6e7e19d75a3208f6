// Sudoku Arena: the one generic script for every game and page.
//
// Boards arrive as two SVG drawings made by the game's renderer: the board, and the
// panel beside it (scores, hands, dice). Clickable elements carry
// data-action="<notation>" (clicking sends that action) or data-select="<key>"
// (clicking selects key; elements with data-from="<key>" show only while key is
// selected). data-try="<notation>" marks a place that cannot be played now: clicking it
// asks the server, whose refusal gives the engine's reason ("{sel}" in it stands for
// the selected key). Legal actions with no element become buttons, worded by the server.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
    return e;
  };

  async function api(path, options) {
    const opts = Object.assign({ headers: {} }, options || {});
    if (opts.json !== undefined) {
      opts.method = opts.method || "POST";
      opts.body = JSON.stringify(opts.json);
      opts.headers["content-type"] = "application/json";
      delete opts.json;
    }
    const resp = await fetch(path, opts);
    let data = null;
    try { data = await resp.json(); } catch (e) { data = null; }
    if (!resp.ok) {
      const msg = data && data.error ? data.error.message : `request failed (${resp.status})`;
      const err = new Error(msg);
      err.code = data && data.error ? data.error.code : null;
      throw err;
    }
    return data;
  }

  // The engine's sentences cite rulings ("(SW-10)"); for players those move out of the
  // sentence into its tooltip. Returns [words, "rule SW-10" or ""].
  function plain(text) {
    const ids = [];
    const words = (text || "").replace(/\s*\(([A-Z]{2,3}-\d+(?:[,;] ?[A-Z]{2,3}-\d+)*)\)/g,
      (m, id) => { ids.push(id); return ""; });
    return [words, ids.length ? `rule ${ids.join(", ")}` : ""];
  }

  function notice(text, kind) {
    const n = $("notice");
    if (!n) return;
    [text, n.title] = plain(text);
    n.textContent = text || "";
    n.hidden = !text;
    n.className = "notice " + (kind || "error");
    clearTimeout(notice.timer);
    if (text && kind === "info") notice.timer = setTimeout(() => { n.hidden = true; }, 4000);
  }

  function gameIdFromPath() {
    const parts = location.pathname.split("/").filter(Boolean);
    return decodeURIComponent(parts[parts.length - 1] || "");
  }

  // The secret this browser keeps for itself: seat links opened here are claimed with it,
  // so a link works on the first device that opens it (lobby.js uses the same key).
  function device() {
    let d = localStorage.getItem("arena:device");
    if (!d) {
      const bytes = new Uint8Array(18);
      crypto.getRandomValues(bytes);
      d = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      localStorage.setItem("arena:device", d);
    }
    return d;
  }

  function tokensFromHash() {
    const m = /(?:^|[#&])t=([^&]*)/.exec(location.hash);
    return m ? m[1].split(".").filter(Boolean) : [];
  }

  function playerLabel(seats, view, seat) {
    const person = seats && seats[seat] ? seats[seat].name : `seat ${seat + 1}`;
    const role = view && view.players && view.players[seat];
    return role && role !== person ? `${person} (${role})` : person;
  }

  // -- home page ----------------------------------------------------------------------

  async function home() {
    let games = [];
    try {
      games = await api("/api/games");
    } catch (e) {
      $("games").textContent = "Could not load the games: " + e.message;
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
            onclick: () => { selectGame(g.id); $("new-game").scrollIntoView({ behavior: "smooth" }); } }),
          el("a", { class: "button", href: `/rules/${encodeURIComponent(g.id)}`, text: "Full rules" }))));
    }
    const sel = $("f-game");
    for (const g of games) sel.append(el("option", { value: g.id, text: g.name }));
    const byId = Object.fromEntries(games.map((g) => [g.id, g]));

    function seatRow(g, i, previous) {
      const kind = el("select", { "aria-label": `seat ${i + 1}`, class: "seat-kind", "data-seat": i });
      kind.append(el("option", { value: "human", text: "Person" }));
      for (const a of g.agents) kind.append(el("option", { value: "bot:" + a, text: `Bot: ${a}` }));
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
      const n = parseInt($("f-players").value, 10);
      const box = $("f-seats");
      const prev = Array.from(box.querySelectorAll(".seat-kind")).map((s) => s.value);
      box.textContent = "";
      for (let i = 0; i < n; i++) box.append(seatRow(g, i, prev[i]));
    }

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

    selectGame = function (id) {
      const g = byId[id] || games[0];
      if (!g) return;
      sel.value = g.id;
      $("f-summary").textContent = g.summary;
      const ps = $("f-players");
      ps.textContent = "";
      for (let n = g.min_players; n <= g.max_players; n++) ps.append(el("option", { value: n, text: n }));
      ps.value = String(Math.min(g.max_players, Math.max(g.min_players, 2)));
      $("f-seats").textContent = "";
      renderSeats();
      renderParams(g);
    };
    sel.addEventListener("change", () => selectGame(sel.value));
    $("f-players").addEventListener("change", renderSeats);
    // The sheet of the game as chosen: its player count and the options filled in.
    $("f-print").addEventListener("click", () => {
      const q = new URLSearchParams({ players: $("f-players").value });
      for (const i of $("f-params").querySelectorAll("[data-param]")) {
        const v = i.dataset.kind === "bool" ? String(i.checked) : i.value.trim();
        if (v) q.set(i.dataset.param, v);
      }
      $("f-print").href = `/print/${encodeURIComponent(sel.value)}?${q}`;
    });
    const wanted = new URLSearchParams(location.search).get("game");
    selectGame(wanted && byId[wanted] ? wanted : games[0] && games[0].id);

    $("new-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const err = $("f-error");
      err.hidden = true;
      const g = byId[sel.value];
      const params = { players: parseInt($("f-players").value, 10) };
      for (const input of $("f-params").querySelectorAll("[data-param]")) {
        const kind = input.dataset.kind;
        if (kind === "bool") params[input.dataset.param] = input.checked;
        else if (input.value.trim() !== "") {
          params[input.dataset.param] = kind === "int" ? parseInt(input.value, 10) : input.value.trim();
        }
      }
      const seats = Array.from($("f-seats").querySelectorAll(".seat-row")).map((row) => {
        const v = row.querySelector(".seat-kind").value;
        if (v === "human") return { kind: "human", name: row.querySelector(".seat-name").value.trim() || null };
        return { kind: "bot", agent: v.slice(4) };
      });
      const mode = document.querySelector("input[name=mode]:checked").value;
      const body = Object.assign({ game: g.id, params, seats, mode }, newGameExtras());
      $("f-start").disabled = true;
      try {
        const made = await api("/api/matches", { json: body });
        const humans = made.seats.filter((s) => s.token);
        if (!humans.length) { location.href = made.watch_url; return; }
        if (mode === "hotseat" || humans.length === 1) { location.href = made.hotseat_url; return; }
        // The other people's links are shown once, on the next page, and not kept: this
        // browser keeps only its own seat (a lost invite is re-issued from the game page).
        const invites = humans.slice(1).map((s) => ({ seat: s.seat, name: s.name, url: s.url }));
        sessionStorage.setItem("arena:new-invites:" + made.id, JSON.stringify(invites));
        location.href = humans[0].url;
      } catch (e) {
        err.textContent = e.message;
        err.hidden = false;
      } finally {
        $("f-start").disabled = false;
      }
    });

    // The games list and the lobby are lobby.js's.
    $("f-clock").addEventListener("change", () => { $("f-clock-times").hidden = !$("f-clock").checked; });
  }
  let selectGame = () => {};

  // The new-game form's clock and listing choices, as the API takes them.
  function newGameExtras() {
    const extras = { visibility: $("f-public").checked ? "public" : "private" };
    if ($("f-clock").checked) {
      extras.clock = { minutes: parseFloat($("f-minutes").value) || 5,
        increment: parseFloat($("f-increment").value) || 0 };
    }
    return extras;
  }

  // -- board helpers --------------------------------------------------------------------

  // A drawing fills its container's width; a panel (natural: true) keeps its own size,
  // one unit a CSS pixel, so its text stays as large as drawn, and only shrinks to fit.
  function showBoard(container, svg, natural) {
    container.innerHTML = svg;
    const root = container.querySelector("svg");
    if (root) {
      root.removeAttribute("width");
      root.removeAttribute("height");
      root.setAttribute("preserveAspectRatio", "xMidYMid meet");
      root.classList.add("drawing");
      const vb = (root.getAttribute("viewBox") || "").split(/\s+/).map(Number);
      if (natural && vb.length === 4 && vb[2] > 0) root.style.width = `${vb[2]}px`;
    }
    for (const f of container.querySelectorAll("[data-from]")) f.style.display = "none";
    return root;
  }

  // -- play page ------------------------------------------------------------------------

  function play() {
    const gameId = gameIdFromPath();
    let tokens = tokensFromHash();
    const st = {
      ws: null, info: null, seats: [], states: {}, shown: null, revealed: null, log: {},
      nextId: 1, pending: null, retry: 0, closedForGood: false, selected: null, drawnPly: -1,
      presence: null, watchers: 0, online: false, timer: null,
      tokenOf: {}, newLinks: {}, clockHead: null, clockOffset: 0,
    };
    $("watch-link").href = `/play/${gameId}`;
    $("watch-link").textContent = `${location.origin}/play/${gameId}`;
    $("replay-link").href = `/replay/${gameId}`;
    $("print-link").href = `/api/matches/${gameId}/print`;

    // -- seats and links: claimed by this device, invites, another device ------------------

    // The links of the other seats, shown once after the game was created (never kept).
    try {
      const key = "arena:new-invites:" + gameId;
      for (const inv of JSON.parse(sessionStorage.getItem(key) || "[]")) {
        st.newLinks[inv.seat] = location.origin + inv.url;
      }
      sessionStorage.removeItem(key);
    } catch (e) { /* nothing to show */ }

    // Each seat link is claimed for this device before connecting; a seat held by
    // another device moves here only if the person says so (that device is told).
    async function claimSeats() {
      const kept = [];
      for (const t of tokens) {
        const claim = (move) => api(`/api/matches/${encodeURIComponent(gameId)}/claim`,
          { json: { token: t, device: device(), move } });
        try {
          st.tokenOf[(await claim(false)).seat] = t;
          kept.push(t);
        } catch (e) {
          if (e.code !== "seat_elsewhere") { kept.push(t); continue; }
          const ask = "This seat is being played on another device. Play it on this device " +
            "instead? The other device will be told, and can only watch from then on.";
          if (!confirm(ask)) { notice("This seat is played on another device: you are watching here.", "info"); continue; }
          try {
            st.tokenOf[(await claim(true)).seat] = t;
            kept.push(t);
          } catch (e2) { notice(e2.message, "error"); }
        }
      }
      tokens = kept;
    }

    function linkField(url, label) {
      const input = el("input", { readonly: true, value: url, "aria-label": label });
      return [input, el("button", { type: "button", text: "Copy", onclick: () => {
        input.select();
        if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
        else document.execCommand("copy");
      } })];
    }

    // The other people's seats: their links right after creation, and for the creator a
    // new link for any seat nobody has opened yet (the old link then stops working).
    function renderInvites() {
      const info = st.info;
      if (!info) return;
      const list = $("invite-list");
      list.textContent = "";
      const host = info.host_seat !== null && st.seats.includes(info.host_seat);
      const live = info.status !== "finished";
      let shown = 0;
      for (const s of info.seats) {
        if (s.kind !== "human" || st.seats.includes(s.seat)) continue;
        const link = st.newLinks[s.seat];
        const claimed = info.claimed && info.claimed[s.seat];
        if (!link && !(host && live)) continue;
        const li = el("li", {}, el("span", { text: `${s.name}: ` }));
        if (claimed) {
          li.append(el("span", { class: "muted small", text: "has opened the link" }));
        } else {
          if (link) li.append(...linkField(link, `link for ${s.name}`));
          else li.append(el("span", { class: "muted small", text: "has not opened the link yet" }));
          if (host && live) {
            li.append(el("button", { type: "button", text: link ? "Replace the link" : "New link",
              title: "Make a new link for this seat; the old one stops working",
              onclick: () => reissue(s.seat) }));
          }
        }
        list.append(li);
        shown++;
      }
      $("invites").hidden = !shown;
      renderContinue();
    }

    async function reissue(seat) {
      const host = st.info.host_seat;
      try {
        const made = await api(`/api/matches/${encodeURIComponent(gameId)}/seats/${seat}/invite`,
          { json: { token: st.tokenOf[host] || tokens[0], device: device() } });
        st.newLinks[seat] = location.origin + made.url;
        notice("New link made: the old one no longer works.", "info");
      } catch (e) {
        notice(e.message, "error");
      }
      renderInvites();
    }

    // A player's own link, to go on playing on another device (opened there, it asks
    // before taking the seat, and this device is told).
    function renderContinue() {
      const box = $("continue");
      const live = st.info && st.info.status !== "finished";
      box.hidden = !tokens.length || !st.seats.length || !live;
      if (box.hidden || $("continue-link").childElementCount) return;
      $("continue-show").onclick = () => {
        const url = `${location.origin}/play/${gameId}#t=${tokens.join(".")}`;
        $("continue-link").append(...linkField(url, "link to continue on another device"));
        $("continue-show").hidden = true;
        $("continue-help").hidden = false;
      };
    }

    function seatMoved(head) {
      st.seats = st.seats.filter((s) => s !== head.seat);
      const lost = st.tokenOf[head.seat];
      tokens = tokens.filter((t) => t !== lost);
      delete st.states[String(head.seat)];
      st.shown = null;
      notice(head.text, "error");
      renderInvites();
    }

    // While the connection is down the board takes no input and says so; reconnecting
    // starts at once (first retry within a quarter second, then at most every second) and
    // again as soon as the browser says it is back online or the tab is shown.
    function setOnline(on) {
      st.online = on;
      $("offline").hidden = on || st.closedForGood;
      $("board").classList.toggle("offline", !on);
      $("conn").textContent = on ? "live" : st.closedForGood ? "no such game" : "reconnecting…";
      $("conn").className = on ? "conn ok" : "conn bad";
    }

    function connect() {
      clearTimeout(st.timer);
      st.timer = null;
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(gameId)}`);
      st.ws = ws;
      ws.onopen = () => {
        st.retry = 0;
        setOnline(true);
        ws.send(JSON.stringify({ type: "hello", tokens, device: device() }));
      };
      ws.onmessage = (ev) => onMessage(ev.data);
      ws.onclose = (ev) => {
        if (st.ws !== ws) return;
        st.pending = null;
        if (ev.code === 4404) st.closedForGood = true;
        setOnline(false);
        if (st.closedForGood) return;
        const delay = st.retry === 0 ? 150 : Math.min(1000, 250 * 2 ** st.retry) * (0.8 + 0.4 * Math.random());
        st.retry++;
        st.timer = setTimeout(connect, delay);
      };
    }

    function reconnectNow() {
      if (st.closedForGood || !st.ws || st.ws.readyState === WebSocket.OPEN ||
          st.ws.readyState === WebSocket.CONNECTING) return;
      st.retry = 0;
      connect();
    }
    window.addEventListener("online", reconnectNow);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) reconnectNow(); });

    // The game's own key to its symbols (icons are the game's drawings, not user text).
    function showLegend(items) {
      const list = $("legend-list");
      list.textContent = "";
      for (const item of items) {
        const icon = el("span", { class: "icon" });
        icon.innerHTML = `<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">${item.icon}</svg>`;
        list.append(el("li", {}, icon, el("span", { text: item.text })));
      }
      $("legend").hidden = !items.length;
    }

    // Games with chance show the commitment to their secret, and once over the record
    // that reveals it (replay --verify recomputes every draw from it).
    function showFairness(game) {
      if (!game.chance || !game.commitment) return;
      $("fair").hidden = false;
      const c = $("fair-commit");
      c.textContent = game.commitment.slice(0, 16) + "…";
      c.title = game.commitment;
      $("fair-record").href = `/api/matches/${gameId}/record`;
      $("fair-record").setAttribute("download", `${game.game}-${gameId}.json`);
      if (game.status === "finished") {
        $("fair-text").textContent = "The game is over and its secret is revealed in the record: anyone can check every die and tile against the commitment published when the game began.";
      }
    }

    function onMessage(data) {
      const cut = data.indexOf("\n");
      const head = JSON.parse(cut < 0 ? data : data.slice(0, cut));
      const drawings = cut < 0 ? "" : data.slice(cut + 1);
      const cut2 = drawings.indexOf("\n");
      const svg = cut2 < 0 ? drawings : drawings.slice(0, cut2);
      const panel = cut2 < 0 ? "" : drawings.slice(cut2 + 1);
      switch (head.type) {
        case "welcome":
          st.info = head.game;
          st.seats = head.seats;
          showFairness(head.game);
          $("title").textContent = head.game.name;
          document.title = `${head.game.name} · Sudoku Arena`;
          $("rules-link").href = `/rules/${head.game.game}`;
          $("type-box").hidden = !st.seats.length;
          renderInvites();
          showLegend(head.legend || []);
          break;
        case "state": {
          if (head.ack) { st.pending = null; notice(""); }
          const key = head.seat === null ? "spectator" : String(head.seat);
          const log = st.log[key] || [];
          if (head.log_from !== log.length && head.log_from !== 0) {
            st.ws.send(JSON.stringify({ type: "resync" }));
            return;
          }
          announceMoves(key, log.length, head);
          st.log[key] = log.slice(0, head.log_from).concat(head.log);
          st.states[key] = { head, svg, panel };
          st.info.status = head.status;
          if (head.status === "finished") { showFairness(st.info); renderInvites(); }
          st.info.rematch = head.rematch;
          render();
          break;
        }
        case "ack":
          st.pending = null;
          notice("");
          break;
        case "error":
          st.pending = null;
          $("board").classList.remove("busy");
          notice(head.message, "error");
          break;
        case "rematch":
          st.info.rematch = head.rematch;
          render();
          break;
        case "seats":
          if (st.info) st.info.claimed = head.claimed;
          renderInvites();
          break;
        case "seat_moved":
          seatMoved(head);
          render();
          break;
        case "presence":
          st.presence = head.seats;
          st.watchers = head.watchers;
          render();
          break;
        case "notice":
          notice(head.text, "info");
          break;
        default:
          break;
      }
    }

    function chooseSeat() {
      // Hot seat: show the seat to move (or the one shown before).
      if (!st.seats.length) return "spectator";
      const any = st.states[String(st.seats[0])];
      const toMove = any ? any.head.view.to_move : [];
      const mine = st.seats.filter((s) => toMove.includes(s));
      if (mine.length && !mine.includes(st.shown)) return String(mine[0]);
      if (st.shown !== null && st.states[String(st.shown)]) return String(st.shown);
      return String(st.seats[0]);
    }

    function render() {
      const key = chooseSeat();
      const cur = st.states[key];
      if (!cur) return;
      const seat = key === "spectator" ? null : parseInt(key, 10);
      const { head, svg, panel } = cur;
      const view = head.view;
      const info = st.info;
      // An ending the players decided (resignation, abort, agreed draw) comes with the
      // message, not with the rules' view.
      const outcome = head.outcome || view.outcome || null;
      $("watching").hidden = st.seats.length > 0;
      const hidden = info.hidden_information && st.seats.length > 1;
      if (seat !== st.shown) {
        st.selected = null;
        if (hidden && st.shown !== null && seat !== null) st.revealed = null;
      }
      st.shown = seat;

      // Hot seat with secrets: cover the board until the right person looks.
      const cover = $("cover");
      if (hidden && seat !== null && st.revealed !== seat && !outcome) {
        cover.hidden = false;
        $("cover-text").textContent = `Pass the device to ${playerLabel(info.seats, view, seat)}.`;
        $("cover-show").onclick = () => { st.revealed = seat; render(); };
        $("board").textContent = "";
        $("game-panel").textContent = "";
        $("game-panel").hidden = true;
        $("actions").textContent = "";
      } else {
        cover.hidden = true;
        drawBoard(seat, view, svg, panel, head, !!outcome);
      }

      // Whose turn.
      const status = $("status");
      const toMove = view.to_move || [];
      if (head.status === "finished" || outcome) {
        status.textContent = "Game over";
        status.className = "status over";
      } else if (seat !== null && toMove.includes(seat)) {
        status.textContent = st.seats.length > 1 ? `${playerLabel(info.seats, view, seat)}: your turn` : "Your turn";
        status.className = "status mine";
      } else if (toMove.length) {
        status.textContent = "Waiting for " + toMove.map((s) => playerLabel(info.seats, view, s)).join(", ");
        status.className = "status wait";
      } else {
        status.textContent = "…";
        status.className = "status wait";
      }

      // Players and scores.
      const players = $("players");
      players.textContent = "";
      (info.seats || []).forEach((s, i) => {
        const score = view.scores ? view.scores[i] : null;
        const me = st.seats.includes(i);
        const here = st.presence && s.kind !== "bot" ? st.presence[i] : null;
        players.append(el("li", { class: (toMove.includes(i) ? "to-move " : "") + (me ? "me" : "") },
          el("span", { class: "who", text: playerLabel(info.seats, view, i) + (me && st.seats.length === 1 ? " (you)" : "") }),
          el("span", { class: "kind muted small", text: s.kind === "bot" && !/\bbot\b/.test(s.name || "") ? " bot" : "" }),
          here === null ? null : el("span", { class: "presence " + (here ? "on" : "off"),
            title: here ? "connected" : "not connected", text: here ? "online" : "away" }),
          score === null || score === undefined ? null : el("span", { class: "score", text: String(score) })));
      });

      // Move log.
      const logEl = $("log");
      const entries = st.log[key] || [];
      logEl.textContent = "";
      for (const e of entries) {
        const who = e.actor === null ? "chance" : playerLabel(info.seats, view, e.actor);
        logEl.append(el("li", { class: e.actor === null ? "chance" : "" },
          el("span", { class: "who", text: who + ": " }),
          el("code", { text: e.action === null ? "(hidden)" : e.action })));
      }
      logEl.scrollTop = logEl.scrollHeight;

      const w8 = $("watchers");
      w8.hidden = !st.watchers;
      w8.textContent = st.watchers === 1 ? "1 person watching" : `${st.watchers} people watching`;
      etiquette(seat, head, view, outcome);
      renderClock(head);

      // Result.
      const result = $("result");
      if (outcome) {
        result.hidden = false;
        const w = outcome.winners || [];
        const mineWon = w.some((x) => st.seats.includes(x));
        let title;
        if (!w.length) title = "Draw";
        else if (st.seats.length === 1) title = mineWon ? "You won!" : "You lost";
        else title = w.map((x) => playerLabel(info.seats, view, x)).join(" and ") + (w.length > 1 ? " win" : " wins");
        $("result-title").textContent = title;
        const scores = (outcome.scores || []).map((s, i) => `${playerLabel(info.seats, view, i)} ${s}`).join(", ");
        const [reason, rule] = plain(outcome.reason);
        $("result-reason").textContent = `${reason}. ${scores}`;
        $("result-reason").title = rule;
        const rm = $("rematch");
        if (st.seats.length) {
          rm.hidden = false;
          rm.textContent = info.rematch ? "Join the rematch" : "Rematch";
          rm.onclick = rematch;
        } else if (info.rematch) {
          rm.hidden = false;
          rm.textContent = "Watch the rematch";
          rm.onclick = () => { location.href = `/play/${info.rematch}`; };
        } else {
          rm.hidden = true;
        }
      } else {
        result.hidden = true;
      }
    }

    // Resign, abort, draw offers: for the seat on screen, while the game goes on.
    function etiquette(seat, head, view, outcome) {
      const info = st.info;
      const mine = seat !== null && st.seats.includes(seat);
      const live = mine && !outcome && head.status !== "finished" && !info.read_only;
      $("game-buttons").hidden = !live;
      const entries = st.log[String(seat)] || [];
      $("abort").hidden = !live || entries.some((e) => e.actor === seat);
      $("offer-draw").hidden = !live || !info.draws || head.draw_offer !== null && head.draw_offer !== undefined;
      const who = st.seats.length > 1 ? `${playerLabel(info.seats, view, seat)}: ` : "";
      $("resign").onclick = () => {
        if (confirm(`${who}resign this game? Your opponents win.`)) sendEnding("resign", seat);
      };
      $("abort").onclick = () => {
        if (confirm("Abort this game? It ends with no winner.")) sendEnding("abort", seat);
      };
      $("offer-draw").onclick = () => { sendEnding("draw", seat, "offer"); notice("Draw offered: it stands until the next move.", "info"); };
      const offer = head.draw_offer;
      const box = $("draw-offer");
      box.hidden = !live || offer === null || offer === undefined;
      if (!box.hidden) {
        const theirs = offer !== seat;
        $("draw-text").textContent = theirs ? `${playerLabel(info.seats, view, offer)} offers a draw.` : "You offered a draw; waiting for an answer.";
        $("draw-accept").hidden = !theirs;
        $("draw-decline").hidden = !theirs;
        $("draw-accept").onclick = () => sendEnding("draw", seat, "accept");
        $("draw-decline").onclick = () => sendEnding("draw", seat, "decline");
      }
    }

    // -- clocks ------------------------------------------------------------------------------

    // Timed games: each seat's time, counted down between messages from the server's
    // time (each position carries it), so a wrong clock on this device does not matter.
    function renderClock(head) {
      const box = $("clocks");
      if (head && head !== st.clockHead) {
        st.clockHead = head;
        if (typeof head.server_time === "number") st.clockOffset = head.server_time - Date.now() / 1000;
      }
      const h = st.clockHead;
      const clock = h && h.clock;
      box.hidden = !clock;
      if (!clock) return;
      const now = Date.now() / 1000 + st.clockOffset;
      const view = h.view || {};
      box.textContent = "";
      box.append(el("span", { class: "clock-control muted small", text: `Clock ${clock.words}` }));
      clock.left.forEach((left, i) => {
        const running = clock.since[i] !== null && h.status !== "finished";
        const secs = Math.max(0, running ? left - (now - clock.since[i]) : left);
        const name = playerLabel(st.info.seats, view, i);
        box.append(el("span", {
          class: "clock" + (running ? " running" : "") + (secs < 20 ? " low" : "") + (secs <= 0 ? " out" : ""),
          "aria-label": `${name}: ${clockText(secs)} left` + (running ? ", running" : ""),
        }, el("span", { class: "clock-who", text: name + " " }), el("b", { text: clockText(secs) })));
      });
    }
    setInterval(() => { if (st.clockHead && st.clockHead.clock) renderClock(null); }, 250);

    function clockText(secs) {
      if (secs < 10) return `0:0${secs.toFixed(1)}`;
      const s = Math.floor(secs);
      const hours = Math.floor(s / 3600);
      const mins = Math.floor((s % 3600) / 60);
      const rest = String(s % 60).padStart(2, "0");
      return hours ? `${hours}:${String(mins).padStart(2, "0")}:${rest}` : `${mins}:${rest}`;
    }

    function sendEnding(type, seat, answer) {
      if (!st.ws || st.ws.readyState !== WebSocket.OPEN) {
        notice("Not connected: nothing was sent. Try again when the board is back.", "error");
        return;
      }
      const msg = { type, seat, id: st.nextId++ };
      if (answer) msg.answer = answer;
      st.ws.send(JSON.stringify(msg));
    }

    // Where clicks and keys go: live targets play, selectable elements select, places
    // that cannot be played ask for the engine's reason; buttons for the rest.
    function drawBoard(seat, view, svg, panelSvg, head, over) {
      const ply = head.ply;
      const board = $("board");
      // A new position keeps a selection made before somebody else's move (Cat Sudoku
      // players write at the same time) but not past one's own.
      if (ply !== st.drawnPly) {
        const entries = st.log[String(seat)] || [];
        const last = entries[entries.length - 1];
        if (last && last.actor === seat) st.selected = null;
      }
      st.drawnPly = ply;
      // Redrawing must not throw a keyboard player's cursor away.
      const had = document.activeElement;
      const focusKey = had && had.closest && had.closest("#board, #game-panel") ?
        had.getAttribute("data-action") || had.getAttribute("data-select") : null;
      const root = showBoard(board, svg);
      const side = $("game-panel");
      const panelRoot = panelSvg ? showBoard(side, panelSvg, true) : null;
      side.hidden = !panelRoot;
      if (panelRoot) panelRoot.setAttribute("role", "group");
      const roots = [root, panelRoot].filter(Boolean);
      const legal = view.legal || [];
      const mine = seat !== null && st.seats.includes(seat);
      const canAct = mine && (view.to_move || []).includes(seat) && !over;
      board.classList.toggle("my-turn", canAct);
      side.classList.toggle("my-turn", canAct);
      board.classList.remove("busy");
      const onBoard = new Set();
      for (const r of roots) {
        for (const t of r.querySelectorAll("[data-action]")) {
          const action = t.getAttribute("data-action");
          onBoard.add(action);
          if (canAct && legal.includes(action)) {
            makeTarget(t, () => send(seat, ply, action));
          }
        }
        for (const t of r.querySelectorAll("[data-select]")) {
          const key = t.getAttribute("data-select");
          if (!canAct) continue;
          makeTarget(t, () => {
            st.selected = st.selected === key ? null : key;
            applySelection();
          });
        }
        for (const t of r.querySelectorAll("[data-try]")) {
          if (!canAct) continue;
          t.classList.add("tryable");
          t.addEventListener("click", (ev) => {
            ev.stopPropagation();
            const template = t.getAttribute("data-try");
            if (template.includes("{sel}")) {
              if (!st.selected) { notice("Choose a value first, then the square.", "error"); return; }
              send(seat, ply, template.replace("{sel}", st.selected), true);
            } else {
              send(seat, ply, template, true);
            }
          });
        }
      }
      st.roots = roots;
      // A drawing with things to press is a group of controls, not a picture.
      for (const r of roots) if (r.querySelector(".live, .tryable")) r.setAttribute("role", "group");
      if (focusKey) {
        const again = roots.map((r) => Array.from(r.querySelectorAll(".live")).find((t) =>
          t.getAttribute("data-action") === focusKey || t.getAttribute("data-select") === focusKey)).find(Boolean);
        if (again) focusTarget(again); else board.focus();
      }
      if (st.selected !== null && !roots.some((r) => Array.from(r.querySelectorAll("[data-select]")).some((x) => x.getAttribute("data-select") === st.selected))) {
        st.selected = null;
      }
      applySelection();
      // Out of turn, a click on the board says whose turn it is instead of nothing.
      board.onclick = () => {
        if (canAct || over || !mine) return;
        const toMove = view.to_move || [];
        notice(toMove.length ? `Not your turn: waiting for ${toMove.map((x) => playerLabel(st.info.seats, view, x)).join(", ")}.` : "Not your turn.", "info");
      };
      board.onkeydown = (ev) => boardKey(ev);
      const actions = $("actions");
      actions.textContent = "";
      if (canAct) {
        const words = head.buttons || {};
        const off = legal.filter((a) => !onBoard.has(a));
        for (const a of off.slice(0, 80)) {
          const said = words[a];
          actions.append(el("button", { type: "button", class: said ? "action worded" : "action",
            "data-offboard": a, title: said ? `${said[1]} (${a})` : a, text: said ? said[0] : a,
            onclick: () => send(seat, ply, a) }));
        }
        if (off.length > 80) actions.append(el("span", { class: "muted small", text: ` … ${off.length - 80} more: type a move below` }));
      }
      const form = $("type-form");
      form.onsubmit = (ev) => {
        ev.preventDefault();
        const text = $("type-input").value.trim();
        if (text && canAct) send(seat, ply, text);
        $("type-input").value = "";
      };
    }

    // A clickable element: a button for keyboards and screen readers, named by its title.
    function makeTarget(t, go) {
      t.classList.add("live");
      t.setAttribute("tabindex", "-1");
      t.setAttribute("role", "button");
      const title = t.querySelector("title");
      if (title) t.setAttribute("aria-label", title.textContent);
      t.addEventListener("click", (ev) => { ev.stopPropagation(); go(); });
      t.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ev.stopPropagation(); go(); }
      });
    }

    // The keyboard cursor: arrows move focus to the nearest visible target in that
    // direction (board and panel alike), Enter plays it, Escape drops a selection.
    function liveTargets() {
      const out = [];
      for (const r of st.roots || []) {
        for (const t of r.querySelectorAll(".live")) {
          if (t.closest("[data-from]") && t.closest("[data-from]").style.display === "none") continue;
          const b = t.getBoundingClientRect();
          if (b.width && b.height) out.push({ t, x: b.left + b.width / 2, y: b.top + b.height / 2 });
        }
      }
      return out;
    }

    function boardKey(ev) {
      const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      if (ev.key === "Escape") { st.selected = null; applySelection(); return; }
      const d = dirs[ev.key];
      if (!d) return;
      ev.preventDefault();
      const all = liveTargets();
      if (!all.length) return;
      const here = all.find((c) => c.t === document.activeElement);
      if (!here) { focusTarget(all[0].t); return; }
      let best = null;
      let bestScore = Infinity;
      for (const c of all) {
        const dx = c.x - here.x;
        const dy = c.y - here.y;
        const along = dx * d[0] + dy * d[1];
        if (along <= 1) continue;
        const across = Math.abs(dx * d[1]) + Math.abs(dy * d[0]);
        const score = along + 2 * across;
        if (score < bestScore) { bestScore = score; best = c; }
      }
      if (best) focusTarget(best.t);
    }

    function focusTarget(t) {
      for (const o of document.querySelectorAll(".live[tabindex='0']")) o.setAttribute("tabindex", "-1");
      t.setAttribute("tabindex", "0");
      t.focus();
    }

    // Screen readers hear each move by somebody else, and the result.
    function announceMoves(key, had, head) {
      if (key !== chooseSeat() && st.states[key]) return;
      const seat = key === "spectator" ? null : parseInt(key, 10);
      const fresh = head.log.slice(Math.max(0, had - head.log_from));
      const said = [];
      for (const e of fresh) {
        if (e.actor !== null && st.seats.includes(e.actor)) continue;
        const who = e.actor === null ? "Chance" : playerLabel(st.info.seats, head.view, e.actor);
        said.push(`${who}: ${e.action}.`);
      }
      const outcome = head.outcome || head.view.outcome;
      if (outcome && !st.announcedEnd) {
        st.announcedEnd = true;
        said.push(`Game over: ${plain(outcome.reason)[0]}.`);
      }
      if (said.length && had > 0 || outcome) $("announce").textContent = said.slice(-4).join(" ");
      void seat;
    }

    function applySelection() {
      for (const root of st.roots || []) {
        for (const f of root.querySelectorAll("[data-from]")) {
          f.style.display = f.getAttribute("data-from") === st.selected ? "" : "none";
        }
        for (const s of root.querySelectorAll("[data-select]")) {
          s.classList.toggle("selected", s.getAttribute("data-select") === st.selected);
        }
      }
    }

    function send(seat, ply, action, asking) {
      if (!st.ws || st.ws.readyState !== WebSocket.OPEN) {
        notice("Not connected: your move was not sent. The board comes back when the connection does.", "error");
        return;
      }
      if (st.pending) return;
      const id = st.nextId++;
      st.pending = id;
      if (!asking) $("board").classList.add("busy");
      st.ws.send(JSON.stringify({ type: "act", seat, ply, action, id }));
      setTimeout(() => { if (st.pending === id) st.pending = null; }, 5000);
    }

    async function rematch() {
      try {
        const made = await api(`/api/matches/${gameId}/rematch`, { json: { tokens } });
        location.href = made.url;
        if (location.pathname === `/play/${made.id}`) location.reload();
      } catch (e) {
        notice(e.message, "error");
      }
    }

    $("cover").hidden = true;
    claimSeats().then(connect, connect);
  }

  // -- replay page ----------------------------------------------------------------------

  async function replay() {
    const gameId = gameIdFromPath();
    let info;
    let record;
    try {
      info = await api(`/api/matches/${gameId}`);
      record = await api(`/api/matches/${gameId}/record`);
    } catch (e) {
      $("status").textContent = e.message;
      return;
    }
    $("title").textContent = `${info.name}: replay`;
    document.title = `${info.name} replay · Sudoku Arena`;
    const total = record.actions.length;
    const slider = $("r-slider");
    slider.max = String(total);
    $("r-record").href = `/api/matches/${gameId}/record`;
    $("r-print").href = `/api/matches/${gameId}/print`;
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
    const cache = new Map();
    let ply = 0;
    let timer = null;
    async function frame(p) {
      if (!cache.has(p)) cache.set(p, api(`/api/matches/${gameId}/replay/${p}`));
      return cache.get(p);
    }
    async function go(p) {
      p = Math.max(0, Math.min(total, p));
      ply = p;
      slider.value = String(p);
      try {
        const f = await frame(p);
        if (ply !== p) return;
        showBoard($("board"), f.svg);
        const side = $("game-panel");
        if (side) { side.hidden = !f.panel; if (f.panel) showBoard(side, f.panel, true); }
        $("status").textContent = p === 0 ? `Start (0 / ${total})` :
          `Ply ${p} / ${total}: ${f.actor === null ? "chance" : seats[f.actor].name} ${f.action}`;
        for (const li of logEl.children) li.classList.toggle("current", li.dataset.ply === String(p));
        const cur = logEl.querySelector(".current");
        if (cur) cur.scrollIntoView({ block: "nearest" });
        if (p < total) frame(p + 1);
      } catch (e) {
        notice(e.message, "error");
      }
    }
    function stop() { clearInterval(timer); timer = null; $("r-play").textContent = "▶ Play"; }
    $("r-first").onclick = () => { stop(); go(0); };
    $("r-prev").onclick = () => { stop(); go(ply - 1); };
    $("r-next").onclick = () => { stop(); go(ply + 1); };
    $("r-last").onclick = () => { stop(); go(total); };
    slider.oninput = () => { stop(); go(parseInt(slider.value, 10)); };
    $("r-play").onclick = () => {
      if (timer) { stop(); return; }
      if (ply >= total) go(0);
      $("r-play").textContent = "⏸ Pause";
      timer = setInterval(() => { if (ply >= total) stop(); else go(ply + 1); },
        parseInt($("r-speed").value, 10));
    };
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "ArrowLeft") { stop(); go(ply - 1); }
      if (ev.key === "ArrowRight") { stop(); go(ply + 1); }
    });
    go(0);
  }

  // Older versions kept every opponent's link in the creator's browser: forget them.
  try {
    for (const k of Object.keys(localStorage)) if (k.startsWith("arena:invites:")) localStorage.removeItem(k);
  } catch (e) { /* storage unavailable */ }

  // The helpers other page scripts share (lobby.js), so each is written once.
  window.Arena = { el, api, device };

  const page = document.body.dataset.page;
  if (page === "home") home();
  else if (page === "play") play();
  else if (page === "replay") replay();
})();

/* The game page's frame: seat tokens, fetching documents, live updates (SSE), the move list, replay, errors and
   "thinking…". The board itself is drawn by window.BurrowBoards[<game>].render(container, doc, ui).

   Tokens: they arrive in the URL fragment (#token=T or #tokens=T0,T1 for a hot seat), are kept in
   sessionStorage and removed from the address bar at once. They only ever travel in an Authorization header:
   never in a query string, never in the DOM, never in the console. */
(function () {
  "use strict";
  const {html, button} = window.BurrowDom;
  const root = document.getElementById("game");
  const gid = root.dataset.gid;
  const gameName = root.dataset.game;
  const storeKey = "burrow:tokens:" + gid;
  const $ = (id) => document.getElementById(id);
  const LEGAL_BUTTONS_MAX = 240;

  const page = {
    held: [],            // [{token, seat}] the seats this page plays, in seat order
    docs: new Map(),     // seat -> its latest document; key null: the spectator's
    latest: 0,           // the newest version seen
    events: [],          // the move list
    replay: null,        // null (live) or {version, doc}
    pending: false,      // a command is in flight
    memory: {},          // the board's selection state, reset when the picture changes
    memoryKey: "",
    refreshing: null,
    refreshAgain: 0,
  };

  // ---------------------------------------------------------------- tokens

  function storedTokens() {
    try {
      const list = JSON.parse(sessionStorage.getItem(storeKey) || "[]");
      return Array.isArray(list) ? list.filter((t) => typeof t === "string" && t) : [];
    } catch (err) {
      return [];
    }
  }

  function saveTokens(tokens) {
    try {
      if (tokens.length) sessionStorage.setItem(storeKey, JSON.stringify(tokens));
      else sessionStorage.removeItem(storeKey);
    } catch (err) {
      // Storage may be disabled: the page still works until it is reloaded.
    }
  }

  /** Tokens of the URL fragment, which is then removed from the address bar (and from history). */
  function takeFragmentTokens() {
    const fragment = location.hash.replace(/^#/, "");
    if (!fragment) return [];
    const params = new URLSearchParams(fragment);
    const found = [];
    if (params.get("token")) found.push(params.get("token"));
    for (const t of (params.get("tokens") || "").split(",")) if (t.trim()) found.push(t.trim());
    if (params.has("token") || params.has("tokens")) {
      history.replaceState(history.state, "", location.pathname + location.search);
    }
    return found;
  }

  // ---------------------------------------------------------------- API

  class ApiError extends Error {
    constructor(status, code, message) {
      super(message);
      this.status = status;
      this.code = code;
    }
  }

  async function api(path, options) {
    const opts = options || {};
    const headers = {"Accept": "application/json"};
    if (opts.token) headers["Authorization"] = "Bearer " + opts.token;
    if (opts.body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(path, {method: opts.method || "GET", headers, cache: "no-store",
                                    body: opts.body === undefined ? undefined : JSON.stringify(opts.body)});
    } catch (err) {
      throw new ApiError(0, "network", "The server cannot be reached; check your connection.");
    }
    let body = null;
    try {
      body = await response.json();
    } catch (err) {
      body = null;
    }
    if (!response.ok) {
      const e = (body && body.error) || {};
      throw new ApiError(response.status, e.code || "http_" + response.status,
                         e.message || `The server answered ${response.status}.`);
    }
    return body;
  }

  const gamePath = "/api/games/" + encodeURIComponent(gid);

  // ---------------------------------------------------------------- who acts

  function liveDocs() {
    return page.held.length ? page.held.map((h) => page.docs.get(h.seat)).filter(Boolean)
      : [page.docs.get(null)].filter(Boolean);
  }

  /** The held seat that must act now (hot seat: whichever of ours is in to_act), or null. */
  function acting() {
    for (const h of page.held) {
      const doc = page.docs.get(h.seat);
      if (doc && doc.status !== "finished" && doc.to_act.includes(h.seat) && doc.legal.length) return h;
    }
    return null;
  }

  /** The document shown now: the replayed one, the acting seat's, the first held seat's, or the spectator's. */
  function shownDoc() {
    if (page.replay) return page.replay.doc;
    const act = acting();
    if (act) return page.docs.get(act.seat);
    return liveDocs()[0] || null;
  }

  function viewerToken() {
    const act = acting();
    if (act) return act.token;
    return page.held.length ? page.held[0].token : null;
  }

  // ---------------------------------------------------------------- loading

  async function identify(tokens) {
    const held = [];
    let rejected = 0;
    for (const token of tokens) {
      try {
        const doc = await api(gamePath, {token});
        if (doc.you === null || doc.you === undefined || held.some((h) => h.seat === doc.you)) continue;
        held.push({token, seat: doc.you});
        page.docs.set(doc.you, doc);
      } catch (err) {
        if (err.status === 401 || err.status === 403) rejected += 1;
        else throw err;
      }
    }
    held.sort((a, b) => a.seat - b.seat);
    page.held = held;
    saveTokens(held.map((h) => h.token));
    if (rejected) showMessage(`${rejected === 1 ? "A seat link was" : "Some seat links were"} not valid for ` +
                              "this game; you see what a spectator sees for those.");
  }

  async function fetchDocs(minVersion) {
    const query = minVersion ? "?min_version=" + minVersion : "";
    if (!page.held.length) {
      page.docs.set(null, await api(gamePath + query));
      return;
    }
    const docs = await Promise.all(page.held.map((h) => api(gamePath + query, {token: h.token})));
    docs.forEach((doc, i) => page.docs.set(page.held[i].seat, doc));
  }

  async function fetchEvents(all) {
    // One seat: its own view (its draws). A hot seat: the public view, so no seat reads another's secrets here.
    const token = page.held.length === 1 ? page.held[0].token : null;
    let after = all ? 0 : (page.events.length ? page.events[page.events.length - 1].version : 0);
    const fresh = [];
    for (;;) {
      const body = await api(`${gamePath}/events?after=${after}`, {token});
      fresh.push(...body.events);
      if (!body.events.length || body.events.length < 1000) break;
      after = body.events[body.events.length - 1].version;
    }
    page.events = all ? fresh : page.events.concat(fresh);
  }

  /** Bring every held document (and the move list) up to at least ``minVersion``; coalesces bursts. */
  async function refresh(minVersion) {
    page.refreshAgain = Math.max(page.refreshAgain, minVersion || 0);
    if (page.refreshing) return page.refreshing;
    page.refreshing = (async () => {
      try {
        while (page.refreshAgain >= 0) {
          const target = page.refreshAgain;
          page.refreshAgain = -1;
          const wasFinished = liveDocs().some((d) => d.status === "finished");
          await fetchDocs(target);
          const docs = liveDocs();
          page.latest = Math.max(page.latest, ...docs.map((d) => d.version));
          const finished = docs.some((d) => d.status === "finished");
          // A game that just ended reveals everything: reload the whole move list.
          await fetchEvents(finished && !wasFinished);
          render();
        }
      } catch (err) {
        showError(err);
      } finally {
        page.refreshing = null;
        page.refreshAgain = 0;
      }
    })();
    return page.refreshing;
  }

  // ---------------------------------------------------------------- commands

  function commandId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  async function send(move) {
    const text = String(move || "").trim();
    if (!text) return false;
    const act = acting();
    if (!act) {
      showMessage(page.held.length ? "It is not your turn." : "You are watching: open a seat's link to play.");
      return false;
    }
    if (page.pending) return false;
    const doc = page.docs.get(act.seat);
    page.pending = true;
    root.classList.add("pending");
    showMessage("");
    let reached = null;
    try {
      const answer = await api(gamePath + "/commands", {
        method: "POST", token: act.token,
        body: {move: text, expected_version: doc.version, command_id: commandId()},
      });
      page.memory = {};
      reached = answer.version;
    } catch (err) {
      if (err.status === 409) {
        showMessage("The game moved on; the board is refreshed.");
        reached = 0;
      } else {
        showError(err);
      }
    } finally {
      page.pending = false;
      root.classList.remove("pending");
    }
    if (reached === null) render();
    else await refresh(reached);
    return reached !== null && reached > 0;
  }

  // ---------------------------------------------------------------- messages

  function showMessage(text) {
    const box = $("message");
    box.textContent = text;
    box.hidden = !text;
  }

  function showError(err) {
    showMessage(err && err.message ? err.message : "Something went wrong.");
  }

  // ---------------------------------------------------------------- rendering

  function board() {
    return window.BurrowBoards[gameName] || window.BurrowBoards.generic;
  }

  function seatLabel(doc, seat) {
    const b = board();
    const player = (doc.players || [])[seat] || {};
    const side = b.seatLabel ? b.seatLabel(doc, seat) : null;
    const name = player.name || `Seat ${seat}`;
    return side ? `${name} (${side})` : name;
  }

  function isAi(doc, seat) {
    const player = (doc.players || [])[seat];
    return Boolean(player && player.ai);
  }

  function render() {
    const doc = shownDoc();
    if (!doc) return;
    const act = page.replay ? null : acting();
    const key = `${doc.version}/${act ? act.seat : "-"}/${page.replay ? "r" : "l"}`;
    if (key !== page.memoryKey) {
      page.memory = {};
      page.memoryKey = key;
    }
    renderStatus(doc, act);
    renderPlayers(doc);
    renderBoard(doc, act);
    renderLegal(act ? doc.legal : []);
    renderMoves();
    renderReplay();
  }

  function renderStatus(doc, act) {
    const status = $("status");
    status.classList.remove("thinking", "your-turn");
    let text;
    if (doc.status === "finished") {
      text = "The game is over.";
    } else if (act) {
      text = `Your turn: ${seatLabel(doc, act.seat)}.`;
      status.classList.add("your-turn");
    } else if (!doc.to_act.length) {
      text = "Waiting…";
    } else {
      const names = doc.to_act.map((s) => seatLabel(doc, s)).join(", ");
      const ai = doc.to_act.filter((s) => isAi(doc, s));
      if (page.replay) {
        text = `${names} to play.`;
      } else if (ai.length) {
        text = `${ai.map((s) => seatLabel(doc, s)).join(", ")} thinking…`;
        status.classList.add("thinking");
      } else {
        text = `Waiting for ${names}.`;
      }
    }
    if (page.replay) text = `Replay of version ${doc.version}. ` + text;
    status.textContent = text;

    const result = $("result");
    if (doc.result) {
      const winners = doc.result.winners || [];
      const who = winners.length ? winners.map((s) => seatLabel(doc, s)).join(" and ") +
        (winners.length > 1 ? " win" : " wins") : "A draw";
      result.textContent = `${who}: ${doc.result.reason}`;
      result.hidden = false;
    } else {
      result.hidden = true;
      result.textContent = "";
    }
  }

  function renderPlayers(doc) {
    const list = $("players");
    list.replaceChildren();
    for (const player of doc.players || []) {
      const seat = player.seat;
      const item = html("li", "player", null, list);
      if (doc.to_act.includes(seat)) item.classList.add("to-act");
      if (page.held.some((h) => h.seat === seat)) item.classList.add("mine");
      html("span", "seat-name", seatLabel(doc, seat), item);
      const tags = [];
      if (player.ai) tags.push(`AI, ${player.ai}`);
      if (page.held.some((h) => h.seat === seat)) tags.push("played here");
      if (doc.to_act.includes(seat)) tags.push(isAi(doc, seat) && doc.status !== "finished" ? "thinking…" : "to play");
      if (doc.result && (doc.result.winners || []).includes(seat)) tags.push("winner");
      if (tags.length) html("span", "seat-tags", tags.join(" · "), item);
    }
    const tools = $("seat-tools");
    tools.replaceChildren();
    if (!page.held.length) {
      html("p", "note", "You are watching. A seat's link lets its player play here.", tools);
      return;
    }
    for (const h of page.held) {
      const row = html("p", "seat-tool", null, tools);
      button(`Copy the link for seat ${h.seat}`, () => copyLink(h), "", row)
        .setAttribute("aria-label", `Copy the link for seat ${h.seat}, ${seatLabel(doc, h.seat)}`);
      if (page.held.length > 1) {
        button(`Stop playing seat ${h.seat} here`, () => release(h), "quiet", row);
      }
    }
  }

  async function copyLink(h) {
    const url = `${location.origin}${location.pathname}#token=${encodeURIComponent(h.token)}`;
    try {
      await navigator.clipboard.writeText(url);
      showMessage(`The link for seat ${h.seat} is copied. Whoever opens it plays that seat.`);
    } catch (err) {
      window.prompt(`The link for seat ${h.seat} (copy it):`, url);
    }
  }

  function release(h) {
    page.held = page.held.filter((x) => x !== h);
    page.docs.delete(h.seat);
    saveTokens(page.held.map((x) => x.token));
    showMessage(`Seat ${h.seat} is no longer played on this page.`);
    render();
  }

  function renderBoard(doc, act) {
    const container = $("board");
    const interactive = Boolean(act) && !page.replay && !page.pending;
    const ui = {
      send,
      interactive,
      legal: interactive ? doc.legal : [],
      you: act ? act.seat : (doc.you === undefined ? null : doc.you),
      memory: page.memory,
      redraw: () => renderBoard(shownDoc(), page.replay ? null : acting()),
      playerName: (seat) => seatLabel(doc, seat),
      message: showMessage,
      replay: Boolean(page.replay),
    };
    const focusKey = document.activeElement && container.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-key") : null;
    container.replaceChildren();
    container.setAttribute("aria-busy", "true");
    try {
      board().render(container, doc, ui);
    } catch (err) {
      container.replaceChildren();
      window.BurrowBoards.generic.render(container, doc, ui);
      showMessage("The board could not be drawn; the commands below still work.");
    }
    container.removeAttribute("aria-busy");
    window.BurrowDom.refocus(container, focusKey);
    if (focusKey && !container.contains(document.activeElement)) {
      // The focused target went away (a step was chosen): carry the keyboard on to the next choice.
      const next = container.querySelector(".controls button:not([disabled]), .choices button:not([disabled]), " +
                                           "[role=button][tabindex]");
      if (next) next.focus();
    }
  }

  function renderLegal(legal) {
    const box = $("legal");
    const filter = $("typed-move").value.trim().toLowerCase();
    const shown = filter ? legal.filter((m) => m.toLowerCase().includes(filter)) : legal;
    $("legal-count").textContent = String(legal.length);
    box.replaceChildren();
    if (!legal.length) {
      html("p", "note", page.replay ? "Replay: return to the live game to play." : "No command for you now.", box);
    }
    for (const move of shown.slice(0, LEGAL_BUTTONS_MAX)) {
      button(move, () => send(move), "move", box).setAttribute("aria-label", `Play ${move}`);
    }
    if (shown.length > LEGAL_BUTTONS_MAX) {
      html("p", "note", `…and ${shown.length - LEGAL_BUTTONS_MAX} more: type in the box to narrow the list.`, box);
    }
    const options = $("legal-options");
    options.replaceChildren();
    for (const move of shown.slice(0, LEGAL_BUTTONS_MAX)) {
      const option = document.createElement("option");
      option.value = move;
      options.appendChild(option);
    }
    const details = $("legal-details");
    if (!details.dataset.touched) details.open = !window.BurrowBoards[gameName];
    $("typed").querySelector("button").disabled = !legal.length;
  }

  function renderMoves() {
    const list = $("moves");
    const current = page.replay ? page.replay.version : page.latest;
    const wasAtBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    list.replaceChildren();
    for (const event of page.events) {
      const item = html("li", "move-line", null, list);
      if (event.version > current) item.classList.add("future");
      if (event.version === current) item.classList.add("current");
      const b = button("", () => startReplay(event.version), "move-link", item);
      html("span", "version", String(event.version), b);
      html("span", "text", event.text || event.type, b);
      b.setAttribute("aria-label", `Version ${event.version}: ${event.text || event.type}. Show the board then.`);
      if (event.version === current) b.setAttribute("aria-current", "step");
    }
    if (wasAtBottom || !page.replay) list.scrollTop = list.scrollHeight;
  }

  function renderReplay() {
    const slider = $("replay-slider");
    const version = page.replay ? page.replay.version : page.latest;
    slider.max = String(Math.max(1, page.latest));
    slider.value = String(version);
    slider.setAttribute("aria-valuetext", `Version ${version} of ${page.latest}`);
    $("replay-label").textContent = page.replay ? `Version ${version} of ${page.latest} (replay)`
      : `Version ${page.latest} (live)`;
    $("replay-first").disabled = version <= 1;
    $("replay-prev").disabled = version <= 1;
    $("replay-next").disabled = !page.replay;
    $("replay-live").disabled = !page.replay;
    const banner = $("replay-banner");
    banner.hidden = !page.replay;
    banner.replaceChildren();
    if (page.replay) {
      html("span", "", `Replay: version ${version} of ${page.latest}. `, banner);
      button("Back to the live game", () => stopReplay(), "", banner);
    }
    root.classList.toggle("replaying", Boolean(page.replay));
  }

  // ---------------------------------------------------------------- replay

  let replaySeq = 0;

  async function startReplay(version) {
    const v = Math.max(1, Math.min(page.latest, Math.round(version)));
    if (v >= page.latest) {
      stopReplay();
      return;
    }
    const seq = ++replaySeq;
    try {
      const doc = await api(`${gamePath}?version=${v}`, {token: viewerToken()});
      if (seq !== replaySeq) return;
      page.replay = {version: v, doc};
      render();
    } catch (err) {
      showError(err);
    }
  }

  function stopReplay() {
    replaySeq += 1;
    page.replay = null;
    render();
  }

  function bindReplay() {
    const current = () => (page.replay ? page.replay.version : page.latest);
    $("replay-first").addEventListener("click", () => startReplay(1));
    $("replay-prev").addEventListener("click", () => startReplay(current() - 1));
    $("replay-next").addEventListener("click", () => startReplay(current() + 1));
    $("replay-live").addEventListener("click", () => stopReplay());
    $("replay-slider").addEventListener("input", (e) => startReplay(Number(e.target.value)));
  }

  // ---------------------------------------------------------------- typed commands

  function bindTyped() {
    const input = $("typed-move");
    $("typed").addEventListener("submit", async (event) => {
      event.preventDefault();
      if (await send(input.value)) input.value = "";
    });
    input.addEventListener("input", () => {
      const doc = shownDoc();
      const act = page.replay ? null : acting();
      renderLegal(act && doc ? doc.legal : []);
    });
    $("legal-details").addEventListener("toggle", (e) => { e.target.dataset.touched = "yes"; });
  }

  // ---------------------------------------------------------------- live

  function listen() {
    if (!window.EventSource) {
      setInterval(() => refresh(0), 3000);
      return;
    }
    const source = new EventSource(`${gamePath}/stream?after=${page.latest}`);
    const onVersion = (event) => {
      const version = Number(event.lastEventId);
      if (version > page.latest) refresh(version);
    };
    source.addEventListener("version", onVersion);
    source.addEventListener("message", onVersion);
    source.addEventListener("open", () => root.classList.remove("offline"));
    source.addEventListener("error", () => root.classList.add("offline"));
  }

  // ---------------------------------------------------------------- start

  async function start() {
    bindReplay();
    bindTyped();
    const tokens = [...new Set(storedTokens().concat(takeFragmentTokens()))];
    try {
      await identify(tokens);
      await refresh(0);
    } catch (err) {
      showError(err);
    }
    listen();
  }

  start();
})();

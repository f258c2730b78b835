/* The game page's frame: the seats this page plays, fetching documents, live updates (SSE), the move list,
   replay, errors and "thinking…". The board itself is drawn by window.BurrowBoards[<game>].render(container,
   doc, ui). Seat tokens come and go through BurrowApi.tokens (api.js), and only ever in an Authorization header. */
(function () {
  "use strict";
  const {api, tokens} = window.BurrowApi;
  const panels = window.BurrowPanels;
  const root = document.getElementById("game");
  const gid = root.dataset.gid;
  const gameName = root.dataset.game;
  const $ = (id) => document.getElementById(id);

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

  async function identify(candidates) {
    const held = [];
    let rejected = 0;
    for (const token of candidates) {
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
    tokens.save(gid, held.map((h) => h.token));
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
    const label = (seat) => seatLabel(doc, seat);
    const ai = (seat) => isAi(doc, seat);
    const replaying = Boolean(page.replay);
    const version = replaying ? page.replay.version : page.latest;
    panels.status(doc, {acting: act ? act.seat : null, replay: replaying, label, isAi: ai});
    panels.players(doc, {held: page.held.map((h) => h.seat), label, isAi: ai, onCopy: copyLink, onRelease: release});
    renderBoard(doc, act);
    renderLegal();
    panels.moves(page.events, version, replaying, startReplay);
    panels.replay(version, page.latest, replaying, stopReplay);
    root.classList.toggle("replaying", replaying);
  }

  function renderLegal() {
    const doc = shownDoc();
    const act = page.replay ? null : acting();
    panels.legal(act && doc ? doc.legal : [], {replay: Boolean(page.replay), send,
                                              hasBoard: Boolean(window.BurrowBoards[gameName])});
  }

  function heldSeat(seat) {
    return page.held.find((h) => h.seat === seat);
  }

  async function copyLink(seat) {
    const h = heldSeat(seat);
    const url = tokens.link(gid, h.token);
    try {
      await navigator.clipboard.writeText(url);
      showMessage(`The link for seat ${h.seat} is copied. Whoever opens it plays that seat.`);
    } catch (err) {
      window.prompt(`The link for seat ${h.seat} (copy it):`, url);
    }
  }

  function release(seat) {
    const h = heldSeat(seat);
    page.held = page.held.filter((x) => x !== h);
    page.docs.delete(h.seat);
    tokens.save(gid, page.held.map((x) => x.token));
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
    input.addEventListener("input", renderLegal);
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
    const candidates = [...new Set(tokens.stored(gid).concat(tokens.takeFromFragment()))];
    try {
      await identify(candidates);
      await refresh(0);
    } catch (err) {
      showError(err);
    }
    listen();
  }

  start();
})();

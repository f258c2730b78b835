/* The game page's entry module: the seats this page plays, fetching documents, live updates (SSE), the move list,
   replay, errors and "thinking…". The board itself is drawn by the game's board module, render(container, doc,
   ui): the module the game's registration names (domain/game_type.py, "board"), whose address the page gives as
   <link rel="modulepreload" id="board-module">, imported when the page starts; without one (or if it cannot be
   loaded) the generic board. Seat tokens come and go through tokens (api.js), and only ever in an Authorization header. */
import {api, tokens} from "./api.js";
import {confirmed} from "./confirm-moves.js";
import {refocus} from "./dom.js";
import * as generic from "./boards/generic.js";
import * as table from "./table.js";
import * as panels from "./panels.js";
import * as replayKit from "./replay.js";
import * as keyboard from "./keyboard.js";
import * as notify from "./notify.js";
import "./rules.js";  // the rules' summary from the catalog, and the links that open them
import * as setup from "./setup.js";
import * as analysis from "./analysis.js";
import * as chat from "./chat.js";
import {signedIn} from "./accounts.js";
import {mayHaveGuestSession} from "./guest.js";
import {t, tn, list, player, fromMoveWords} from "./i18n.js";

const root = document.getElementById("game");
const gid = root.dataset.gid;
let gameBoard = null;  // the game's own board module, once imported (null: the generic board)
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
  steps: [],           // the move list grouped into steps (one command's events each), see replay.js
  open: new Set(),     // the steps whose events are listed one by one
  offline: false,      // the live connection is lost (the banner says so; the board is not playable)
  focusKey: null,      // the board element that had the keyboard focus when a command was sent
  boardKey: "",        // what the board was last drawn from (render draws it again only when it changed)
};

const gamePath = "/api/games/" + encodeURIComponent(gid);
const NARROW = 600;  // a board container narrower than this (a phone) gets the boards' small-screen layout

// ---------------------------------------------------------------- who acts

function liveDocs() {
  return page.held.length ? page.held.map((h) => page.docs.get(h.seat)).filter(Boolean)
    : [page.docs.get(null)].filter(Boolean);
}

/** The players' names of ``doc`` as one string: the move list's lines name them (an open seat gets its name). */
function names(doc) {
  return doc ? (doc.players || []).map((p) => p.name || "").join("\n") : null;
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
  if (rejected) {
    showMessage(tn("A player's link was not valid for this game; you see what a spectator sees for it.",
                   "Some players' links were not valid for this game; you see what a spectator sees for those.",
                   rejected, {n: rejected}));
  }
}

async function fetchDocs(minVersion) {
  // Monotonic reads: ask for at least what the page has already shown (a server may answer from a projection
  // that lags), and never replace a document with an older one (an answer overtaken by a newer one).
  const floor = Math.max(minVersion || 0, page.latest || 0);
  const query = floor ? "?min_version=" + floor : "";
  const keep = (seat, doc) => {
    const shown = page.docs.get(seat);
    if (!shown || doc.version >= shown.version) page.docs.set(seat, doc);
  };
  if (!page.held.length) {
    keep(null, await api(gamePath + query));
    return;
  }
  const docs = await Promise.all(page.held.map((h) => api(gamePath + query, {token: h.token})));
  docs.forEach((doc, i) => keep(page.held[i].seat, doc));
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
        const namesBefore = names(liveDocs()[0]);
        await fetchDocs(target);
        const docs = liveDocs();
        page.latest = Math.max(page.latest, ...docs.map((d) => d.version));
        const finished = docs.some((d) => d.status === "finished");
        // A game that just ended reveals everything, a seat just taken names its player in earlier lines ("Seat
        // 1 starts"): reload the whole move list.
        await fetchEvents((finished && !wasFinished) || (namesBefore !== null && names(docs[0]) !== namesBefore));
        if (page.offline) connection(true);
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
  const text = fromMoveWords(String(move || "").trim());  // typed in the reader's words: the notation's
  if (!text) return false;
  const act = acting();
  if (!act) {
    const doc = shownDoc();
    const waiting = doc ? doc.to_act.map((seat) => seatLabel(doc, seat)) : [];
    showMessage(page.replay ? t("This is a replay: go back to the live game to play.")
      : doc && doc.status === "finished" ? t("The game is over.")
        : !page.held.length ? t("You are watching: open a player's link to play.")
          : waiting.length ? t("It is not your turn: waiting for {players}.", {players: list(waiting)})
            : t("It is not your turn."));
    return false;
  }
  if (page.pending) return false;
  const doc = page.docs.get(act.seat);
  if (!confirmed(doc, text)) return false;  // a correspondence game, and this device asks first
  const focused = document.activeElement;
  page.focusKey = focused && $("board").contains(focused)
    ? (focused.closest("[data-key]") || focused).getAttribute("data-key") || "board" : null;
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
      showMessage(t("The game moved on; the board is refreshed."));
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
  if (err && err.status === 0) {  // the server cannot be reached: the connection's banner says it, once
    connection(false);
    return;
  }
  showMessage(err && err.message ? err.message : t("Something went wrong."));
}

/** A sentence under the board, about the last click (why it did nothing, what to do instead). */
function feedback(text) {
  const box = $("board-feedback");
  box.textContent = text || "";
  box.hidden = !text;
}

/** Why a click on the board did nothing: not your turn, a replay, watching, or the board's own reason. */
function explainClick(event) {
  const node = event.target;
  if (!node || !node.closest) return;
  if (node.closest("button, a, input, select, summary, label, [role=button]")) {
    feedback("");  // a click that did something: the last explanation is stale
    return;
  }
  if (page.pending || !node.closest("svg")) return;  // the drawn board only, not its captions
  const doc = shownDoc();
  if (!doc) return;
  let text;
  if (page.replay) text = t("This is a replay: go back to the live game to play.");
  else if (page.offline) text = t("The connection is lost: wait until it is back to play.");
  else if (doc.status === "finished") text = t("The game is over.");
  else if (!page.held.length) text = t("You are watching: open a player's link to play.");
  else if (!acting()) {
    const names = doc.to_act.map((seat) => seatLabel(doc, seat));
    text = names.length ? t("It is not your turn: waiting for {players}.", {players: list(names)})
      : t("It is not your turn: wait.");
  } else {
    const b = board();
    const act = acting();
    text = (b.why && b.why(doc, {you: act.seat, legal: doc.legal, memory: page.memory}, node)) ||
      t("That is not one of your moves: the highlighted pieces and the buttons below show what you can do.");
  }
  feedback(text);
}

/** The live connection went away (false) or came back (true). Shown after a short grace: a stream that only
    reconnects is no news. */
let offlineTimer = null;
function connection(up) {
  if (up) {
    clearTimeout(offlineTimer);
    offlineTimer = null;
    if (page.offline) {
      page.offline = false;
      $("connection-banner").hidden = true;
      refresh(0);
      render();
    }
    return;
  }
  if (page.offline || offlineTimer) return;
  offlineTimer = setTimeout(() => {
    offlineTimer = null;
    page.offline = true;
    $("connection-banner").hidden = false;
    render();
  }, 1500);
}

// ---------------------------------------------------------------- rendering

function board() {
  return gameBoard || generic;
}

/** Import the board module the page names (#board-module); the generic board stands in if there is none or it
    fails to load (the legal commands still work). */
async function loadBoard() {
  const link = document.getElementById("board-module");
  if (!link) return;
  try {
    gameBoard = await import(link.href);
  } catch (err) {
    showMessage(t("The board could not be loaded; the moves below still work."));
  }
}

/** A seat's player as the page names them: "Ana (Romans)", "Player 2 (Gauls)", "Open seat". */
function seatLabel(doc, seat) {
  const b = board();
  const seated = (doc.players || [])[seat] || {};
  const side = b.seatLabel ? b.seatLabel(doc, seat) : null;
  const name = seated.name || (seated.open ? t("Open seat") : player(seat));
  return side ? t("{player} ({side})", {player: name, side}) : name;
}

/** The players' names by seat (a seat without one: "Player N" where it is said). */
function playerNames(doc) {
  return doc ? (doc.players || []).map((p) => p.name || null) : [];
}

function isAi(doc, seat) {
  const player = (doc.players || [])[seat];
  return Boolean(player && player.ai);
}

/** The seat whose draw offer a seat held here may answer (two seats: the other one), or null. */
function drawOffer(doc) {
  for (const h of page.held) {
    const seatDoc = page.docs.get(h.seat) || doc;
    if (seatDoc.you === h.seat && (seatDoc.table || []).includes("accept draw")) return 1 - h.seat;
  }
  return null;
}

function render() {
  const doc = shownDoc();
  if (!doc) return;
  page.steps = replayKit.steps(page.events, playerNames(doc));  // the move list may have grown meanwhile
  const act = page.replay ? null : acting();
  const key = `${doc.version}/${act ? act.seat : "-"}/${page.replay ? "r" : "l"}`;
  if (key !== page.memoryKey) {
    page.memory = {};
    page.memoryKey = key;
    feedback("");
  }
  const label = (seat) => seatLabel(doc, seat);
  const ai = (seat) => isAi(doc, seat);
  const replaying = Boolean(page.replay);
  const version = replaying ? page.replay.version : page.latest;
  const b = board();
  panels.status(doc, {acting: act && !page.offline ? act.seat : null, replay: replaying, offline: page.offline,
                      label, isAi: ai, offer: replaying ? null : drawOffer(doc), names: playerNames(doc)});
  panels.players(doc, {held: page.held.map((h) => h.seat), replay: replaying, label, isAi: ai,
                       dot: b.seatDot ? (seat) => b.seatDot(doc, seat) : null, onCopy: copyLink,
                       onRelease: release});
  setup.warn(doc, page.held.map((h) => h.seat));
  table.render(doc, {held: page.held, docs: page.docs, replay: replaying});
  // The board is drawn again only when what it shows changed (a beat or a notice re-renders the page: a board
  // redrawn under the pointer or the keyboard's cursor would lose them).
  const boardKey = JSON.stringify([key, doc.status, page.pending, page.offline, $("board").clientWidth < NARROW,
                                   (doc.players || []).map((p) => p.name)]);
  if (boardKey !== page.boardKey || !$("board").firstChild) {
    page.boardKey = boardKey;
    renderBoard(doc, act);
  }
  renderLegal();
  const step = replayKit.stepOf(page.steps, version);
  panels.moves({steps: page.steps, version, replaying, open: page.open, onPick: startReplay, names: playerNames(doc),
                onToggle: (index) => {
                  if (page.open.has(index)) page.open.delete(index);
                  else page.open.add(index);
                  render();
                }});
  const liveTurn = acting();
  const moves = page.steps.length ? page.steps[page.steps.length - 1].move : 0;
  panels.replay({step: step ? step.index : 0, steps: page.steps.length, move: step ? step.move : 0, moves,
                 latest: page.latest, replaying, yourTurn: Boolean(liveTurn), onLive: stopReplay});
  root.classList.toggle("replaying", replaying);
  // the analysis under a finished game's board (analysis.js)
  analysis.rendered({finished: liveDocs().some((d) => d.status === "finished"), doc: liveDocs()[0],
                     steps: page.steps, version, latest: page.latest, replaying, label, replayTo: startReplay,
                     dot: b.seatDot ? (seat) => b.seatDot(doc, seat) : null, held: page.held.map((h) => h.seat),
                     shown: doc});
  const live = liveDocs()[0];
  let other = "";
  if (page.offline) other = t("Connection lost");
  else if (live && live.status === "finished") other = t("Game over");
  else if (live && live.to_act.length) {
    other = t("{players} to play", {players: list(live.to_act.map((seat) => seatLabel(live, seat)))});
  }
  notify.update(Boolean(liveTurn) && !page.offline,
                liveTurn ? t("{players} to play", {players: seatLabel(page.docs.get(liveTurn.seat), liveTurn.seat)})
                  : "", other);
}

function renderLegal() {
  const doc = shownDoc();
  const act = page.replay ? null : acting();
  panels.legal(act && doc ? doc.legal : [], {replay: Boolean(page.replay), send,
                                            hasBoard: Boolean(gameBoard)});
}

function heldSeat(seat) {
  return page.held.find((h) => h.seat === seat);
}

/** A seat's player as the page names it ("Ben", "Ana (Romans)"), for messages about that seat. */
function whose(seat) {
  const doc = shownDoc() || liveDocs()[0];
  return doc ? seatLabel(doc, seat) : player(seat);
}

async function copyLink(seat) {
  const h = heldSeat(seat);
  const url = tokens.link(gid, h.token);
  try {
    await navigator.clipboard.writeText(url);
    showMessage(t("The link that plays {player} is copied. Whoever opens it plays there.", {player: whose(h.seat)}));
  } catch (err) {
    window.prompt(t("The link that plays {player} (copy it):", {player: whose(h.seat)}), url);
  }
}

function release(seat) {
  const h = heldSeat(seat);
  page.held = page.held.filter((x) => x !== h);
  page.docs.delete(h.seat);
  tokens.save(gid, page.held.map((x) => x.token));
  showMessage(t("{player} is no longer played on this page.", {player: whose(h.seat)}));
  render();
}

function renderBoard(doc, act) {
  const container = $("board");
  const interactive = Boolean(act) && !page.replay && !page.pending && !page.offline;
  const shownStep = replayKit.stepOf(page.steps, page.replay ? page.replay.version : page.latest);
  const ui = {
    send,
    interactive,
    legal: interactive ? doc.legal : [],
    you: act ? act.seat : (doc.you === undefined ? null : doc.you),
    memory: page.memory,
    redraw: () => renderBoard(shownDoc(), page.replay ? null : acting()),
    playerName: (seat) => seatLabel(doc, seat),
    message: feedback,
    replay: Boolean(page.replay),
    lastCells: shownStep && shownStep.index ? replayKit.cells(shownStep) : new Set(),
    narrow: container.clientWidth < NARROW,
  };
  let focusKey = document.activeElement && container.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-key") : null;
  const afterMove = !page.pending && page.focusKey;
  if (afterMove) focusKey = page.focusKey;
  container.replaceChildren();
  container.setAttribute("aria-busy", "true");
  try {
    board().render(container, doc, ui);
  } catch (err) {
    container.replaceChildren();
    generic.render(container, doc, ui);
    showMessage(t("The board could not be drawn; the moves below still work."));
  }
  container.removeAttribute("aria-busy");
  keyboard.prepare(container, focusKey);
  refocus(container, focusKey);
  if (focusKey && !container.contains(document.activeElement)) {
    // The focused target went away (a step was chosen): carry the keyboard on to the next choice.
    const next = container.querySelector(".controls button:not([disabled]), .choices button:not([disabled]), " +
                                         "[role=button][tabindex]");
    if (next) next.focus();
  }
  if (afterMove) {
    // A keyboard move was sent: keep the focus on the board (the target's place, else the board itself).
    page.focusKey = null;
    if (!container.contains(document.activeElement)) {
      const spot = container.querySelector("[role=button][tabindex], .controls button:not([disabled])");
      if (spot) spot.focus();
      else container.focus();
    }
  }
}

// ---------------------------------------------------------------- replay

let replaySeq = 0;
let replayLoading = null;  // the version of a replay position on its way: keys step on from it, "live" cancels it

async function startReplay(version) {
  const v = Math.max(1, Math.min(page.latest, Math.round(version)));
  if (v >= page.latest) {
    stopReplay();
    return;
  }
  const seq = ++replaySeq;
  replayLoading = v;
  try {
    const doc = await api(`${gamePath}?version=${v}`, {token: viewerToken()});
    if (seq !== replaySeq) return;
    page.replay = {version: v, doc};
    render();
  } catch (err) {
    showError(err);
  } finally {
    if (seq === replaySeq) replayLoading = null;
  }
}

function stopReplay() {
  replaySeq += 1;
  replayLoading = null;
  page.replay = null;
  render();
}

/** Step the replay back or forward ``by`` "move" (a step: one command's events) or "event" (one version). */
function stepReplay(direction, by) {
  const current = replayLoading ?? (page.replay ? page.replay.version : page.latest);
  if (by === "event") {
    startReplay(current + direction);
    return;
  }
  const step = replayKit.stepOf(page.steps, current);
  const index = (step ? step.index : 0) + direction;
  if (index < 0) return;
  if (index >= page.steps.length) stopReplay();
  else startReplay(page.steps[index].last);
}

function bindReplay() {
  $("replay-first").addEventListener("click", () => startReplay(page.steps.length ? page.steps[0].last : 1));
  $("replay-prev").addEventListener("click", () => stepReplay(-1, "move"));
  $("replay-next").addEventListener("click", () => stepReplay(1, "move"));
  $("replay-live").addEventListener("click", () => stopReplay());
  $("replay-slider").addEventListener("input", (e) => {
    const step = page.steps[Number(e.target.value)];
    if (step) startReplay(step.last);
  });
  replayKit.bindKeys({
    back: (by) => stepReplay(-1, by),
    forward: (by) => { if (page.replay || replayLoading !== null) stepReplay(1, by); },
    first: () => startReplay(page.steps.length ? page.steps[0].last : 1),
    live: () => { if (page.replay || replayLoading !== null) stopReplay(); },
  });
}

// ---------------------------------------------------------------- typed commands

function bindTyped() {
  const input = $("typed-move");
  $("typed").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await send(input.value)) {
      input.value = "";
      renderLegal();
    } else {
      input.select();  // the rejected text stays, selected: typing replaces it
    }
  });
  input.addEventListener("input", renderLegal);
  $("legal-details").addEventListener("toggle", (e) => { e.target.dataset.touched = "yes"; });
}

// ---------------------------------------------------------------- live

/** Take one stream message into a spectator's page; false when it cannot (then the page fetches instead). */
function fromStream(raw) {
  let message;
  try {
    message = JSON.parse(raw);
  } catch (err) {
    return false;
  }
  const {document: doc, ...event} = message;
  const lastEvent = page.events.length ? page.events[page.events.length - 1].version : 0;
  if (!event.type || event.version !== lastEvent + 1) return false;
  const before = page.docs.get(null);
  // A game that just ended reveals everything: the page fetches the whole move list again.
  if (doc && doc.status === "finished" && !(before && before.status === "finished")) return false;
  if (doc && before && names(doc) !== names(before)) return false;  // a seat taken: its name in earlier lines
  page.events.push(event);
  if (doc) {  // the messages of a long reconnect carry only the event, the last one also the document
    // Who is online is not in the stream's documents (it is true only now): the page keeps what it knows.
    if (before && before.online && !doc.online) doc.online = before.online;
    page.docs.set(null, doc);
    page.latest = Math.max(page.latest, doc.version);
    render();
  }
  return true;
}

/** A seat's player came online (a presence notice): their dot turns on, from what the page has, with no request
    (a spectator's page renders from the stream alone); a page that knows nobody's presence yet asks. */
function online(seat) {
  const docs = [...page.docs.values()];
  if (!Number.isInteger(seat) || !docs.length || docs.some((doc) => !doc.online)) {
    if (!page.refreshing) refresh(0);
    return;
  }
  if (docs.every((doc) => doc.online[seat])) return;  // already shown online: nothing to draw again
  for (const doc of docs) doc.online = doc.online.map((here, i) => here || i === seat);
  render();
}

function listen() {
  if (!window.EventSource) {
    setInterval(() => refresh(0), 3000);
    return;
  }
  const source = new EventSource(`${gamePath}/stream?after=${page.latest}`);
  const onVersion = (event) => {
    const version = Number(event.lastEventId);
    if (version <= page.latest) return;
    // A seat's page fetches its own document; a spectator's renders from the stream, which carries the event
    // and the spectator's document with each version (no request per move).
    if (page.held.length || page.refreshing || !fromStream(event.data)) refresh(version);
  };
  source.addEventListener("version", onVersion);
  source.addEventListener("message", onVersion);
  // Resumed too far behind: the current version at once (its document), the rest fetched (CONTRACT "Live
  // updates").
  source.addEventListener("reset", onVersion);
  source.addEventListener("open", () => { root.classList.remove("offline"); connection(true); });
  source.addEventListener("error", () => { root.classList.add("offline"); connection(false); });
  // While the stream is down, ask now and then: a page whose stream cannot connect still comes back.
  setInterval(() => { if (page.offline && !page.refreshing) refresh(0); }, 3000);
}

/** What happens beside the versions (a chat message, a player back), on a stream of its own: opened by a page that
    can chat (it holds a seat or is signed in); a guest spectator's page keeps to one connection. */
function notices() {
  if (!window.EventSource || (!page.held.length && !signedIn())) return;
  const source = new EventSource(`${gamePath}/notices`);
  source.addEventListener("notice", (event) => {
    let data;
    try {
      data = JSON.parse(event.data);
    } catch (err) {
      return;  // not a notice this page knows
    }
    if (data.type === "presence") online(data.seat);  // a player's dot turns on
    chat.notice(data);
  });
}

// ---------------------------------------------------------------- start

async function start() {
  bindReplay();
  bindTyped();
  $("board").addEventListener("click", explainClick);
  keyboard.bind($("board"), (cell) => explainClick({target: cell}));
  let wasNarrow = $("board").clientWidth < NARROW;
  window.addEventListener("resize", () => {
    const narrow = $("board").clientWidth < NARROW;
    if (narrow !== wasNarrow) render();
    wasNarrow = narrow;
  });
  const candidates = [...new Set(tokens.stored(gid).concat(tokens.takeFromFragment(), await accountSeat()))];
  await loadBoard();
  try {
    await identify(candidates);
    await refresh(0);
  } catch (err) {
    showError(err);
  }
  listen();
  notices();
  document.addEventListener("burrow:refresh", () => refresh(0));  // table.js: a claim just became possible
  chat.start({gid, panel: $("chat"), seats: () => page.held, signedIn: Boolean(signedIn())});
  beat();
}

/** The token of the signed-in account's seat in this game (a guest session's too), asked of the server: the player
    plays their game on any device, from any link, whether or not the lobby ran first (CONTRACT "The first ten
    minutes"). [] for a spectator. */
async function accountSeat() {
  if (!signedIn() && !mayHaveGuestSession()) return [];
  try {
    const seat = await api("/api/me/games/" + encodeURIComponent(gid));
    return seat && seat.token ? [seat.token] : [];
  } catch (err) {
    return [];  // no seat of this account here (404), or not signed in after all (401)
  }
}

/** Say this page is open, for every seat it plays (each player's "online" dot), every 15 s; and look again
    at who else is (a player who left turns their dot off by saying nothing: what a claim of victory waits on). A
    spectator's page asks nothing: its dots change with the stream's documents. */
function beat() {
  const send = () => {
    for (const held of page.held) {
      api(`${gamePath}/presence`, {method: "POST", token: held.token}).catch(() => {});
    }
    if (page.held.length && !page.refreshing && !page.offline) refresh(0);
  };
  send();
  setInterval(send, 15000);
}

start();

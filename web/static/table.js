/* The table around the board on the game page (CONTRACT.md "Tables"): resign (after a confirmation), offer /
   accept / decline a draw, abort, ticking clocks (each with its player's name and rating), and the rematch when
   the game is over. Beside the board at every width: at the top of the side column on a wide screen, right under
   the board on a phone, so that the clocks and the buttons are in sight without scrolling.

   Said out loud (CONTRACT "The first ten minutes"): the clocks stand still until each seat's first move, with a
   countdown to ``clock.first_move_by`` (the game is aborted after it); an opponent away on their turn, with a
   countdown to ``away.claim_at`` (claiming asks for a confirmation); "alice wants a rematch".

   game.js calls render(doc, {held, replay}) after each render: ``doc`` is the document shown, ``held``
   the seats this page plays ([{token, seat}]). Commands go through POST /commands like moves, with the seat's
   token in the Authorization header; the page updates from the live stream as for any move. */
import {api, tokens} from "./api.js";
import {t, player, number} from "./i18n.js";
import {ratingWords, signedIn} from "./accounts.js";
import {challengeButton} from "./challenges.js";

const $ = (id) => document.getElementById(id);
const root = $("game");
const gid = root ? root.dataset.gid : null;
const LABELS = {"resign": t("Resign"), "offer draw": t("Offer a draw"), "accept draw": t("Accept the draw"),
                "decline draw": t("Decline the draw"), "abort": t("Abort the game"),
                "claim victory": t("Claim the victory"), "claim draw": t("Claim a draw")};
const LOW_TIME = 10;  // seconds: a clock under this turns red
let shown = {doc: null, held: [], replay: false};
let lastKey = "";
let asked = 0;  // when the page last asked for its document because a claim came due (ms)
const ASK_AGAIN_MS = 2000;
let rematchBy = null;  // who asked for the rematch (their stream's "rematch_offered"), said on the page
const NARROW = window.matchMedia("(max-width: 820px)");  // the page's one-column layout (app.css)

/** Put the table where it is in sight: under the board on a phone, at the top of the side column otherwise. */
function place(node) {
  const narrow = NARROW.matches;
  const anchor = narrow ? $("board") : document.querySelector(".layout .side");
  if (!anchor) return;
  if (narrow && node.previousElementSibling !== anchor) anchor.insertAdjacentElement("afterend", node);
  else if (!narrow && node.parentElement !== anchor) anchor.prepend(node);
}

function box() {
  let node = $("table-tools");
  if (!node) {
    if (!$("board")) return null;
    node = document.createElement("section");
    node.id = "table-tools";
    node.className = "table-tools";
    node.setAttribute("aria-label", t("The table"));
    place(node);
    NARROW.addEventListener("change", () => place(node));
  }
  return node;
}

function say(text) {
  const note = $("table-note");
  if (note) note.textContent = text;
}

function name(doc, seat) {
  const p = (doc.players || [])[seat] || {};
  return p.name || (p.open ? t("Open seat") : player(seat));
}

async function send(h, move) {
  if (move === "resign" && !window.confirm(t("Resign this game? It ends now and counts as a loss."))) return;
  if (move === "abort" && !window.confirm(t("Abort this game? It ends with no result."))) return;
  if (move === "claim victory" && !window.confirm(t("Claim the victory? Your opponent left: the game ends now and you win it."))) return;
  if (move === "claim draw" && !window.confirm(t("Claim a draw? Your opponent left: the game ends now in a draw."))) return;
  try {
    await api(`/api/games/${encodeURIComponent(gid)}/commands`, {method: "POST", token: h.token,
                                                                  body: {move}});
    say(move === "offer draw" ? t("Your draw offer is sent.") : "");
  } catch (err) {
    say(err.message);
  }
}

async function rematch(h) {
  try {
    const answer = await api(`/api/games/${encodeURIComponent(gid)}/rematch`, {method: "POST", token: h.token});
    const mine = answer.seats.filter((s) => s.token).map((s) => s.token);
    tokens.save(answer.id, [...tokens.stored(answer.id), ...mine]);
    location.assign("/games/" + encodeURIComponent(answer.id));
  } catch (err) {
    say(err.message);
  }
}

// ---------------------------------------------------------------- the server's time

/* The clocks tick from the server's ``as_of``, so this browser's clock must be read as the server's: a browser
   set minutes off would otherwise show minutes off. The offset (server − browser, ms) comes from the HTTP
   ``Date`` header of a few requests. A header holds whole seconds and uvicorn refreshes it once a second, so the
   server answered at a time in [Date, Date + 2 s), and did so between the request's start (``sent``) and its
   answer (``got``) on this browser's clock: the offset lies in [Date − got, Date + 2 s − sent]. The intervals of
   several answers are intersected (an empty intersection — this browser's clock was set meanwhile — starts
   over) and the middle is taken: within about half a second of the truth plus half a round trip. */
const skew = {low: -Infinity, high: Infinity, samples: 0, timer: null};
const SKEW_SAMPLES = [0, 330, 670, 1000, 1330];  // ms after the first clock: spread over a second's phases
const SKEW_AGAIN_MS = 60000;

async function sampleSkew() {
  try {
    const sent = Date.now();
    const answer = await fetch("/api/health", {cache: "no-store"});
    const got = Date.now();
    const date = Date.parse(answer.headers.get("Date") || "");
    if (!isFinite(date)) return;
    const low = date - got;
    const high = date + 2000 - sent;
    if (Math.max(low, skew.low) > Math.min(high, skew.high)) skew.samples = 0;
    skew.low = skew.samples ? Math.max(low, skew.low) : low;
    skew.high = skew.samples ? Math.min(high, skew.high) : high;
    skew.samples += 1;
    tick();
  } catch (err) { /* no answer: keep the estimate */ }
}

function measureSkew() {
  if (skew.timer !== null) return;
  for (const after of SKEW_SAMPLES) setTimeout(sampleSkew, after);
  skew.timer = setInterval(() => { if (!document.hidden) sampleSkew(); }, SKEW_AGAIN_MS);
}

/** The server's time now (ms), or null before the first answer. */
function serverNow() {
  return skew.samples ? Date.now() + (skew.low + skew.high) / 2 : null;
}

// ---------------------------------------------------------------- clocks

function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s >= 86400) return t("{d} d {h} h", {d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600)});
  if (s >= 3600) {
    return t("{h} h {min} min", {h: Math.floor(s / 3600), min: String(Math.floor((s % 3600) / 60)).padStart(2, "0")});
  }
  const whole = Math.floor(s);
  const tenths = s < 10 ? number(0.1).charAt(1) + Math.floor((s * 10) % 10) : "";
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}${tenths}`;
}

/** Whole seconds from the server's now until ``iso`` (0 once passed; null while the server's time is unknown). */
function secondsTo(iso) {
  const now = serverNow();
  const at = Date.parse(iso || "");
  if (now === null || !isFinite(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The lines that count down: the first move's deadline, an opponent away. */
function countdowns(doc) {
  const first = $("table-first-move");
  if (first) {
    const by = doc.clock && doc.clock.first_move_by;
    const waiting = !shown.replay && doc.status === "playing" && by && !(doc.clock.running || []).length;
    const seat = waiting ? (doc.to_act || [])[0] : undefined;
    const left = waiting ? secondsTo(by) : null;
    first.hidden = !waiting || seat === undefined;
    if (!first.hidden) {
      const mine = shown.held.some((h) => h.seat === seat);
      first.textContent = left === null ? t("The clocks start with the first moves.")
        : mine ? t("The clocks start with the first moves: make yours within {s} s, or the game is aborted.", {s: left})
          : t("The clocks start with the first moves: {player} has {s} s to make theirs, or the game is aborted.",
              {player: name(doc, seat), s: left});
    }
  }
  const away = $("table-away");
  if (away) {
    const gone = !shown.replay && doc.status === "playing" && doc.away ? doc.away : null;
    const mine = gone && shown.held.some((h) => h.seat === gone.seat);
    away.hidden = !gone || mine;
    if (!away.hidden) {
      const left = secondsTo(gone.claim_at);
      const who = name(doc, gone.seat);
      const claimable = shown.held.some((h) => {
        const mine = (shown.docs && shown.docs.get(h.seat)) || doc;
        return (mine.table || []).includes("claim victory");
      });
      if (left === 0 && shown.held.length && !claimable && Date.now() - asked > ASK_AGAIN_MS) {
        // The claim is open now: the page asks for its document (its buttons) at once and every 2 s until they
        // come, not at its next beat.
        asked = Date.now();
        document.dispatchEvent(new CustomEvent("burrow:refresh"));
      }
      away.textContent = !shown.held.length ? t("{player} has left the game.", {player: who})
        : left === null || left > 0 ? t("{player} has left the game: you may claim the victory in {s} s.",
                                         {player: who, s: left === null ? "…" : left})
          : t("{player} has left the game: you may claim the victory, or a draw.", {player: who});
    }
  }
}

function tick() {
  const doc = shown.doc;
  if (doc) countdowns(doc);
  const list = $("table-clocks");
  if (!doc || !doc.clock || !list) return;
  const now = serverNow();  // until the server's time is known, the clocks stand still at ``as_of``
  const since = now === null ? 0 : (now - Date.parse(doc.clock.as_of)) / 1000;
  const live = !shown.replay && doc.status !== "finished";
  doc.clock.remaining.forEach((left, seat) => {
    const item = list.querySelector(`[data-seat="${seat}"] .clock-time`);
    if (!item) return;
    const running = live && doc.clock.running.includes(seat);
    const shown = running ? left - Math.max(0, since) : left;
    item.textContent = clockText(shown);
    item.parentElement.classList.toggle("running", running);
    item.parentElement.classList.toggle("low", shown < LOW_TIME);  // red under 10 s (and at 0 once flagged)
  });
}

function renderClocks(node, doc) {
  if (!doc.clock) return;
  measureSkew();
  const list = document.createElement("ul");
  list.id = "table-clocks";
  list.className = "clocks";
  list.setAttribute("aria-label", t("Clocks"));
  doc.clock.remaining.forEach((_, seat) => {
    const item = document.createElement("li");
    item.dataset.seat = String(seat);
    item.className = "clock";
    const who = document.createElement("span");
    who.className = "clock-name";
    const rating = ((doc.players || [])[seat] || {}).rating;
    who.textContent = name(doc, seat) + (rating ? ` (${ratingWords(rating)})` : "") + " ";
    const time = document.createElement("span");
    time.className = "clock-time";
    time.setAttribute("role", "timer");
    item.append(who, time);
    list.appendChild(item);
  });
  node.appendChild(list);
}

// ---------------------------------------------------------------- buttons

function render(doc, options) {
  shown = {doc, held: (options && options.held) || [], docs: options && options.docs,
           replay: Boolean(options && options.replay)};
  const node = box();
  if (!node || !doc) return;
  const mine = shown.held.map((h) => {
    const d = options.docs && options.docs.get(h.seat);
    return d ? `${h.seat}:${d.version}:${(d.table || []).join("|")}:${d.status}` : `${h.seat}`;
  }).join(",");
  const key = JSON.stringify([doc.version, doc.status, doc.table, doc.rematch, doc.clock, doc.away, shown.replay, mine,
                              (doc.players || []).map((p) => p.rating)]);
  if (key === lastKey) return;
  lastKey = key;
  node.replaceChildren();
  renderClocks(node, doc);
  const actions = document.createElement("p");
  actions.className = "table-actions";
  let offered = false;  // a draw offered from here, not answered yet (two seats: no draw command left to send)
  if (!shown.replay) {
    for (const h of shown.held) {
      const seatDoc = (options.docs && options.docs.get(h.seat)) || doc;
      const commands = seatDoc.you === h.seat ? seatDoc.table || [] : [];
      if ((seatDoc.players || []).length === 2 && commands.includes("resign") &&
          !commands.some((move) => move.endsWith(" draw"))) offered = true;
      for (const move of commands) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "table-command" + (move === "accept draw" ? " primary" : "");
        b.dataset.move = move;
        b.textContent = shown.held.length > 1 ? t("{command} ({player})", {command: LABELS[move] || move,
                                                                          player: name(doc, h.seat)})
          : LABELS[move] || move;
        b.addEventListener("click", () => send(h, move));
        actions.appendChild(b);
      }
      if (seatDoc.status === "finished") {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "rematch primary";
        b.textContent = doc.rematch ? t("Take your seat in the rematch") : t("Rematch");
        if (doc.rematch && rematchBy) b.textContent = t("{name} wants a rematch: take your seat", {name: rematchBy});
        b.addEventListener("click", () => rematch(h));
        actions.appendChild(b);
        break;  // one rematch button for the page
      }
    }
    const me = (signedIn() || "").toLowerCase();
    if (doc.status === "finished" && me) {  // after a game: challenge the others again, from here
      for (const p of doc.players || []) {
        if (p.account && p.account.toLowerCase() !== me) challengeButton(p.account, actions, {game: root.dataset.game});
      }
    }
    if (!shown.held.length && doc.rematch) {
      const a = document.createElement("a");
      a.href = "/games/" + encodeURIComponent(doc.rematch);
      a.textContent = t("Watch the rematch");
      actions.appendChild(a);
    }
  }
  node.appendChild(actions);
  for (const [id, cls] of [["table-first-move", "first-move"], ["table-away", "away-line"]]) {
    const line = document.createElement("p");
    line.id = id;
    line.className = cls;
    line.hidden = true;
    node.appendChild(line);
  }
  const note = document.createElement("p");
  note.id = "table-note";
  note.className = "note";
  note.setAttribute("aria-live", "polite");
  node.appendChild(note);
  const open = doc.status === "setup" ? doc.open_seats || [] : [];
  if (open.some((seat) => ((doc.players || [])[seat] || {}).name)) {  // kept for a rematch's player, not anyone
    note.textContent = t("A rematch: each seat is kept for its player, who takes it from the finished game's page.");
  } else if (open.length) {
    note.textContent = t("Waiting for a player: anyone can join from the lobby's list of games waiting for a player.");
  }
  // Said here, once the note exists (it is made again at every render): a seat held here may accept a draw.
  if (actions.querySelector('[data-move="accept draw"]')) note.textContent = t("A draw is offered: accept or decline it.");
  else if (offered) note.textContent = t("Your draw offer waits for an answer.");
  else if (doc.rematch && rematchBy && shown.held.length) note.textContent = t("{name} wants a rematch.", {name: rematchBy});
  tick();
}

// A rematch asked for by another seat (notices.js passes the account's "rematch_offered" on).
document.addEventListener("burrow:rematch", (event) => {
  if (!gid || event.detail.game !== gid) return;
  rematchBy = event.detail.by;
  lastKey = "";
  if (shown.doc) render(shown.doc, {held: shown.held, docs: shown.docs, replay: shown.replay});
});

setInterval(tick, 200);
export {render};

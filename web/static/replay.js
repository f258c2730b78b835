/* Replay by move. The events one command appended share their "at" (one append), so they make one step: a move,
   its card draws and "to play" lines together. A step's label is its first telling events; the events stay
   available one by one (on demand). Steps are numbered by turn as players count them: "1." and "1…" for the two
   players of a round in a two-player game, one number a round otherwise ("1." then "…"); the table's steps (a
   seat taken, a draw offered, a resignation) get no number. Also what a step touched (its cells), for the boards'
   last-move highlight, and the arrow keys. */
import {sayOr} from "./i18n.js";

// Bookkeeping events that never name a step when a more telling event is beside them.
const QUIET = new Set(["card_drawn", "turn_ended", "deck_shuffled", "hand_set", "deck_set"]);
// The table's events (domain/table.py): not a player's move, so not numbered.
const TABLE = new Set(["table_set", "seat_taken", "resigned", "draw_offered", "draw_declined", "draw_agreed",
                       "aborted", "timed_out", "game_too_long", "abandonment_claimed", "rematched", "game_ended"]);
// Events whose seat is not the mover's (the next player, the first one).
const NOT_THE_MOVER = new Set(["turn_passed", "first_player_chosen"]);
const CELL = /^[a-zA-Z][1-9]$/;

/** The events grouped into steps: [{index, first, last, at, events, label, seat, number, move}], oldest first.
    ``seat``: the player who made the step (null for the start and the table's steps); ``number``: its turn's
    number as the move list writes it ("1.", "1…", "…"; "" for a table's step or a turn's next command, "·" the
    start); ``move``: how many moves were made up to it. ``names``: the players' names, by seat. */
function steps(events, names) {
  const out = [];
  for (const event of events) {
    const last = out[out.length - 1];
    if (last && event.at && last.at === event.at) {
      last.events.push(event);
      last.last = event.version;
    } else {
      out.push({index: out.length, at: event.at, first: event.version, last: event.version, events: [event]});
    }
  }
  for (const step of out) {
    // The move and what it did next (a card played, a collision): at most two telling events.
    const telling = step.events.filter((e) => !QUIET.has(e.type)).slice(0, 2);
    step.label = (telling.length ? telling : step.events.slice(0, 1))
      .map((e) => sayOr(e.say, e.text || e.type, names)).join(" · ");
  }
  number(out, (names || []).length);
  return out;
}

/** The player whose move a step is: null for the table's steps. */
function mover(step) {
  if (step.events.every((e) => TABLE.has(e.type))) return null;
  const seated = step.events.filter((e) => e.data && Number.isInteger(e.data.seat));
  const first = seated.find((e) => !TABLE.has(e.type) && !NOT_THE_MOVER.has(e.type)) || seated[0];
  return first ? first.data.seat : -1;  // -1: a move whose player no event names
}

/** Each step's ``seat``, ``number`` and ``move`` (see ``steps``). A round ends when a player who has moved in it
    moves again; a command that continues its player's turn (a game whose turns end with "turn_passed": a
    purchase after a roll) starts no new turn. */
function number(list, players) {
  const passes = list.some((s) => s.events.some((e) => e.type === "turn_passed"));
  let round = 0;
  let acted = new Set();
  let previous = null;  // the last move step
  let moves = 0;
  for (const step of list) {
    step.seat = step.index ? mover(step) : null;
    step.number = step.index ? "" : "·";
    if (step.seat === null) {
      step.move = moves;
      continue;
    }
    const continues = passes && previous && previous.seat === step.seat &&
      !previous.events.some((e) => e.type === "turn_passed");
    if (!continues) {
      if (!round || acted.has(step.seat)) {
        round += 1;
        acted = new Set();
        step.number = `${round}.`;
      } else {
        step.number = players <= 2 ? `${round}…` : "…";
      }
      acted.add(step.seat);
    }
    moves += 1;
    step.move = moves;
    previous = step;
  }
}

/** The step holding ``version`` (the last one that starts at or before it), or null. */
function stepOf(list, version) {
  let found = null;
  for (const step of list) {
    if (step.first > version) break;
    found = step;
  }
  return found;
}

/** The cells and squares a step's events name (from, to, captured at, swapped, built, collected). */
function cells(step) {
  const found = new Set();
  if (!step) return found;
  for (const event of step.events) {
    const data = event.data || {};
    for (const key of ["frm", "to", "at", "a", "b", "square"]) {
      if (typeof data[key] === "string" && CELL.test(data[key])) found.add(data[key]);
    }
    for (const cell of Array.isArray(data.cells) ? data.cells : []) {
      if (typeof cell === "string" && CELL.test(cell)) found.add(cell);
    }
  }
  return found;
}

/** Arrow keys step the replay: ←/→ a move, Shift+←/→ one line, Home/End the start and the live game. Not while
    typing in a field, nor when the board's cursor (keyboard.js) or a slider handles the key itself. */
function bindKeys(handlers) {
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    const by = event.shiftKey ? "event" : "move";
    let handled = true;
    if (event.key === "ArrowLeft") handlers.back(by);
    else if (event.key === "ArrowRight") handlers.forward(by);
    else if (event.key === "Home") handlers.first();
    else if (event.key === "End") handlers.live();
    else handled = false;
    if (handled) event.preventDefault();
  });
}

export {steps, stepOf, cells, bindKeys};

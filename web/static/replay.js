/* Replay by move. The events one command appended share their "at" (one append), so they make one step: a move,
   its card draws and "to play" lines together. A step's label is its first telling events; the events stay
   available one by one (event detail on demand). Also what a step touched (its cells), for the boards' last-move
   highlight, and the arrow keys. */
// Bookkeeping events that never name a step when a more telling event is beside them.
const QUIET = new Set(["card_drawn", "turn_ended", "deck_shuffled", "hand_set", "deck_set"]);
const CELL = /^[a-zA-Z][1-9]$/;

/** The events grouped into steps: [{index, first, last, at, events, label}], oldest first. */
function steps(events) {
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
    step.label = (telling.length ? telling : step.events.slice(0, 1)).map((e) => e.text || e.type).join(" · ");
  }
  return out;
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

/** Arrow keys step the replay: ←/→ a move, Shift+←/→ an event, Home/End the start and the live game. Not while
    typing in a field, nor when a board target or a slider handles the key itself. */
function bindKeys(handlers) {
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
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

/* Mouse Guard: Swords & Strongholds. Mice stand on the line intersections a–g × 1–9 ("points") or inside a
   stronghold square A–F × 1–8 (square C4 has corners c4 d4 c5 d5). Black's side is row 1, White's row 9; the
   board is turned so that your side is at the bottom.
   A turn is one command built by clicking: a mouse, then its step, then a card among the legal completions
   (buttons from your hand), e.g. "c3-c4 sword c5 d5". Setup: click four points, then "Place". Exit, rescue and a
   forced pass are offered when doc.legal has them. A card's ways to be played are drawn on the board at once,
   numbered like their buttons (no hover needed). The board shows the points' coordinates only (a square is named
   by its lower-left corner in capitals: C4's corners are c4 d4 c5 d5). */
import {el, svg, text, title, picture, activate, html, button} from "../dom.js";
import {t, tn} from "../i18n.js";

const PCOLS = "abcdefg";
const SCOLS = "ABCDEF";
const S = 60;
const M = 40;
const CARD_NAMES = {sword: t("Sword"), stronghold: t("Stronghold"), diplomacy: t("Diplomacy")};
const COLOUR_NAMES = {black: t("Black"), white: t("White")};
const MICE = {black: t("black mouse"), white: t("white mouse")};
const CARDS = Object.keys(CARD_NAMES);

function parse(command) {
  let m;
  if ((m = /^place (.+)$/.exec(command))) return {kind: "place", points: m[1].split(" "), text: command};
  if ((m = /^exit ([A-F][1-8]) ([a-g][1-9])(?: ([a-g][1-9]))?$/.exec(command))) {
    return {kind: "exit", from: m[1], to: m[2], step: m[3] || null, text: command};
  }
  if ((m = /^rescue ([a-g][1-9])$/.exec(command))) return {kind: "rescue", at: m[1], text: command};
  if ((m = /^pass (\w+)$/.exec(command))) return {kind: "pass", card: m[1], text: command};
  if ((m = /^([a-g][1-9])-([a-g][1-9])(?: (sword|stronghold|diplomacy)((?: \w+)*))?$/.exec(command))) {
    return {kind: "step", from: m[1], to: m[2], card: m[3] || null,
            args: m[4] ? m[4].trim().split(" ") : [], text: command};
  }
  return null;
}

function colourOfSeat(doc, seat) {
  const seats = (doc.state && doc.state.seats) || {};
  if (seats.black === seat) return "black";
  if (seats.white === seat) return "white";
  return null;
}

function describeCompletion(c) {
  if (c.kind === "exit") {
    return c.step ? t("leave {from} onto {to}, then step to {step}", {from: c.from, to: c.to, step: c.step})
      : t("leave {from} onto {to}", {from: c.from, to: c.to});
  }
  if (!c.card) return t("no card");
  if (c.card === "sword") return t("sword: push on to {a} then {b}", {a: c.args[0], b: c.args[1]});
  if (c.card === "stronghold") return t("stronghold on {square}", {square: c.args[0]});
  if (c.args.length === 2) {
    return t("diplomacy: pull the mouse out of {square} onto {point}", {square: c.args[0], point: c.args[1]});
  }
  return t("diplomacy: swap with the mouse on {point}", {point: c.args[0]});
}

function render(container, doc, ui) {
  const state = doc.state || {};
  const memory = ui.memory;
  // The viewer's colour from the seats (a finished game's document has no "colour" of its own): White sees
  // the board turned, also after the end and in replays.
  const mine = colourOfSeat(doc, ui.you) || state.colour;
  const flip = mine === "white";
  const last = ui.lastCells || new Set();
  const edge = Boolean(state.options && state.options.edge_points);
  const commands = (ui.legal || []).map(parse).filter(Boolean);
  const mice = Object.assign({}, state.mice || {});
  if (state.phase === "setup" && state.placement && state.colour) {
    for (const p of state.placement) mice[p] = state.colour;  // your own secret placement
  }
  const placing = memory.placing || (memory.placing = []);
  if (memory.to && mice[memory.from]) {  // show the chosen step before the card is chosen
    mice[memory.to] = mice[memory.from];
    delete mice[memory.from];
  }

  const pointXY = (p) => {
    let i = PCOLS.indexOf(p[0]);
    let j = Number(p.slice(1));
    if (flip) { i = 6 - i; j = 10 - j; }
    return {x: M + i * S, y: M + (9 - j) * S};
  };
  const squareXY = (q) => {  // top-left corner of the square
    const a = pointXY(q[0].toLowerCase() + q.slice(1));
    const b = pointXY(PCOLS[SCOLS.indexOf(q[0]) + 1] + (Number(q.slice(1)) + 1));
    return {x: Math.min(a.x, b.x), y: Math.min(a.y, b.y)};
  };
  const where = (loc) => (/^[A-F]/.test(loc) ? (() => { const s = squareXY(loc); return {x: s.x + S / 2, y: s.y + S / 2}; })()
    : pointXY(loc));

  const wrapper = html("div", "mouseguard", null, container);
  const root = svg(2 * M + 6 * S, 2 * M + 8 * S, state.colour === "black" ? t("Mouse Guard board, you play Black")
    : state.colour === "white" ? t("Mouse Guard board, you play White") : t("Mouse Guard board"), wrapper);

  // Squares, the goal corners, the grid, the coordinates.
  for (let c = 0; c < 6; c++) {
    for (let r = 1; r <= 8; r++) {
      const q = SCOLS[c] + r;
      const {x, y} = squareXY(q);
      let cls = (c + r) % 2 ? "square" : "square square-alt";
      if (q === "A8" || q === "F8") cls = "square corner-goal-black";
      if (q === "A1" || q === "F1") cls = "square corner-goal-white";
      const rect = el("rect", {x, y, width: S, height: S, class: cls, "data-square": q}, root);
      if (last.has(q)) el("rect", {x: x + 3, y: y + 3, width: S - 6, height: S - 6, class: "last-move"}, root);
      title(rect, cls.includes("goal") ? (q.endsWith("8") ? t("{square}: a stronghold here wins for Black", {square: q})
        : t("{square}: a stronghold here wins for White", {square: q})) : t("square {square}", {square: q}));
    }
  }
  // One set of coordinates: the points' (a square is named after its lower-left corner, in capitals).
  for (let i = 0; i < 7; i++) {
    el("line", {x1: M + i * S, y1: M, x2: M + i * S, y2: M + 8 * S, class: "line"}, root);
    const col = flip ? PCOLS[6 - i] : PCOLS[i];
    text(root, M + i * S, M + 8 * S + 24, col, "coord");
  }
  for (let j = 0; j < 9; j++) {
    el("line", {x1: M, y1: M + j * S, x2: M + 6 * S, y2: M + j * S, class: "line"}, root);
    const row = flip ? j + 1 : 9 - j;
    text(root, M - 24, M + j * S, String(row), "coord");
  }
  for (const q of state.strongholds || []) {
    const {x, y} = squareXY(q);
    el("rect", {x: x + 6, y: y + 6, width: S - 12, height: S - 12, rx: 4, class: "stronghold"}, root);
  }

  const hints = el("g", {class: "hints"});  // appended last: drawn over the mice, never catching clicks
  const interactive = ui.interactive;
  const setup = state.phase === "setup";
  const places = commands.filter((c) => c.kind === "place");
  const placeable = new Set(places.flatMap((c) => c.points));
  const moves = commands.filter((c) => c.kind === "step" || c.kind === "exit");
  const sources = new Set(moves.map((c) => c.from));
  const fromMoves = memory.from ? moves.filter((c) => c.from === memory.from) : [];
  // A card chosen before the step: only the steps it can go with are targets.
  const targets = new Set(memory.to ? [] : fromMoves.filter((c) => !memory.card || c.card === memory.card)
    .map((c) => c.to));
  const rescues = memory.rescue ? new Set(commands.filter((c) => c.kind === "rescue").map((c) => c.at)) : new Set();
  const closed = new Set(state.closed || []);

  // Mice in strongholds, under the points so that the corners stay clickable.
  for (const [loc, colour] of Object.entries(mice)) {
    if (!/^[A-F]/.test(loc)) continue;
    const {x, y} = squareXY(loc);
    const group = el("g", {"data-key": "sq-" + loc, "data-square-mouse": loc}, root);
    el("rect", {x: x + 10, y: y + 10, width: S - 20, height: S - 20, class: "focus-ring"}, group);
    drawMouse(group, x + S / 2, y + S / 2, colour);
    const label = t("{square}: {mouse} in a stronghold", {square: loc, mouse: MICE[colour] || colour});
    if (interactive && sources.has(loc) && !memory.to) {
      const ring = el("rect", {x: x + 3, y: y + 3, width: S - 6, height: S - 6}, group);
      selectable(group, ring, loc, label, t("choose where it leaves"), t("can leave"), memory, ui);
    } else {
      picture(group, label);
    }
  }
  // Points: dots, then the clickable ones.
  for (let i = 0; i < 7; i++) {
    for (let j = 1; j <= 9; j++) {
      const p = PCOLS[i] + j;
      const {x, y} = pointXY(p);
      const outer = i === 0 || i === 6 || j === 1 || j === 9;
      const group = el("g", {"data-key": "pt-" + p, "data-point": p}, root);
      el("circle", {cx: x, cy: y, r: S / 2 - 2, class: "focus-ring"}, group);
      if (last.has(p)) el("circle", {cx: x, cy: y, r: S / 2 - 6, class: "last-move"}, group);
      el("circle", {cx: x, cy: y, r: 4, class: outer && !edge ? "edge-point" : "point"}, group);
      if (closed.has(p)) text(group, x, y - 12, "×", "coord");
      const mouse = mice[p];
      if (mouse) drawMouse(group, x, y, mouse);
      let label = mouse ? t("{point}, {mouse}", {point: p, mouse: MICE[mouse] || mouse}) : p;
      if (closed.has(p)) label = t("{point}, closed", {point: label});
      if (!interactive) {
        picture(group, label);
        continue;
      }
      if (setup && placeable.has(p)) {
        const chosen = placing.includes(p);
        if (chosen) drawMouse(el("g", {class: "ghost"}, group), x, y, state.colour);
        el("circle", {cx: x, cy: y, r: chosen ? 20 : 14, class: chosen ? "selected-ring" : "hint"}, group);
        activate(group, chosen ? t("{point}: chosen, click to take back", {point: label})
          : t("{point}: place a mouse here", {point: label}), () => {
          memory.placing = chosen ? placing.filter((q) => q !== p) : placing.concat(placing.length < 4 ? [p] : []);
          ui.redraw();
        }, chosen);
      } else if (targets.has(p)) {
        el("circle", {cx: x, cy: y, r: 14, class: "hint"}, group);
        activate(group, t("{point}: move here", {point: label}), () => chooseTarget(p, memory, fromMoves, ui));
      } else if (rescues.has(p)) {
        el("circle", {cx: x, cy: y, r: 14, class: "hint"}, group);
        activate(group, t("{point}: rescue a mouse onto it", {point: label}), () => ui.send(`rescue ${p}`));
      } else if (sources.has(p) && !memory.to) {
        const ring = el("circle", {cx: x, cy: y, r: 22}, group);
        selectable(group, ring, p, label, t("choose its step"), t("can move"), memory, ui);
      } else {
        picture(group, label);
      }
    }
  }
  root.appendChild(hints);
  if (memory.to) {
    const a = where(memory.from);
    const b = pointXY(memory.to);
    el("line", {x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "path-hint"}, hints);
  }
  const ctx = {commands, places, fromMoves, hints, pointXY, squareXY, where};
  if (interactive && memory.to && memory.card) {  // the card's ways, all on the board, numbered like their buttons
    const ways = fromMoves.filter((c) => c.to === memory.to && c.card === memory.card);
    if (ways.length > 1) ways.forEach((c, i) => drawWay(ctx, c, i + 1));
  }
  renderControls(wrapper, doc, ui, ctx);
  renderInfo(wrapper, doc);
}

/** A mouse that may move: click to select it (its ring turns solid), again to let it go. */
function selectable(group, ring, loc, label, selectedHint, freeHint, memory, ui) {
  const chosen = memory.from === loc;
  ring.setAttribute("class", chosen ? "selected-ring" : "movable-ring");
  activate(group, chosen ? t("{label}, selected: {hint}", {label, hint: selectedHint})
    : t("{label}, {hint}", {label, hint: freeHint}), () => {
    memory.from = chosen ? null : loc;
    memory.rescue = false;
    ui.redraw();
  }, chosen);
}

/** A step's target clicked: a plain step is played at once (two clicks: the mouse, the point); with a card chosen
    first, its one way is played, or its ways are offered; a step that needs a card asks which. */
function chooseTarget(p, memory, fromMoves, ui) {
  const completions = fromMoves.filter((c) => c.to === p);
  if (memory.card) {
    const ways = completions.filter((c) => c.card === memory.card);
    if (ways.length === 1) {
      ui.send(ways[0].text);
      return;
    }
    memory.to = p;
    ui.redraw();
    return;
  }
  const plain = completions.find((c) => !c.card && c.kind === "step");
  if (plain || (completions.length === 1 && !completions[0].card)) {
    ui.send((plain || completions[0]).text);
    return;
  }
  memory.to = p;
  memory.card = null;
  ui.redraw();
}

function drawMouse(group, x, y, colour) {
  el("circle", {cx: x - 9, cy: y - 11, r: 6, class: `mouse-${colour}`}, group);
  el("circle", {cx: x + 9, cy: y - 11, r: 6, class: `mouse-${colour}`}, group);
  el("circle", {cx: x, cy: y, r: 14, class: `mouse-${colour}`}, group);
  text(group, x, y + 1, colour === "black" ? t("B") : t("W"), `mouse-label-${colour}`);
}

/** A completion's shape on the board (class ``cls``): a sword's push, a stronghold's square, a diplomacy's pull
    or swap, an exit's step; returns where it ends. */
function drawShape(ctx, c, cls) {
  const at = (loc) => ctx.where(loc);
  if (c.kind === "step" && c.card === "sword") {
    const pts = [c.to, ...c.args].map(at);
    el("polyline", {points: pts.map((q) => `${q.x},${q.y}`).join(" "), class: cls}, ctx.hints);
    return pts[pts.length - 1];
  }
  if (c.kind === "step" && c.card === "stronghold") {
    const {x, y} = ctx.squareXY(c.args[0]);
    el("rect", {x: x + 4, y: y + 4, width: S - 8, height: S - 8, class: cls}, ctx.hints);
    return {x: x + S / 2, y: y + S / 2};
  }
  if (c.kind === "step" && c.card === "diplomacy") {
    const a = at(c.to);
    const b = at(c.args[0]);
    el("line", {x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: cls}, ctx.hints);
    if (c.args[1]) {
      const d = at(c.args[1]);
      el("circle", {cx: d.x, cy: d.y, r: 16, class: cls}, ctx.hints);
      return d;
    }
    return b;
  }
  if (c.kind === "exit" && c.step) {
    const a = at(c.to);
    const b = at(c.step);
    el("line", {x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: cls}, ctx.hints);
    return b;
  }
  return null;
}

/** One of a card's ways drawn for good, its number at its end (the button with that number plays it). */
function drawWay(ctx, c, n) {
  const end = drawShape(ctx, c, "path-hint way");
  if (!end) return;
  const badge = el("g", {class: "way-number", "data-way": n}, ctx.hints);
  el("circle", {cx: end.x + 14, cy: end.y - 14, r: 11}, badge);
  text(badge, end.x + 14, end.y - 13, String(n), "way-label");
}

function showHint(ctx, c, on) {
  ctx.hints.querySelectorAll(".preview").forEach((n) => n.remove());
  if (on && c) drawShape(ctx, c, "path-hint preview");
}

function completionButton(parent, c, ctx, ui, n) {
  const words = describeCompletion(c);
  const b = button(n ? t("{n}. {way}", {n, way: words}) : words, () => ui.send(c.text), "move", parent);
  b.dataset.move = c.text;
  b.setAttribute("aria-label", t("Play {move}: {way}", {move: c.text, way: words}));
  for (const [event, on] of [["mouseenter", true], ["focus", true], ["mouseleave", false], ["blur", false]]) {
    b.addEventListener(event, () => showHint(ctx, c, on));
  }
  return b;
}

function renderControls(wrapper, doc, ui, ctx) {
  const state = doc.state || {};
  const memory = ui.memory;
  const hand = state.hand || [];
  const box = html("div", "controls", null, wrapper);
  if (!ui.interactive) return;

  if (state.phase === "setup") {
    const chosen = memory.placing || [];
    html("p", "prompt", t("Place your four mice on the highlighted points ({n} of 4 chosen).", {n: chosen.length}), box);
    const match = ctx.places.find((c) => c.points.length === chosen.length && chosen.every((p) => c.points.includes(p)));
    const row = html("p", "choices", null, box);
    const place = button(chosen.length ? t("Place on {points}", {points: chosen.slice().sort().join(" ")}) : t("Place"), () => {
      if (match) ui.send(match.text);
    }, "primary", row);
    place.disabled = !match;
    if (chosen.length) button(t("Clear"), () => { memory.placing = []; ui.redraw(); }, "quiet", row);
    return;
  }

  const passes = ctx.commands.filter((c) => c.kind === "pass");
  if (passes.length) {
    html("p", "prompt", t("No move is possible: discard a card (forced pass)."), box);
    const row = html("p", "hand", null, box);
    for (const c of passes) {
      button(t("Discard: {card}", {card: CARD_NAMES[c.card] || c.card}), () => ui.send(c.text), `card-chip card-${c.card}`,
             row);
    }
  }
  const rescues = ctx.commands.filter((c) => c.kind === "rescue");
  if (rescues.length && !memory.from) {
    const row = html("p", "choices", null, box);
    const b = button(memory.rescue ? t("Cancel the rescue") : t("Rescue a captured mouse (uses one card of each kind)"),
                     () => { memory.rescue = !memory.rescue; ui.redraw(); }, "", row);
    b.setAttribute("aria-pressed", memory.rescue ? "true" : "false");
    if (memory.rescue) html("span", "prompt", t("Click a highlighted point."), row);
  }
  if (memory.rescue) return;

  if (!memory.from) {
    if (ctx.commands.some((c) => c.kind === "step" || c.kind === "exit")) {
      html("p", "prompt", t("Click one of your mice (ringed) to move it."), box);
    }
    return;
  }
  if (!memory.to) {
    const exits = /^[A-F]/.test(memory.from);
    html("p", "prompt", exits ? t("Choose the corner where the mouse leaves {square}.", {square: memory.from})
      : memory.card ? t("{card}: click where the mouse steps.", {card: CARD_NAMES[memory.card]})
        : t("Click where the mouse on {point} steps, or first choose a card to play with the step:",
            {point: memory.from}), box);
    if (!exits) {  // a card goes with the step: chosen before it, so that a plain step takes two clicks
      const row = html("div", "hand", null, box);
      for (const card of CARDS) {
        if (!hand.includes(card)) continue;
        const usable = ctx.fromMoves.some((c) => c.card === card);
        const b = button(CARD_NAMES[card], () => { memory.card = memory.card === card ? null : card; ui.redraw(); },
                         `card-chip card-${card}`, row);
        b.disabled = !usable;
        b.setAttribute("aria-pressed", memory.card === card ? "true" : "false");
        if (!usable) b.setAttribute("aria-label", t("{card}: cannot be played here", {card: CARD_NAMES[card]}));
      }
    }
    button(t("Choose another mouse"), () => { memory.from = memory.card = null; ui.redraw(); }, "quiet", box);
    return;
  }
  const completions = ctx.fromMoves.filter((c) => c.to === memory.to);
  const step = `${memory.from}-${memory.to}`;
  if (completions.some((c) => c.kind === "exit")) {
    html("p", "prompt", t("Leave {square} onto {point}:", {square: memory.from, point: memory.to}), box);
    const row = html("div", "choices", null, box);
    for (const c of completions) completionButton(row, c, ctx, ui);
  } else {
    html("p", "prompt", t("{step}: play a card on this mouse?", {step}), box);
    const row = html("div", "hand", null, box);
    const plain = completions.find((c) => !c.card);
    if (plain) button(t("No card"), () => ui.send(plain.text), "", row).dataset.move = plain.text;
    for (const card of CARDS) {
      if (!hand.includes(card)) continue;
      const options = completions.filter((c) => c.card === card);
      const count = hand.filter((h) => h === card).length;
      const b = button(`${CARD_NAMES[card]}${count > 1 ? ` ×${count}` : ""}`, () => {
        if (options.length === 1) ui.send(options[0].text);
        else { memory.card = card; ui.redraw(); }
      }, `card-chip card-${card}`, row);
      b.disabled = !options.length;
      b.setAttribute("aria-pressed", memory.card === card ? "true" : "false");
      b.setAttribute("aria-label", options.length ? tn("{card}: {n} way", "{card}: {n} ways", options.length,
                                                       {card: CARD_NAMES[card], n: options.length})
        : t("{card}: cannot be played here", {card: CARD_NAMES[card]}));
    }
    if (memory.card) {
      const ways = completions.filter((x) => x.card === memory.card);
      html("p", "prompt", ways.length > 1 ? t("{card}: choose how (each way is numbered on the board).",
                                              {card: CARD_NAMES[memory.card]})
        : t("{card}: play it.", {card: CARD_NAMES[memory.card]}), box);
      const list = html("div", "choices", null, box);
      ways.forEach((c, i) => completionButton(list, c, ctx, ui, ways.length > 1 ? i + 1 : 0));
    }
  }
  button(t("Start the turn again"), () => {
    memory.from = memory.to = memory.card = null;
    ui.redraw();
  }, "quiet", box);
}

function renderInfo(wrapper, doc) {
  const state = doc.state || {};
  const players = doc.players || [];
  const info = html("div", "board-info", null, wrapper);
  for (const colour of ["black", "white"]) {
    const seat = (state.seats || {})[colour];
    const name = players[seat] ? players[seat].name || t("open seat") : COLOUR_NAMES[colour];
    const cards = (state.hand_counts || {})[colour] ?? 0;
    const captured = (state.captured || {})[colour] ?? 0;
    const bits = [t("{colour}: {player}", {colour: COLOUR_NAMES[colour], player: name}),
                  tn("{n} card in hand", "{n} cards in hand", cards, {n: cards}),
                  t("{n} captured", {n: captured})];
    if (state.phase === "setup") bits.push((state.placed || {})[colour] ? t("placed") : t("placing…"));
    html("span", "", bits.join(" · "), info);
  }
  html("span", "", t("Deck: {n} · discard: {discard}", {n: state.deck_count ?? "?", discard: (state.discard || []).length}),
       info);
  html("p", "note", t("A stronghold in a shaded corner wins: A8 or F8 for Black, A1 or F1 for White; so does " +
                      "capturing every enemy mouse."), wrapper);
  if (state.hand) {
    const row = html("p", "hand", null, wrapper);
    html("span", "prompt", t("Your hand:"), row);
    if (!state.hand.length) html("span", "note", t("empty"), row);
    for (const card of state.hand) html("span", `card-chip card-${card}`, CARD_NAMES[card] || card, row);
  }
  if (state.hands) {  // finished: every hand is shown
    for (const [colour, cards] of Object.entries(state.hands)) {
      const shown = cards.map((c) => CARD_NAMES[c] || c).join(", ") || t("empty");
      html("p", "note", colour === "black" ? t("Black's hand: {cards}", {cards: shown})
        : t("White's hand: {cards}", {cards: shown}), wrapper);
    }
  }
}

/** Why a click on ``node`` did nothing (the page shows it under the board). ctx: {you, legal, memory}. */
function why(doc, ctx, node) {
  const state = doc.state || {};
  const spot = node.closest("[data-point], [data-square-mouse], [data-square]");
  if (!spot) return null;
  const loc = spot.getAttribute("data-point") || spot.getAttribute("data-square-mouse") ||
    spot.getAttribute("data-square");
  const mine = colourOfSeat(doc, ctx.you) || state.colour;
  if (state.phase === "setup") {
    return t("{point} is not one of your setup points: place your mice on the highlighted points of your two " +
             "nearest rows.", {point: loc});
  }
  const mouse = (state.mice || {})[loc];
  const commands = ctx.legal.map(parse).filter(Boolean);
  if (mouse && mouse !== mine) {
    return t("That is a {mouse}: you play {colour}.", {mouse: MICE[mouse] || mouse, colour: COLOUR_NAMES[mine] || mine});
  }
  if (mouse && !commands.some((c) => c.from === loc)) {
    return t("Your mouse on {point} cannot move: no open point next to it (a stronghold's corners are closed).",
             {point: loc});
  }
  if ((state.closed || []).includes(loc)) return t("{point} is a stronghold's corner: no mouse may stand there.", {point: loc});
  if (ctx.memory.from) {
    return t("The mouse on {from} cannot go to {point}: a mouse steps one point up, down, left or right, onto an " +
             "open point.", {from: ctx.memory.from, point: loc});
  }
  if (/^[A-F]/.test(loc)) return t("{square} is a square: mice stand on the points where the lines cross.", {square: loc});
  return t("{point} is empty: first click one of your mice (ringed).", {point: loc});
}

const seatDot = (doc, seat) => (colourOfSeat(doc, seat) ? "dot-" + colourOfSeat(doc, seat) : null);

function seatLabel(doc, seat) {
  const colour = colourOfSeat(doc, seat);
  return colour ? COLOUR_NAMES[colour] : null;
}

export {render, why, seatDot, seatLabel};

/* Murus Gallicus: 8 × 7 cells, stacks of Roman (R) or Gaul (G) stones, 1–3 high.
   Click one of your towers (or catapults): its legal destinations light up; click one to play it.
   Moves come from doc.legal only: a1-a3 (distribute), a1xb2 (sacrifice), a1xxb2 (double sacrifice), a1*a3 (fire). */
import {el, svg, text, picture, activate, html, button} from "../dom.js";
import {t, tn} from "../i18n.js";

const COLS = "abcdefgh";
const ROWS = 7;
const CELL = 70;
const MARGIN = 30;
const SIDES = [t("Romans"), t("Gauls")];
const STACKS = {  // each side's stacks by height, in the rules' words (MS-1)
  R: {1: t("Roman wall"), 2: t("Roman tower"), 3: t("Roman catapult")},
  G: {1: t("Gaul wall"), 2: t("Gaul tower"), 3: t("Gaul catapult")},
};
const KINDS = {"-": "distribute", "x": "sacrifice", "xx": "double sacrifice", "*": "fire"};
const KIND_NAMES = {"distribute": t("distribute"), "sacrifice": t("sacrifice"),
                    "double sacrifice": t("double sacrifice"), "fire": t("fire")};
const MOVE = /^([a-h][1-7])(-|xx|x|\*)([a-h][1-7])$/;

function parseMove(move) {
  const m = MOVE.exec(move);
  return m ? {from: m[1], kind: KINDS[m[2]], to: m[3], text: move} : null;
}

/** The cell between a tower and the far cell of a distribution (c1 of MS-4). */
function middle(from, to) {
  const c = (COLS.indexOf(from[0]) + COLS.indexOf(to[0])) / 2;
  const r = (Number(from[1]) + Number(to[1])) / 2;
  return Number.isInteger(c) && Number.isInteger(r) ? COLS[c] + r : null;
}

function describeStack(stack) {
  if (!stack) return t("empty");
  return (STACKS[stack[0]] || STACKS.R)[stack.length] || t("stack of {n}", {n: stack.length});
}

function render(container, doc, ui) {
  const state = doc.state || {};
  const cells = state.cells || {};
  const memory = ui.memory;
  const flip = ui.you === 1;
  const moves = (ui.legal || []).map(parseMove).filter(Boolean);
  const bySource = new Map();
  for (const m of moves) {
    if (!bySource.has(m.from)) bySource.set(m.from, []);
    bySource.get(m.from).push(m);
  }
  const selected = memory.selected && bySource.has(memory.selected) ? memory.selected : null;
  const targets = new Map();
  for (const m of selected ? bySource.get(selected) : []) {
    if (!targets.has(m.to)) targets.set(m.to, []);
    targets.get(m.to).push(m);
  }
  const passed = new Set();
  for (const m of selected ? bySource.get(selected) : []) {
    if (m.kind === "distribute") passed.add(middle(m.from, m.to));
  }
  const lastCells = new Set(state.last_cells || []);
  const intruders = new Set(state.intruders || []);

  const width = MARGIN + COLS.length * CELL + 10;
  const height = 10 + ROWS * CELL + MARGIN;
  const wrapper = html("div", "murus", null, container);
  const root = svg(width, height, state.turn === "gauls" ? t("Murus board, the Gauls to move")
    : t("Murus board, the Romans to move"), wrapper);
  const pos = (cell) => {
    let c = COLS.indexOf(cell[0]);
    let r = Number(cell.slice(1));
    if (flip) { c = COLS.length - 1 - c; r = ROWS + 1 - r; }
    return {x: MARGIN + c * CELL, y: 10 + (ROWS - r) * CELL};
  };

  for (let i = 0; i < COLS.length; i++) {
    const col = flip ? COLS[COLS.length - 1 - i] : COLS[i];
    text(root, MARGIN + i * CELL + CELL / 2, 10 + ROWS * CELL + MARGIN / 2, col, "coord");
  }
  for (let r = 1; r <= ROWS; r++) {
    const y = pos("a" + r).y + CELL / 2;
    text(root, MARGIN / 2, y, String(r), "coord");
  }

  for (let r = ROWS; r >= 1; r--) {
    for (const col of COLS) {
      const cell = col + r;
      const {x, y} = pos(cell);
      const stack = cells[cell] || "";
      const group = el("g", {"data-key": "cell-" + cell, "data-cell": cell}, root);
      let base = (COLS.indexOf(col) + r) % 2 ? "cell-light" : "cell-dark";
      if (r === 1) base = "home-romans";
      if (r === ROWS) base = "home-gauls";
      el("rect", {x, y, width: CELL, height: CELL, class: base}, group);
      if (lastCells.has(cell)) el("rect", {x, y, width: CELL, height: CELL, class: "last-move"}, group);
      drawStack(group, x, y, stack);
      if (intruders.has(cell)) el("rect", {x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, class: "intruder"}, group);
      if (passed.has(cell)) el("circle", {cx: x + CELL / 2, cy: y + CELL / 2, r: 6, class: "hint-dot"}, group);

      let label = t("{cell}, {stack}", {cell, stack: describeStack(stack)});
      if (bySource.has(cell) && ui.interactive) {
        if (cell === selected) {
          el("rect", {x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, class: "selected-ring"}, group);
        } else {
          el("rect", {x: x + 6, y: y + 6, width: CELL - 12, height: CELL - 12, class: "movable"}, group);
        }
        el("rect", {x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, class: "focus-ring"}, group);
        label = cell === selected ? t("{cell}, {stack}, selected; choose a destination", {cell, stack: describeStack(stack)})
          : tn("{cell}, {stack}, {n} move", "{cell}, {stack}, {n} moves", bySource.get(cell).length,
               {cell, stack: describeStack(stack), n: bySource.get(cell).length});
        activate(group, label, () => {
          memory.selected = cell === selected ? null : cell;
          ui.redraw();
        }, cell === selected);
      } else if (targets.has(cell)) {
        const options = targets.get(cell);
        const kind = options[0].kind;
        el("circle", {cx: x + CELL / 2, cy: y + CELL / 2, r: CELL / 2 - 6,
                      class: `hint kind-${kind.replace(" ", "-").replace("double-", "")}`}, group);
        el("rect", {x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, class: "focus-ring"}, group);
        activate(group, t("{cell}: {moves}", {cell: label, moves: options.map((o) => `${KIND_NAMES[o.kind]} ${o.text}`)
          .join(" / ")}), () => {
          if (options.length === 1) ui.send(options[0].text);
          else { memory.choice = cell; ui.redraw(); }
        });
      } else {
        picture(group, label);
      }
    }
  }

  renderInfo(wrapper, doc, ui, {selected, bySource, targets, memory});
}

function drawStack(group, x, y, stack) {
  if (!stack) return;
  const cx = x + CELL / 2;
  const base = y + CELL / 2 + (stack.length - 1) * 5;
  for (let i = 0; i < stack.length; i++) {
    el("ellipse", {cx, cy: base - i * 10, rx: 24, ry: 16, class: "stone-" + stack[i]}, group);
  }
  if (stack.length > 1) text(group, cx, base - (stack.length - 1) * 10, String(stack.length), "stack-label");
}

function countStones(cells, side) {
  let n = 0;
  for (const stack of Object.values(cells)) if (stack[0] === side) n += stack.length;
  return n;
}

function renderInfo(wrapper, doc, ui, sel) {
  const state = doc.state || {};
  const cells = state.cells || {};
  const info = html("p", "board-info", null, wrapper);
  const romans = countStones(cells, "R");
  const gauls = countStones(cells, "G");
  html("span", "", tn("Romans: {n} stone", "Romans: {n} stones", romans, {n: romans}), info);
  html("span", "", tn("Gauls: {n} stone", "Gauls: {n} stones", gauls, {n: gauls}), info);
  const played = state.ply || 0;
  html("span", "", tn("{n} move played", "{n} moves played", played, {n: played}), info);
  if (state.last_move) html("span", "", t("Last move: {move}", {move: state.last_move}), info);
  html("span", "", (state.options && state.options.variant === "advanced") ? t("Advanced variant") : t("Basic variant"),
       info);
  if (!ui.interactive) return;
  const choices = html("div", "choices", null, wrapper);
  if (!sel.selected) {
    html("span", "prompt", t("Choose one of your towers (dashed outline)."), choices);
    return;
  }
  const stack = cells[sel.selected] || "";
  html("span", "prompt", t("{cell} ({stack}):", {cell: sel.selected, stack: describeStack(stack)}), choices);
  const list = sel.memory.choice && sel.targets.has(sel.memory.choice) ? sel.targets.get(sel.memory.choice)
    : sel.bySource.get(sel.selected);
  for (const m of list) {
    button(`${m.text} — ${KIND_NAMES[m.kind]}`, () => ui.send(m.text), "move", choices)
      .setAttribute("aria-label", t("Play {move}, {kind}", {move: m.text, kind: KIND_NAMES[m.kind]}));
  }
  button(t("Cancel"), () => { sel.memory.selected = null; sel.memory.choice = null; ui.redraw(); }, "quiet", choices);
}

/** Why a click on ``node`` did nothing (the page shows it under the board). ctx: {you, legal, memory}. */
function why(doc, ctx, node) {
  const spot = node.closest("[data-cell]");
  if (!spot) return null;
  const cell = spot.getAttribute("data-cell");
  const stack = ((doc.state || {}).cells || {})[cell] || "";
  const mine = ctx.you === 1 ? "G" : "R";
  const side = SIDES[ctx.you] || SIDES[0];
  const selected = ctx.memory.selected;
  if (stack && stack[0] !== mine) return t("That is a {stack}: you play the {side}.", {stack: describeStack(stack), side});
  if (selected && selected !== cell) {
    return t("The tower on {from} cannot reach {cell}: a tower spreads its two stones over the next two cells in a " +
             "straight line, each empty or one of your walls; or removes an enemy wall next to it.",
             {from: selected, cell});
  }
  if (stack.length === 1) return t("{cell} holds one of your walls: walls never move, only towers do.", {cell});
  if (stack) return t("Your {stack} on {cell} has no move: every direction is blocked.", {stack: describeStack(stack), cell});
  return t("{cell} is empty: first click one of your towers (dashed outline).", {cell});
}

const seatDot = (doc, seat) => ["dot-romans", "dot-gauls"][seat] || null;
const seatLabel = (doc, seat) => SIDES[seat] || null;

export {render, why, seatDot, seatLabel};

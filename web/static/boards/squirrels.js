/* Foraging Squirrels: a 5 × 5 grid of Magic cards (a–e left to right, row 1 at the bottom) and the squirrel.
   A turn is a colour and a direction ("G left"), chosen from a colour × direction grid of buttons built from
   doc.legal; hovering or focusing one shows the cards it collects. The once-per-game dig (FS-7) is a choice:
   "dig first" (click a food card, then an empty cell, then the move) or "dig after" (the move, then the cells). */
import {el, svg, text, title, picture, activate, html, button} from "../dom.js";
import {t, tn, player} from "../i18n.js";

const COLS = "abcde";
const COLORS = "WUBRGC";
const COLOR_NAMES = {W: t("White"), U: t("Blue"), B: t("Black"), R: t("Red"), G: t("Green"), C: t("Colourless")};
const DIRECTION_NAMES = {up: t("up"), down: t("down"), left: t("left"), right: t("right")};
const RARITY_NAMES = {common: t("common"), uncommon: t("uncommon"), rare: t("rare"), mythic: t("mythic")};
const DIRECTIONS = {up: [0, 1], down: [0, -1], left: [-1, 0], right: [1, 0]};
const ARROWS = {up: "↑", down: "↓", left: "←", right: "→"};
const RARITY = {common: "C", uncommon: "U", rare: "R", mythic: "M"};
// Card sizes: the wide layout, and a small-screen one whose text stays readable on a phone (the whole grid fits
// the width, so the cards a move takes are on screen). Set by render() before anything is drawn.
const WIDE = {W: 132, H: 104, GAP: 6, MARGIN: 24, small: false};
const SMALL = {W: 86, H: 100, GAP: 4, MARGIN: 18, small: true};
let W = WIDE.W;
let H = WIDE.H;
let GAP = WIDE.GAP;
let MARGIN = WIDE.MARGIN;
let small = false;
const MOVE = /^([WUBRGC]) (up|down|left|right)$/;
const DIG = /^dig ([a-e][1-5]) ([a-e][1-5])$/;

/** A legal command split into its move and its dig (if any). */
function parseTurn(command) {
  const parts = command.split(";").map((s) => s.trim());
  const turn = {text: command, move: null, dig: null, digFirst: false};
  parts.forEach((part, i) => {
    const m = MOVE.exec(part);
    const d = DIG.exec(part);
    if (m) turn.move = {color: m[1], direction: m[2], text: part};
    if (d) { turn.dig = {from: d[1], to: d[2]}; turn.digFirst = i === 0; }
  });
  return turn.move ? turn : null;
}

function colorsOf(card) {
  return card && card.colors ? card.colors : "";
}

function matches(card, color) {
  return color === "C" ? !colorsOf(card) : colorsOf(card).includes(color);
}

/** FS-4 scan, to preview what a move collects: the collected cells, nearest first. */
function scan(grid, cards, squirrel, color, direction) {
  if (!squirrel) return [];
  const [dx, dy] = DIRECTIONS[direction];
  let x = COLS.indexOf(squirrel[0]) + dx;
  let y = Number(squirrel[1]) + dy;
  const found = [];
  while (x >= 0 && x < 5 && y >= 1 && y <= 5) {
    const cell = COLS[x] + y;
    const content = grid[cell];
    if (content !== undefined && content !== null) {
      if (!matches(cards[String(content)], color)) break;
      found.push(cell);
    }
    x += dx;
    y += dy;
  }
  return found;
}

/** The grid after a move (for choosing a dig that follows it). */
function afterMove(grid, cards, squirrel, move) {
  const collected = scan(grid, cards, squirrel, move.color, move.direction);
  const next = Object.assign({}, grid);
  if (!collected.length) return {grid: next, squirrel};
  delete next[squirrel];
  for (const cell of collected) delete next[cell];
  const to = collected[collected.length - 1];
  next[to] = "squirrel";
  return {grid: next, squirrel: to};
}

function seatName(doc, seat) {
  const p = (doc.players || [])[seat];
  return p && p.name ? p.name : p && p.open ? t("Open seat") : player(seat);
}

function render(container, doc, ui) {
  const state = doc.state || {};
  const memory = ui.memory;
  const cards = state.cards || {};
  ({W, H, GAP, MARGIN, small} = ui.narrow ? SMALL : WIDE);
  const last = ui.lastCells || new Set();
  const turns = (ui.legal || []).map(parseTurn).filter(Boolean);
  const plain = turns.filter((t) => !t.dig);
  const canDig = turns.some((t) => t.dig);
  if (!memory.mode) memory.mode = "plain";  // "plain" | "dig-first" | "dig-after"

  let grid = state.grid || {};
  let squirrel = state.squirrel;
  if (memory.mode === "dig-after" && memory.move) {
    ({grid, squirrel} = afterMove(grid, cards, squirrel, memory.move));
  }
  const wrapper = html("div", small ? "squirrels small" : "squirrels", null, container);
  const root = svg(MARGIN + 5 * (W + GAP), 5 * (H + GAP) + MARGIN,
                   squirrel ? t("Foraging Squirrels grid, the squirrel on {cell}", {cell: squirrel})
                     : t("Foraging Squirrels grid"),
                   html("div", "board-scroll", null, wrapper));
  defs(root);
  const pos = (cell) => ({x: MARGIN + COLS.indexOf(cell[0]) * (W + GAP), y: (5 - Number(cell[1])) * (H + GAP)});
  for (let i = 0; i < 5; i++) {
    text(root, MARGIN + i * (W + GAP) + W / 2, 5 * (H + GAP) + MARGIN / 2, COLS[i], "coord");
    text(root, MARGIN / 2, (4 - i) * (H + GAP) + H / 2, String(i + 1), "coord");
  }

  const digging = ui.interactive && canDig && memory.mode !== "plain" &&
    (memory.mode === "dig-first" || memory.move);
  const digTurns = digging ? turns.filter((t) => t.dig && t.digFirst === (memory.mode === "dig-first") &&
    (memory.mode === "dig-first" || t.move.text === memory.move.text)) : [];
  const digFroms = new Set(digTurns.map((t) => t.dig.from));
  const digTos = new Set(digTurns.filter((t) => t.dig.from === memory.digFrom).map((t) => t.dig.to));
  const dugCard = memory.digFrom ? cards[String(grid[memory.digFrom])] : null;
  const beforeDig = grid;  // the controls scan the grid after the dig themselves
  if (memory.mode === "dig-first" && memory.digFrom && memory.digTo && dugCard) {
    // The dig chosen, before the move: the grid shows it done (the dug card in its new cell).
    grid = {...grid, [memory.digTo]: grid[memory.digFrom], [memory.digFrom]: null};
  }

  for (let r = 5; r >= 1; r--) {
    for (const col of COLS) {
      const cell = col + r;
      const {x, y} = pos(cell);
      const content = grid[cell];
      const group = el("g", {"data-key": "cell-" + cell, "data-cell": cell}, root);
      let label;
      if (content === "squirrel") {
        drawSquirrel(group, x, y, state.squirrel_art);
        label = t("{cell}: the squirrel", {cell});
      } else if (content !== undefined && content !== null) {
        const card = cards[String(content)] || {};
        drawCard(group, x, y, card);
        label = t("{cell}: {card}", {cell, card: describeCard(card)});
      } else {
        el("rect", {x, y, width: W, height: H, rx: 8, class: "empty-cell"}, group);
        label = t("{cell}: empty", {cell});
      }
      if (last.has(cell)) {
        el("rect", {x: x + 2, y: y + 2, width: W - 4, height: H - 4, rx: 8,
                    class: content === undefined || content === null ? "last-move" : "last-move-outline"}, group);
        label = t("{cell} (last move)", {cell: label});
      }
      el("rect", {x, y, width: W, height: H, rx: 8, class: "collect-hint", visibility: "hidden",
                  "data-hint": cell}, group);
      if (digging && !memory.digFrom && digFroms.has(cell)) {
        el("rect", {x: x + 2, y: y + 2, width: W - 4, height: H - 4, rx: 8, class: "movable-cell hint"}, group);
        activate(group, t("{cell}. Dig this card", {cell: label}), () => { memory.digFrom = cell; ui.redraw(); });
      } else if (digging && memory.digFrom === cell) {
        el("rect", {x: x + 2, y: y + 2, width: W - 4, height: H - 4, rx: 8, class: "dig-from"}, group);
        activate(group, t("{cell}. Chosen to dig; click again to choose another card", {cell: label}),
                 () => { memory.digFrom = null; ui.redraw(); }, true);
      } else if (digging && memory.digFrom && digTos.has(cell)) {
        el("rect", {x: x + 2, y: y + 2, width: W - 4, height: H - 4, rx: 8, class: "hint"}, group);
        if (dugCard) {  // the dig's preview: the dug card shown in this cell while it is pointed at or focused
          const ghost = el("g", {class: "dig-ghost", visibility: "hidden", "data-ghost": cell}, group);
          drawCard(ghost, x, y, dugCard);
          for (const [event, on] of [["mouseenter", true], ["focus", true], ["mouseleave", false], ["blur", false]]) {
            group.addEventListener(event, () => ghost.setAttribute("visibility", on ? "visible" : "hidden"));
          }
        }
        activate(group, t("{cell}. Put the dug card here", {cell: label}), () => {
          memory.digTo = cell;
          if (memory.mode === "dig-after") {
            const done = digTurns.find((t) => t.dig.from === memory.digFrom && t.dig.to === cell);
            if (done) ui.send(done.text);
          } else {
            ui.redraw();
          }
        });
      } else {
        picture(group, label);
      }
    }
  }

  if (ui.interactive) renderControls(wrapper, doc, ui, {turns, plain, canDig, root, grid: beforeDig, squirrel, cards});
  renderTable(wrapper, doc);
}

function defs(root) {
  const d = el("defs", {}, root);
  const g = el("linearGradient", {id: "foil", x1: "0", y1: "0", x2: "1", y2: "1"}, d);
  el("stop", {offset: "0%", "stop-color": "#fdf1ff"}, g);
  el("stop", {offset: "35%", "stop-color": "#e3f4ff"}, g);
  el("stop", {offset: "65%", "stop-color": "#fff7d6"}, g);
  el("stop", {offset: "100%", "stop-color": "#e6ffe9"}, g);
}

function describeCard(card) {
  const colours = colorsOf(card) ? colorsOf(card).split("").map((c) => COLOR_NAMES[c]).join(" / ")
    : t("colourless");
  const bits = [card.name || t("a card"), colours, RARITY_NAMES[card.rarity] || card.rarity || ""];
  if (card.land) bits.push(t("land"));
  if (card.foil) bits.push(t("foil"));
  if (card.squirrel) bits.push(t("squirrel in the art"));
  return bits.filter(Boolean).join(", ");
}

function shorten(name, max) {
  return name.length > max ? name.slice(0, max - 1) + "…" : name;
}

/** A card name on at most two lines of ``max`` characters, broken between words where possible. */
function wrap(name, max) {
  if (name.length <= max) return [name];
  let cut = name.lastIndexOf(" ", max);
  if (cut <= 0) cut = max;
  return [name.slice(0, cut).trim(), shorten(name.slice(cut).trim(), max)];
}

function drawCard(group, x, y, card) {
  if (small) {
    drawSmallCard(group, x, y, card);
    return;
  }
  el("rect", {x, y, width: W, height: H, rx: 8, class: card.foil ? "card-bg card-foil" : "card-bg"}, group);
  const name = card.name || "?";
  wrap(name, 17).forEach((line, i) => {
    const node = text(group, x + 8, y + 18 + i * 15, line, "card-name");
    // A long line is squeezed to the card's width rather than spilling over it.
    if (node.getComputedTextLength && node.getComputedTextLength() > W - 16) {
      node.setAttribute("textLength", W - 16);
      node.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  });
  const colours = colorsOf(card) || "C";
  colours.split("").forEach((c, i) => {
    el("circle", {cx: x + 14 + i * 18, cy: y + 56, r: 7, class: `pip pip-${c}`}, group);
  });
  // Rarity, land and foil on one line, squeezed to the card's width: no word runs into another (French is long).
  fit(text(group, x + 8, y + 90, [RARITY_NAMES[card.rarity] || card.rarity, card.land ? t("land") : "",
                                  card.foil ? t("foil") : ""].filter(Boolean).join(" · "), "card-meta"), W - 16);
  const rarity = RARITY[card.rarity] || "?";
  el("circle", {cx: x + W - 16, cy: y + 56, r: 9, class: `rarity-${card.rarity}`}, group);
  text(group, x + W - 16, y + 60, rarity, "squirrel-label");
  if (card.squirrel) fit(text(group, x + W - 8, y + 79, t("squirrel!"), "squirrel-mark anchor-end"), W / 2);
}

/** Squeeze an SVG text to ``max`` units when it is longer (its letters closer, never over its neighbours). */
function fit(node, max) {
  if (node.getComputedTextLength && node.getComputedTextLength() > max) {
    node.setAttribute("textLength", max);
    node.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  return node;
}

/** A card of the small-screen layout: the name on up to three short lines in a larger type, the pips, the
    rarity letter, and "foil" / "squirrel!" on the last line. */
function drawSmallCard(group, x, y, card) {
  el("rect", {x, y, width: W, height: H, rx: 6, class: card.foil ? "card-bg card-foil" : "card-bg"}, group);
  const words = (card.name || "?").split(" ");
  const lines = [];
  for (const word of words) {
    const lastLine = lines[lines.length - 1];
    if (lastLine !== undefined && (lastLine + " " + word).length <= 10) lines[lines.length - 1] = lastLine + " " + word;
    else lines.push(word);
  }
  if (lines.length > 3) lines.splice(2, lines.length - 2, shorten(lines.slice(2).join(" "), 10));
  lines.forEach((line, i) => {
    const node = text(group, x + 5, y + 16 + i * 15, line, "card-name");
    if (node.getComputedTextLength && node.getComputedTextLength() > W - 10) {
      node.setAttribute("textLength", W - 10);
      node.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  });
  const colours = colorsOf(card) || "C";
  colours.split("").forEach((c, i) => {
    el("circle", {cx: x + 11 + i * 14, cy: y + 67, r: 6, class: `pip pip-${c}`}, group);
  });
  el("circle", {cx: x + W - 12, cy: y + 67, r: 9, class: `rarity-${card.rarity}`}, group);
  text(group, x + W - 12, y + 71, RARITY[card.rarity] || "?", "squirrel-label");
  // "foil" on the left and "squirrel!" on the right of the last line, each in its own part of the width.
  if (card.foil) fit(text(group, x + 5, y + H - 9, t("foil"), "card-meta"), card.squirrel ? (W - 10) * 0.35 : W - 10);
  if (card.squirrel) {
    fit(text(group, x + W - 5, y + H - 9, t("squirrel!"), "squirrel-mark anchor-end"), card.foil ? (W - 10) * 0.6 : W - 10);
  }
}

function drawSquirrel(group, x, y, art) {
  el("rect", {x, y, width: W, height: H, rx: 8, class: "squirrel-cell"}, group);
  // A squirrel in profile: a curled tail behind a body, a head with an ear and an eye.
  const g = el("g", {transform: `translate(${x + W / 2 - (small ? 26 : 32)} ${y + 8}) scale(${small ? 0.9 : 1.1})`},
               group);
  el("path", {d: "M40 58 C62 54 66 22 52 8 C44 0 30 6 36 16 C42 24 46 40 32 50 Z", class: "squirrel-tail"}, g);
  el("ellipse", {cx: 26, cy: 46, rx: 13, ry: 14, class: "squirrel-body"}, g);
  el("circle", {cx: 18, cy: 28, r: 9, class: "squirrel-body"}, g);
  el("path", {d: "M14 21 L16 11 L21 20 Z", class: "squirrel-body"}, g);
  el("circle", {cx: 15, cy: 27, r: 1.8, class: "squirrel-eye"}, g);
  el("ellipse", {cx: 14, cy: 48, rx: 4, ry: 2.5, class: "squirrel-tail"}, g);
  text(group, x + W / 2, y + H - 14, t("Squirrel"), "squirrel-label");
  if (art && art.name) title(group, t("Art card: {name}", {name: art.name}));
}

function hint(root, cells, on) {
  for (const node of root.querySelectorAll("[data-hint]")) {
    node.setAttribute("visibility", on && cells.includes(node.getAttribute("data-hint")) ? "visible" : "hidden");
  }
}

function moveGrid(parent, turns, ctx, onChoose) {
  const gridBox = html("div", "move-grid", null, parent);
  gridBox.setAttribute("role", "group");
  gridBox.setAttribute("aria-label", t("Moves: a colour and a direction"));
  html("span", "", "", gridBox);
  for (const d of Object.keys(DIRECTIONS)) html("span", "colour-name", DIRECTION_NAMES[d], gridBox);
  for (const c of COLORS) {
    const options = turns.filter((t) => t.move.color === c);
    if (!options.length) continue;
    html("span", "colour-name", COLOR_NAMES[c], gridBox);
    for (const d of Object.keys(DIRECTIONS)) {
      const turn = options.find((t) => t.move.direction === d);
      const collected = scan(ctx.grid, ctx.cards, ctx.squirrel, c, d);
      const label = `${c} ${d}`;
      const b = button(`${c} ${ARROWS[d]}`, () => onChoose(turn), "move", gridBox);
      b.dataset.move = label;
      b.disabled = !turn;
      const move = t("{colour} {direction}", {colour: COLOR_NAMES[c], direction: DIRECTION_NAMES[d]});
      b.setAttribute("aria-label", turn ? tn("{move}: collects {n} card", "{move}: collects {n} cards", collected.length,
                                             {move, n: collected.length}) : t("{move}: not possible", {move}));
      const show = () => hint(ctx.root, collected, true);
      const hide = () => hint(ctx.root, collected, false);
      b.addEventListener("mouseenter", show);
      b.addEventListener("focus", show);
      b.addEventListener("mouseleave", hide);
      b.addEventListener("blur", hide);
    }
  }
}

function renderControls(wrapper, doc, ui, ctx) {
  const memory = ui.memory;
  const box = html("div", "controls", null, wrapper);
  if (ctx.canDig) {
    const modes = html("p", "choices", null, box);
    html("span", "prompt", t("Your dig (once per game):"), modes);
    for (const [mode, text] of [["plain", t("No dig")], ["dig-first", t("Dig, then move")],
                                ["dig-after", t("Move, then dig")]]) {
      const b = button(text, () => {
        memory.mode = mode;
        memory.move = null;
        memory.digFrom = memory.digTo = null;
        ui.redraw();
      }, "", modes);
      b.setAttribute("aria-pressed", memory.mode === mode ? "true" : "false");
    }
  }
  const mode = memory.mode;
  if (mode === "plain") {
    html("p", "prompt", t("Choose a colour and a direction:"), box);
    moveGrid(box, ctx.plain, ctx, (turn) => ui.send(turn.text));
  } else if (mode === "dig-first") {
    if (!memory.digFrom) {
      html("p", "prompt", t("Click the food card to dig."), box);
    } else if (!memory.digTo) {
      html("p", "prompt", t("Dig {cell}: click an empty cell to put it on.", {cell: memory.digFrom}), box);
    } else {
      html("p", "prompt", t("Dig {from} to {to}, then:", {from: memory.digFrom, to: memory.digTo}), box);
      const options = ctx.turns.filter((t) => t.dig && t.digFirst && t.dig.from === memory.digFrom &&
        t.dig.to === memory.digTo);
      // The preview scans the grid after the dig.
      const grid = Object.assign({}, ctx.grid);
      grid[memory.digTo] = grid[memory.digFrom];
      delete grid[memory.digFrom];
      moveGrid(box, options, Object.assign({}, ctx, {grid}), (turn) => ui.send(turn.text));
    }
  } else if (!memory.move) {
    html("p", "prompt", t("Choose the move first; you dig after it."), box);
    const moves = ctx.plain.filter((t) => ctx.turns.some((u) => u.dig && !u.digFirst && u.move.text === t.move.text));
    moveGrid(box, moves, ctx, (turn) => { memory.move = turn.move; ui.redraw(); });
  } else {
    html("p", "prompt", memory.digFrom ? t("Dig {cell}: click an empty cell.", {cell: memory.digFrom})
      : t("After {move} (shown): click the food card to dig.", {move: memory.move.text}), box);
  }
  if (mode !== "plain" && (memory.move || memory.digFrom)) {
    button(t("Start the turn again"), () => {
      memory.move = null;
      memory.digFrom = memory.digTo = null;
      ui.redraw();
    }, "quiet", box);
  }
}

function renderTable(wrapper, doc) {
  const state = doc.state || {};
  const scores = state.scores || [];
  const table = html("table", "squirrel-table", null, html("div", "table-scroll", null, wrapper));
  html("caption", "visually-hidden", t("Scores: cards and bonus categories"), table);
  const head = html("tr", "", null, html("thead", "", null, table));
  const heads = [t("Player"), t("Cards"), t("Foils"), t("Rares"), t("Colours"), t("Squirrels"), t("Bonuses"),
                 t("Points"), t("Dig")];
  const short = [t("Player"), t("Cards"), t("Foil"), t("Rare"), t("Col."), t("Sq."), t("Bon."), t("Pts"),
                 t("Dig")];  // a phone's width
  heads.forEach((h, i) => {
    const th = html("th", "", small ? null : h, head);
    th.setAttribute("scope", "col");
    if (small && short[i] !== h) {
      const abbr = html("abbr", "", short[i], th);
      abbr.title = h;
    } else if (small) {
      th.textContent = h;
    }
  });
  const body = html("tbody", "", null, table);
  scores.forEach((row, seat) => {
    const tr = html("tr", doc.to_act.includes(seat) ? "to-act" : "", null, body);
    const th = html("th", "", seat === state.first ? t("{player} (first)", {player: seatName(doc, seat)})
      : seatName(doc, seat), tr);
    th.setAttribute("scope", "row");
    for (const key of ["cards", "foils", "rares", "colors", "squirrels"]) {
      const td = html("td", "", String(row[key] ?? 0), tr);
      if ((row.bonuses || []).includes(key)) td.textContent += " ★";
    }
    html("td", "", String((row.bonuses || []).length), tr);
    html("td", "", String(row.points ?? 0), tr);
    const dig = seat === state.first ? "—" : (state.dug || [])[seat] ? t("used") : t("available");
    html("td", "", dig, tr);
  });
  const piles = html("div", "piles", null, wrapper);
  (state.piles || []).forEach((pile, seat) => {
    const details = html("details", "", null, piles);
    html("summary", "", t("{player}'s pile ({n})", {player: seatName(doc, seat), n: pile.length}), details);
    const list = html("ul", "", null, details);
    for (const id of pile) html("li", "", describeCard((state.cards || {})[String(id)] || {}), list);
  });
  if ((state.set_aside || []).length) {
    html("p", "note", tn("{n} card set aside.", "{n} cards set aside.", state.set_aside.length,
                         {n: state.set_aside.length}), wrapper);
  }
}

/** Why a click on ``node`` did nothing (the page shows it under the board). ctx: {you, legal, memory}. */
function why(doc, ctx, node) {
  const spot = node.closest("[data-cell]");
  if (!spot) return null;
  if (ctx.memory.mode && ctx.memory.mode !== "plain") {
    return ctx.memory.digFrom ? t("Put the dug card on one of the highlighted empty cells.")
      : t("Only the highlighted food cards can be dug now.");
  }
  return t("Cards are not clicked: choose a colour and a direction with the buttons under the grid. From where the " +
           "squirrel stands, it collects the cards of that colour in that direction (hover or focus a button to see " +
           "them).");
}

export {render, why};

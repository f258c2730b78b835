/* Mission commando: a roll-and-move race. The track (from the board data in doc.state.board) is drawn as a
   serpentine path, one row per district, each green path as a side lane; a teleport square names its exit
   ("⇢37"), the red wall is a red bar on the edge of the square behind it (neither crosses another square's
   labels). Agents, money and items in a table; the die; the fight as a dialog. Every decision is a
   word command ("roll", "map 4", "commit 1", …) offered as buttons straight from doc.legal; a commitment,
   listed as one range ("commit 0..5"), is a number to choose and one button. */
import {el, svg, text, picture, html, button} from "../dom.js";
import {t, tn, list, player} from "../i18n.js";

const S = 48;
const NARROW_ROW = 8;  // squares per row in the small-screen layout (a district takes two rows)
let G = 6;   // the gap between squares and the margin: tighter on a small screen (set by render())
let M = 26;
const CARDS = {obstacle: t("obstacle"), ambush: t("ambush"), trap: t("trap"), lucky_find: t("lucky find")};
const FIGHTS = {collision: t("collision"), challenge: t("challenge")};
const DISTRICTS = {"Outskirts": t("Outskirts"), "Docks": t("Docks"), "Old town": t("Old town"),
                   "Enemy quarter": t("Enemy quarter")};
const KIND_NAMES = {start: t("start"), base: t("enemy base"), plain: t("square"), caution: t("caution"),
                    purchase: t("purchase"), fight: t("fight"), teleport: t("teleport"), green: t("green path")};

function seatName(doc, seat) {
  const p = (doc.players || [])[seat];
  return p && p.name ? p.name : p && p.open ? t("Open seat") : player(seat);
}

/** A readable label for a command word of the notation. */
function label(command, doc) {
  const state = doc.state || {};
  const opts = state.options || {};
  let m;
  if (command === "roll") return t("Roll the die");
  if ((m = /^map (\d+)$/.exec(command))) return t("Use the map: move {n}", {n: Number(m[1])});
  if (command === "buy weapon") {
    const price = opts.weapon_price ?? 2;
    return tn("Buy a weapon ({n} banknote)", "Buy a weapon ({n} banknotes)", price, {n: price});
  }
  if (command === "buy accessory") {
    const price = opts.accessory_price ?? 1;
    return tn("Buy an accessory ({n} banknote)", "Buy an accessory ({n} banknotes)", price, {n: price});
  }
  if (command === "done") return t("Done shopping");
  if ((m = /^challenge (\d+)$/.exec(command))) return t("Challenge {player}", {player: seatName(doc, Number(m[1]))});
  if (command === "no challenge") return t("No challenge");
  if ((m = /^commit (\d+)$/.exec(command))) {
    return tn("Commit {n} weapon", "Commit {n} weapons", Number(m[1]), {n: Number(m[1])});
  }
  if ((m = /^commit (\d+)\.\.(\d+)$/.exec(command))) {
    return t("Commit {low} to {high} weapons", {low: Number(m[1]), high: Number(m[2])});
  }
  if (command === "swap") return t("Swap places");
  if (command === "stay") return state.phase === "wall" ? t("Stay before the wall") : t("Stay");
  if (command === "pay") {
    return state.phase === "wall" ? t("Pay 1 to cross the wall") : t("Pay the fine ({n})", {n: opts.fine ?? 2});
  }
  if (command === "retreat") return t("Retreat to the green path");
  if (command === "use accessory") return t("Use an accessory");
  if (command === "accept") return t("Accept the card");
  return command;
}

/** Where each square is drawn: main squares snake one row per district (on a small screen, rows of
    NARROW_ROW squares, a district over two rows); green squares ride above the row they leave from. */
function layout(board, narrow) {
  const districts = board.districts || [];
  const longest = Math.max(...districts.map((d) => d.last - d.first + 1), 1);
  const perRow = narrow ? Math.min(NARROW_ROW, longest) : longest;
  const spots = new Map();
  const firstRows = [];
  let row = 0;
  for (const d of districts) {
    firstRows.push(row);
    for (let start = d.first; start <= d.last; start += perRow) {
      for (let sq = start; sq <= Math.min(d.last, start + perRow - 1); sq++) {
        const i = sq - start;
        const col = row % 2 ? perRow - 1 - i : i;
        spots.set(sq, {x: M + col * (S + G), y: 0, row});
      }
      row += 1;
    }
  }
  // A row gets a lane above it only if a green path leaves from it (and its district's name sits there).
  const laned = new Set((board.green_paths || []).map((g) => (spots.get(g.from) || {}).row));
  firstRows.forEach((r) => laned.add(r));
  const rowY = [];
  let y = M;
  for (let r = 0; r < row; r++) {
    if (laned.has(r)) y += S + G;
    rowY.push(y);
    y += S + G + 8;
  }
  for (const spot of spots.values()) spot.y = rowY[spot.row];
  for (const green of board.green_paths || []) {
    const start = spots.get(green.from);
    if (!start) continue;
    const dir = start.row % 2 ? -1 : 1;
    green.squares.forEach((sq, k) => {
      spots.set(sq, {x: start.x + dir * (k + 1) * (S + G), y: start.y - (S + G), row: start.row, green: true});
    });
  }
  return {spots, firstRows, width: 2 * M + perRow * (S + G) - G, height: y - G - 8 + M};
}

/** Where the agents on one square sit: under the square's number, side by side, never on each other. Up to two
    in a row of big discs, up to four in a 2 × 2, six in a 3 × 2, eight in a 4 × 2 of smaller ones. */
function agentSlots(spot, n) {
  const left = spot.x;
  const top = spot.y;
  if (n <= 1) return [{x: left + S / 2, y: top + S - 14, r: 10}];
  if (n === 2) return [0, 1].map((i) => ({x: left + S / 4 + 1 + i * (S / 2 - 2), y: top + S - 14, r: 9}));
  const cols = n <= 4 ? 2 : n <= 6 ? 3 : 4;
  const r = n <= 6 ? 6.5 : 5.5;
  const step = (S - 2 * r - 4) / (cols - 1);
  const slots = [];
  for (let k = 0; k < n; k++) {
    slots.push({x: left + 2 + r + (k % cols) * step, y: top + (k < cols ? 27 : S - 7), r});
  }
  return slots;
}

function centre(spot) {
  return {x: spot.x + S / 2, y: spot.y + S / 2};
}

function render(container, doc, ui) {
  const state = doc.state || {};
  const board = state.board || {};
  const squares = board.squares || [];
  [G, M] = ui.narrow ? [4, 12] : [6, 26];
  const {spots, firstRows, width, height} = layout(board, ui.narrow);
  const wrapper = html("div", ui.narrow ? "commando small" : "commando", null, container);
  const root = svg(width, height, t("Mission commando track"), html("div", "board-scroll", null, wrapper));

  // The main track as one line, then each green path as a loop off it.
  const main = squares.filter((s) => s.path === "main").map((s) => s.id).sort((a, b) => a - b);
  const line = main.map((id) => spots.get(id)).filter(Boolean).map(centre).map((p) => `${p.x},${p.y}`).join(" ");
  el("polyline", {points: line, class: "track-line"}, root);
  for (const green of board.green_paths || []) {
    const ids = [green.from, ...green.squares, green.to];
    const pts = ids.map((id) => spots.get(id)).filter(Boolean).map(centre).map((p) => `${p.x},${p.y}`).join(" ");
    el("polyline", {points: pts, class: "green-line"}, root);
  }
  // District names, above the end of the row that its green lane leaves free.
  (board.districts || []).forEach((d, i) => {
    const first = spots.get(d.first);
    if (!first) return;
    const y = first.y - (S + G) + S / 2;
    const name = DISTRICTS[d.name] || d.name;  // the shipped board's names in the page's language
    if (firstRows[i] % 2) text(root, M, y, name, "district-name anchor-start");
    else text(root, width - M, y, name, "district-name anchor-end");
  });

  const lastDie = state.last_die;
  const crowd = new Map();
  for (const agent of state.agents || []) crowd.set(agent.square, (crowd.get(agent.square) || 0) + 1);
  const exits = new Map((board.teleports || []).map((port) => [port.from, port.to]));
  for (const sq of squares) {
    const spot = spots.get(sq.id);
    if (!spot) continue;
    const group = el("g", {"data-square": sq.id}, root);
    let cls = `sq sq-${sq.kind}`;
    if (sq.numbered) cls += " sq-number";
    el("rect", {x: spot.x, y: spot.y, width: S, height: S, rx: 6, class: cls}, group);
    const teleport = exits.has(sq.id) ? `⇢${exits.get(sq.id)}` : "⇢";
    const short = {start: "S", base: "★", caution: "!", purchase: "$", fight: "⚔", teleport, green: ""}[sq.kind];
    if (crowd.get(sq.id)) {
      // Agents sit in the lower part: the number and the symbol move to the top corners, above them.
      text(group, spot.x + 4, spot.y + 10, String(sq.id), "sq-number-text");
      if (short) text(group, spot.x + S - 4, spot.y + 11, short, "sq-symbol-corner");
    } else {
      text(group, spot.x + S / 2, spot.y + 13, String(sq.id), "sq-label");
      if (short) text(group, spot.x + S / 2, spot.y + 31, short, "sq-label sq-symbol");
    }
    const what = [exits.has(sq.id) ? t("teleport to square {n}", {n: exits.get(sq.id)}) : KIND_NAMES[sq.kind] || sq.kind];
    if (sq.numbered) what.push(t("banknote"));
    picture(group, t("Square {n}: {what}", {n: sq.id, what: what.join(", ")}));
  }
  // The red wall: a bar along the edge of the square behind it that faces the square before it (in the gap
  // between them, whatever the layout: never across another square, a lane's or its labels).
  if (board.wall && board.wall.length === 2 && spots.has(board.wall[0]) && spots.has(board.wall[1])) {
    const before = centre(spots.get(board.wall[0]));
    const behind = spots.get(board.wall[1]);
    const {x, y} = behind;
    const dx = before.x - (x + S / 2);
    const dy = before.y - (y + S / 2);
    const off = 3;  // just outside the square
    const line = Math.abs(dy) >= Math.abs(dx)
      ? {x1: x + 6, x2: x + S - 6, y1: dy < 0 ? y - off : y + S + off, y2: dy < 0 ? y - off : y + S + off}
      : {y1: y + 6, y2: y + S - 6, x1: dx < 0 ? x - off : x + S + off, x2: dx < 0 ? x - off : x + S + off};
    el("line", {...line, class: "wall"}, root);
  }

  // Agents: several on one square sit side by side.
  const bySquare = new Map();
  for (const agent of state.agents || []) {
    if (!bySquare.has(agent.square)) bySquare.set(agent.square, []);
    bySquare.get(agent.square).push(agent);
  }
  for (const [square, agents] of bySquare) {
    const spot = spots.get(square);
    if (!spot) continue;
    const slots = agentSlots(spot, agents.length);
    agents.forEach((agent, k) => {
      const {x, y, r} = slots[k];
      const g = el("g", {"data-agent": agent.seat}, root);
      const moving = doc.to_act.includes(agent.seat);
      el("circle", {cx: x, cy: y, r, class: `agent agent-${agent.seat % 8}${moving ? " agent-active" : ""}`}, g);
      text(g, x, y + 0.5, String(agent.seat + 1), r < 7 ? "agent-label tiny" : "agent-label");  // "Player 1" is 1
      picture(g, t("{player} on square {n}", {player: seatName(doc, agent.seat), n: square}));
    });
  }

  renderPanel(wrapper, doc, ui, lastDie);
}

function renderPanel(wrapper, doc, ui, lastDie) {
  const state = doc.state || {};
  const panel = html("div", "controls", null, wrapper);
  const top = html("p", "choices", null, panel);
  html("span", "prompt", t("Die:"), top);
  const die = html("span", "die", lastDie === null || lastDie === undefined ? "–" : String(lastDie), top);
  die.setAttribute("aria-label", lastDie === null || lastDie === undefined ? t("no roll yet")
    : t("last roll {n}", {n: lastDie}));
  const pending = state.pending;
  if (doc.status === "setup") {  // an open seat: nobody plays before every seat is taken
    html("span", "", t("The game starts when every player has joined."), top);
  } else if (pending && pending.seats) {
    const who = list(pending.seats.map((s) => seatName(doc, s)));
    html("span", "", t("{players}: {prompt}", {players: who, prompt: t(pending.prompt)}), top);
  }
  if (pending && pending.card) html("p", "note", t("Caution card: {card}", {card: CARDS[pending.card] || pending.card}), panel);

  if (state.fight) renderFight(panel, doc);
  if (ui.interactive && ui.legal.length) {
    const row = html("div", "choices", null, panel);
    html("span", "prompt", t("Your move:"), row);
    for (const command of ui.legal) {
      const range = /^commit (\d+)\.\.(\d+)$/.exec(command);
      if (range) {
        commitChoice(row, doc, ui, Number(range[1]), Number(range[2]));
        continue;
      }
      const b = button(label(command, doc), () => ui.send(command), "move", row);
      b.dataset.move = command;
    }
  }
  renderAgents(panel, doc, ui.narrow);
  html("p", "note", t("Squares: $ purchase · ⚔ fight · ! caution · ⇢ teleport · yellow: a banknote when passed · " +
                      "green: green path · red bar: the wall (1 banknote to cross) · ★ the enemy base."), panel);
}

/** A commitment: how many weapons (``low`` to ``high``, secret until both sides have committed), and one button
    that sends "commit N" (its data-move follows the number chosen). */
function commitChoice(row, doc, ui, low, high) {
  const field = html("label", "commit-choice", t("Weapons to commit:") + " ", row);
  const input = html("input", "", null, field);
  Object.assign(input, {type: "number", min: String(low), max: String(high), step: "1", value: String(low)});
  const chosen = () => Math.min(high, Math.max(low, Math.trunc(Number(input.value) || 0)));
  const b = button(label(`commit ${low}`, doc), () => ui.send(`commit ${chosen()}`), "move", row);
  b.dataset.move = `commit ${low}`;
  input.addEventListener("input", () => {
    b.textContent = label(`commit ${chosen()}`, doc);
    b.dataset.move = `commit ${chosen()}`;
  });
}

function renderFight(panel, doc) {
  const f = doc.state.fight;
  const box = html("div", "fight", null, panel);
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", t("Fight"));
  html("p", "prompt", t("Fight on square {n} ({kind}): {attacker} attacks {defender}.",
                        {n: f.square, kind: FIGHTS[f.kind] || f.kind, attacker: seatName(doc, f.attacker),
                         defender: seatName(doc, f.defender)}), box);
  const commits = f.commits || {};
  const shown = (n) => (n === null || n === undefined ? t("hidden") : String(n));
  const bits = [t("{player} commits {n}", {player: seatName(doc, f.attacker),
                                           n: f.committed.includes(f.attacker) ? shown(commits.attacker) : "…"}),
                t("{player} commits {n}", {player: seatName(doc, f.defender),
                                           n: f.committed.includes(f.defender) ? shown(commits.defender) : "…"})];
  html("p", "", bits.join(" · "), box);
  if ((f.waiting_for || []).length) {
    html("p", "note", t("Waiting for {players} to commit weapons (secretly).",
                        {players: list(f.waiting_for.map((s) => seatName(doc, s)))}), box);
  }
  if ((f.dice || []).some((d) => d !== null && d !== undefined)) {
    html("p", "", t("Dice: {attacker} {a}, {defender} {b}", {attacker: seatName(doc, f.attacker), a: f.dice[0] ?? "…",
                                                             defender: seatName(doc, f.defender), b: f.dice[1] ?? "…"}),
         box);
  }
  if (f.winner !== null && f.winner !== undefined) {
    html("p", "prompt", t("{player} wins the fight.", {player: seatName(doc, f.winner)}), box);
  }
}

/** The agents' table. On a phone (``narrow``) its headings are short words (the full ones in their titles), a
    green path is the square's colour and a lost turn a line under the name: every column fits 390 px. */
function renderAgents(panel, doc, narrow) {
  const state = doc.state || {};
  const table = html("table", narrow ? "agents-table small" : "agents-table", null,
                     html("div", "table-scroll", null, panel));
  html("caption", "visually-hidden", t("Agents"), table);
  const head = html("tr", "", null, html("thead", "", null, table));
  const heads = [[t("Agent"), t("Agent")], [t("Square"), t("Square")], [t("To the base"), t("To base")],
                 [t("Banknotes"), t("Notes")], [t("Weapons"), t("Weap.")], [t("Accessories"), t("Acc.")],
                 [t("Maps"), t("Maps")]];
  for (const [full, short] of heads) {
    const th = html("th", "", null, head);
    th.setAttribute("scope", "col");
    if (narrow && short !== full) html("abbr", "", short, th).title = full;
    else th.textContent = full;
  }
  const body = html("tbody", "", null, table);
  for (const a of state.agents || []) {
    const tr = html("tr", doc.to_act.includes(a.seat) ? "to-act" : "", null, body);
    const th = html("th", "", null, tr);
    th.setAttribute("scope", "row");
    const dot = el("svg", {width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true"}, th);
    el("circle", {cx: 7, cy: 7, r: 6, class: `agent agent-${a.seat % 8}`}, dot);
    th.appendChild(document.createTextNode(" " + seatName(doc, a.seat)));
    if (a.skip) html("span", "note skip", t("loses next turn"), th);
    const square = html("td", a.path === "green" ? "on-green" : "", String(a.square), tr);
    if (a.path === "green") square.title = t("{n} (green path)", {n: a.square});
    if (a.path === "green" && !narrow) square.textContent = square.title;
    html("td", "", String(a.to_base ?? ""), tr);
    for (const key of ["money", "weapons", "accessories", "maps"]) html("td", "", String(a[key] ?? 0), tr);
  }
  const caution = state.caution || {};
  html("p", "note", t("Caution deck: {n} cards · discard: {discard}", {n: caution.deck ?? "?",
                                                                      discard: (caution.discard || []).length}), panel);
}

/** Why a click on the track did nothing: it is not clickable, the buttons under it are. */
function why(doc, ctx, node) {
  if (!node.closest("svg")) return null;
  return ctx.legal.length ? t("The track is not clickable: choose your move with the buttons under it ({moves}).",
                              {moves: ctx.legal.map((c) => label(c, doc)).join(", ")})
    : t("The track is not clickable: choose your move with the buttons under it.");
}

const seatDot = (doc, seat) => `seat-colour-${seat % 8}`;

export {render, why, seatDot};

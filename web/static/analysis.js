/* Post-game analysis under a finished game's board (#analysis, GET/POST /api/games/<gid>/analysis): each player's
   accuracy and counts of inaccuracies, mistakes and blunders; an evaluation graph (SVG, one line per seat in the
   colour of its pieces: its winning chance before every move, then the result) that jumps the replay to the
   position clicked; the classes marked in the move list with the engine's better move; on a replayed position,
   the engine's move drawn on the board (an arrow between the cells it names, rings on the others) beside the move
   played; "Learn from your mistakes", which steps through one's own mistakes asking for a better move; and
   progress while the queued jobs run. game.js calls rendered(ctx) after each render, with ctx: {finished, steps,
   version, latest, replaying, label(seat), dot(seat) → CSS class | null, held: [seat], shown (the document
   drawn), replayTo(version)}. */
import {api} from "./api.js";
import {el, html, button, title} from "./dom.js";
import {t, tn} from "./i18n.js";

const root = document.getElementById("game");
const path = "/api/games/" + encodeURIComponent(root.dataset.gid) + "/analysis";
const POLL_MS = 1500;
const WIDE = 600, H = 170, LEFT = 34, RIGHT = 10, TOP = 10, BOTTOM = 22;
let W = WIDE;  // the graph's width in its own units: the container's on a phone, so its text stays readable

const state = {ctx: null, answer: null, loading: false, missing: false, error: null, timer: null, drawn: "",
               learn: null};  // learn: {index (of the mistakes), answered: bool, tried: [moves]} while learning
const MARKS = {inaccuracy: "?!", mistake: "?", blunder: "??"};
const LEARNED = new Set(["mistake", "blunder"]);  // what "Learn from your mistakes" steps through

function box() {
  return document.getElementById("analysis");
}

/** Called by game.js after every render of the page. */
function rendered(ctx) {
  state.ctx = ctx;
  const container = box();
  if (!container) return;
  container.hidden = !ctx.finished;
  if (!ctx.finished) return;
  if (!state.answer && !state.loading && !state.missing && !state.error) load();
  draw();
  mark();
  overlay();
}

async function load() {
  state.loading = true;
  try {
    state.answer = await api(path);
    state.missing = false;
    state.error = null;
  } catch (err) {
    if (err.status === 404) state.missing = true;
    else state.error = err.message;
  }
  state.loading = false;
  if (state.answer && state.answer.status !== "done") schedule();
  draw();
  mark();
  overlay();
}

function schedule() {
  clearTimeout(state.timer);
  state.timer = setTimeout(load, POLL_MS);
}

async function request() {
  try {
    const queued = await api(path, {method: "POST"});
    state.missing = false;
    state.answer = {status: queued.status, version: 0, plies: []};
    schedule();
  } catch (err) {
    state.error = err.message;
  }
  state.drawn = "";
  draw();
}

/** How many moves the game has: the move list's moves (not its table lines; an estimate while nothing is
    known). */
function moveCount() {
  const list = state.ctx ? state.ctx.steps : [];
  const steps = list.length ? list[list.length - 1].move || 0 : 0;
  return Math.max(steps, state.answer ? state.answer.plies.length : 0);
}

function draw() {
  const container = box();
  if (!container || !state.ctx) return;
  const answer = state.answer;
  const key = JSON.stringify([state.missing, state.error, answer && answer.status,
                              answer && answer.plies.length, state.ctx.version, state.ctx.replaying,
                              Math.round(container.clientWidth / 50), state.learn]);
  if (key === state.drawn) return;  // the page re-renders often; the graph only when something changed
  state.drawn = key;
  container.replaceChildren();
  html("h2", "analysis-title", t("Analysis"), container).id = "analysis-title";
  if (state.error) {
    html("p", "analysis-note", t("The analysis is unavailable: {error}", {error: state.error}), container);
    return;
  }
  if (state.missing) {
    html("p", "analysis-note", t("This game has not been analysed yet."), container);
    button(t("Analyse this game"), request, "analysis-request", container);
    return;
  }
  if (!answer) {
    html("p", "analysis-note", t("Loading the analysis…"), container);
    return;
  }
  if (answer.status !== "done") {
    const total = moveCount();
    const done = answer.plies.length;
    const line = html("p", "analysis-note analysis-progress", t("Analysing: {done} of {total} moves…", {done, total}),
                      container);
    line.setAttribute("aria-live", "polite");
    const bar = html("progress", "analysis-bar", null, container);
    bar.max = Math.max(total, 1);
    bar.value = done;
    bar.setAttribute("aria-label", t("Analysis progress"));
  } else if (!answer.plies.length) {  // an aborted game, say: no graph to click
    html("p", "analysis-note", t("No move was played: there is nothing to analyse."), container);
  } else {
    summary(container, answer);
    const blunders = answer.plies.filter((p) => p.blunder).length;
    html("p", "analysis-note", [
      t("Each player's winning chance before every move, by the hard engine."),
      blunders ? tn("{n} blunder (a move losing a fifth of its player's chance).",
                    "{n} blunders (moves losing a fifth of their player's chance).", blunders, {n: blunders})
        : t("No blunder (a move losing a fifth of its player's chance)."),
      t("Click the graph to replay that position.")].join(" "), container);
  }
  if (answer.plies.length) graph(container, answer);
  if (answer.status === "done") learning(container, answer);
}

/** Per player: accuracy and counts, in a table (README "Learn" documents the formula and the thresholds). */
function summary(container, answer) {
  if (!answer.players || !answer.players.length) return;
  const table = html("table", "analysis-players", null, container);
  const head = html("tr", null, null, html("thead", null, null, table));
  html("th", null, t("Player"), head).scope = "col";
  html("th", null, t("Accuracy"), head).scope = "col";
  // The counts' headings are the marks of the move list, named in full for the pointer and screen readers.
  for (const [kind, name] of [["inaccuracy", t("Inaccuracies")], ["mistake", t("Mistakes")],
                              ["blunder", t("Blunders")]]) {
    const cell = html("th", `analysis-count ${kind}`, null, head);
    cell.scope = "col";
    const abbr = html("abbr", null, MARKS[kind], cell);
    abbr.title = name;
    abbr.setAttribute("aria-label", name);
  }
  const body = html("tbody", null, null, table);
  for (const p of answer.players) {
    const row = html("tr", "analysis-player", null, body);
    row.dataset.seat = p.seat;
    const who = html("th", null, null, row);
    who.scope = "row";
    html("span", `seat-dot ${dotOf(p.seat)}`, null, who).setAttribute("aria-hidden", "true");
    who.append(" " + state.ctx.label(p.seat));
    html("td", "analysis-accuracy", p.accuracy === null ? "–" : t("{n}%", {n: Math.round(p.accuracy)}), row);
    html("td", "analysis-count inaccuracy", String(p.inaccuracies), row);
    html("td", "analysis-count mistake", String(p.mistakes), row);
    html("td", "analysis-count blunder", String(p.blunders), row);
  }
  html("p", "analysis-note", t("Accuracy: 100 for the engine's moves, less the more of a player's winning chance a " +
       "move lost. ?! inaccuracy: 5 points or more lost; ? mistake: 10; ?? blunder: 20."), container);
}

/** The CSS class colouring a seat as its pieces (the board's seatDot), else the seat's colour. */
function dotOf(seat) {
  return (state.ctx.dot && state.ctx.dot(seat)) || `seat-colour-${seat % 8}`;
}

/** The seats whose mistakes "Learn from your mistakes" steps through: the page's own, else everybody's. */
function learnable(answer) {
  const own = state.ctx.held || [];
  return answer.plies.filter((p) => LEARNED.has(p.class) && (!own.length || own.includes(p.seat)));
}

/** "Learn from your mistakes": the position before each mistake in turn; the player types a better move and is
    told whether it is the engine's, or asks for the answer. */
function learning(container, answer) {
  const mistakes = learnable(answer);
  if (!mistakes.length) return;
  const box = html("div", "analysis-learn", null, container);
  box.setAttribute("aria-live", "polite");
  if (!state.learn) {
    button(t("Learn from your mistakes"), () => {
      state.learn = {index: 0, answered: false, tried: []};
      state.ctx.replayTo(mistakes[0].version - 1);
      draw();
    }, "analysis-learn-start", box);
    return;
  }
  const index = Math.min(state.learn.index, mistakes.length - 1);
  const ply = mistakes[index];
  html("p", "analysis-learn-head", t("Mistake {i} of {n} — move {move} by {player}: {played} was played. Find a " +
       "better move.", {i: index + 1, n: mistakes.length, move: answer.plies.indexOf(ply) + 1,
                        player: state.ctx.label(ply.seat), played: ply.move}), box);
  if (state.learn.answered) {
    html("p", "analysis-learn-answer", t("The engine's move: {best}.", {best: ply.best}), box);
  } else {
    const form = html("form", "analysis-learn-form", null, box);
    const label = html("label", null, t("Your move"), form);
    const input = html("input", "analysis-learn-move", null, label);
    input.autocomplete = "off";
    input.spellcheck = false;
    input.maxLength = 100;
    button(t("Check"), null, "analysis-learn-check", form).type = "submit";
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const move = input.value.trim();
      if (!move) return;
      state.learn.tried.push(move);
      state.learn.answered = move.toLowerCase() === ply.best.toLowerCase();
      state.learn.last = move;
      draw();
      overlay();
    });
    button(t("Show the answer"), () => { state.learn.answered = true; draw(); overlay(); }, "analysis-learn-show",
           box);
  }
  const last = state.learn.last;
  if (last) {
    const right = last.toLowerCase() === ply.best.toLowerCase();
    const said = right ? t("Right: {move} is the engine's move.", {move: last})
      : last.toLowerCase() === ply.move.toLowerCase() ? t("{move} is the move played: look for a better one.",
                                                          {move: last})
        : t("{move} is not the engine's choice: try again, or ask for the answer.", {move: last});
    html("p", `analysis-learn-said ${right ? "right" : "wrong"}`, said, box);
  }
  const nav = html("p", "analysis-learn-nav", null, box);
  if (index + 1 < mistakes.length) {
    button(t("Next mistake"), () => {
      state.learn = {index: index + 1, answered: false, tried: []};
      state.ctx.replayTo(mistakes[index + 1].version - 1);
      draw();
    }, "analysis-learn-next", nav);
  }
  button(t("Stop"), () => { state.learn = null; draw(); overlay(); }, "analysis-learn-stop", nav);
}

function x(index, count) {
  return LEFT + (count ? index / count : 0) * (W - LEFT - RIGHT);
}

function y(chance) {
  return TOP + (1 - chance) * (H - TOP - BOTTOM);
}

/** The graph: a line per seat over the plies analysed (in order), then the result once every ply is in. */
function graph(container, answer) {
  const plies = answer.plies;
  const count = Math.max(moveCount(), plies.length);
  const seats = plies[0].win.length;
  const label = state.ctx.label;
  // On a phone the graph is drawn as wide as it is shown: its labels keep their size instead of shrinking.
  W = Math.max(300, Math.min(WIDE, Math.round(container.clientWidth || WIDE)));
  const svg = el("svg", {viewBox: `0 0 ${W} ${H}`, class: "analysis-graph", role: "img",
                         "aria-label": t("Winning chances by move")}, container);
  title(svg, t("Winning chances by move: click to replay that position"));
  for (const level of [0, 0.5, 1]) {
    el("line", {x1: LEFT, x2: W - RIGHT, y1: y(level), y2: y(level), class: "analysis-grid"}, svg);
    const t = el("text", {x: LEFT - 4, y: y(level) + 4, class: "analysis-axis", "text-anchor": "end"}, svg);
    t.textContent = `${Math.round(level * 100)}%`;
  }
  const points = plies.map((p, i) => ({index: i, win: p.win, ply: p}));
  const final = answer.status === "done" ? endChances(plies) : null;
  for (let seat = 0; seat < seats; seat += 1) {
    const coords = points.map((p) => `${x(p.index, count).toFixed(1)},${y(p.win[seat]).toFixed(1)}`);
    if (final) coords.push(`${x(plies.length, count).toFixed(1)},${y(final[seat]).toFixed(1)}`);
    const line = el("polyline", {points: coords.join(" "), class: `analysis-line ${dotOf(seat)}`,
                                 "data-seat": seat}, svg);
    title(line, label(seat));
  }
  for (const p of points) {
    if (!p.ply.blunder) continue;
    const seat = p.ply.seat;
    const after = p.index + 1 < plies.length ? plies[p.index + 1].win[seat] : final ? final[seat] : p.win[seat];
    const dot = el("circle", {cx: x(p.index + 1, count), cy: y(after), r: 4, class: "analysis-blunder"}, svg);
    title(dot, t("Move {n}, {player}: {move} was a blunder; {best} was better",
                 {n: p.index + 1, player: label(seat), move: p.ply.move, best: p.ply.best}));
  }
  const current = cursorIndex(plies);
  if (current !== null) {
    el("line", {x1: x(current, count), x2: x(current, count), y1: TOP, y2: H - BOTTOM,
                class: "analysis-cursor"}, svg);
  }
  const legend = html("p", "analysis-legend", null, container);
  for (let seat = 0; seat < seats; seat += 1) {
    html("span", `analysis-key ${dotOf(seat)}`, label(seat), legend);
  }
  svg.addEventListener("click", (event) => {
    const rect = svg.getBoundingClientRect();
    const at = (event.clientX - rect.left) / rect.width * W;
    const index = Math.round((at - LEFT) / (W - LEFT - RIGHT) * count);
    jump(Math.max(0, Math.min(index, plies.length)), plies);
  });
}

/** The result as chances (the last move's mover's chance is not known here: the position after it is). */
function endChances(plies) {
  const last = plies[plies.length - 1];
  const seats = last.win.length;
  const doc = state.ctx.doc;
  const winners = doc && doc.result ? doc.result.winners || [] : [];
  return Array.from({length: seats}, (_, s) => (winners.length ? (winners.includes(s) ? 1 / winners.length : 0)
                                                : 1 / seats));
}

/** Replay the position before move ``index`` (after the last move: the end of the game). */
function jump(index, plies) {
  if (index >= plies.length) state.ctx.replayTo(state.ctx.latest);
  else state.ctx.replayTo(plies[index].version - 1);
}

/** The graph index of the position shown: the last move whose position-before is at or before the replay. */
function cursorIndex(plies) {
  if (!state.ctx.replaying) return null;
  let found = 0;
  plies.forEach((p, i) => { if (p.version - 1 <= state.ctx.version) found = i; });
  if (plies.length && state.ctx.version >= plies[plies.length - 1].version) found = plies.length;
  return found;
}

/** Classes in the move list: the line of the step holding the move gets a mark naming the better move. */
function mark() {
  const answer = state.answer;
  if (!answer || !state.ctx) return;
  const list = document.getElementById("moves");
  if (!list) return;
  for (const ply of answer.plies) {
    const kind = ply.class || (ply.blunder ? "blunder" : null);
    if (!kind) continue;
    const step = state.ctx.steps.find((s) => s.first <= ply.version && ply.version <= s.last);
    const item = step && list.querySelector(`li.move-line[data-step="${step.index}"] .move-row`);
    if (!item || item.querySelector(".class-mark")) continue;
    const tag = html("span", `class-mark ${kind}-mark`, t("{mark} better: {best}", {mark: MARKS[kind], best: ply.best}),
                     item);
    tag.title = {
      inaccuracy: t("An inaccuracy: {move} lost 5 points or more of the player's chance; {best} was better.",
                    {move: ply.move, best: ply.best}),
      mistake: t("A mistake: {move} lost 10 points or more of the player's chance; {best} was better.",
                 {move: ply.move, best: ply.best}),
      blunder: t("A blunder: {move} lost a fifth or more of the player's chance; {best} was better.",
                 {move: ply.move, best: ply.best}),
    }[kind];
  }
}

/** The analysed move from the position shown (replaying): null at the end or while live. */
function shownPly() {
  const answer = state.answer;
  if (!answer || !state.ctx || !state.ctx.replaying) return null;
  return answer.plies.find((p) => p.version - 1 === state.ctx.version) || null;
}

/** The cell, point or square a notation's word names on the board shown, as its centre in the board's SVG. */
function spot(board, word) {
  const node = board.querySelector(`[data-cell="${CSS.escape(word)}"], [data-point="${CSS.escape(word)}"], ` +
                                   `[data-square-mouse="${CSS.escape(word)}"]`);
  if (!node || !node.getBBox) return null;
  const box = node.getBBox();
  return {x: box.x + box.width / 2, y: box.y + box.height / 2, r: Math.min(box.width, box.height) / 2};
}

/** Mission commando's moves name no cell: the squares they go between, from the position shown — a map from the
    mover's square to the one it lands on (along the main track), a challenge from the mover to the agent
    challenged; any other command rings the mover's square. */
function commandoPlaces(board, move, seat) {
  const view = state.ctx.shown && state.ctx.shown.state;
  const agents = view && view.agents ? view.agents : [];
  const me = agents.find((a) => a.seat === seat) || agents[seat];
  if (!me) return [];
  const at = (square) => {
    const node = board.querySelector(`[data-square="${CSS.escape(String(square))}"]`);
    if (!node || !node.getBBox) return null;
    const box = node.getBBox();
    return {x: box.x + box.width / 2, y: box.y + box.height / 2, r: Math.min(box.width, box.height) / 2};
  };
  const map = /^map (\d+)$/.exec(move.trim());
  const challenge = /^challenge (\d+)$/.exec(move.trim());
  let to = null;
  if (map && me.path === "main") to = Math.min(me.square + Number(map[1]), me.square + me.to_base);
  if (challenge) {
    const other = agents.find((a) => a.seat === Number(challenge[1]));
    to = other ? other.square : null;
  }
  return [{at: at(me.square)}, ...(to === null ? [] : [{at: at(to)}])].filter((p) => p.at);
}

/** A move drawn on the board: an arrow from the first place it names to the second when it moves something
    (a1-a3, a1xb2, c3-c4 …, Mission commando's map and challenge), rings on the other places it names (cards'
    targets, digs). */
function drawMove(layer, board, move, kind, seat) {
  const words = move.match(/[a-hA-H][1-9]/g) || [];
  const commando = board.querySelector("[data-square]") !== null;
  const places = commando ? commandoPlaces(board, move, seat)
    : words.map((w) => ({word: w, at: spot(board, w)})).filter((p) => p.at);
  if (!places.length) return false;
  let rest = places;
  const moving = commando || /^[a-hA-H][1-9](-|xx|x|\*)[a-hA-H][1-9]/.test(move.trim());
  if (moving && places.length >= 2) {
    const [a, b] = places;
    const dx = b.at.x - a.at.x, dy = b.at.y - a.at.y, length = Math.hypot(dx, dy) || 1;
    const cut = Math.min(a.at.r * 0.6, length / 3);
    el("line", {x1: a.at.x + dx / length * cut, y1: a.at.y + dy / length * cut, x2: b.at.x - dx / length * cut,
                y2: b.at.y - dy / length * cut, class: `analysis-arrow ${kind}`,
                "marker-end": `url(#analysis-head-${kind})`}, layer);
    rest = places.slice(2);
  }
  for (const p of rest) {
    el("circle", {cx: p.at.x, cy: p.at.y, r: Math.max(6, p.at.r * 0.75), class: `analysis-ring ${kind}`}, layer);
  }
  return true;
}

/** At a replayed position: the engine's move (green) and the move played (red) on the board, and in words beside
    it. While learning, the engine's move stays hidden until answered. */
function overlay() {
  const board = document.getElementById("board");
  if (!board) return;
  for (const old of board.querySelectorAll(".analysis-overlay")) old.remove();
  let caption = document.getElementById("analysis-move");
  const ply = shownPly();
  if (!ply || !ply.best) {
    if (caption) caption.hidden = true;
    return;
  }
  if (!caption) {
    caption = html("p", "analysis-move", null, null);
    caption.id = "analysis-move";
    caption.setAttribute("aria-live", "polite");
    board.after(caption);
  }
  const hidden = Boolean(state.learn && !state.learn.answered);
  const picture = board.querySelector("svg");
  if (picture) {
    const layer = el("g", {class: "analysis-overlay", "pointer-events": "none"}, picture);
    const defs = el("defs", {}, layer);
    for (const kind of ["best", "played"]) {
      const head = el("marker", {id: `analysis-head-${kind}`, viewBox: "0 0 10 10", refX: 5, refY: 5,
                                 markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse"}, defs);
      el("path", {d: "M 0 0 L 10 5 L 0 10 z", class: `analysis-head ${kind}`}, head);
    }
    if (ply.move !== ply.best) drawMove(layer, picture, ply.move, "played", ply.seat);
    if (!hidden) drawMove(layer, picture, ply.best, "best", ply.seat);
  }
  caption.hidden = false;
  const kind = ply.class ? ` ${MARKS[ply.class]}` : "";
  caption.textContent = hidden ? t("Played: {move}{mark}", {move: ply.move, mark: kind})
    : ply.move === ply.best ? t("Played: {move}, the engine's move too.", {move: ply.move})
      : t("Played: {move}{mark} · the engine: {best}", {move: ply.move, mark: kind, best: ply.best});
  caption.className = `analysis-move ${ply.class || ""}`;
}

export {rendered};

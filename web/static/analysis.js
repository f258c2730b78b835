/* Post-game analysis under a finished game's board (#analysis, GET/POST /api/games/<gid>/analysis): an evaluation
   graph (SVG, one line per seat: its winning chance before every move, then the result) that jumps the replay to
   the position clicked, blunders marked in the move list with the engine's better move, and progress while the
   queued jobs run. game.js calls rendered(ctx) after each render, with ctx: {finished, steps,
   version, latest, replaying, label(seat), replayTo(version)}. */
import {api} from "./api.js";
import {el, html, button, title} from "./dom.js";
import {t, tn} from "./i18n.js";

const root = document.getElementById("game");
const path = "/api/games/" + encodeURIComponent(root.dataset.gid) + "/analysis";
const POLL_MS = 1500;
const WIDE = 600, H = 170, LEFT = 34, RIGHT = 10, TOP = 10, BOTTOM = 22;
let W = WIDE;  // the graph's width in its own units: the container's on a phone, so its text stays readable

const state = {ctx: null, answer: null, loading: false, missing: false, error: null, timer: null, drawn: ""};

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
                              Math.round(container.clientWidth / 50)]);
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
    const blunders = answer.plies.filter((p) => p.blunder).length;
    html("p", "analysis-note", [
      t("Each player's winning chance before every move, by the hard engine."),
      blunders ? tn("{n} blunder (a move losing a fifth of its player's chance).",
                    "{n} blunders (moves losing a fifth of their player's chance).", blunders, {n: blunders})
        : t("No blunder (a move losing a fifth of its player's chance)."),
      t("Click the graph to replay that position.")].join(" "), container);
  }
  if (answer.plies.length) graph(container, answer);
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
    const line = el("polyline", {points: coords.join(" "), class: `analysis-line seat-${seat % 8}`,
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
    html("span", `analysis-key seat-${seat % 8}`, label(seat), legend);
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

/** Blunders in the move list: the line of the step holding the move gets a mark naming the better move. */
function mark() {
  const answer = state.answer;
  if (!answer || !state.ctx) return;
  const list = document.getElementById("moves");
  if (!list) return;
  for (const ply of answer.plies) {
    if (!ply.blunder) continue;
    const step = state.ctx.steps.find((s) => s.first <= ply.version && ply.version <= s.last);
    const item = step && list.querySelector(`li.move-line[data-step="${step.index}"] .move-row`);
    if (!item || item.querySelector(".blunder-mark")) continue;
    const tag = html("span", "blunder-mark", t("?? better: {best}", {best: ply.best}), item);
    tag.title = t("A blunder: {move} lost a fifth or more of the player's chance; {best} was better.",
                  {move: ply.move, best: ply.best});
  }
}

export {rendered};

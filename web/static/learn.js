/* The tutorials (/learn, /learn/<game>; GET /api/learn/<game>): each step drawn on the game's own board (its
   module under static/boards/, as on a game's page), its text above; the player's move is checked against the
   step's moves: a right one advances (through the step's "then" moves of the same turn, then to the next step), a
   wrong one is explained. Progress: POST /api/learn/<game>/progress for an account, and this browser's
   localStorage ("burrow:learn:<game>", the steps done) for everyone; the last step offers a real game against
   the easy AI. /learn lists the tutorials with the steps done. */
import {api} from "./api.js";
import {html, button} from "./dom.js";
import {t} from "./i18n.js";

const root = document.getElementById("learn");
const game = root.dataset.game;
const STORE = "burrow:learn:";
const page = {steps: [], index: 0, part: 0, memory: {}, board: null, finished: false};
const $ = (id) => document.getElementById(id);

/** The steps this browser has done, per game (a guest's progress; an account's is also on the server). */
function stored(name) {
  try {
    const raw = JSON.parse(localStorage.getItem(STORE + name) || "[]");
    return new Set(Array.isArray(raw) ? raw.filter(Number.isInteger) : []);
  } catch (err) {
    return new Set();
  }
}

function store(name, index) {
  const done = stored(name);
  done.add(index);
  try {
    localStorage.setItem(STORE + name, JSON.stringify([...done]));
  } catch (err) { /* no storage: the account's progress still counts */ }
}

async function listPage() {
  const list = $("learn-list");
  let answer = {tutorials: []};
  try {
    answer = await api("/api/learn");
  } catch (err) {
    html("li", "note", err.message, list);
    return;
  }
  for (const tutorial of answer.tutorials) {
    const done = Math.min(tutorial.steps, Math.max(tutorial.done, stored(tutorial.game).size));
    const item = html("li", "learn-item", null, list);
    item.dataset.game = tutorial.game;
    const link = html("a", null, tutorial.title, item);
    link.href = "/learn/" + encodeURIComponent(tutorial.game);
    html("span", "note", " " + t("{done} of {steps} steps done", {done, steps: tutorial.steps}), item);
  }
}

/** The part of the current step asked for now: the step itself, or one of its "then" moves. */
function current() {
  const step = page.steps[page.index];
  if (page.part === 0) return {text: step.text, board: step.board, moves: step.moves, why: step.why};
  const next = step.then[page.part - 1];
  return {text: next.text, board: next.board, moves: [next.move],
          why: t("This step asks for {move}.", {move: next.move})};
}

function say(text, right) {
  const said = $("learn-said");
  said.hidden = !text;
  said.textContent = text || "";
  said.className = "learn-said " + (right ? "right" : "wrong");
}

function render() {
  const step = page.steps[page.index];
  const part = current();
  $("learn-step").textContent = t("Step {n} of {total}", {n: page.index + 1, total: page.steps.length});
  $("learn-text").textContent = part.text;
  const container = $("board");
  container.replaceChildren();
  const doc = part.board;
  const ui = {
    send: (move) => played(move),
    interactive: !page.finished,
    legal: page.finished ? [] : doc.legal,
    you: step.seat,
    memory: page.memory,
    redraw: render,
    playerName: (seat) => (doc.players[seat] || {}).name || String(seat + 1),
    message: (text) => {
      const feedback = $("board-feedback");
      feedback.hidden = !text;
      feedback.textContent = text || "";
    },
    replay: false,
    lastCells: new Set(),
    narrow: container.clientWidth < 560,
  };
  page.board.render(container, doc, ui);
  tools();
}

/** Below the board: every legal move as a button too (the keyboard's and the screen reader's way), and the
    steps' navigation. */
function tools() {
  const box = $("learn-tools");
  box.replaceChildren();
  const nav = html("p", "learn-nav", null, box);
  if (page.index > 0) button(t("Previous step"), () => go(page.index - 1), "learn-prev", nav);
  if (page.index + 1 < page.steps.length) button(t("Skip this step"), () => go(page.index + 1), "learn-skip", nav);
  if (page.finished) {
    const end = html("div", "learn-end", null, box);
    html("p", null, t("You have met every rule a first game needs. Now a real game against the easy AI!"), end);
    button(t("Play against the easy AI"), playEasy, "learn-play", end);
  }
  const details = html("details", "learn-legal", null, box);
  html("summary", null, t("All possible moves"), details);
  const list = html("div", "legal-list", null, details);
  for (const move of page.finished ? [] : expanded(current().board.legal)) {
    button(move, () => played(move), "legal-move", list);
  }
}

/** The legal moves with each range ("commit 0..2") written out as its commands. */
function expanded(legal) {
  return legal.flatMap((move) => {
    const range = /^(.*) (\d+)\.\.(\d+)$/.exec(move);
    if (!range) return [move];
    const out = [];
    for (let n = Number(range[2]); n <= Number(range[3]); n += 1) out.push(`${range[1]} ${n}`);
    return out;
  });
}

function go(index) {
  page.index = index;
  page.part = 0;
  page.memory = {};
  page.finished = false;
  say("");
  render();
}

async function done(index) {
  store(game, index);
  try {
    await api(`/api/learn/${encodeURIComponent(game)}/progress`, {method: "POST", body: {step: index}});
  } catch (err) { /* kept in this browser anyway */ }
}

function played(move) {
  const part = current();
  page.memory = {};
  if (!part.moves.includes(move)) {
    say(t("Not this one: {move}. {why}", {move, why: part.why}), false);
    render();
    return;
  }
  const step = page.steps[page.index];
  if (page.part < step.then.length) {
    page.part += 1;
    say(t("Right: {move}.", {move}), true);
    render();
    return;
  }
  done(page.index);
  if (page.index + 1 < page.steps.length) {
    page.index += 1;
    page.part = 0;
    say(t("Right: {move}. On to the next step.", {move}), true);
  } else {
    page.finished = true;
    say(t("Right: {move}. The tutorial is done.", {move}), true);
  }
  render();
}

async function playEasy() {
  const name = t("You");
  try {
    const answer = await api("/api/games", {method: "POST", body: {
      game, players: [{name}, {name: t("Easy AI"), ai: "easy"}]}});
    const mine = answer.seats.filter((s) => s.token).map((s) => s.token);
    location.assign("/games/" + encodeURIComponent(answer.id) + "#tokens=" + mine.map(encodeURIComponent).join(","));
  } catch (err) {
    say(err.message, false);
  }
}

async function tutorialPage() {
  const link = document.getElementById("board-module");
  try {
    page.board = link ? await import(link.href) : await import("./boards/generic.js");
    const answer = await api(`/api/learn/${encodeURIComponent(game)}`);
    page.steps = answer.steps;
  } catch (err) {
    $("learn-step").textContent = err.message;
    return;
  }
  const seen = stored(game);
  const first = page.steps.findIndex((_, i) => !seen.has(i));
  go(first < 0 ? 0 : first);
}

if (game) tutorialPage();
else listPage();

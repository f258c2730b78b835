/* The daily review (/train; GET /api/me/deck, POST /api/me/deck/<id>/answer): each due card's position drawn on
   its game's own board as the player saw it; the player's move is sent at once and judged by the server (it
   solves the card when the engine rated it within the deck's margin of its best); the next due date follows. A
   guest is told that a deck needs an account. */
import {api} from "./api.js";
import {html, button} from "./dom.js";
import {t} from "./i18n.js";

const root = document.getElementById("train");
const boards = JSON.parse(root.dataset.boards || "{}");
const page = {cards: [], index: 0, total: 0, answered: null, memory: {}, pending: false};
const $ = (id) => document.getElementById(id);

function say(text, right) {
  const said = $("train-said");
  said.hidden = !text;
  said.textContent = text || "";
  said.className = "learn-said " + (right ? "right" : "wrong");
}

async function boardOf(game) {
  try {
    return boards[game] ? await import(boards[game]) : await import("./boards/generic.js");
  } catch (err) {
    return import("./boards/generic.js");
  }
}

async function render() {
  const container = $("board");
  const tools = $("train-tools");
  tools.replaceChildren();
  if (page.index >= page.cards.length) {
    container.hidden = true;
    container.replaceChildren();
    $("train-text").textContent = "";
    $("train-status").textContent = page.total
      ? t("No card is due now: {total} in your deck. Come back later.", {total: page.total})
      : t("Your deck is empty: the mistakes of your analysed games (signed in) come here.");
    return;
  }
  const card = page.cards[page.index];
  $("train-status").textContent = t("Card {n} of {due} due", {n: page.index + 1, due: page.cards.length});
  const link = `/games/${encodeURIComponent(card.from.game)}`;
  $("train-text").textContent = card.kind === "blunder"
    ? t("In this position you played {move}, a blunder. Find a better move.", {move: card.played})
    : t("In this position you played {move}, a mistake. Find a better move.", {move: card.played});
  const open = !page.answered && !page.pending;
  const doc = {game: card.game, status: "playing", you: card.seat, to_act: [card.seat],
               legal: open ? card.legal : [], players: [], state: card.view};
  const board = await boardOf(card.game);
  container.hidden = false;
  container.replaceChildren();
  board.render(container, doc, {
    send: (move) => answer(move), interactive: open, legal: doc.legal, you: card.seat, memory: page.memory,
    redraw: render, playerName: (seat) => (seat === card.seat ? t("You") : t("Your opponent")),
    message: (text) => { $("board-feedback").hidden = !text; $("board-feedback").textContent = text || ""; },
    replay: false, lastCells: new Set(), narrow: container.clientWidth < 560,
  });
  const from = html("p", "note", null, tools);
  const a = html("a", null, t("The game this position comes from"), from);
  a.href = link;
  if (open) {
    const form = html("form", "train-form typed", null, tools);
    const label = html("label", null, t("Type a move"), form);
    const input = html("input", "train-move", null, label);
    input.autocomplete = "off";
    input.spellcheck = false;
    input.maxLength = 200;
    button(t("Answer"), null, "train-answer", form).type = "submit";
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (input.value.trim()) answer(input.value.trim());
    });
  } else if (page.answered) {
    button(t("Next card"), () => {
      page.index += 1;
      page.answered = null;
      page.memory = {};
      say("");
      render();
    }, "train-next", tools);
  }
}

async function answer(move) {
  if (page.pending || page.answered) return;
  const card = page.cards[page.index];
  page.pending = true;
  try {
    const result = await api(`/api/me/deck/${encodeURIComponent(card.id)}/answer`, {method: "POST", body: {move}});
    page.answered = result;
    const when = new Date(result.next_due).toLocaleString(document.documentElement.lang || undefined);
    say(result.correct
      ? t("Right: {move} is as good as the engine's best. Next review: {when}.", {move, when})
      : t("Not this one: {move}. The engine's moves: {best}. Next review: {when}.",
          {move, best: result.best.join(", "), when}), result.correct);
  } catch (err) {
    say(err.message, false);
  }
  page.pending = false;
  render();
}

async function start() {
  try {
    const deck = await api("/api/me/deck");
    page.cards = deck.cards;
    page.total = deck.total;
  } catch (err) {
    $("train-status").textContent = err.status === 401
      ? t("A deck is kept for an account: sign in, play, and the mistakes of your analysed games come here.")
      : err.message;
    return;
  }
  render();
}

start();

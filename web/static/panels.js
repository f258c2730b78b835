/* The game page's panels around the board: status and result, players and seat tools, legal commands, the move
   list and the replay controls. Pure drawing: each function gets the data and the callbacks it needs from the
   frame (game.js), which owns the state. Ids are those of templates/game.html. */
import {html, button} from "./dom.js";
import {t, tn, list as listOf, sayOr, levelName, number, moveWords} from "./i18n.js";
import {changeWords, profileUrl, ratingWords, signedIn} from "./accounts.js";
import {challengeButton} from "./challenges.js";

const $ = (id) => document.getElementById(id);
const LEGAL_BUTTONS_MAX = 240;

/** ctx: {acting: seat | null, replay: bool, offline: bool, label(seat), isAi(seat), offer: seat | null (a draw
    offer a seat held here may answer), names: the players' names by seat} */
function status(doc, ctx) {
  const box = $("status");
  box.classList.remove("thinking", "your-turn", "offline");
  let text;
  // The connection lost: its banner is the one message (not "Your turn" on a board that may be out of date).
  box.hidden = Boolean(ctx.offline);
  if (doc.status === "finished") {
    text = t("The game is over.");
  } else if (ctx.acting !== null) {
    text = t("Your turn: {player}.", {player: ctx.label(ctx.acting)});
    box.classList.add("your-turn");
  } else if (!doc.to_act.length) {
    const open = doc.status === "setup" ? doc.open_seats || [] : [];
    const kept = open.filter((seat) => ((doc.players || [])[seat] || {}).name);  // a rematch's, for their players
    if (kept.length) {
      text = tn("Waiting for {players} to take their seat.", "Waiting for {players} to take their seats.",
                kept.length, {players: listOf(kept.map(ctx.label))});
    } else if (open.length) {
      text = open.length > 1 ? t("Waiting for players to take the open seats.")
        : t("Waiting for a player to take the open seat.");
    } else {
      text = t("Waiting…");
    }
  } else {
    const names = listOf(doc.to_act.map(ctx.label));
    const ai = doc.to_act.filter(ctx.isAi);
    if (ctx.replay) {
      text = t("{players} to play.", {players: names});  // a replayed position: nobody is thinking there
    } else if (ai.length) {
      text = t("{players} thinking…", {players: listOf(ai.map(ctx.label))});
      box.classList.add("thinking");
    } else {
      text = t("Waiting for {players}.", {players: names});
    }
  }
  if (ctx.replay) text = t("Replay. {status}", {status: text});
  // #15: on a phone the answer buttons are below the board: the top says it, and takes you to them.
  const offered = ctx.offer !== null && ctx.offer !== undefined && !ctx.offline && doc.status !== "finished";
  if (offered) text = t("{player} offers a draw. {status}", {player: ctx.label(ctx.offer), status: text});
  box.textContent = text;
  if (offered) {
    button(t("Answer the offer"), () => {
      const accept = document.querySelector('[data-move="accept draw"]');
      if (accept) {
        accept.scrollIntoView({block: "center"});
        accept.focus();
      }
    }, "answer-draw", box);
  }

  const result = $("result");
  if (doc.result) {
    result.textContent = resultText(doc.result, ctx);
    const changes = doc.result.rating_changes;
    if (Array.isArray(changes) && changes.some(Number.isFinite)) {  // a rated game: "alice +12, bob −12"
      const each = changes.map((change, seat) => (Number.isFinite(change)
        ? t("{player} {change}", {player: ctx.label(seat), change: changeWords(change)}) : null)).filter(Boolean);
      html("span", "rating-changes", t("Ratings: {changes}", {changes: listOf(each)}), result);
    }
    result.hidden = false;
  } else {
    result.hidden = true;
    result.textContent = "";
  }
}

/** The message ids of a sentence's form and of the sentences inside it (their English patterns). */
function ids(form) {
  if (!form || typeof form !== "object") return [];
  if (Array.isArray(form)) return form.flatMap(ids);
  return [form.id || "", form.plural || "", ...Object.values(form.args || {}).flatMap(ids)];
}

/** A result in a sentence: "Ana (Romans) wins: Ben has no move", "A draw: …", or its reason alone when that
    says it already ("Bo resigns. Ana wins.", "Draw: the limit of 80 moves was reached", an aborted game). */
function resultText(result, ctx) {
  const winners = result.winners || [];
  const reason = sayOr(result.say, result.reason, ctx.names);
  // What the reason says is read from its English (the message ids), whatever the page's language.
  const english = result.say ? ids(result.say).join(" ") : result.reason || "";
  const said = winners.length ? /\b(wins?|share the win)\b/i.test(english)
    : result.termination === "aborted" || /\bdraw\b/i.test(english);
  // A name is written as its owner wrote it ("alice_ux left the game"), never capitalised.
  const byName = (ctx.names || []).some((name) => name && reason.startsWith(name));
  if (said || !reason) return byName ? reason : reason.charAt(0).toUpperCase() + reason.slice(1);
  const who = winners.length ? tn("{players} wins", "{players} win", winners.length,
                                  {players: listOf(winners.map(ctx.label))}) : t("A draw");
  return t("{who}: {reason}", {who, reason});
}

/** ctx: {held: [seat], replay: bool, label(seat), isAi(seat), dot(seat) → CSS class | null, onCopy(seat),
    onRelease(seat)} */
let playersKey = "";

function players(doc, ctx) {
  const list = $("players");
  // Drawn again only when something in it changed: the page renders often (beats, notices), and a list rebuilt
  // under a reader's eyes or a pointer loses its place.
  const key = JSON.stringify([doc.players, doc.to_act, doc.online, doc.status, doc.result && doc.result.winners,
                              doc.result && doc.result.rating_changes,
                              ctx.held, ctx.replay, (doc.players || []).map((p) => [ctx.label(p.seat),
                                                                                  ctx.dot && ctx.dot(p.seat)])]);
  if (key === playersKey) return;
  playersKey = key;
  list.replaceChildren();
  for (const player of doc.players || []) {
    const seat = player.seat;
    const mine = ctx.held.includes(seat);
    const item = html("li", "player", null, list);
    if (doc.to_act.includes(seat)) item.classList.add("to-act");
    if (mine) item.classList.add("mine");
    const line = html("span", "seat-line", null, item);
    const dot = ctx.dot ? ctx.dot(seat) : null;
    html("span", `seat-dot ${dot || "seat-colour-" + (seat % 8)}`, null, line).setAttribute("aria-hidden", "true");
    const name = html(player.account ? "a" : "span", "seat-name", ctx.label(seat), line);
    if (player.account) name.href = profileUrl(player.account);  // an account's seat: its profile
    if (player.rating) {  // the rating when the game started: "1500?" while provisional
      const rating = html("span", "seat-rating", ratingWords(player.rating), line);
      if (player.rating.provisional) rating.title = t("provisional rating");
    }
    const change = ((doc.result || {}).rating_changes || [])[seat];
    if (Number.isFinite(change)) {
      html("span", "rating-change " + (change > 0 ? "up" : change < 0 ? "down" : "same"), changeWords(change), line);
    }
    if (doc.online && !player.ai && !player.open) {  // its player has the game's page (or their account) open
      const here = doc.online[seat];
      const presence = html("span", here ? "online" : "offline", here ? "●" : "○", line);
      presence.title = here ? t("online") : t("away");
      presence.setAttribute("aria-label", presence.title);
    }
    const tags = [];
    if (player.ai) tags.push(t("AI, {level}", {level: levelName(player.ai)}));
    if (mine) tags.push(t("played here"));
    if (player.left) tags.push(t("left the game"));  // resigned or out of time, with three seats or more
    if (doc.to_act.includes(seat)) {
      tags.push(ctx.isAi(seat) && doc.status !== "finished" && !ctx.replay ? t("thinking…") : t("to play"));
    }
    if (doc.result && (doc.result.winners || []).includes(seat)) tags.push(t("winner"));
    if (tags.length) html("span", "seat-tags", tags.join(" · "), item);
    const me = (signedIn() || "").toLowerCase();
    if (me && player.account && player.account.toLowerCase() !== me && !ctx.replay) {
      challengeButton(player.account, line, {game: doc.game});  // beside the name: play them again, another time
    }
  }
  const tools = $("seat-tools");
  tools.replaceChildren();
  if (!ctx.held.length) {
    html("p", "note", t("You are watching. A player's link lets them play here."), tools);
    return;
  }
  for (const seat of ctx.held) {
    // An account's seat is the account's on every device: no link to hand around (a guest's tool).
    if (((doc.players || [])[seat] || {}).account) continue;
    const row = html("p", "seat-tool", null, tools);
    const who = ctx.label(seat);
    button(ctx.held.length > 1 ? t("Copy {player}'s link", {player: who}) : t("Copy your link"),
           () => ctx.onCopy(seat), "", row)
      .setAttribute("aria-label", t("Copy the link that plays {player}", {player: who}));
    if (ctx.held.length > 1) button(t("Stop playing {player} here", {player: who}), () => ctx.onRelease(seat), "quiet", row);
  }
}

/** The generic fallback: every legal command as a button (narrowed by the text box), and the text box. */
function legal(commands, ctx) {
  const box = $("legal");
  const filter = $("typed-move").value.trim().toLowerCase();
  // A move is shown, and may be typed, in the reader's words or the notation's (i18n.js, moveWords).
  const narrowed = filter ? commands.filter((m) => m.toLowerCase().includes(filter) ||
                                            moveWords(m).toLowerCase().includes(filter)) : commands;
  // Text that matches nothing (a rejected command, a typo) never hides the list: it says so and shows them all.
  const matching = narrowed.length ? narrowed : commands;
  const shown = matching.slice(0, LEGAL_BUTTONS_MAX);
  const more = matching.length - shown.length;
  $("legal-count").textContent = number(commands.length);
  box.replaceChildren();
  if (!commands.length) {
    html("p", "note", ctx.replay ? t("Replay: return to the live game to play.") : t("No move for you now."), box);
  }
  if (filter && !narrowed.length && commands.length) {
    html("p", "note no-match", tn("No move contains “{text}”; the only one is listed.",
                                  "No move contains “{text}”; all {n} are listed.", commands.length,
                                  {text: filter, n: commands.length}), box);
  }
  for (const move of shown) {
    const range = / (\d+)\.\.(\d+)$/.exec(move);  // "commit 0..5": a number to choose, in the text box
    if (range) {
      const typed = `${move.slice(0, range.index)} ${range[1]}`;
      button(move, () => { $("typed-move").value = typed; $("typed-move").focus(); }, "move", box)
        .setAttribute("aria-label", t("Type {move}, then change its number ({low} to {high})",
                                      {move: typed, low: range[1], high: range[2]}));
      continue;
    }
    button(moveWords(move), () => ctx.send(move), "move", box).setAttribute("aria-label", t("Play {move}", {move}));
  }
  if (more > 0) {
    html("p", "note", tn("…and {n} more: type in the box to narrow the list.",
                         "…and {n} more: type in the box to narrow the list.", more, {n: more}), box);
  }
  const options = $("legal-options");
  options.replaceChildren();
  for (const move of shown) {
    const option = document.createElement("option");
    option.value = moveWords(move);
    options.appendChild(option);
  }
  const details = $("legal-details");
  if (!details.dataset.touched) details.open = !ctx.hasBoard;
  // The Send button stays on: a move typed out of turn is answered with why it is not played (game.js, send).
}

/** The move list, one line per step (one command's events, replay.js), numbered by turn; a line shows the board
    after that step, and a step of several lines lists them one by one on demand, each showing the board then.
    ctx: {steps, version (shown), replaying, open: Set of opened step indexes, onPick(version), onToggle(index)} */
function moves(ctx) {
  const list = $("moves");
  const wasAtBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren();
  let currentItem = null;
  for (const step of ctx.steps) {
    const item = html("li", step.seat === null && step.index ? "move-line table-line" : "move-line", null, list);
    item.dataset.step = String(step.index);
    const here = step.first <= ctx.version && ctx.version <= step.last;
    if (step.first > ctx.version) item.classList.add("future");
    if (here) {
      item.classList.add("current");
      currentItem = item;
    }
    const row = html("div", "move-row", null, item);
    const b = button("", () => ctx.onPick(step.last), "move-link", row);
    html("span", "version", step.number, b);
    html("span", "text", step.label, b);
    b.setAttribute("aria-label", step.index ? t("{line} Show the board after it.", {line: step.label})
      : t("The start: {line}. Show the board then.", {line: step.label}));
    if (here) b.setAttribute("aria-current", "step");
    const open = ctx.open.has(step.index);
    if (step.events.length > 1 || open) {
      const more = button(open ? t("Less") : t("More"), () => ctx.onToggle(step.index), "quiet events-toggle", row);
      more.setAttribute("aria-expanded", open ? "true" : "false");
      more.setAttribute("aria-label", tn("What happened, line by line ({n} line)",
                                         "What happened, line by line ({n} lines)", step.events.length,
                                         {n: step.events.length}));
    }
    if (open) {
      const sub = html("ol", "event-list", null, item);
      for (const event of step.events) {
        const li = html("li", "event-line", null, sub);
        if (event.version === ctx.version) li.classList.add("current-event");
        const e = button("", () => ctx.onPick(event.version), "event-link", li);
        const line = sayOr(event.say, event.text || event.type, ctx.names);
        html("span", "text", line, e);
        e.setAttribute("aria-label", t("{line} Show the board then.", {line}));
      }
    }
  }
  if (ctx.replaying && currentItem) {
    // Keep the replayed line in sight, without scrolling the page itself.
    const top = currentItem.offsetTop;
    if (top < list.scrollTop || top + currentItem.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  } else if (wasAtBottom || !ctx.replaying) {
    list.scrollTop = list.scrollHeight;
  }
}

/** The replay controls and banner. ctx: {step, steps (count), move (moves made by the step shown), moves (in
    all), latest (version), replaying, yourTurn, onLive} */
function replay(ctx) {
  const slider = $("replay-slider");
  const lastStep = Math.max(0, ctx.steps - 1);
  slider.max = String(lastStep);
  slider.value = String(ctx.step);
  slider.dataset.latest = String(ctx.latest);  // the newest version shown (the browser tests wait for it)
  const where = ctx.move ? t("Move {n} of {total}", {n: ctx.move, total: ctx.moves})
    : tn("The start (of {n} move)", "The start (of {n} moves)", ctx.moves, {n: ctx.moves});
  slider.setAttribute("aria-valuetext", where);
  $("replay-label").textContent = ctx.replaying ? t("{where} (replay)", {where})
    : ctx.moves ? tn("{n} move (live)", "{n} moves (live)", ctx.moves, {n: ctx.moves}) : t("The start (live)");
  $("replay-first").disabled = ctx.step <= 0;
  $("replay-prev").disabled = ctx.step <= 0;
  $("replay-next").disabled = !ctx.replaying;
  $("replay-live").disabled = !ctx.replaying;
  const banner = $("replay-banner");
  banner.hidden = !ctx.replaying;
  banner.classList.toggle("your-turn", Boolean(ctx.replaying && ctx.yourTurn));
  banner.replaceChildren();
  if (ctx.replaying) {
    if (ctx.yourTurn) {
      html("strong", "", t("It is your turn in the live game."), banner);
      banner.append(" ");
      button(t("Your turn — back to live"), ctx.onLive, "primary", banner);
      html("span", "note", t("(you are looking at: {where})", {where}), banner);
    } else {
      html("span", "", t("Replay: {where}.", {where}), banner);
      banner.append(" ");
      button(t("Back to the live game"), ctx.onLive, "", banner);
    }
  }
}

export {status, players, legal, moves, replay};

/* The game page's panels around the board: status and result, players and seat tools, legal commands, the move
   list and the replay controls. Pure drawing: each function gets the data and the callbacks it needs from the
   frame (game.js), which owns the state. Ids are those of templates/game.html. */
import {html, button} from "./dom.js";
import {t} from "./i18n.js";
import {profileUrl} from "./accounts.js";

const $ = (id) => document.getElementById(id);
const LEGAL_BUTTONS_MAX = 240;

/** ctx: {acting: seat | null, replay: bool, offline: bool, label(seat), isAi(seat), offer: seat | null (a draw
    offer a seat held here may answer)} */
function status(doc, ctx) {
  const box = $("status");
  box.classList.remove("thinking", "your-turn", "offline");
  let text;
  if (ctx.offline) {
    text = "Connection lost: reconnecting… The board may be out of date.";
    box.classList.add("offline");
  } else if (doc.status === "finished") {
    text = "The game is over.";
  } else if (ctx.acting !== null) {
    text = `Your turn: ${ctx.label(ctx.acting)}.`;
    box.classList.add("your-turn");
  } else if (!doc.to_act.length) {
    const open = doc.status === "setup" ? doc.open_seats || [] : [];
    const kept = open.filter((seat) => ((doc.players || [])[seat] || {}).name);  // a rematch's, for their players
    if (kept.length) text = `Waiting for ${kept.map(ctx.label).join(", ")} to take ${kept.length > 1 ? "their seats"
      : "their seat"}.`;
    else if (open.length) text = `Waiting for ${open.length > 1 ? "players to take the open seats" :
      "a player to take the open seat"}.`;
    else text = "Waiting…";
  } else {
    const names = doc.to_act.map(ctx.label).join(", ");
    const ai = doc.to_act.filter(ctx.isAi);
    if (ctx.replay) {
      text = `${names} to play.`;  // a replayed position: nobody is thinking there
    } else if (ai.length) {
      text = `${ai.map(ctx.label).join(", ")} thinking…`;
      box.classList.add("thinking");
    } else {
      text = `Waiting for ${names}.`;
    }
  }
  if (ctx.replay && !ctx.offline) text = `Replay. ` + text;
  // #15: on a phone the answer buttons are below the board: the top says it, and takes you to them.
  const offered = ctx.offer !== null && ctx.offer !== undefined && !ctx.offline && doc.status !== "finished";
  if (offered) text = `${ctx.label(ctx.offer)} offers a draw. ` + text;
  box.textContent = text;
  if (offered) {
    button("Answer the offer", () => {
      const accept = document.querySelector('[data-move="accept draw"]');
      if (accept) {
        accept.scrollIntoView({block: "center"});
        accept.focus();
      }
    }, "answer-draw", box);
  }

  const result = $("result");
  if (doc.result) {
    const winners = doc.result.winners || [];
    // An aborted game has no result at all: not "A draw" (its reason says so); a reason that says "draw" itself
    // needs no "A draw:" before it ("A draw: Draw: the limit of 80 plies was reached").
    const reason = doc.result.reason || "";
    const who = winners.length ? winners.map(ctx.label).join(" and ") + (winners.length > 1 ? " win" : " wins")
      : doc.result.termination === "aborted" || /\bdraw\b/i.test(reason) ? null : "A draw";
    // A reason that names the winner itself ("Bo resigns. Ana wins.", "Ana wins with 12 points.") is said once.
    const said = winners.length && /\b(wins?|share the win)\b/i.test(reason);
    result.textContent = who && !said ? `${who}: ${reason}` : reason.charAt(0).toUpperCase() + reason.slice(1);
    result.hidden = false;
  } else {
    result.hidden = true;
    result.textContent = "";
  }
}

/** ctx: {held: [seat], replay: bool, label(seat), isAi(seat), dot(seat) → CSS class | null, onCopy(seat),
    onRelease(seat)} */
let playersKey = "";

function players(doc, ctx) {
  const list = $("players");
  // Drawn again only when something in it changed: the page renders often (beats, notices), and a list rebuilt
  // under a reader's eyes or a pointer loses its place.
  const key = JSON.stringify([doc.players, doc.to_act, doc.online, doc.status, doc.result && doc.result.winners,
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
    if (doc.online && !player.ai && !player.open) {  // its player has the game's page (or their account) open
      const here = doc.online[seat];
      const presence = html("span", here ? "online" : "offline", here ? "●" : "○", line);
      presence.title = here ? t("online") : t("away");
      presence.setAttribute("aria-label", presence.title);
    }
    const tags = [];
    if (player.ai) tags.push(`AI, ${player.ai}`);
    if (mine) tags.push("played here");
    if (player.left) tags.push("left the game");  // resigned or out of time, with three seats or more
    if (doc.to_act.includes(seat)) {
      tags.push(ctx.isAi(seat) && doc.status !== "finished" && !ctx.replay ? "thinking…" : "to play");
    }
    if (doc.result && (doc.result.winners || []).includes(seat)) tags.push("winner");
    if (tags.length) html("span", "seat-tags", tags.join(" · "), item);
  }
  const tools = $("seat-tools");
  tools.replaceChildren();
  if (!ctx.held.length) {
    html("p", "note", "You are watching. A seat's link lets its player play here.", tools);
    return;
  }
  for (const seat of ctx.held) {
    const row = html("p", "seat-tool", null, tools);
    button(`Copy the link for seat ${seat}`, () => ctx.onCopy(seat), "", row)
      .setAttribute("aria-label", `Copy the link for seat ${seat}, ${ctx.label(seat)}`);
    if (ctx.held.length > 1) button(`Stop playing seat ${seat} here`, () => ctx.onRelease(seat), "quiet", row);
  }
}

/** The generic fallback: every legal command as a button (narrowed by the text box), and the text box. */
function legal(commands, ctx) {
  const box = $("legal");
  const filter = $("typed-move").value.trim().toLowerCase();
  const narrowed = filter ? commands.filter((m) => m.toLowerCase().includes(filter)) : commands;
  // Text that matches nothing (a rejected command, a typo) never hides the list: it says so and shows them all.
  const matching = narrowed.length ? narrowed : commands;
  const shown = matching.slice(0, LEGAL_BUTTONS_MAX);
  const more = matching.length - shown.length;
  $("legal-count").textContent = String(commands.length);
  box.replaceChildren();
  if (!commands.length) {
    html("p", "note", ctx.replay ? "Replay: return to the live game to play." : "No command for you now.", box);
  }
  if (filter && !narrowed.length && commands.length) {
    html("p", "note no-match", `No legal command contains “${filter}”; all ${commands.length} are listed.`, box);
  }
  for (const move of shown) {
    const range = / (\d+)\.\.(\d+)$/.exec(move);  // "commit 0..5": a number to choose, in the text box
    if (range) {
      const typed = `${move.slice(0, range.index)} ${range[1]}`;
      button(move, () => { $("typed-move").value = typed; $("typed-move").focus(); }, "move", box)
        .setAttribute("aria-label", `Type ${typed}, then change its number (${range[1]} to ${range[2]})`);
      continue;
    }
    button(move, () => ctx.send(move), "move", box).setAttribute("aria-label", `Play ${move}`);
  }
  if (more > 0) html("p", "note", `…and ${more} more: type in the box to narrow the list.`, box);
  const options = $("legal-options");
  options.replaceChildren();
  for (const move of shown) {
    const option = document.createElement("option");
    option.value = move;
    options.appendChild(option);
  }
  const details = $("legal-details");
  if (!details.dataset.touched) details.open = !ctx.hasBoard;
  $("typed").querySelector("button").disabled = !commands.length;
}

/** The move list, one line per step (one command's events); a line shows the board after that step, its
    "events" button lists the step's events one by one, each showing the board as of its version.
    ctx: {steps, version (shown), replaying, open: Set of opened step indexes, onPick(version), onToggle(index)} */
function moves(ctx) {
  const list = $("moves");
  const wasAtBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren();
  let currentItem = null;
  for (const step of ctx.steps) {
    const item = html("li", "move-line", null, list);
    item.dataset.step = String(step.index);
    const here = step.first <= ctx.version && ctx.version <= step.last;
    if (step.first > ctx.version) item.classList.add("future");
    if (here) {
      item.classList.add("current");
      currentItem = item;
    }
    const row = html("div", "move-row", null, item);
    const b = button("", () => ctx.onPick(step.last), "move-link", row);
    html("span", "version", step.index ? String(step.index) : "·", b);
    html("span", "text", step.label, b);
    b.setAttribute("aria-label", `${step.index ? "Move " + step.index : "The start"}: ${step.label}. ` +
                   "Show the board after it.");
    if (here) b.setAttribute("aria-current", "step");
    const open = ctx.open.has(step.index);
    if (step.events.length > 1 || open) {
      const t = button(`${step.events.length} events`, () => ctx.onToggle(step.index), "quiet events-toggle", row);
      t.setAttribute("aria-expanded", open ? "true" : "false");
      t.setAttribute("aria-label", `The ${step.events.length} events of ${step.index ? "move " + step.index
        : "the start"}`);
    }
    if (open) {
      const sub = html("ol", "event-list", null, item);
      for (const event of step.events) {
        const li = html("li", "event-line", null, sub);
        if (event.version === ctx.version) li.classList.add("current-event");
        const e = button("", () => ctx.onPick(event.version), "event-link", li);
        html("span", "version", "v" + event.version, e);
        html("span", "text", event.text || event.type, e);
        e.setAttribute("aria-label", `Version ${event.version}: ${event.text || event.type}. Show the board then.`);
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

/** The replay controls and banner. ctx: {step, steps (count), version, latest, replaying, yourTurn, onLive} */
function replay(ctx) {
  const slider = $("replay-slider");
  const lastStep = Math.max(0, ctx.steps - 1);
  slider.max = String(lastStep);
  slider.value = String(ctx.step);
  slider.dataset.latest = String(ctx.latest);
  slider.setAttribute("aria-valuetext", ctx.step ? `Move ${ctx.step} of ${lastStep}` : "The start");
  const where = ctx.step ? `Move ${ctx.step} of ${lastStep}` : `The start (of ${lastStep} moves)`;
  $("replay-label").textContent = ctx.replaying ? `${where} (replay, version ${ctx.version} of ${ctx.latest})`
    : `${lastStep ? "Move " + lastStep : "The start"} (live, version ${ctx.latest})`;
  $("replay-first").disabled = ctx.version <= 1;
  $("replay-prev").disabled = ctx.version <= 1;
  $("replay-next").disabled = !ctx.replaying;
  $("replay-live").disabled = !ctx.replaying;
  const banner = $("replay-banner");
  banner.hidden = !ctx.replaying;
  banner.classList.toggle("your-turn", Boolean(ctx.replaying && ctx.yourTurn));
  banner.replaceChildren();
  if (ctx.replaying) {
    if (ctx.yourTurn) {
      html("strong", "", "It is your turn in the live game. ", banner);
      button("Your turn — back to live", ctx.onLive, "primary", banner);
      html("span", "note", `(you are looking at ${where.toLowerCase()})`, banner);
    } else {
      html("span", "", `Replay: ${where.toLowerCase()}. `, banner);
      button("Back to the live game", ctx.onLive, "", banner);
    }
  }
}

export {status, players, legal, moves, replay};

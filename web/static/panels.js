/* The game page's panels around the board: status and result, players and seat tools, legal commands, the move
   list and the replay controls. Pure drawing: each function gets the data and the callbacks it needs from the
   frame (game.js), which owns the state. Ids are those of templates/game.html. */
(function () {
  "use strict";
  const {html, button} = window.BurrowDom;
  const $ = (id) => document.getElementById(id);
  const LEGAL_BUTTONS_MAX = 240;

  /** ctx: {acting: seat | null, replay: bool, label(seat), isAi(seat)} */
  function status(doc, ctx) {
    const box = $("status");
    box.classList.remove("thinking", "your-turn");
    let text;
    if (doc.status === "finished") {
      text = "The game is over.";
    } else if (ctx.acting !== null) {
      text = `Your turn: ${ctx.label(ctx.acting)}.`;
      box.classList.add("your-turn");
    } else if (!doc.to_act.length) {
      text = "Waiting…";
    } else {
      const names = doc.to_act.map(ctx.label).join(", ");
      const ai = doc.to_act.filter(ctx.isAi);
      if (ctx.replay) {
        text = `${names} to play.`;
      } else if (ai.length) {
        text = `${ai.map(ctx.label).join(", ")} thinking…`;
        box.classList.add("thinking");
      } else {
        text = `Waiting for ${names}.`;
      }
    }
    if (ctx.replay) text = `Replay of version ${doc.version}. ` + text;
    box.textContent = text;

    const result = $("result");
    if (doc.result) {
      const winners = doc.result.winners || [];
      const who = winners.length ? winners.map(ctx.label).join(" and ") + (winners.length > 1 ? " win" : " wins")
        : "A draw";
      result.textContent = `${who}: ${doc.result.reason}`;
      result.hidden = false;
    } else {
      result.hidden = true;
      result.textContent = "";
    }
  }

  /** ctx: {held: [seat], label(seat), isAi(seat), onCopy(seat), onRelease(seat)} */
  function players(doc, ctx) {
    const list = $("players");
    list.replaceChildren();
    for (const player of doc.players || []) {
      const seat = player.seat;
      const mine = ctx.held.includes(seat);
      const item = html("li", "player", null, list);
      if (doc.to_act.includes(seat)) item.classList.add("to-act");
      if (mine) item.classList.add("mine");
      html("span", "seat-name", ctx.label(seat), item);
      const tags = [];
      if (player.ai) tags.push(`AI, ${player.ai}`);
      if (mine) tags.push("played here");
      if (doc.to_act.includes(seat)) tags.push(ctx.isAi(seat) && doc.status !== "finished" ? "thinking…" : "to play");
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
    const matching = filter ? commands.filter((m) => m.toLowerCase().includes(filter)) : commands;
    const shown = matching.slice(0, LEGAL_BUTTONS_MAX);
    const more = matching.length - shown.length;
    $("legal-count").textContent = String(commands.length);
    box.replaceChildren();
    if (!commands.length) {
      html("p", "note", ctx.replay ? "Replay: return to the live game to play." : "No command for you now.", box);
    }
    for (const move of shown) {
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

  /** The move list; a line is a button that shows the board as of its version. */
  function moves(events, current, replaying, onPick) {
    const list = $("moves");
    const wasAtBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    list.replaceChildren();
    let currentItem = null;
    for (const event of events) {
      const item = html("li", "move-line", null, list);
      if (event.version > current) item.classList.add("future");
      if (event.version === current) {
        item.classList.add("current");
        currentItem = item;
      }
      const b = button("", () => onPick(event.version), "move-link", item);
      html("span", "version", String(event.version), b);
      html("span", "text", event.text || event.type, b);
      b.setAttribute("aria-label", `Version ${event.version}: ${event.text || event.type}. Show the board then.`);
      if (event.version === current) b.setAttribute("aria-current", "step");
    }
    if (replaying && currentItem) {
      // Keep the replayed line in sight, without scrolling the page itself.
      const top = currentItem.offsetTop;
      if (top < list.scrollTop || top + currentItem.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    } else if (wasAtBottom || !replaying) {
      list.scrollTop = list.scrollHeight;
    }
  }

  function replay(version, latest, replaying, onLive) {
    const slider = $("replay-slider");
    slider.max = String(Math.max(1, latest));
    slider.value = String(version);
    slider.setAttribute("aria-valuetext", `Version ${version} of ${latest}`);
    $("replay-label").textContent = replaying ? `Version ${version} of ${latest} (replay)` : `Version ${latest} (live)`;
    $("replay-first").disabled = version <= 1;
    $("replay-prev").disabled = version <= 1;
    $("replay-next").disabled = !replaying;
    $("replay-live").disabled = !replaying;
    const banner = $("replay-banner");
    banner.hidden = !replaying;
    banner.replaceChildren();
    if (replaying) {
      html("span", "", `Replay: version ${version} of ${latest}. `, banner);
      button("Back to the live game", onLive, "", banner);
    }
  }

  window.BurrowPanels = {status, players, legal, moves, replay};
})();

/* The lobby: create a game (game, options, seats human or AI), then play it here (one seat or all of them at one
   screen), or hand out a seat's link; and the list of games, refreshed every few seconds.

   The seat tokens of a new game stay in this page's memory, then go to sessionStorage (playing here) or to the
   clipboard (a link): never into the DOM, a query string or the console. */
(function () {
  "use strict";
  const {html, button, refocus} = window.BurrowDom;
  const {api, tokens} = window.BurrowApi;
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 4000;
  const TITLES = {};
  for (const option of $("game-choice").options) TITLES[option.value] = option.textContent.trim();

  /* The options of each game (RULES.md). Only values differing from the default are sent; a number left empty
     keeps the game's default. Types: "bool" (a checkbox), "count" (a positive integer), "int" (0 or more). */
  const COUNT = {type: "count", label: "End in a draw after this many plies (empty: never)"};
  const OPTIONS = {
    murus: [
      {name: "variant", label: "Variant", choices: [["basic", "Basic"], ["advanced", "Advanced (catapults)"]]},
      Object.assign({name: "max_plies"}, COUNT),
    ],
    mouseguard: [
      {name: "edge_points", type: "bool", label: "The outer line is playable too (63 points)"},
      {name: "exit_extra_step", type: "bool", label: "Leaving a stronghold takes one more step"},
      {name: "diplomacy_metric", label: "Diplomacy distance",
       choices: [["squares", "Squares (default)"], ["chebyshev", "Chebyshev"]]},
      Object.assign({name: "max_plies"}, COUNT),
    ],
    squirrels: [
      {name: "packs", label: "Boosters", choices: [["set", "Set Boosters"], ["draft", "Draft Boosters"]]},
      {name: "bonus_needs_one", type: "bool", label: "A bonus category needs at least one card"},
      Object.assign({name: "max_plies"}, COUNT),
    ],
    commando: [
      {name: "start_money", type: "int", label: "Banknotes at the start (default 3)"},
      {name: "start_maps", type: "int", label: "Maps at the start (default 1)"},
      {name: "fine", type: "int", label: "Fine (default 2)"},
      {name: "weapon_price", type: "int", label: "Price of a weapon (default 2)"},
      {name: "accessory_price", type: "int", label: "Price of an accessory (default 1)"},
      {name: "accessory_limit", type: "int", label: "Accessories held at most (default 3)"},
      Object.assign({name: "max_plies"}, COUNT),
    ],
  };
  const LEVELS = [["", "Human"], ["easy", "AI — easy"], ["normal", "AI — normal"], ["hard", "AI — hard"]];

  // ---------------------------------------------------------------- the form

  function chosenGame() {
    const select = $("game-choice");
    return select.options[select.selectedIndex];
  }

  function renderOptions() {
    const box = $("options");
    for (const node of [...box.children]) if (node.tagName !== "LEGEND") node.remove();
    const specs = OPTIONS[chosenGame().value] || [];
    if (!specs.length) html("p", "note", "This game has no options.", box);
    for (const spec of specs) {
      const label = html("label", spec.type === "bool" ? "field check" : "field", null, box);
      let input;
      if (spec.choices) {
        input = document.createElement("select");
        for (const [value, text] of spec.choices) {
          const option = html("option", "", text, input);
          option.value = value;
        }
      } else {
        input = document.createElement("input");
        input.type = spec.type === "bool" ? "checkbox" : "number";
        if (spec.type === "count" || spec.type === "int") {
          input.min = spec.type === "count" ? "1" : "0";
          input.inputMode = "numeric";
        }
      }
      input.name = spec.name;
      input.dataset.option = spec.name;
      if (spec.type === "bool") {
        label.appendChild(input);
        label.appendChild(document.createTextNode(" " + spec.label));
      } else {
        label.appendChild(document.createTextNode(spec.label + " "));
        label.appendChild(input);
      }
    }
  }

  function options() {
    const specs = OPTIONS[chosenGame().value] || [];
    const out = {};
    for (const spec of specs) {
      const input = $("options").querySelector(`[data-option="${spec.name}"]`);
      if (spec.type === "bool") {
        if (input.checked) out[spec.name] = true;
      } else if (spec.type === "count" || spec.type === "int") {
        if (input.value.trim()) out[spec.name] = Number(input.value);
      } else if (spec.choices && input.value !== spec.choices[0][0]) {
        out[spec.name] = input.value;
      }
    }
    return out;
  }

  function seatRow(index) {
    const hasAi = chosenGame().dataset.ai === "yes";
    const item = html("li", "seat-row", null);
    const nameLabel = html("label", "field", `Seat ${index} name `, item);
    const name = document.createElement("input");
    name.className = "seat-name";
    name.maxLength = 40;
    name.autocomplete = "off";
    name.value = `Player ${index + 1}`;
    nameLabel.appendChild(name);
    const kindLabel = html("label", "field", "played by ", item);
    const kind = document.createElement("select");
    kind.className = "seat-kind";
    for (const [value, text] of LEVELS) {
      const option = html("option", "", text, kind);
      option.value = value;
      option.disabled = Boolean(value) && !hasAi;
    }
    kind.addEventListener("change", () => {
      if (kind.value && /^Player \d+$/.test(name.value)) name.value = `Bot ${index + 1}`;
      if (!kind.value && /^Bot \d+$/.test(name.value)) name.value = `Player ${index + 1}`;
    });
    kindLabel.appendChild(kind);
    return item;
  }

  function renderSeats(count) {
    const list = $("seats");
    const game = chosenGame();
    const min = Number(game.dataset.minSeats);
    const max = Number(game.dataset.maxSeats);
    const wanted = Math.max(min, Math.min(max, count));
    while (list.children.length > wanted) list.lastElementChild.remove();
    while (list.children.length < wanted) list.appendChild(seatRow(list.children.length));
    $("add-seat").disabled = wanted >= max;
    $("remove-seat").disabled = wanted <= min;
    $("add-seat").hidden = $("remove-seat").hidden = min === max;
    $("ai-note").hidden = game.dataset.ai === "yes";
  }

  function onGameChange() {
    renderOptions();
    $("seats").replaceChildren();
    renderSeats(Number(chosenGame().dataset.minSeats));
  }

  function players() {
    return [...$("seats").children].map((row) => {
      const player = {name: row.querySelector(".seat-name").value.trim()};
      const level = row.querySelector(".seat-kind").value;
      if (level) player.ai = level;
      return player;
    });
  }

  function showError(text) {
    $("create-error").textContent = text;
  }

  async function create(event) {
    event.preventDefault();
    showError("");
    const body = {game: chosenGame().value, players: players(), options: options()};
    const seed = $("seed").value.trim();
    if (seed) body.seed = Number(seed);
    const position = $("position").value.trim();
    if (position) {
      try {
        body.position = JSON.parse(position);
      } catch (err) {
        showError("The starting position is not valid JSON.");
        $("position").focus();
        return;
      }
    }
    const submit = $("create-button");
    submit.disabled = true;
    try {
      const answer = await api("/api/games", {method: "POST", body});
      showCreated(body.game, answer);
      pollGames();
    } catch (err) {
      showError(err.message);
    } finally {
      submit.disabled = false;
    }
  }

  // ---------------------------------------------------------------- after creation

  function playHere(gid, seatTokens) {
    if (tokens.save(gid, seatTokens)) {
      location.assign("/games/" + encodeURIComponent(gid));
    } else {
      // No sessionStorage: hand the tokens over in the fragment instead (the game page removes it at once).
      location.assign("/games/" + encodeURIComponent(gid) + "#tokens=" + seatTokens.map(encodeURIComponent).join(","));
    }
  }

  async function copySeatLink(gid, seat) {
    const url = tokens.link(gid, seat.token);
    try {
      await navigator.clipboard.writeText(url);
      $("created-summary").textContent = `The link for seat ${seat.seat} (${seat.name}) is copied.`;
    } catch (err) {
      window.prompt(`The link for seat ${seat.seat} (copy it):`, url);
    }
  }

  function showCreated(game, answer) {
    const humans = answer.seats.filter((s) => s.token);
    const names = answer.seats.map((s) => (s.ai ? `${s.name} (AI, ${s.ai})` : s.name)).join(", ");
    $("created-summary").textContent = `${TITLES[game] || game}, game ${answer.id}: ${names}.`;
    const actions = $("created-actions");
    actions.replaceChildren();
    if (humans.length > 1) {
      button(`Play all ${humans.length} seats here (hot seat)`, () => playHere(answer.id, humans.map((s) => s.token)),
             "primary", actions);
    }
    for (const seat of humans) {
      const row = html("p", "seat-actions", null, actions);
      button(`Play seat ${seat.seat} (${seat.name}) here`, () => playHere(answer.id, [seat.token]),
             humans.length === 1 ? "primary" : "", row);
      button(`Copy the link for seat ${seat.seat}`, () => copySeatLink(answer.id, seat), "", row);
    }
    const watch = html("a", "watch", "Watch this game", actions);
    watch.href = "/games/" + encodeURIComponent(answer.id);
    $("created").hidden = false;
    const first = actions.querySelector("button, a");
    if (first) first.focus();
  }

  // ---------------------------------------------------------------- the list of games

  let statusFilter = "";
  let lastList = "";

  /** When a game last changed (its creation if the server does not know better). */
  function changed(g) {
    return Math.max(Date.parse(g.updated) || 0, Date.parse(g.created) || 0);
  }

  function ago(time) {
    const seconds = Math.max(0, (Date.now() - time) / 1000);
    if (!isFinite(seconds)) return "";
    if (seconds < 60) return "just now";
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
    if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
    return `${Math.floor(seconds / 86400)} d ago`;
  }

  function describeGame(g) {
    const name = (seat) => (g.players[seat] ? g.players[seat].name : `seat ${seat}`);
    if (g.status === "finished") {
      const winners = (g.result && g.result.winners) || [];
      return winners.length ? `Finished: ${winners.map(name).join(" and ")} won` : "Finished: a draw";
    }
    if (g.status === "setup") return "Open: setting up" + (g.to_act.length ? `, waiting for ${g.to_act.map(name).join(", ")}` : "");
    return g.to_act.length ? `Running: ${g.to_act.map(name).join(", ")} to play` : "Running";
  }

  function renderGames(games) {
    const list = $("games");
    const focused = document.activeElement && list.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-key") : null;
    list.replaceChildren();
    $("games-status").textContent = games.length ? `${games.length} game${games.length === 1 ? "" : "s"}`
      : "No games yet: create one above.";
    for (const g of games) {
      const item = html("li", `game-item status-${g.status}`, null, list);
      const link = html("a", "game-link", null, item);
      link.href = "/games/" + encodeURIComponent(g.id);
      link.dataset.key = g.id;
      html("span", "game-title", TITLES[g.game] || g.game, link);
      html("span", "game-players", g.players.map((p) => (p.ai ? `${p.name} (AI)` : p.name)).join(" vs "), link);
      const held = tokens.stored(g.id).length;
      html("span", "game-state", describeGame(g) + (held ? ` · you hold ${held === 1 ? "a seat" : held + " seats"}` : ""),
           link);
      html("span", "game-time", `#${g.id} · ${ago(changed(g))}`, link);
    }
    refocus(list, focused);
  }

  async function pollGames() {
    try {
      const query = statusFilter ? "?status=" + encodeURIComponent(statusFilter) : "";
      const body = await api("/api/games" + query);
      const games = body.games.slice().sort((a, b) => changed(b) - changed(a));
      const key = JSON.stringify(games);
      if (key !== lastList) {
        lastList = key;
        renderGames(games);
      }
    } catch (err) {
      $("games-status").textContent = "The list of games cannot be loaded right now; retrying.";
    }
  }

  function bindFilters() {
    for (const b of document.querySelectorAll(".filter")) {
      b.addEventListener("click", () => {
        statusFilter = b.dataset.status;
        for (const other of document.querySelectorAll(".filter")) {
          other.setAttribute("aria-pressed", other === b ? "true" : "false");
        }
        lastList = "";
        pollGames();
      });
    }
  }

  // ---------------------------------------------------------------- start

  $("game-choice").addEventListener("change", onGameChange);
  $("add-seat").addEventListener("click", () => renderSeats($("seats").children.length + 1));
  $("remove-seat").addEventListener("click", () => renderSeats($("seats").children.length - 1));
  $("create").addEventListener("submit", create);
  bindFilters();
  onGameChange();
  pollGames();
  setInterval(() => { if (!document.hidden) pollGames(); }, POLL_MS);
})();

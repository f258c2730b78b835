/* Rules at hand: the short summary of each game comes from the game catalog (GET /api/catalog, its "rules"); the
   longer help with its pictures is in the page (templates/rules/<game>.html). Links with data-open="<id>" open
   the <details> they point to. Without a catalog the summary line stays hidden and the help is still there. */
import {lang} from "./i18n.js";

let catalog = null;

async function load() {
  if (catalog) return catalog;
  try {
    const response = await fetch("/api/catalog?lang=" + encodeURIComponent(lang),
                                 {headers: {"Accept": "application/json"}});
    const body = response.ok ? await response.json() : null;
    catalog = new Map(((body && body.games) || []).map((g) => [g.name, g]));
  } catch (err) {
    catalog = new Map();
  }
  return catalog;
}

/** Fill every [data-game] summary element (class rules-summary) from the catalog. */
async function fill() {
  const games = await load();
  for (const node of document.querySelectorAll(".rules-summary[data-game]")) {
    const entry = games.get(node.dataset.game);
    node.textContent = entry && entry.rules ? entry.rules : "";
    node.hidden = !node.textContent;
  }
}

for (const link of document.querySelectorAll("a[data-open]")) {
  link.addEventListener("click", () => {
    const target = document.getElementById(link.dataset.open);
    if (target && target.tagName === "DETAILS") target.open = true;
  });
}
fill();
export {load, fill};

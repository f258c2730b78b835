/* The game catalog (GET /api/catalog) in the page's language, fetched once per page: each game's title, options,
   AI levels and rules summary, by name. Without it a game is called by its name and the forms offer no options. */
import {lang} from "./i18n.js";

let catalog = null;

/** The catalog: a Map from a game's name to its entry (empty when it cannot be loaded). */
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

/** A game's title in the page's language ("Murus Gallicus"), or its name when the catalog is not at hand. */
async function title(name) {
  const entry = (await load()).get(name);
  return (entry && entry.title) || name;
}

export {load, title};

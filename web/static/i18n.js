/* The page's words in the reader's language, from the same catalogs as the server's (web/translations/, served
   as JSON by GET /i18n/<lang>.json: the address is in <body data-strings>, the language in <body data-lang>).

     t("Move {n} of {total}", {n: 12, total: 40})     a sentence; its {fields} filled (numbers as the language
                                                      writes them)
     tn("{n} card", "{n} cards", count, {n: count})   the form the number asks for (Intl.PluralRules)
     say(form, names)                                 a sentence the server sent with its message id ("say" beside
                                                      a feed line's "text" or a result's "reason"), seats named
     number(12345)                                    "12,345" / "12 345" / "12,345"

   Babel's extractor finds t("...") and tn("...", "...") (babel.cfg): write the English literally inside them. */

const body = document.body;
export const lang = (body && body.dataset.lang) || "en";
export const htmlLang = document.documentElement.lang || lang;

let messages = {};
let plurals = ["one", "other"];

if (lang !== "en" && body && body.dataset.strings) {
  try {
    const response = await fetch(body.dataset.strings, {headers: {"Accept": "application/json"}});
    if (response.ok) {
      const catalog = await response.json();
      messages = catalog.messages || {};
      plurals = catalog.plurals || plurals;
    }
  } catch (err) {
    // No catalog (offline, a proxy's error): the page speaks English rather than not at all.
  }
}

const numbers = new Intl.NumberFormat(htmlLang, {useGrouping: false});
const rules = new Intl.PluralRules(htmlLang);

/** ``value`` written as the page's language writes numbers (other values as they are). */
export function number(value) {
  return typeof value === "number" && Number.isFinite(value) ? numbers.format(value) : String(value);
}

/** ``pattern`` with each {field} replaced by its value in ``args``. */
export function fill(pattern, args) {
  if (!args) return pattern;
  return pattern.replace(/\{(\w+)\}/g, (whole, key) => (key in args ? number(args[key]) : whole));
}

/** The translation of ``id`` (its English when the catalog has none), its fields filled; a move given as a
    field (``move``, ``best``, ``played``) is written with the reader's words (moveWords). */
export function t(id, args) {
  const found = messages[id];
  return fill(typeof found === "string" && found ? found : id, args && withMoveWords(args));
}

// ---------------------------------------------------------------- the words inside moves

/* The notation's words (docs/rules.md: Mouse Guard's cards, Foraging Squirrels' colours and directions, Mission
   commando's commands), each with its message id: a move written for people says them in the reader's language
   ("c3-c4 épée c5 d5", "vert gauche"); a move typed in them is sent in the notation's own (fromMoveWords). Cells,
   points and numbers never change. A colour letter is a word only before a direction ("G left"). */
let wordsCache = null;

/** Each word of the notation and its words in the page's language (a word without a translation: itself). */
function notationWords() {
  if (wordsCache) return wordsCache;
  const words = {
    sword: t("notation: sword"), stronghold: t("notation: stronghold"), diplomacy: t("notation: diplomacy"),
    exit: t("notation: exit"), rescue: t("notation: rescue"), pass: t("notation: pass"), place: t("notation: place"),
    left: t("notation: left"), right: t("notation: right"), up: t("notation: up"), down: t("notation: down"),
    dig: t("notation: dig"), roll: t("notation: roll"), map: t("notation: map"), buy: t("notation: buy"),
    weapon: t("notation: weapon"), accessory: t("notation: accessory"), done: t("notation: done"),
    challenge: t("notation: challenge"), no: t("notation: no"), commit: t("notation: commit"),
    swap: t("notation: swap"), stay: t("notation: stay"), pay: t("notation: pay"), retreat: t("notation: retreat"),
    use: t("notation: use"), accept: t("notation: accept"),
  };
  const colours = {W: t("notation: W"), U: t("notation: U"), B: t("notation: B"), R: t("notation: R"),
                   G: t("notation: G"), C: t("notation: C")};
  const keep = (table) => new Map(Object.entries(table).map(([word, shown]) => [word,
    shown.startsWith("notation: ") ? word : shown]));
  wordsCache = {words: keep(words), colours: keep(colours)};
  return wordsCache;
}

const DIRECTIONS = new Set(["left", "right", "up", "down"]);
const MOVE_FIELDS = ["move", "best", "played"];

function withMoveWords(args) {
  if (lang === "en" || !MOVE_FIELDS.some((key) => typeof args[key] === "string")) return args;
  const out = {...args};
  for (const key of MOVE_FIELDS) if (typeof out[key] === "string") out[key] = moveWords(out[key]);
  return out;
}

/** A move in the notation written with the reader's words ("G left" → "vert gauche" in French). */
export function moveWords(text) {
  if (lang === "en" || typeof text !== "string") return text;
  const {words, colours} = notationWords();
  const tokens = text.split(/(\s+|;)/);
  return tokens.map((token, i) => {
    if (words.has(token)) return words.get(token);
    const next = tokens.slice(i + 1).find((x) => x.trim() && x !== ";");
    return colours.has(token) && DIRECTIONS.has(next) ? colours.get(token) : token;
  }).join("");
}

/** A move typed with the reader's words (or the notation's) in the notation's words, as the server reads it. */
export function fromMoveWords(text) {
  if (lang === "en" || typeof text !== "string") return text;
  const {words, colours} = notationWords();
  const back = new Map();
  for (const table of [words, colours]) {
    for (const [word, shown] of table) if (shown !== word) back.set(shown.toLowerCase(), word);
  }
  return text.split(/(\s+|;)/).map((token) => back.get(token.toLowerCase()) ?? token).join("");
}

/** The form of a plural sentence that ``n`` asks for, its fields filled. */
export function tn(singular, plural, n, args) {
  args = args && withMoveWords(args);
  const forms = messages[singular];
  if (Array.isArray(forms) && forms.length) {
    const index = plurals.indexOf(rules.select(n));
    const form = forms[index >= 0 && index < forms.length ? index : forms.length - 1];
    if (form) return fill(form, args);
  }
  return fill(n === 1 ? singular : plural, args);
}

const conjunction = typeof Intl.ListFormat === "function" ? new Intl.ListFormat(htmlLang, {type: "conjunction"})
  : null;

/** ``items`` as one phrase of the page's language: "Ana, Bo and Cy", "Ana, Bo et Cy", "Ana、Bo和Cy". */
export function list(items) {
  const words = [...items].map(String);
  if (conjunction) return conjunction.format(words);
  return words.length > 1 ? words.slice(0, -1).join(", ") + " & " + words[words.length - 1] : words.join("");
}

const LEVELS = {easy: t("easy"), normal: t("normal"), hard: t("hard")};

/** An AI level's name ("easy", "normal", "hard") in the page's language. */
export function levelName(level) {
  return LEVELS[level] || level;
}

/** The players of a game facing each other: "Ana vs Bo vs Cy". */
export function versus(names) {
  return names.join(t(" vs "));
}

/** The player of a seat: their name, else "Player N". */
export function player(seat, names) {
  const name = names && names[seat];
  return name || t("Player {number}", {number: seat + 1});
}

/** A sentence the server sent as its JSON form (``domain/text.py``, ``Text.form``), said in the page's
    language; ``names`` are the players' names by seat. A plain value is said as it is. */
export function say(form, names) {
  if (form === null || form === undefined) return "";
  if (typeof form !== "object") return number(form);
  if (Array.isArray(form)) return form.map((item) => say(item, names)).join(", ");
  if ("seat" in form) return form.name || player(form.seat, names);
  const args = {};
  for (const [key, value] of Object.entries(form.args || {})) args[key] = say(value, names);
  if (form.plural) return tn(form.id, form.plural, (form.args || {}).n, args);
  return t(form.id, args);
}

/** The text of a feed line or result in the page's language: from its ``say`` form when it has one. */
export function sayOr(form, fallback, names) {
  return form ? say(form, names) : fallback || "";
}

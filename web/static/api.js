/* The browser's side of the API: JSON requests with errors in words, and the seat tokens of each game.

   Tokens arrive in a seat's link as a URL fragment (#token=T, or #tokens=T0,T1 for a hot seat), are kept in
   localStorage under "burrow:tokens:<gid>" (a seat survives a reload, a new tab, a new visit; seats this tab kept
   in sessionStorage before come along) and removed from the address bar at once. They only ever travel in an
   Authorization header: never in a query string, never in the DOM, never in the console.

   An ES module: import {api, ApiError, tokens} from "/static/api.js". */

import {t} from "./i18n.js";

class ApiError extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field || null;  // the request field the server names, when it names one
  }
}

/** ``path`` as JSON; ``options``: {token, method, body}. Throws ApiError with the server's message. */
async function api(path, options) {
  const opts = options || {};
  const headers = {"Accept": "application/json"};
  if (opts.token) headers["Authorization"] = "Bearer " + opts.token;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {method: opts.method || "GET", headers, cache: "no-store",
                                  body: opts.body === undefined ? undefined : JSON.stringify(opts.body)});
  } catch (err) {
    throw new ApiError(0, "network", t("The server cannot be reached; check your connection."));
  }
  let body = null;
  try {
    body = await response.json();
  } catch (err) {
    body = null;
  }
  if (!response.ok) {
    const e = (body && body.error) || {};
    throw new ApiError(response.status, e.code || "http_" + response.status,
                       withoutField(e.message, e.field) || t("The server answered {status}.",
                                                             {status: String(response.status)}), e.field);
  }
  return body;
}

/** A server message as a player reads it: without the request field it starts with ("username: 'Ann' is taken"
    → "'Ann' is taken"; the page says which field it is about). */
function withoutField(message, field) {
  const text = String(message || "");
  if (!field) return text;
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const rest = text.replace(new RegExp("^" + escaped + "\\s*[:：]\\s*"), "");
  return rest || text;
}

const PREFIX = "burrow:tokens:";

function readList(storage, key) {
  try {
    const list = JSON.parse(storage.getItem(key) || "[]");
    return Array.isArray(list) ? list.filter((t) => typeof t === "string" && t) : [];
  } catch (err) {
    return [];
  }
}

const tokens = {
  /** The tokens this browser keeps for game ``gid``. */
  stored(gid) {
    const kept = readList(localStorage, PREFIX + gid);
    // Seats this tab held before tokens moved to localStorage come along.
    let tab = [];
    try {
      tab = readList(sessionStorage, PREFIX + gid);
    } catch (err) {
      tab = [];
    }
    return [...new Set([...kept, ...tab])];
  },

  /** Keep ``list`` for game ``gid`` (an empty list forgets them); false when storage is unavailable. */
  save(gid, list) {
    try {
      if (list.length) localStorage.setItem(PREFIX + gid, JSON.stringify(list));
      else localStorage.removeItem(PREFIX + gid);
      try {
        sessionStorage.removeItem(PREFIX + gid);
      } catch (err) { /* no sessionStorage: nothing to move */ }
      return true;
    } catch (err) {
      return false;
    }
  },

  /** Every game this browser holds a seat of. */
  games() {
    const found = [];
    try {
      for (let i = 0; i < localStorage.length; i += 1) {
        const key = localStorage.key(i);
        if (key && key.startsWith(PREFIX)) found.push(key.slice(PREFIX.length));
      }
    } catch (err) { /* no localStorage: no games kept */ }
    return found;
  },

  /** The tokens of the URL fragment, which is then removed from the address bar (and from history). */
  takeFromFragment() {
    const fragment = location.hash.replace(/^#/, "");
    if (!fragment) return [];
    const params = new URLSearchParams(fragment);
    const found = [];
    if (params.get("token")) found.push(params.get("token"));
    for (const t of (params.get("tokens") || "").split(",")) if (t.trim()) found.push(t.trim());
    if (params.has("token") || params.has("tokens")) {
      history.replaceState(history.state, "", location.pathname + location.search);
    }
    return found;
  },

  /** The link that gives a seat to whoever opens it. */
  link(gid, token) {
    return `${location.origin}/games/${encodeURIComponent(gid)}#token=${encodeURIComponent(token)}`;
  },
};

export {api, ApiError, tokens};

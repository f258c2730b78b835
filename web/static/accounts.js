/* Accounts in the page: who is signed in, passkey ceremonies, links to players' profiles.

   Passkeys: the server's options are WebAuthn's JSON forms, turned into the browser's by
   PublicKeyCredential.parseCreationOptionsFromJSON / parseRequestOptionsFromJSON; the credential goes back as its
   toJSON(). The session itself is an HttpOnly cookie: no script ever sees it. */

import {api} from "./api.js";
import {html} from "./dom.js";
import {number, t} from "./i18n.js";

/** The signed-in username from the page's header (rendered by the server), or null for a guest. */
export function signedIn() {
  const me = document.querySelector("header.site .account-menu .me");
  return me ? me.textContent.trim() : null;
}

/** Whether this browser can make and use passkeys the way the pages ask. */
export function passkeysSupported() {
  return Boolean(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON &&
                 PublicKeyCredential.parseRequestOptionsFromJSON && navigator.credentials);
}

/** Make a passkey: ``body`` for the options ({username} for a new account, {} for the signed-in one). */
export async function makePasskey(body) {
  const options = await api("/api/passkeys/register/options", {method: "POST", body});
  const credential = await navigator.credentials.create(
    {publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options)});
  return api("/api/passkeys/register", {method: "POST", body: credential.toJSON()});
}

/** Sign in with any passkey of this site (no name typed). */
export async function usePasskey() {
  const options = await api("/api/passkeys/login/options", {method: "POST", body: {}});
  const credential = await navigator.credentials.get(
    {publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options)});
  return api("/api/passkeys/login", {method: "POST", body: credential.toJSON()});
}

/** A sentence for a passkey ceremony the browser or the person stopped. */
export function passkeyTrouble(err) {
  if (err && err.name === "NotAllowedError") return t("The passkey was not used (cancelled, or it timed out).");
  if (err && err.name === "InvalidStateError") return t("This device holds a passkey for this account already.");
  if (err && err.message) return err.message;
  return t("The passkey could not be used.");
}

/** Where to go once signed in: the page's ?next= when it is a path of this site, else the lobby. */
export function nextPage() {
  const next = new URLSearchParams(location.search).get("next") || "/";
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

/** The address of a player's profile. */
export function profileUrl(username) {
  return "/@/" + encodeURIComponent(username);
}

/** A player's name: a link to the profile when an account holds the seat, else plain text. */
export function playerName(player, parent, cls) {
  const name = (player && player.name) || "";
  if (player && player.account) {
    const link = html("a", cls || "player-link", name || player.account, parent);
    link.href = profileUrl(player.account);
    return link;
  }
  return html("span", cls || "", name, parent);
}

/** A rating in a few characters: "1662", "1500?" while provisional ({rating, provisional} or a number). */
export function ratingWords(rating) {
  if (rating === null || rating === undefined) return "";
  if (typeof rating === "number") return number(Math.round(rating));
  return number(Math.round(rating.rating)) + (rating.provisional ? "?" : "");
}

/** A rating change as it is read after a game: "+12", "−12", "±0". */
export function changeWords(change) {
  if (!Number.isFinite(change)) return "";
  return change > 0 ? "+" + number(change) : change < 0 ? "−" + number(-change) : "±" + number(0);
}

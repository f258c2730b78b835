/* The pages that mailed links open (a token in the address: confirm an address, choose a new password, stop a kind
   of mail) and the "forgot your password" page. Nothing happens until the reader presses the button: a mail
   scanner that opens the link changes nothing. The token leaves the address bar at once. */

import {api} from "./api.js";
import {t} from "./i18n.js";

const $ = (id) => document.getElementById(id);
const what = $("away-link").dataset.what;
const token = new URLSearchParams(location.search).get("token") || "";
if (token) history.replaceState(null, "", location.pathname);

function done(text) {
  $("link-status").textContent = text;
  $("link-go").disabled = true;
}

async function go() {
  $("link-error").textContent = "";
  try {
    if (what === "verify") {
      await api("/api/email/verify", {method: "POST", body: {token}});
      done(t("Confirmed: mail from Burrow reaches you at this address."));
    } else if (what === "reset") {
      await api("/api/password/reset/confirm", {method: "POST", body: {token, password: $("link-password").value}});
      done(t("Your password is changed and every device is signed out. Sign in with the new one."));
    } else if (what === "unsubscribe") {
      const answer = await fetch("/unsubscribe?token=" + encodeURIComponent(token), {
        method: "POST", headers: {"Content-Type": "application/x-www-form-urlencoded"},
        body: "List-Unsubscribe=One-Click"});
      if (!answer.ok) throw new Error(((await answer.json()).error || {}).message || String(answer.status));
      done(t("Done: Burrow sends you no more mails of this kind."));
    } else {
      await api("/api/password/reset", {method: "POST", body: {email: $("link-email").value.trim()}});
      done(t("If this is an account's confirmed address, a reset link is on its way; it works for an hour."));
    }
  } catch (err) {
    $("link-error").textContent = err.message;
  }
}

const form = $("link-form");
if (form) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    go();
  });
} else {
  $("link-go").addEventListener("click", go);
}

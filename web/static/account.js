/* The account page: the account's sessions (sign out one, or everywhere), its passkeys, its password. */

import {api} from "./api.js";
import {button, html} from "./dom.js";
import {makePasskey, passkeyTrouble, passkeysSupported, profileUrl} from "./accounts.js";
import {htmlLang, t} from "./i18n.js";

const when = (iso) => new Date(iso).toLocaleString(htmlLang, {dateStyle: "medium", timeStyle: "short"});

async function load() {
  let me;
  try {
    me = await api("/api/me");
  } catch (err) {
    if (err.status === 401) location.href = "/signin?next=" + encodeURIComponent(location.pathname);
    else document.getElementById("account-summary").textContent = err.message;
    return;
  }
  const summary = document.getElementById("account-summary");
  summary.textContent = "";
  const link = html("a", "", me.username, summary);
  link.href = profileUrl(me.username);
  html("span", "", " — " + t("member since {date}", {date: when(me.created)}), summary);
  document.getElementById("password-username").value = me.username;
  document.getElementById("current-password").hidden = !me.password;
  document.getElementById("current-label").hidden = !me.password;
  renderPasskeys(me.passkeys);
  await loadSessions();
}

async function loadSessions() {
  const list = document.getElementById("sessions");
  const error = document.getElementById("sessions-error");
  let answer;
  try {
    answer = await api("/api/me/sessions");
  } catch (err) {
    error.textContent = err.message;
    return;
  }
  list.textContent = "";
  for (const s of answer.sessions) {
    const item = html("li", s.current ? "current" : "", null, list);
    html("strong", "", s.agent, item);
    html("span", "note", " " + (s.current ? t("this device") : t("last seen {date}", {date: when(s.last_seen)})) +
         " · " + t("signed in {date}", {date: when(s.created)}), item);
    button(s.current ? t("Sign out") : t("Sign this device out"), async () => {
      try {
        await api("/api/me/sessions/" + encodeURIComponent(s.id), {method: "DELETE"});
        if (s.current) location.href = "/";
        else await loadSessions();
      } catch (err) {
        error.textContent = err.message;
      }
    }, "small", item);
  }
}

function renderPasskeys(keys) {
  const list = document.getElementById("passkeys");
  list.textContent = "";
  if (!keys.length) html("li", "note", t("No passkey yet: add one to sign in without a password."), list);
  for (const key of keys) {
    const item = html("li", "", null, list);
    html("strong", "", key.device, item);
    html("span", "note", " " + t("added {date}", {date: when(key.added)}), item);
  }
}

document.getElementById("sign-out-everywhere").addEventListener("click", async () => {
  try {
    await api("/api/me/sessions", {method: "DELETE"});
  } finally {
    location.href = "/";
  }
});

const add = document.getElementById("add-passkey");
if (!passkeysSupported()) {
  add.disabled = true;
  add.title = t("This browser cannot make passkeys here.");
}
add.addEventListener("click", async () => {
  const error = document.getElementById("passkeys-error");
  error.textContent = "";
  add.disabled = true;
  try {
    await makePasskey({});
    renderPasskeys((await api("/api/me")).passkeys);
  } catch (err) {
    error.textContent = err.status ? err.message : passkeyTrouble(err);
  } finally {
    add.disabled = false;
  }
});

document.getElementById("password-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("password-error");
  const status = document.getElementById("password-status");
  error.textContent = status.textContent = "";
  const current = document.getElementById("current-password");
  const fresh = document.getElementById("new-password");
  const body = {password: fresh.value};
  if (!current.hidden) body.current_password = current.value;
  try {
    await api("/api/me/password", {method: "POST", body});
    status.textContent = t("Saved. Your other devices are signed out.");
    current.value = fresh.value = "";
    await load();
  } catch (err) {
    error.textContent = err.message;
  }
});

load();

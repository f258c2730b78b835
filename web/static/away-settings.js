/* The account page's "Away from the site" panel: the "notify me on this device" switch (a Web Push subscription of
   this browser, kept by the server under an id this device remembers), the mail address and its confirmation link,
   which kinds of notification reach the account by push and by mail, the vacation switch and this device's move
   confirmation for correspondence games. */

import {api} from "./api.js";
import {CONFIRM, confirmMoves} from "./confirm-moves.js";
import {t} from "./i18n.js";

const $ = (id) => document.getElementById(id);
const PUSH_ID = "burrow:push-id";

function remembered() {
  try {
    return localStorage.getItem(PUSH_ID);
  } catch (err) {
    return null;
  }
}

function remember(id) {
  try {
    if (id) localStorage.setItem(PUSH_ID, id);
    else localStorage.removeItem(PUSH_ID);
  } catch (err) {
    // No storage: the server keeps the subscription; this device forgets its id.
  }
}

function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window &&
    window.isSecureContext;
}

/** The VAPID public key (base64url) as the bytes ``applicationServerKey`` takes. */
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - base64url.length % 4) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function registration() {
  await navigator.serviceWorker.register("/sw.js", {scope: "/"});
  return navigator.serviceWorker.ready;
}

async function pushOn() {
  if (Notification.permission !== "granted" && await Notification.requestPermission() !== "granted") {
    throw new Error(t("The browser refused notifications for this site; allow them in its settings first."));
  }
  const reg = await registration();
  let sub = await reg.pushManager.getSubscription();
  if (!sub) {
    const {public_key: key} = await api("/api/push/key");
    try {
      sub = await reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(key)});
    } catch (err) {
      throw new Error(t("This browser cannot receive pushes here ({reason}).", {reason: err.name || "error"}));
    }
  }
  const {id} = await api("/api/me/push", {method: "POST", body: sub.toJSON()});
  remember(id);
}

async function pushOff() {
  const id = remembered();
  if (id) {
    try {
      await api("/api/me/push/" + encodeURIComponent(id), {method: "DELETE"});
    } catch (err) {
      if (err.status !== 404) throw err;
    }
  }
  remember(null);
  if (pushSupported()) {
    const reg = await navigator.serviceWorker.getRegistration("/");
    const sub = reg && await reg.pushManager.getSubscription();
    if (sub) await sub.unsubscribe();
  }
}

async function bindPush(me) {
  const box = $("push-device");
  const error = $("push-error");
  if (!pushSupported()) {
    box.disabled = true;
    $("push-note").textContent = t("This browser cannot receive pushes (it needs service workers and Web Push, on https).");
    return;
  }
  const id = remembered();
  box.checked = Boolean(id && me.push.some((p) => p.id === id));
  if (id && !box.checked) remember(null);  // dropped by the server (expired, or removed elsewhere)
  box.addEventListener("change", async () => {
    error.textContent = "";
    box.disabled = true;
    try {
      if (box.checked) await pushOn();
      else await pushOff();
    } catch (err) {
      error.textContent = err.message;
      box.checked = !box.checked;
    } finally {
      box.disabled = false;
    }
  });
}

function showEmail(me) {
  const status = $("email-status");
  if (!me.mail) {
    $("email-address").disabled = $("email-save").disabled = true;
    status.textContent = t("This site sends no mail (no mail server is set up).");
    return;
  }
  if (me.email) {
    $("email-address").value = me.email.address;
    status.textContent = me.email.verified ? t("Confirmed: mail reaches you at this address.")
      : t("Not confirmed yet: open the link we mailed to this address.");
  } else {
    status.textContent = t("No address yet: without one, a forgotten password cannot be reset.");
  }
}

function bindEmail() {
  $("email-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("email-error").textContent = "";
    try {
      await api("/api/me/email", {method: "POST", body: {email: $("email-address").value.trim()}});
      $("email-status").textContent = t("We mailed a confirmation link to this address; open it within 24 hours.");
    } catch (err) {
      $("email-error").textContent = err.message;
    }
  });
}

function bindPrefs(me) {
  for (const box of document.querySelectorAll("#away input[data-channel]")) {
    box.checked = Boolean(me.notifications[box.dataset.channel][box.dataset.kind]);
    if (box.dataset.channel === "email" && !(me.email && me.email.verified)) box.disabled = true;
    box.addEventListener("change", async () => {
      $("prefs-error").textContent = "";
      try {
        await api("/api/me/notifications", {method: "PUT",
                                            body: {[box.dataset.channel]: {[box.dataset.kind]: box.checked}}});
      } catch (err) {
        $("prefs-error").textContent = err.message;
        box.checked = !box.checked;
      }
    });
  }
}

function bindCorrespondence(me) {
  const vacation = $("vacation");
  vacation.checked = Boolean(me.vacation);
  vacation.addEventListener("change", async () => {
    $("vacation-error").textContent = "";
    try {
      await api("/api/me/vacation", {method: "PUT", body: {on: vacation.checked}});
    } catch (err) {
      $("vacation-error").textContent = err.message;
      vacation.checked = !vacation.checked;
    }
  });
  const confirm = $("confirm-moves");
  confirm.checked = confirmMoves();
  confirm.addEventListener("change", () => {
    try {
      if (confirm.checked) localStorage.setItem(CONFIRM, "yes");
      else localStorage.removeItem(CONFIRM);
    } catch (err) {
      confirm.checked = false;  // no storage here: the option cannot be kept
    }
  });
}

async function start() {
  let me;
  try {
    me = await api("/api/me");
  } catch (err) {
    return;  // account.js sends a guest to sign in
  }
  showEmail(me);
  bindEmail();
  bindPrefs(me);
  bindCorrespondence(me);
  await bindPush(me);
}

start();

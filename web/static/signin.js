/* The sign-in page: with a passkey (no name typed), or a username and password. */

import {api} from "./api.js";
import {nextPage, passkeyTrouble, passkeysSupported, usePasskey} from "./accounts.js";
import {t} from "./i18n.js";

const form = document.getElementById("signin");
const username = document.getElementById("username");
const password = document.getElementById("password");
const error = document.getElementById("form-error");
const passkeyButton = document.getElementById("signin-passkey");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!username.value || !password.value) {
    error.textContent = t("Type your username and your password.");
    return;
  }
  try {
    await api("/api/session", {method: "POST", body: {username: username.value, password: password.value}});
    location.href = nextPage();
  } catch (err) {
    error.textContent = err.code === "bad_credentials" ? t("The username or the password is wrong.") : err.message;
    password.select();
  }
});

if (!passkeysSupported()) {
  passkeyButton.disabled = true;
  passkeyButton.title = t("This browser cannot use passkeys here.");
}
passkeyButton.addEventListener("click", async () => {
  passkeyButton.disabled = true;
  try {
    await usePasskey();
    location.href = nextPage();
  } catch (err) {
    error.textContent = err.status ? err.message : passkeyTrouble(err);
  } finally {
    passkeyButton.disabled = false;
  }
});

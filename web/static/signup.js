/* The sign-up page: a username with a password, or with a passkey and no password. */

import {api} from "./api.js";
import {makePasskey, nextPage, passkeyTrouble, passkeysSupported} from "./accounts.js";
import {t} from "./i18n.js";

const form = document.getElementById("signup");
const username = document.getElementById("username");
const password = document.getElementById("password");
const error = document.getElementById("form-error");
const passkeyButton = document.getElementById("signup-passkey");

function show(message, field) {
  error.textContent = message;
  for (const input of [username, password]) input.removeAttribute("aria-invalid");
  const input = field === "username" ? username : field === "password" ? password : null;
  if (input) {
    input.setAttribute("aria-invalid", "true");
    input.focus();
  }
}

function checkName() {
  if (!/^[A-Za-z][A-Za-z0-9_-]{2,19}$/.test(username.value)) {
    show(t("A username is 3 to 20 letters (a to z), digits, _ or -, starting with a letter."), "username");
    return false;
  }
  return true;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!checkName()) return;
  if (password.value.length < 8) {
    show(t("A password has at least 8 characters (or sign up with a passkey)."), "password");
    return;
  }
  try {
    await api("/api/accounts", {method: "POST", body: {username: username.value, password: password.value}});
    location.href = nextPage();
  } catch (err) {
    show(said(err), err.field);
  }
});

/** A refusal in the page's words where the page knows the case (its code never changes with the language). */
function said(err) {
  if (err.code === "username_taken") {
    return t("The username {name} is taken (usernames are unique, ignoring case): choose another.",
             {name: username.value});
  }
  return err.message;
}

if (!passkeysSupported()) {
  passkeyButton.disabled = true;
  passkeyButton.title = t("This browser cannot make passkeys here.");
}
passkeyButton.addEventListener("click", async () => {
  if (!checkName()) return;
  passkeyButton.disabled = true;
  try {
    await makePasskey({username: username.value});
    location.href = nextPage();
  } catch (err) {
    show(err.status ? said(err) : passkeyTrouble(err), err.field);
  } finally {
    passkeyButton.disabled = false;
  }
});

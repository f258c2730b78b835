/* The header's account menu: signing out ends the session on the server, then the page reloads as a guest's; a
   signed-in player's pick in the language switch is saved for the account (this site's own POST: a page opened
   with ?lang= saves nothing for the account), then the page opens in that language. */

const button = document.getElementById("sign-out");
if (button) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await fetch("/api/session", {method: "DELETE", cache: "no-store"});
    } finally {
      location.href = "/";
    }
  });
}

const languages = document.querySelector("nav.languages");
if (button && languages) {
  languages.addEventListener("click", async (event) => {
    const link = event.target.closest("a[hreflang]");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    try {
      await fetch("/api/me/language", {method: "POST", cache: "no-store", headers: {"Content-Type": "application/json"},
                                       body: JSON.stringify({lang: link.hreflang})});
    } finally {
      location.href = link.href;
    }
  });
}

/* The header's account menu: signing out ends the session on the server, then the page reloads as a guest's. */

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

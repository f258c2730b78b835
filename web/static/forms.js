/* Every form of the site is sent by its page's script (fetch), never by the browser itself. A form submitted
   before that script has taken it over (a page in French or Chinese first fetches its words: i18n.js) would go
   out as a GET, its fields (a password) in the address. This classic script, run in <head> before any form
   exists, keeps the browser from ever sending one; the page's own handler still runs once it is there. */
document.addEventListener("submit", (event) => event.preventDefault(), true);

/* Every page registers the site's service worker (/sw.js, scope "/"): it shows pushes and keeps the offline page
   (installable on a phone). A browser without service workers loses nothing else. */

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(() => {
    // No worker (a private window, a policy): the site works as before, without pushes or the offline page.
  });
}

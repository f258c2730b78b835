/* Burrow's service worker, served at /sw.js so that its scope is the whole site.

   Pushes (services/away/): each push is JSON {type, game?, url, title, body}; it is shown as a notification, and a
   click opens its url (a game's page, where a signed-in player plays their seat) or focuses a tab already on it.

   The shell: the styles, scripts and icons listed below are kept so that the offline page looks like the site.
   Pages are always asked of the network: when it cannot be reached, a page asked for is answered with the offline
   page, which says so. A game's page, its board and the API are never answered from the cache (never a stale
   board). */

const CACHE = "burrow-shell-v1";
const OFFLINE = "/offline";
const SHELL = [OFFLINE, "/static/app.css", "/static/accounts.css", "/static/favicon.svg",
               "/static/icons/icon-192.png", "/static/icons/icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  const path = new URL(request.url).pathname;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  } else if (SHELL.includes(path)) {
    // The network first (a new version of the site), the kept copy when it cannot be reached.
    event.respondWith(fetch(request).catch(() => caches.match(path)));
  }
});

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = {};
  }
  const title = data.title || "Burrow";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    icon: "/static/icons/icon-192.png",
    badge: "/static/icons/icon-192.png",
    tag: data.game ? `${data.type}:${data.game}` : data.type || "burrow",
    data: {url: typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/"},
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data && event.notification.data.url || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true}).then((tabs) => {
    const open = tabs.find((tab) => tab.url === url);
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});

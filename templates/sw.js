// Wibble's service worker, for release {{ version }}: served at /sw.js (the whole site is its
// scope), never cached long, so a new release is noticed at the next visit.
//
// - This release's files (/static/<version>/..., which never change under their address) are
//   kept at install and answered from the cache: the page opens without asking the network.
// - A page (a navigation) is always asked of the server, which decides everything; only when
//   the server cannot be reached does the offline page, kept at install, answer instead.
// - Everything else (the websocket, records, replays) is left to the network.
// At activation, the caches of older releases are deleted.

const CACHE = "wibble-" + {{ version|tojson }};
const OFFLINE = {{ offline|tojson }};
const FILES = {{ files|tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([...FILES, OFFLINE]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("wibble-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request).catch(() =>
        caches.open(CACHE).then((cache) => cache.match(OFFLINE)).then((page) => page || Response.error()),
      ),
    );
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(request)).then((hit) => hit || fetch(request)));
  }
});

// The service worker (/sw.js, whose template is templates/sw.js): it keeps this release's files,
// so the page opens at once, installed on a home screen too, and shows a page of ours when
// there is no connection. No DOM here.

/** Register the service worker where the browser has them (not over plain http to another
 * machine, which browsers refuse: that page plays as before, only not offline). */
export function registerServiceWorker(nav = globalThis.navigator) {
  if (!nav || !("serviceWorker" in nav)) return Promise.resolve(null);
  return nav.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
}

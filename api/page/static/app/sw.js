// The service worker: keeps one release of the page (its HTML, every asset at its
// versioned address, the words) and answers the page from that copy first, so a phone
// reopens the page with no round trip, and with no Wi-Fi at all (issue 32).
//
// A new release is a new script (the server writes its VERSION below): the browser
// installs it beside this one, it keeps the new release in a cache of its own, and it
// waits. The page then offers "reload for the new version" (shell/new_release.js); the tap tells it
// to take over, and the page reloads into the new release whole, never half of each.
// The very first install takes over at once: there is nothing to mix with.
// The API is never kept here: the page keeps sessions and the outbox in localStorage itself.

const VERSION = 'dev';
const CACHE = `taizhang-page-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    // Most of these are in the browser's HTTP cache already (immutable): kept from there, not fetched again.
    const {assets} = await (await fetch('/app/assets.json', {cache: 'no-store'})).json();
    const cache = await caches.open(CACHE);
    await cache.addAll(assets);
    if (!self.registration.active) await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith('taizhang-page') && name !== CACHE)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

// The page's tap on "reload for the new version".
self.addEventListener('message', (event) => {
  if (event.data === 'take-over') self.skipWaiting();
});

function isPage(request) {
  const url = new URL(request.url);
  return request.method === 'GET' && url.origin === self.location.origin && url.pathname !== '/app/assets.json'
    && (url.pathname === '/' || url.pathname === '/manifest.webmanifest' || url.pathname.startsWith('/app/'));
}

/**
 * This release's copy first (the page at `/` whatever its fragment or query); the network for what it lacks,
 * and an unversioned address's copy only when the network fails.
 */
async function fromCopyFirst(request) {
  const cache = await caches.open(CACHE);
  const navigation = request.mode === 'navigate' && new URL(request.url).pathname === '/';
  const copy = await cache.match(navigation ? '/' : request, {ignoreSearch: navigation});
  if (copy) return copy;
  try {
    return await fetch(request);
  } catch (error) {
    const older = await cache.match(request, {ignoreSearch: true});
    if (older) return older;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  if (isPage(event.request)) event.respondWith(fromCopyFirst(event.request));
});

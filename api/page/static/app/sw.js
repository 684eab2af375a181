// The service worker: keeps a copy of the page and its assets so the phone can
// reopen it without Wi-Fi. Always the network first (a new release shows at
// once), the copy only when the network fails. The API is never cached here:
// the page keeps sessions and the outbox in localStorage itself.

const CACHE = 'taizhang-page';

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const assets = await (await fetch('/app/assets.json', {cache: 'no-store'})).json();
    const cache = await caches.open(CACHE);
    await cache.addAll(assets);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

function isPage(request) {
  const url = new URL(request.url);
  return request.method === 'GET' && url.origin === self.location.origin
    && (url.pathname === '/' || url.pathname === '/manifest.webmanifest' || url.pathname.startsWith('/app/'));
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const copy = await cache.match(request, {ignoreSearch: true})
      || (request.mode === 'navigate' ? await cache.match('/') : undefined);
    if (copy) return copy;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  if (isPage(event.request)) event.respondWith(networkFirst(event.request));
});

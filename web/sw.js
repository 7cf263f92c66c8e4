// Offline support: the page's few files are cached on first load and served from the
// cache when the network is away (network first, so a new build is picked up).
const CACHE = 'd3dbc-playground-v1';
const FILES = ['./', 'index.html', 'app.js', 'style.css', 'examples.js', 'pkg/d3dbc_web.js', 'pkg/d3dbc_web_bg.wasm'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).catch(() => {}));
});
self.addEventListener('fetch', (e) => {
  if (e.request.method !== 'GET') return;
  e.respondWith(
    fetch(e.request)
      .then((r) => {
        const copy = r.clone();
        caches.open(CACHE).then((c) => c.put(e.request, copy)).catch(() => {});
        return r;
      })
      .catch(() => caches.match(e.request, { ignoreSearch: true }))
  );
});

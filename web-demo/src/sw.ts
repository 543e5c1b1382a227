// The explorer's service worker: precaches every file of the build (the list is written in by
// build/sw-plugin.ts) and answers same-origin GETs from that cache, so after one load the app, the
// hci Worker, the SQLite wasm and every grammar load with no network. Navigations fall back to the
// cached page. Needs no COOP/COEP headers (nothing here, nor OPFS sahpool, depends on them).
interface Manifest {
  version: string;
  files: string[];
}
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(r: Promise<Response>): void;
}
interface SwScope {
  location: Location;
  caches: CacheStorage;
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', fn: (e: FetchEvent) => void): void;
}

const MANIFEST = '__HCI_PRECACHE__' as unknown as Manifest;
const scope = self as unknown as SwScope;
const CACHE = `hci-explorer-${MANIFEST.version}`;

scope.addEventListener('install', (e) => {
  e.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(MANIFEST.files);
      await scope.skipWaiting();
    })(),
  );
});

scope.addEventListener('activate', (e) => {
  e.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('hci-explorer-') && name !== CACHE) await caches.delete(name);
      await scope.clients.claim();
    })(),
  );
});

scope.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== scope.location.origin) return;
  e.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // The query (?q=…) and hash are the app's state, not part of the file.
      const hit = await cache.match(req, { ignoreSearch: true });
      if (hit) return hit;
      try {
        return await fetch(req);
      } catch (err) {
        if (req.mode === 'navigate') {
          const page = await cache.match('./');
          if (page) return page;
        }
        throw err;
      }
    })(),
  );
});

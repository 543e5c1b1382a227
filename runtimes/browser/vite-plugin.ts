// A Vite plugin for apps that bundle the hci Worker. @sqlite.org/sqlite-wasm references its own
// "Worker1" helper worker (`new Worker(new URL('sqlite3-worker1.mjs', import.meta.url))`) for an API
// hci never uses; Vite would bundle a second copy of SQLite for it (about 650 KB and most of the
// build time). This plugin cuts that one reference. Use it for the page and for workers:
//   plugins: [hciVitePlugin()], worker: { format: 'es', plugins: () => [hciVitePlugin()] }
import type { Plugin } from 'vite';

const WORKER1 = 'new Worker(new URL("sqlite3-worker1.mjs", import.meta.url), { type: "module" })';

export function hciVitePlugin(): Plugin {
  return {
    name: 'hci-browser-runtime',
    transform(code, id) {
      if (!/@sqlite\.org[\\/]sqlite-wasm[\\/]dist[\\/]index\.mjs/.test(id) || !code.includes(WORKER1)) return null;
      return { code: code.replace(WORKER1, '(() => { throw new Error("the sqlite3 Worker1 API is not bundled with hci"); })()'), map: null };
    },
  };
}

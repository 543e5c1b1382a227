// The hci module Worker (Vite-ready entry): the core on OPFS behind comlink. Start it from a page with
//   new Worker(new URL('hci/runtimes/browser/worker.ts', import.meta.url), { type: 'module' })
// and talk to it through connectHci() (client.ts). It posts READY_MESSAGE once it listens, because
// Deno drops messages sent to a worker before its listener exists (harmless in browsers). Passes over
// many files parse in a nested parse worker (parse-worker.ts) on a second core.
import * as Comlink from 'comlink';
import { createWorkerApi } from './worker-api.ts';
import { defaultWasmUrls } from './assets.ts';
import { READY_MESSAGE } from './protocol.ts';

// The parse worker's URL is Vite's to resolve (a nested module Worker, bundled with the worker plugins).
// Spelled `.js`: tsc leaves this string as written, and the package ships parse-worker.js; from the
// sources Vite finds parse-worker.ts for it, as for a `.js` import.
const spawnParseWorker = () => new Worker(new URL('./parse-worker.js', import.meta.url), { type: 'module', name: 'hci-parse' });
Comlink.expose(createWorkerApi({ wasm: defaultWasmUrls, spawnParseWorker }));
(globalThis as unknown as { postMessage(message: unknown): void }).postMessage(READY_MESSAGE);

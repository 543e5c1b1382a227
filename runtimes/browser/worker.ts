// The hci module Worker (Vite-ready entry): the core on OPFS behind comlink. Start it from a page with
//   new Worker(new URL('hci/runtimes/browser/worker.ts', import.meta.url), { type: 'module' })
// and talk to it through connectHci() (client.ts). It posts READY_MESSAGE once it listens, because
// Deno drops messages sent to a worker before its listener exists (harmless in browsers).
import * as Comlink from 'comlink';
import { createWorkerApi } from './worker-api.ts';
import { defaultWasmUrls } from './assets.ts';
import { READY_MESSAGE } from './protocol.ts';

Comlink.expose(createWorkerApi({ wasm: defaultWasmUrls }));
(globalThis as unknown as { postMessage(message: unknown): void }).postMessage(READY_MESSAGE);

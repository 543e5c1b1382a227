// The explorer's build: the page (Preact, TSX through Vite's oxc), the hci Worker from the runtime's
// own sources (runtimes/browser, with hciVitePlugin() for the page and the worker, as the runtime's
// README says), and the service worker that keeps the app usable offline (build/sw-plugin.ts).
// `npm run web` serves it, `npm run web:build` writes web-demo/dist/.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';
import { hciVitePlugin } from '../runtimes/browser/vite-plugin.ts';
import { serviceWorkerPlugin } from './build/sw-plugin.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Every module an entry imports statically, in one chunk with it (Rolldown's '$initial' tag). */
const START_CHUNK = { name: 'start', tags: ['$initial' as const] };

export default defineConfig({
  root: here,
  // Relative URLs: the build works from any folder of any static server.
  base: './',
  plugins: [hciVitePlugin(), serviceWorkerPlugin()],
  // What an entry imports statically loads with it in one chunk (a page's, a Worker's): left to itself
  // Rolldown cut the Worker's start into 14 chunks (the modules it shares with its lazy chunks), which
  // gzip apart — 3.5 KB more to fetch before the first search, and one request each.
  worker: { format: 'es', plugins: () => [hciVitePlugin()], rolldownOptions: { output: { codeSplitting: { groups: [START_CHUNK] } } } },
  optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { target: 'es2022', outDir: path.join(here, 'dist'), emptyOutDir: true, rolldownOptions: { output: { codeSplitting: { groups: [START_CHUNK] } } } },
  server: { host: '127.0.0.1', fs: { allow: [path.resolve(here, '..')] } },
  preview: { host: '127.0.0.1' },
});

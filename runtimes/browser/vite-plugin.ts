// A Vite plugin for apps that bundle the hci Worker; use it for the page and for workers:
//   plugins: [hciVitePlugin()], worker: { format: 'es', plugins: () => [hciVitePlugin()] }
// It does three things. (1) It serves `virtual:hci-tree-sitter-urls`: one `?url` import per entry of
// the grammar table (core/languages/grammars.ts) plus web-tree-sitter's runtime, each resolved from
// hci's own files exactly as the Node runtime reads them (runtimes/node/grammars.ts: the packaged
// gzipped copy in an installed hci, which the Worker's TreeSitterHost inflates), so Vite
// copies every grammar the language table needs into the build and assets.ts hands the Worker their
// URLs — a grammar added to the table reaches the browser with no other edit — and the pretrained code
// model (models/code-model.bin, fetched only when that semantic provider runs). (2) @sqlite.org/sqlite-wasm
// references its own "Worker1" helper worker (`new Worker(new URL('sqlite3-worker1.mjs', import.meta.url))`)
// for an API hci never uses; Vite would bundle a second copy of SQLite for it (about 650 KB and most of
// the build time). The plugin cuts that one reference, and (3) the glue's parts the Worker never runs
// (sqlite-parts.ts; `fullSqlite: true` keeps them).
import type { Plugin } from 'vite';
import { GRAMMARS, TREE_SITTER_RUNTIME } from '../../core/languages/grammars.ts';
import { grammarFilePath, wasmFilePath } from '../node/grammars.ts';
import { codeModelPath } from '../node/code-model.ts';
import { withoutUnusedSqliteParts } from './sqlite-parts.ts';

const WORKER1 = 'new Worker(new URL("sqlite3-worker1.mjs", import.meta.url), { type: "module" })';

/** The module id assets.ts imports; its default export is `{ treeSitter, grammars, codeModel }` (URLs). */
export const TREE_SITTER_URLS_MODULE = 'virtual:hci-tree-sitter-urls';
const RESOLVED_URLS_MODULE = `\0${TREE_SITTER_URLS_MODULE}`;

/** The generated module: `?url` imports of absolute file paths (forward slashes on every platform). */
function treeSitterUrlsModule(): string {
  const url = (file: string) => JSON.stringify(`${file.replace(/\\/g, '/')}?url`);
  const grammars = Object.entries(GRAMMARS);
  return [
    `import treeSitter from ${url(wasmFilePath(TREE_SITTER_RUNTIME))};`,
    ...grammars.map(([, f], i) => `import grammar${i} from ${url(grammarFilePath(f))};`),
    `import codeModel from ${url(codeModelPath())};`,
    `export default { treeSitter, grammars: { ${grammars.map(([id], i) => `${JSON.stringify(id)}: grammar${i}`).join(', ')} }, codeModel };`,
  ].join('\n');
}

export interface HciVitePluginOptions {
  /**
   * Keep every part of sqlite-wasm's JS glue. By default the parts the hci Worker never runs (the
   * Worker1 API, the JS virtual-table helpers, the kvvfs, "opfs" and "opfs-wl" VFSes; sqlite-parts.ts)
   * are cut out of the build: set this when the app also uses sqlite-wasm itself with one of them.
   */
  fullSqlite?: boolean;
}

export function hciVitePlugin(opts: HciVitePluginOptions = {}): Plugin {
  return {
    name: 'hci-browser-runtime',
    resolveId(id) {
      return id === TREE_SITTER_URLS_MODULE ? RESOLVED_URLS_MODULE : null;
    },
    load(id) {
      return id === RESOLVED_URLS_MODULE ? treeSitterUrlsModule() : null;
    },
    transform(code, id) {
      if (!/@sqlite\.org[\\/]sqlite-wasm[\\/]dist[\\/]index\.mjs/.test(id)) return null;
      const cut = code.replace(WORKER1, '(() => { throw new Error("the sqlite3 Worker1 API is not bundled with hci"); })()');
      return { code: opts.fullSqlite ? cut : withoutUnusedSqliteParts(cut), map: null };
    },
  };
}

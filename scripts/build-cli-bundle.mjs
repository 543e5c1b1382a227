// The build's CLI step (after tsc and the MCP step): bundles hci's own compiled modules that the `hci`
// command loads into a few files beside dist/runtimes/node/cli.js, which bin/hci.js runs instead of
// the ~110 separate modules a search used to load one by one.
//
// Why: Node loads an ES module graph file by file — resolve, read, look up the compile cache, link —
// and a search paid it for ~110 files (now 25): 181 ms against 190 ms median per
// search on the sample workspace (Node 24, SCHED_FIFO on a loaded machine, 20 runs each). Only hci's own
// modules are bundled: every package (the SQLite glue, commander, zod, web-tree-sitter…) and every
// node: builtin stays an import, so what a verb loads from node_modules is unchanged, and the MCP SDK
// bundles (scripts/build-mcp-sdk.mjs) stay the files they are. Dynamic imports stay dynamic: each
// becomes its own chunk, so a search still loads no chunker, MCP server, intercom engine or semantic
// channel (test/cli-start.test.ts checks it through the manifest written here).
//
// The output sits in dist/runtimes/node/ itself because modules there find files relative to their
// own URL (the parse worker, the grammars, the sample workspace zip); core/ modules find none.
// Written: hci-cli.js (the entry), hci-cli-<name>-<hash>.js (chunks) and hci-cli.manifest.json (each
// file → the dist modules it holds). The library entries (dist/core, dist/runtimes/*) are untouched.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const outDir = path.join(dist, 'runtimes/node');
const ENTRY = 'hci-cli';
const MANIFEST = `${ENTRY}.manifest.json`;

for (const f of fs.readdirSync(outDir)) if (f === `${ENTRY}.js` || f === MANIFEST || f.startsWith(`${ENTRY}-`)) fs.rmSync(path.join(outDir, f));

const mcpSdk = path.join(dist, 'runtimes/mcp/sdk') + path.sep;
const bundle = await rolldown({
  input: { [ENTRY]: path.join(outDir, 'cli.js') },
  platform: 'node',
  // Bare specifiers (packages, node: builtins) and the MCP SDK bundles stay imports.
  external: (id, _importer, isResolved) => (isResolved ? id.startsWith(mcpSdk) : !id.startsWith('.') && !path.isAbsolute(id)),
  logLevel: 'warn',
});
const { output } = await bundle.write({
  dir: outDir,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: `${ENTRY}-[name]-[hash].js`,
  banner: '// Bundled by scripts/build-cli-bundle.mjs from hci\'s compiled modules (dist/); each file\'s modules are listed in hci-cli.manifest.json.',
});
await bundle.close();

const manifest = {};
let bytes = 0;
for (const chunk of output) {
  if (chunk.type !== 'chunk') continue;
  bytes += Buffer.byteLength(chunk.code);
  // Rolldown's own helpers are virtual modules (\0rolldown/runtime.js): not files of hci's.
  manifest[chunk.fileName] = chunk.moduleIds.filter((id) => path.isAbsolute(id)).map((id) => path.relative(dist, id).split(path.sep).join('/')).sort();
}
const modules = Object.values(manifest).flat();
if (!modules.includes('runtimes/node/cli.js')) throw new Error('build-cli-bundle: the entry does not hold runtimes/node/cli.js');
const outside = modules.filter((m) => m.startsWith('..') || m.includes('node_modules'));
if (outside.length) throw new Error(`build-cli-bundle: bundled modules from outside dist/: ${outside.slice(0, 5).join(', ')}`);
fs.writeFileSync(path.join(outDir, MANIFEST), `${JSON.stringify(manifest, null, 1)}\n`);
console.log(`build-cli-bundle: ${modules.length} modules in ${Object.keys(manifest).length} files, ${(bytes / 1024).toFixed(0)} KiB`);

// The build's MCP step (after tsc): bundles exactly the MCP SDK modules hci uses into hci's dist, so
// the SDK package is a devDependency and an installed hci carries none of its dependency tree.
//
// Why: @modelcontextprotocol/sdk installs ~6 MB of its own (an ESM and a CommonJS copy of every
// module, client and auth code hci never loads) and ~15 MB of dependencies for features hci does not
// use (express 5 and its middleware, hono, jose, cors, cross-spawn, eventsource, pkce-challenge…):
// about half of a production install. hci's servers use the low-level Server, the stdio transport,
// the two Streamable HTTP transports and the protocol's schemas — the seams in runtimes/mcp/sdk/.
// The SDK stays the implementation (no protocol code of hci's own): rolldown (an exact-pinned
// devDependency) follows each seam's imports through the SDK and the few packages those modules
// import (ajv and ajv-formats for the Server's JSON-schema validator, @hono/node-server for the
// node:http adapter, zod-to-json-schema), and writes the result over the seam's compiled copy, with
// the code the seams share in chunk files beside them. zod stays external: it is hci's own
// dependency (its contract schemas), and the SDK's types must be built with the same zod instance.
// Each bundled package's licence text is written beside the bundles (THIRD-PARTY-LICENSES.md).
//
// From source (vitest, Deno from a clone) the seams are plain re-exports of the SDK package; only
// dist/ holds bundles. Output is the same on every build of the same inputs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seams = path.join(root, 'runtimes/mcp/sdk');
const outDir = path.join(root, 'dist/runtimes/mcp/sdk');
const ENTRIES = ['server', 'node-http', 'web-http'];
const LICENCES = 'THIRD-PARTY-LICENSES.md';

/** The package (name and folder) a bundled module file belongs to, from its node_modules path. */
function packageOf(file) {
  const m = /^(.*[\\/]node_modules[\\/])((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file);
  return m ? { name: m[2].replace(/\\/g, '/'), dir: m[1] + m[2] } : null;
}

// Earlier chunks, and tsc's source maps of the seams (they map the re-exports the bundles replace).
for (const f of fs.readdirSync(outDir)) if (/^chunk-.*\.js$/.test(f) || f.endsWith('.js.map') || f === LICENCES) fs.rmSync(path.join(outDir, f));

const bundle = await rolldown({
  input: Object.fromEntries(ENTRIES.map((e) => [e, path.join(seams, `${e}.ts`)])),
  platform: 'node',
  // zod is hci's dependency (one zod instance for hci's schemas and the SDK's); node: builtins are the runtime's.
  external: [/^zod(\/|$)/, /^node:/],
  logLevel: 'warn',
});
const { output } = await bundle.write({
  dir: outDir,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: 'chunk-[hash].js',
  comments: { legal: true },
  banner: '// Bundled by scripts/build-mcp-sdk.mjs from @modelcontextprotocol/sdk and its dependencies (licences: THIRD-PARTY-LICENSES.md).',
});
await bundle.close();

const packages = new Map();
let bytes = 0;
for (const chunk of output) {
  if (chunk.type !== 'chunk') continue;
  bytes += Buffer.byteLength(chunk.code);
  for (const id of chunk.moduleIds) {
    const p = packageOf(id);
    if (p && !packages.has(p.name)) packages.set(p.name, p.dir);
  }
}
if (!packages.has('@modelcontextprotocol/sdk')) throw new Error('build-mcp-sdk: the bundles hold no SDK module');
const sections = [...packages].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, dir]) => {
  const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = fs.readdirSync(dir).find((n) => /^licen[cs]e/i.test(n));
  if (!file) throw new Error(`build-mcp-sdk: ${name} has no licence file to ship with the bundle`);
  return `## ${name} ${pj.version} (${pj.license})\n\n${fs.readFileSync(path.join(dir, file), 'utf8').trim()}\n`;
});
fs.writeFileSync(path.join(outDir, LICENCES), `# Licences of the code bundled in this folder\n\nscripts/build-mcp-sdk.mjs bundles these packages' modules into ${ENTRIES.map((e) => `${e}.js`).join(', ')} and the chunk files beside them.\n\n${sections.join('\n')}`);
console.log(`build-mcp-sdk: ${ENTRIES.length} seams, ${output.filter((c) => c.type === 'chunk').length} files, ${(bytes / 1024).toFixed(0)} KiB, from ${packages.size} packages (${[...packages.keys()].join(', ')})`);

// The build's CLI step (after tsc and the MCP step): bundles the modules that the `hci` command loads
// into a few files beside dist/runtimes/node/cli.js, which bin/hci.js runs instead of the ~110
// separate modules a search used to load one by one.
//
// Why: Node loads an ES module graph file by file — resolve, read, look up the compile cache, link —
// and a search paid it for ~110 files: 181 against 190 ms median per search on the sample workspace
// once hci's own modules were bundled (Node 24, SCHED_FIFO on a loaded machine, 20 runs each). Three
// steps go further:
// - Everything a search loads statically (the entry's whole static import graph) is one file,
//   hci-cli-base-<hash>.js, instead of the ~20 shared chunks a default split makes of it; what only a
//   verb's dynamic import reaches stays in that verb's own chunks, so a search still loads no chunker,
//   MCP server, intercom engine or semantic channel (test/cli-start.test.ts checks it through the
//   manifest written here).
// - The CommonJS packages on that path (BUNDLED_PACKAGES) are bundled too: imported from node_modules,
//   each of their files costs a package.json lookup, a CommonJS wrapper and a cjs-module-lexer pass
//   over its source on every run (the lexer's answer is not cached). They stay dependencies — installed
//   with their licenses (MIT), which the banner names — and every other package (the SQLite glue, zod,
//   web-tree-sitter…), every node: builtin and the MCP SDK bundles (scripts/build-mcp-sdk.mjs) stay imports.
//   The first two, measured together (Node 24, SCHED_FIFO on a loaded machine, 25 interleaved runs
//   each): 230 → 200 ms median per search on the sample workspace, 40 → 8 JavaScript files opened.
// - The base file (the entry's modules too: hci-cli.js only re-exports) and the SQLite glue
//   (@sqlite.org/sqlite-wasm's node.mjs, which the bundle imports through its stand-in hci-cli-sqlite3.js)
//   are rewritten as scripts (scripts/esm-to-script.mjs) that runtimes/node/code-cache.ts runs with a
//   V8 code cache made after a run, so holding the functions a command compiled; each keeps a small ES
//   module standing in for it under the name the other files import. code-cache.ts (with v8-flags.ts,
//   whose record of flags the base shares) is a chunk of its own, hci-cli-code-cache.js.
//
// The output sits in dist/runtimes/node/ itself because modules there find files relative to their
// own URL (the parse worker, the grammars, the sample workspace zip); core/ modules find none.
// Written: hci-cli.js (the entry), hci-cli-code-cache.js, hci-cli-<name>-<hash>.js (chunks; the base's
// script beside its stand-in as hci-cli-base-<hash>.script.js), hci-cli-sqlite3.js with
// hci-cli-sqlite3-<hash>.script.js, and hci-cli.manifest.json (each file → the dist modules and
// package files it holds). The library entries (dist/core, dist/runtimes/*) are untouched.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { rolldown } from 'rolldown';
import { esmToScript, standIn } from './esm-to-script.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const outDir = path.join(dist, 'runtimes/node');
const ENTRY = 'hci-cli';
const MANIFEST = `${ENTRY}.manifest.json`;

for (const f of fs.readdirSync(outDir)) if (f === `${ENTRY}.js` || f === MANIFEST || f.startsWith(`${ENTRY}-`)) fs.rmSync(path.join(outDir, f));

// The SQLite glue the CLI runs as a code-cached script (runtimes/node/code-cache.ts), in a stand-in.
const GLUE_PACKAGE = '@sqlite.org/sqlite-wasm';
const GLUE_STAND_IN = path.join(outDir, `${ENTRY}-sqlite3.js`);
// What the stand-ins run the scripts with (an entry: its export names stay), and the flag record it shares
// with the base: outside the base.
const CODE_CACHE_ENTRY = `${ENTRY}-code-cache`;
const CODE_CACHE_MODULES = new Set(['code-cache.js', 'v8-flags.js'].map((f) => path.join(outDir, f)));

/** CommonJS packages the search path imports, bundled instead of loaded from node_modules (see above). */
const BUNDLED_PACKAGES = ['commander', 'picomatch'];
const BASE = 'base';
const bundledPackage = (id) => BUNDLED_PACKAGES.some((p) => id === p || id.startsWith(`${p}/`));
const mcpSdk = path.join(dist, 'runtimes/mcp/sdk') + path.sep;
// Bare specifiers (packages but BUNDLED_PACKAGES, node: builtins) and the MCP SDK bundles stay imports.
const external = (id, _importer, isResolved) => (isResolved ? id.startsWith(mcpSdk) : !id.startsWith('.') && !path.isAbsolute(id) && !bundledPackage(id) && id !== GLUE_PACKAGE);
// commander requires node:child_process at its top level, for executable subcommands hci has none of:
// loading it (with net, dgram, streams) cost ~6 ms of every start (Node 24, SCHED_FIFO, 25 runs of
// `node -e 'require("child_process")'` against `node -e 0`). A proxy requires it on first use instead.
const LAZY_REQUIRES = [{ file: /[\\/]commander[\\/]lib[\\/]command\.js$/, module: 'node:child_process' }];
const lazyRequires = {
  name: 'hci-lazy-requires',
  transform(code, id) {
    let out = code;
    for (const { file, module } of LAZY_REQUIRES.filter((l) => l.file.test(id))) {
      const eager = `require('${module}')`;
      if (!out.includes(eager)) throw new Error(`build-cli-bundle: ${id} no longer has ${eager}`);
      out = out.replace(eager, `new Proxy({}, { get: (_, key) => ${eager}[key] })`);
    }
    return out === code ? null : { code: out };
  },
};
// The CLI imports the glue's stand-in instead of the package (the library entries keep the package).
const glueStandIn = { name: 'hci-glue-stand-in', resolveId: (id) => (id === GLUE_PACKAGE ? { id: GLUE_STAND_IN, external: 'relative' } : null) };
const outputOptions = {
  dir: outDir,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: `${ENTRY}-[name]-[hash].js`,
  banner: `// Bundled by scripts/build-cli-bundle.mjs from hci's compiled modules (dist/) and the packages ${BUNDLED_PACKAGES.join(', ')} (MIT licensed; see their LICENSE files in node_modules); each file's modules are listed in hci-cli.manifest.json.`,
};

// The service's dynamic imports stay dynamic in the sources (a library's verbs load it late); in the
// CLI it is in the base on purpose (see pass 1).
const quietExpected = (level, log, handler) => (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && /core\/service\/index\.js/.test(log.message) ? undefined : handler(level, log));
async function build(codeSplitting, write) {
  const bundle = await rolldown({ input: { [ENTRY]: path.join(outDir, 'cli.js'), [CODE_CACHE_ENTRY]: path.join(outDir, 'code-cache.js') }, platform: 'node', external, plugins: [glueStandIn, lazyRequires], logLevel: 'warn', onLog: quietExpected });
  const options = { ...outputOptions, codeSplitting };
  const { output } = write ? await bundle.write(options) : await bundle.generate(options);
  await bundle.close();
  return output.filter((c) => c.type === 'chunk');
}

// Pass 1 (not written): the default split, to find the chunks the entry imports statically, transitively,
// and those of the service every question to the index goes through (core/service/index.js, imported
// when a verb runs): a search loads them all, and in the base they are in its code cache too.
const split = await build(true, false);
const byFile = new Map(split.map((c) => [c.fileName, c]));
const staticFiles = new Set();
const SEARCH_PATH = [path.join(dist, 'core/service/index.js')];
const searchPathFiles = split.filter((c) => c.moduleIds.some((id) => SEARCH_PATH.includes(id))).map((c) => c.fileName);
if (searchPathFiles.length !== SEARCH_PATH.length) throw new Error(`build-cli-bundle: no chunk holds ${SEARCH_PATH.join(', ')}`);
for (const pending = [`${ENTRY}.js`, ...searchPathFiles]; pending.length;) {
  const file = pending.pop();
  if (staticFiles.has(file)) continue;
  staticFiles.add(file);
  pending.push(...byFile.get(file).imports.filter((f) => byFile.has(f)));
}
const baseModules = new Set([...staticFiles].flatMap((f) => byFile.get(f).moduleIds));
// Pass 2: the same graph with those modules grouped into one file (but code-cache.ts and what it imports).
const output = await build({
  groups: [
    { name: 'code-cache', test: (id) => CODE_CACHE_MODULES.has(id), priority: 2 },
    { name: BASE, test: (id) => baseModules.has(id), priority: 1 },
  ],
}, true);
// rolldown's helpers (always a file of their own) and the code cache's entry
const codeCacheFile = `${CODE_CACHE_ENTRY}.js`;
const runtimeChunk = (f) => f.startsWith(`${ENTRY}-rolldown-runtime-`) || f === codeCacheFile || f.startsWith(`${CODE_CACHE_ENTRY}-`);
const entry = output.find((c) => c.fileName === `${ENTRY}.js`);
const baseFiles = output.filter((c) => c.fileName.startsWith(`${ENTRY}-${BASE}-`)).map((c) => c.fileName);
if (baseFiles.length !== 1 || entry.imports.filter((f) => f.startsWith(`${ENTRY}-`) && !runtimeChunk(f)).join() !== baseFiles[0]) {
  throw new Error(`build-cli-bundle: the entry should import one base file, imports ${entry.imports.join(', ')}`);
}

// The base file becomes a script plus its stand-in (the entry and the verbs' chunks import the stand-in
// by the base file's name), and so does the glue: runtimes/node/code-cache.ts says why.
const banner = outputOptions.banner;
const scriptName = (file) => file.replace(/\.js$/, '.script.js');
const contentHash = (text) => createHash('sha256').update(text).digest('base64url').slice(0, 10);
// The glue file Node's ESM resolution picks (the stand-in asks import.meta.resolve at run time).
const glueFile = fileURLToPath(import.meta.resolve(GLUE_PACKAGE));
{
  const baseFile = path.join(outDir, baseFiles[0]);
  const made = esmToScript(fs.readFileSync(baseFile, 'utf8'), baseFiles[0]);
  fs.writeFileSync(path.join(outDir, scriptName(baseFiles[0])), `${made.script}\n`);
  fs.writeFileSync(baseFile, standIn(made, { scriptFile: scriptName(baseFiles[0]), codeCache: `./${codeCacheFile}`, banner }));
}
{
  const source = fs.readFileSync(glueFile, 'utf8');
  const made = esmToScript(source, GLUE_PACKAGE);
  const glueScript = `${ENTRY}-sqlite3-${contentHash(made.script)}.script.js`;
  fs.writeFileSync(path.join(outDir, glueScript), `// ${GLUE_PACKAGE}'s ${path.basename(glueFile)} (its licence header below), rewritten as a script by scripts/esm-to-script.mjs for runtimes/node/code-cache.ts.\n${made.script}\n`);
  fs.writeFileSync(GLUE_STAND_IN, standIn(made, {
    scriptFile: glueScript, codeCache: `./${codeCacheFile}`, original: { specifier: GLUE_PACKAGE, size: Buffer.byteLength(source) },
    banner: `// Stands in for ${GLUE_PACKAGE} in the CLI bundle (scripts/build-cli-bundle.mjs): runs ${glueScript}, made from it.`,
  }));
}

const manifest = {};
let bytes = 0;
const packageFile = (id) => /node_modules\/(.*)$/.exec(id.split(path.sep).join('/'))?.[1];
for (const chunk of output) {
  bytes += Buffer.byteLength(chunk.code);
  // Rolldown's own helpers are virtual modules (\0rolldown/runtime.js): not files of hci's.
  manifest[chunk.fileName] = chunk.moduleIds.filter((id) => path.isAbsolute(id))
    .map((id) => (id.includes(`${path.sep}node_modules${path.sep}`) ? `node_modules/${packageFile(id)}` : path.relative(dist, id).split(path.sep).join('/')))
    .sort();
}
const modules = Object.values(manifest).flat();
if (!modules.includes('runtimes/node/cli.js')) throw new Error('build-cli-bundle: the entry does not hold runtimes/node/cli.js');
const outside = modules.filter((m) => m.startsWith('..') || (m.startsWith('node_modules/') && !bundledPackage(m.slice('node_modules/'.length))));
if (outside.length) throw new Error(`build-cli-bundle: bundled modules from outside dist/ and BUNDLED_PACKAGES: ${outside.slice(0, 5).join(', ')}`);
// The glue's stand-in runs the package's file (rewritten): listed as that file.
manifest[path.basename(GLUE_STAND_IN)] = [`node_modules/${path.relative(path.join(root, 'node_modules'), glueFile).split(path.sep).join('/')}`];
fs.writeFileSync(path.join(outDir, MANIFEST), `${JSON.stringify(manifest, null, 1)}\n`);
console.log(`build-cli-bundle: ${modules.length} modules in ${Object.keys(manifest).length} files, ${(bytes / 1024).toFixed(0)} KiB`);

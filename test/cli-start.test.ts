// What `hci` loads per verb, and the start-up machinery of bin/hci.js, as real child processes: a
// search loads no zod, tree-sitter, chunker, TOML parser, fflate, MCP SDK, watcher, progress bar,
// intercom engine, worker thread, node:http or node:crypto (runtimes/cli/commands.ts says why and how a verb keeps it so);
// `hci index` does load the chunkers (the probe sees what it should); `--version` prints the
// package's version; the compile cache is used when its folder is writable and harmless when not; the
// launcher keeps V8's young generation at its starting size (runtimes/node/young-generation.ts).
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTmpWorkspace, type TmpWorkspace, tmpDir } from './helpers/tmp-workspace.ts';
import { PACKAGE } from './helpers/installed-package.ts';

const bin = path.resolve(import.meta.dirname, '../bin/hci.js');
let ws: TmpWorkspace;
let tmp: string;
let hook: string;

/** Runs bin/hci.js with a module hook that writes every URL it loads to a file; returns them. */
function hciLoads(args: string[], env: Record<string, string> = {}) {
  const list = path.join(tmp, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  const base = { ...process.env };
  delete base.NODE_COMPILE_CACHE;
  delete base.NODE_DISABLE_COMPILE_CACHE;
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, bin, ...args], {
    encoding: 'utf8', env: { ...base, NO_COLOR: '1', HCI_LOADED_LIST: list, ...env },
  });
  const loaded = fs.existsSync(list) ? fs.readFileSync(list, 'utf8').split('\n').filter(Boolean) : [];
  return { code: r.status, out: r.stdout, err: r.stderr, loaded };
}

const pkg = (url: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? null;

/**
 * The dist modules behind loaded URLs: bin/hci.js runs the CLI bundle (scripts/build-cli-bundle.mjs),
 * whose manifest lists the modules each bundle file holds; any other dist file is its own module.
 */
function distModules(loaded: string[]): string[] {
  const dist = pathToFileURL(path.resolve(import.meta.dirname, '../dist')).href + '/';
  const manifest = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../dist/runtimes/node/hci-cli.manifest.json'), 'utf8')) as Record<string, string[]>;
  return loaded.filter((u) => u.startsWith(dist)).flatMap((u) => {
    const rel = u.slice(dist.length);
    const bundled = rel.startsWith('runtimes/node/') ? manifest[rel.slice('runtimes/node/'.length)] : undefined;
    return bundled ?? [rel];
  });
}

beforeAll(async () => {
  tmp = tmpDir('hci-cli-start-');
  hook = path.join(tmp, 'record-loads.mjs');
  fs.writeFileSync(hook, [
    "import { registerHooks, createRequire, syncBuiltinESMExports } from 'node:module';",
    "import { appendFileSync } from 'node:fs';",
    'const file = process.env.HCI_LOADED_LIST;',
    'registerHooks({ load(url, ctx, next) { appendFileSync(file, url + "\\n"); return next(url, ctx); } });',
    // Where in the builtin load order hci first sets a V8 flag (runtimes/node/v8-flags.ts says why it matters).
    "const v8 = createRequire(import.meta.url)('node:v8'); const setFlags = v8.setFlagsFromString; let firstFlag = -1;",
    "v8.setFlagsFromString = (f) => { if (firstFlag < 0) firstFlag = process.moduleLoadList.length; return setFlags(f); }; syncBuiltinESMExports();",
    // Built-in modules loaded by require() (the SQLite glue's) never pass the hook: listed at exit, those
    // loaded after the first flag once more as builtin-after-flag:<name>.
    "const builtins = (list) => list.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));",
    // Scripts run by vm.Script (runtimes/node/code-cache.ts): vm-script:<file>:<none|accepted|rejected>, their cache's fate.
    "const vm = createRequire(import.meta.url)('node:vm'); const Script = vm.Script; const scripts = [];",
    "vm.Script = class extends Script { constructor(src, o) { super(src, o); scripts.push(`vm-script:${o.filename.replace(/.*[\\\\/]/, '')}:${o.cachedData ? (this.cachedDataRejected ? 'rejected' : 'accepted') : 'none'}`); } }; syncBuiltinESMExports();",
    "process.on('exit', () => appendFileSync(file, scripts.map((l) => l + '\\n').join('')));",
    "process.on('exit', () => appendFileSync(file, [...builtins(process.moduleLoadList).map((m) => 'builtin:' + m), ...(firstFlag < 0 ? [] : builtins(process.moduleLoadList.slice(firstFlag)).map((m) => 'builtin-after-flag:' + m)), firstFlag < 0 ? 'no-flag' : 'flag-set'].map((l) => l + '\\n').join('')));",
  ].join('\n'));
  ws = await createTmpWorkspace({
    'src/OrderService.cs': 'namespace Shop;\npublic class OrderService\n{\n    public void PlaceOrder(int id) { }\n}\n',
    'README.md': '# Shop\n\nPlace an order through the OrderService.\n',
  });
});
afterAll(async () => {
  await ws?.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('hci start-up', () => {
  it('indexing loads the chunkers and tree-sitter (the probe sees what a verb loads)', () => {
    const r = hciLoads(['index', ws.root, '-q']);
    expect(r.code, r.err).toBe(0);
    expect(r.loaded.map(pkg)).toContain('web-tree-sitter');
    expect(distModules(r.loaded).some((m) => m.startsWith('core/chunk/chunker.'))).toBe(true);
  });

  it('a search loads only what a search needs', () => {
    const r = hciLoads(['search', 'PlaceOrder', '--root', ws.root, '--json']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).hits[0].path).toBe('src/OrderService.cs');
    const packages = new Set(r.loaded.map(pkg).filter(Boolean));
    for (const p of ['zod', 'web-tree-sitter', 'smol-toml', 'fflate', '@modelcontextprotocol/sdk', 'chokidar', 'cli-progress', 'ignore', 're2js']) {
      expect(packages.has(p), `${p} loaded by a search`).toBe(false);
    }
    const hci = distModules(r.loaded).map((m) => `/${m}`);
    // The probe sees the bundle's modules: the search path itself is among them.
    expect(hci).toEqual(expect.arrayContaining(['/runtimes/node/cli.js', '/core/search/pipeline.js', '/core/index/store.js']));
    // …from the bundle's files, not module by module (scripts/build-cli-bundle.mjs says why).
    expect(r.loaded.filter((u) => /\/dist\/(core|runtimes)\//.test(u) && !/\/hci-cli[.-]/.test(u)).map((u) => u.replace(/.*\/dist\//, ''))).toEqual([]);
    // …the CommonJS packages on its path among them (cjs-module-lexer would parse them again each run).
    expect(packages.has('commander') || packages.has('picomatch'), 'commander or picomatch loaded from node_modules').toBe(false);
    for (const part of ['/core/chunk/', '/core/intercom/', '/core/vector/semantic.', '/core/contract/index.', '/core/settings.', '/core/index/indexer.', '/core/scan/walker.', '/runtimes/mcp/server.', '/runtimes/node/watcher.', '/runtimes/node/demo.', '/core/search/channels/literal.', '/core/search/literal/']) {
      expect(hci.filter((u) => u.includes(part)), `${part} loaded by a search`).toEqual([]);
    }
    expect(r.loaded.filter((u) => u === 'node:worker_threads' || u === 'node:http'), 'node builtins').toEqual([]);
    // SQLite seeds its PRNG while opening the index: through hci's VFS, not node:crypto (runtimes/shared/sync-vfs.ts).
    expect(r.loaded).toContain('builtin:fs');
    expect(r.loaded.filter((u) => ['builtin:crypto', 'builtin:worker_threads', 'builtin:http'].includes(u)), 'builtins loaded by require').toEqual([]);
  });

  it("sets V8's flags only after every builtin a search loads (later ones would miss Node's precompiled code)", () => {
    const r = hciLoads(['search', 'PlaceOrder', '--root', ws.root, '--json']);
    expect(r.code, r.err).toBe(0);
    expect(r.loaded, 'the young-generation cap and the short-run tiering budget are set').toContain('flag-set');
    expect(r.loaded.filter((u) => u.startsWith('builtin-after-flag:'))).toEqual([]);
  });

  it('a workspace with settings loads their schema and parser (and still answers)', () => {
    fs.mkdirSync(path.join(ws.root, '.hci'), { recursive: true });
    fs.writeFileSync(path.join(ws.root, '.hci/settings.toml'), 'max_hits_per_file = 3\n');
    try {
      const r = hciLoads(['search', 'PlaceOrder', '--root', ws.root, '--json']);
      expect(r.code, r.err).toBe(0);
      expect(r.loaded.map(pkg)).toEqual(expect.arrayContaining(['zod', 'smol-toml']));
    } finally {
      fs.rmSync(path.join(ws.root, '.hci/settings.toml'));
    }
  });

  it('--version prints the package version, -V too', () => {
    for (const flag of ['--version', '-V']) {
      const r = hciLoads([flag]);
      expect(r.code, r.err).toBe(0);
      expect(r.out.trim()).toBe(PACKAGE.version);
      expect([...r.loaded, ...distModules(r.loaded)].some((u) => u.includes('sqlite-wasm')), 'no engine for --version').toBe(false);
    }
  });

  it('fills a compile cache in the temp folder, and runs unchanged where that folder cannot be made or written', () => {
    // bin/hci.js turns the cache on itself: <TMPDIR>/node-compile-cache (NODE_COMPILE_CACHE overrides).
    const tmpdir = path.join(tmp, 'tmpdir');
    fs.mkdirSync(tmpdir);
    const first = hciLoads(['search', 'PlaceOrder', '--root', ws.root, '--json'], { TMPDIR: tmpdir });
    expect(first.code, first.err).toBe(0);
    expect(fs.readdirSync(path.join(tmpdir, 'node-compile-cache')).length, 'cache entries').toBeGreaterThan(0);
    const again = hciLoads(['search', 'PlaceOrder', '--root', ws.root, '--json'], { TMPDIR: tmpdir });
    expect(JSON.parse(again.out).hits).toEqual(JSON.parse(first.out).hits);
    // A path through a file cannot be created (ENOTDIR), even by root; a folder without write
    // permission cannot be filled (only testable when not root: root writes anyway).
    const file = path.join(tmp, 'a-file');
    fs.writeFileSync(file, '');
    const unusable = [path.join(file, 'cache')];
    if (process.getuid?.() !== 0) {
      const readOnly = path.join(tmp, 'ro');
      fs.mkdirSync(readOnly, { mode: 0o555 });
      unusable.push(readOnly, path.join(readOnly, 'sub'));
    }
    for (const dir of unusable) {
      for (const env of [{ TMPDIR: dir }, { NODE_COMPILE_CACHE: dir }] as Array<Record<string, string>>) {
        const r = hciLoads(['search', 'PlaceOrder', '--root', ws.root, '--json'], env);
        expect(r.code, r.err).toBe(0);
        expect(r.err, JSON.stringify(env)).toBe('');
        expect(JSON.parse(r.out).hits).toEqual(JSON.parse(first.out).hits);
      }
    }
  });

  it("runs the bundle's base and the SQLite glue from the V8 code cache an earlier search left, and makes a new one when it is missing, damaged or refused", () => {
    // A compile cache of its own: hci's code cache lives in it (runtimes/node/code-cache.ts).
    const cacheRoot = path.join(tmp, 'code-cache-root');
    const env = { NODE_COMPILE_CACHE: cacheRoot };
    const search = () => {
      const r = hciLoads(['search', 'PlaceOrder', '--root', ws.root, '--json'], env);
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out).hits[0].path).toBe('src/OrderService.cs');
      return Object.fromEntries(r.loaded.filter((l) => l.startsWith('vm-script:')).map((l) => {
        const [, file, fate] = l.split(':');
        return [/^hci-cli-base-/.test(file) ? 'base' : /^hci-cli-sqlite3-/.test(file) ? 'glue' : file, fate];
      }));
    };
    expect(search(), 'the first search: no cache yet').toEqual({ base: 'none', glue: 'none' });
    const [nodeDir] = fs.readdirSync(cacheRoot).filter((d) => fs.existsSync(path.join(cacheRoot, d, 'hci-code-cache')));
    const dir = path.join(cacheRoot, nodeDir, 'hci-code-cache');
    const files = () => fs.readdirSync(dir).sort();
    expect(files().map((f) => [/^hci-cli-(base|sqlite3)-/.exec(f)?.[1], f.endsWith('.script.js.search.cache')]), 'one per script, for the verb').toEqual([['base', true], ['sqlite3', true]]);
    const sizes = files().map((f) => fs.statSync(path.join(dir, f)).size);
    expect(search(), 'the second: both from the cache').toEqual({ base: 'accepted', glue: 'accepted' });
    expect(files().map((f) => fs.statSync(path.join(dir, f)).size), 'an accepted cache is not written again').toEqual(sizes);
    // The cache is made after the run: it holds the functions the search compiled, not only the top
    // level a cache made at compile time holds (V8's own, compiled and cached before anything runs).
    const [baseFile] = fs.readdirSync(path.join(import.meta.dirname, '../dist/runtimes/node')).filter((f) => /^hci-cli-base-.*\.script\.js$/.test(f));
    const vm = process.getBuiltinModule('node:vm');
    const atCompile = new vm.Script(fs.readFileSync(path.join(import.meta.dirname, '../dist/runtimes/node', baseFile), 'utf8')).createCachedData().length;
    expect(sizes[0], 'the base cache against one made at compile time').toBeGreaterThan(2 * atCompile);

    const [base, glue] = files().map((f) => path.join(dir, f));
    // Damaged: a flipped byte fails the file's checksum, the search runs without, and writes it again.
    const bytes = fs.readFileSync(base);
    bytes[bytes.length >> 1] ^= 0xff;
    fs.writeFileSync(base, bytes);
    expect(search(), 'a damaged cache is not used').toEqual({ base: 'none', glue: 'accepted' });
    expect(search(), 'and is made again').toEqual({ base: 'accepted', glue: 'accepted' });
    // Refused by V8 (here: the other script's cache, a whole file): compiled from source, written again.
    fs.copyFileSync(glue, base);
    expect(search(), "V8 refuses another script's cache").toEqual({ base: 'rejected', glue: 'accepted' });
    expect(search(), 'and it is made again').toEqual({ base: 'accepted', glue: 'accepted' });
    // Another verb keeps a cache of its own.
    expect(hciLoads(['status', '--root', ws.root, '--json'], env).code).toBe(0);
    expect(files().some((f) => f.endsWith('.status.cache')), 'hci status has its own').toBe(true);
  });

  it('makes a cache again when a later search compiles more than the one that made it (a query that matched nothing), then leaves it', () => {
    const cacheRoot = path.join(tmp, 'code-cache-grow');
    const env = { NODE_COMPILE_CACHE: cacheRoot };
    const search = (query: string, code = 0) => {
      const r = hciLoads(['search', query, '--root', ws.root, '--json'], env);
      expect(r.code, r.err).toBe(code);
      return JSON.parse(r.out).hits as unknown[];
    };
    expect(search('zzqqxxnomatch', 1), 'the first search finds nothing (exit 1: empty)').toEqual([]);
    const [nodeDir] = fs.readdirSync(cacheRoot).filter((d) => fs.existsSync(path.join(cacheRoot, d, 'hci-code-cache')));
    const dir = path.join(cacheRoot, nodeDir, 'hci-code-cache');
    const base = path.join(dir, fs.readdirSync(dir).find((f) => /^hci-cli-base-.*\.search\.cache$/.test(f))!);
    // The V8 data after the file's header (its run counter is written in place; the data is not).
    const state = () => ({ ino: fs.statSync(base).ino, data: fs.readFileSync(base).subarray(12) });
    const short = state();
    expect(search('PlaceOrder').length, 'a search that ranks, cuts snippets and prints').toBeGreaterThan(0);
    const grown = state();
    expect(grown.ino, 'the cache is written again (a new file renamed into place)').not.toBe(short.ino);
    expect(grown.data.length, 'with the functions this search compiled').toBeGreaterThan(short.data.length + 4096);
    // The same search again, past the runs that check (and one that does not): the cache stays as it is.
    for (let i = 0; i < 5; i++) search('PlaceOrder');
    const settled = state();
    expect(settled.ino, 'not written again').toBe(grown.ino);
    expect(settled.data.equals(grown.data)).toBe(true);
  });

  it("knows V8's defaults of the flags hci sets at run time (it puts them back before making a code cache)", async () => {
    const { V8_DEFAULTS } = await import(pathToFileURL(path.resolve(import.meta.dirname, '../dist/runtimes/node/v8-flags.js')).href) as { V8_DEFAULTS: Record<string, string> };
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    const shown = (name: string, value: string) => (value === 'true' ? `--${name}` : value === 'false' ? `--no-${name}` : `--${name}=${value}`);
    const v8Major = Number(process.versions.v8.split('.')[0]);
    for (const [name, value] of Object.entries(V8_DEFAULTS)) {
      // --flush-liftoff-code came with V8 13 (Node 24); memory-relief.ts sets it only there, so an older V8 need not know it.
      if (name === 'flush-liftoff-code' && v8Major < 13) {
        expect(options, name).not.toContain(`--${name} `);
        continue;
      }
      expect(options, name).toContain(`default: ${shown(name, value)}\n`);
    }
  });

  // Node 24's V8 (13) re-reads --semi-space-growth-factor when it grows the new space; Node 22's V8 (12) does
  // not hold it: measured there (22.23.5), bin/hci.js indexing the sample 4 times over ends with a 16 MB new
  // space (8 MB without bin/hci.js). The cap is a Node 24 mechanism (young-generation.ts says why).
  it.skipIf(Number(process.versions.v8.split('.')[0]) < 13)("keeps the main thread's young generation at its starting size while indexing (the compiled CLI run without bin/hci.js lets it grow)", () => {
    // The sample workspace: enough allocation for V8 to grow the new space several times by default.
    const sample = path.resolve(import.meta.dirname, 'sample-workspace');
    const copy = path.join(tmp, 'young-gen-ws');
    fs.cpSync(sample, copy, { recursive: true, filter: (src) => path.basename(src) !== '.hci' });
    const report = path.join(tmp, 'report-new-space.mjs');
    // The main thread's only: --import runs in the parse pool's worker threads too, and a worker that
    // ended first printed its own (small) new space, which the match below took for the main thread's.
    // The largest the space was after any collection, not its size at exit: V8 shrinks a grown new space
    // again when allocation slows: the unlaunched run ended at its starting 4 MiB in one whole-suite run of
    // two and once in four by hand, while the largest it reached was 32 MiB in every run (2 MiB launched).
    fs.writeFileSync(report, [
      "import v8 from 'node:v8';",
      "import { isMainThread } from 'node:worker_threads';",
      "import { PerformanceObserver } from 'node:perf_hooks';",
      'if (isMainThread) {',
      '  let max = 0;',
      "  const look = () => { max = Math.max(max, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size); };",
      "  new PerformanceObserver(look).observe({ entryTypes: ['gc'] });",
      "  process.on('exit', () => { look(); process.stderr.write(`new_space=${max}\\n`); });",
      '}',
    ].join('\n'));
    const newSpace = (args: string[]) => {
      const r = spawnSync(process.execPath, ['--import', pathToFileURL(report).href, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect(r.status, r.stderr).toBe(0);
      return Number(/new_space=(\d+)/.exec(r.stderr)?.[1]);
    };
    const cli = pathToFileURL(path.resolve(import.meta.dirname, '../dist/runtimes/node/cli.js')).href;
    const unlaunched = newSpace(['--input-type=module', '-e', `const { main } = await import(${JSON.stringify(cli)}); process.exitCode = await main(['index', ${JSON.stringify(copy)}, '--full', '-q']);`]);
    const launched = newSpace([bin, 'index', copy, '--full', '-q']);
    expect(unlaunched).toBeGreaterThan(launched);
    expect(launched).toBeLessThanOrEqual(4 * 1024 * 1024);
  });
});

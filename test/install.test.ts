// The package as a user installs it (test/helpers/installed-package.ts: `npm pack`, then `npm install`
// of the tarball into an empty project with --foreground-scripts and a PATH of node, npm, npx and sh only).
// Claims: nothing compiles or runs at install, and npm warns of no install script (no install script
// banner or warning, no `prepare` in the shipped manifest, no dependency with an
// install script or a binding.gyp, so none could have run); the tarball holds no bench, test or
// source-map files, and exactly the grammar table's grammars; node_modules stays within 32 MiB; and
// from that folder the installed `hci` prints its version, indexes, searches and outlines the shipped
// sample workspace with the same hits as the source tree, runs `hci demo` on it, the MCP server
// (reporting the package version) answers the SDK's Client (after
// listTools) started exactly as the installed `hci setup` writes a host's configuration, a real Deno
// process runs the package's Deno entry, its CLI by the documented command and its MCP server (the
// bundled SDK), Vite builds a page from its browser entries that indexes the sample in headless
// Chromium with the same hits, and TypeScript type-checks a consumer of every export from the
// shipped .d.ts.
// @lane package
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { GRAMMARS, packagedGrammarPath } from '../core/languages/grammars.ts';
import { openWorkspace } from '../runtimes/node/index.ts';
import { PACKAGE, REPO, TOOLCHAIN, diskKiB, installedPackages, packAndInstall, type Installed } from './helpers/installed-package.ts';
import { launchChromium, listFiles, serveStatic } from './helpers/browser.ts';
import { CHROMIUM_MISSING, chromiumBinary, denoBinary, titled } from './helpers/runtimes.ts';

const deno = denoBinary();
const chromium = chromiumBinary();

// 20.2 MiB at the measure that set it (41.3 before the MCP SDK was bundled); 30.0 MiB (30,732 KiB by
// du) once the pretrained code model (4.3 MB) and the semantic channel and web-demo had come, one
// 4 KiB block per file; 31,704 KiB at session 9's end, 31,796 KiB after session 10's modules (file facts,
// term weights, the JS/TS parse repair): the limit keeps ~1 MiB above that and still fails a dependency
// that brings a tree (issue 33's bound for the whole install is 40 MB). Session 15's code model with a
// query table (8.5 MB, 4.2 MB more): 36,064 KiB, and the bound moves by 4 MiB.
const MAX_INSTALL_KIB = 36 * 1024;
const SAMPLE = path.join(REPO, 'test/sample-workspace');
const CATALOG = 'src/Contoso.Shop.Application/Catalog/CatalogService.cs';

let inst: Installed;
let ws: string;
/** TMPDIR of the `hci demo` run, to see what it leaves there. */
let demoTmp: string;
/** The installed CLI's index summary of the shipped sample, for the other runtimes to match. */
let nodeSummary: { files_indexed: number };

function run(cmd: string, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(cmd, args, { cwd: opts.cwd ?? inst.app, env: opts.env ?? inst.env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Like run(), without blocking this process (so in-process work can overlap it). */
function runAsync(cmd: string, args: string[], opts: { cwd?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd ?? inst.app, env: inst.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
const hciInstalled = (...args: string[]) => run(path.join(inst.app, 'node_modules/.bin/hci'), args);
const hitsOf = (json: { hits: Array<Record<string, unknown>> }) => json.hits.map((h) => ({ path: h.path, start_line: h.start_line, end_line: h.end_line, score: h.score, hit_id: h.hit_id }));

/** Unpacks the sample workspace the package ships (what `hci demo` will use) into a folder. */
function unpackSample(zip: string, into: string): string {
  for (const [rel, bytes] of Object.entries(unzipSync(fs.readFileSync(zip)))) {
    fs.mkdirSync(path.dirname(path.join(into, rel)), { recursive: true });
    fs.writeFileSync(path.join(into, rel), bytes);
  }
  return into;
}

describe('the installed package', () => {
  beforeAll(() => {
    inst = packAndInstall();
    ws = unpackSample(path.join(inst.pkgDir, 'dist/sample-workspace.zip'), path.join(inst.tmp, 'ws'));
    demoTmp = path.join(inst.tmp, 'demo-tmp');
    fs.mkdirSync(demoTmp);
  }, 240_000);

  afterAll(() => {
    if (inst) fs.rmSync(inst.tmp, { recursive: true, force: true });
  });

  it('installed with no compiler or Python on PATH, and no install script ran or could have run', () => {
    expect(fs.readdirSync(inst.binDir).sort()).toEqual(['node', 'npm', 'npx', 'sh']);
    for (const tool of TOOLCHAIN) expect(run('/bin/sh', ['-c', `command -v ${tool}`]).code, `${tool} reachable`).not.toBe(0);
    // --foreground-scripts prints `> name@version script` for every lifecycle script it runs.
    const banners = inst.installLog.split('\n').filter((l) => /^> \S+@\S+ (preinstall|install|postinstall|prepare)\b/.test(l));
    expect(banners).toEqual([]);
    // No install-script warning either: the shipped manifest has no `prepare` (scripts/pack-manifest.mjs).
    expect(inst.installLog).not.toMatch(/allowScripts|install-scripts|install scripts/i);
    const shipped = JSON.parse(fs.readFileSync(path.join(inst.pkgDir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(Object.keys(shipped.scripts ?? {}).filter((k) => /^(pre|post)?(install|prepare|pack)$|^prepack$|^postpack$/.test(k))).toEqual([]);
    const packages = installedPackages(path.join(inst.app, 'node_modules'));
    const installed = new Set(packages.map((p) => path.relative(path.join(inst.app, 'node_modules'), p)));
    // The probe sees every dependency (so the checks below looked at something), and none of the MCP
    // SDK's tree: its modules are bundled into dist (scripts/build-mcp-sdk.mjs).
    for (const dep of Object.keys(PACKAGE.dependencies)) expect(installed.has(dep), `${dep} installed`).toBe(true);
    for (const absent of ['@modelcontextprotocol/sdk', 'express', 'hono', 'ajv', 'jose', 'zod-to-json-schema']) expect(installed.has(absent), `${absent} installed`).toBe(false);
    const scripted = packages.flatMap((dir) => {
      const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; scripts?: Record<string, string> };
      const hooks = ['preinstall', 'install', 'postinstall'].filter((s) => pj.scripts?.[s]);
      // npm runs `node-gyp rebuild` by itself for a package with a binding.gyp and no install script.
      if (fs.existsSync(path.join(dir, 'binding.gyp'))) hooks.push('binding.gyp');
      return hooks.length ? [`${pj.name}: ${hooks.join(', ')}`] : [];
    });
    expect(scripted).toEqual([]);
    const names = new Set(packages.map((p) => path.relative(path.join(inst.app, 'node_modules'), p)));
    for (const g of Object.values(GRAMMARS)) expect(names.has(g.package), `${g.package} is a devDependency`).toBe(false);
    expect(names.has('tree-sitter-c-sharp')).toBe(false);
  });

  it('ships compiled JS, .d.ts, the grammar table\'s grammars, the sample and the licence — no bench, tests or maps', () => {
    const p = inst.packed;
    expect(p).toContain('LICENSE');
    expect(p).toContain('bin/hci.js');
    expect(p).toContain('dist/sample-workspace.zip');
    // The pretrained code model, what it was trained on, and the licences of those repositories.
    expect(p).toEqual(expect.arrayContaining(['models/code-model.bin', 'models/manifest.json', 'NOTICE']));
    // The installed Node runtime finds it (dist/runtimes/node/ → models/) and reads it whole.
    const loaded = spawnSync(process.execPath, ['--input-type=module', '-e', `const { nodeVectorHost } = await import(${JSON.stringify(pathToFileURL(path.join(inst.pkgDir, 'dist/runtimes/node/vector-host.js')).href)}); process.stdout.write(String((await nodeVectorHost.codeModel()).length));`]);
    expect(loaded.status, loaded.stderr.toString()).toBe(0);
    expect(Number(loaded.stdout.toString())).toBe(fs.statSync(path.join(REPO, 'models/code-model.bin')).size);
    expect(p.filter((f) => /(^|\/)(bench|test)\//.test(f) || f.endsWith('.map') || (f.endsWith('.ts') && !f.endsWith('.d.ts')))).toEqual([]);
    const grammarFiles = Object.values(GRAMMARS).map((g) => `dist/${packagedGrammarPath(g)}`);
    const licences = [...new Set(Object.values(GRAMMARS).map((g) => `dist/grammars/${g.package}/LICENSE`))];
    expect(p.filter((f) => f.startsWith('dist/grammars/')).sort()).toEqual([...grammarFiles, ...licences].sort());
    expect(p.filter((f) => f.endsWith('.wasm'))).toEqual([]);
    for (const [sub, target] of Object.entries(JSON.parse(fs.readFileSync(path.join(inst.pkgDir, 'package.json'), 'utf8')).exports as Record<string, string | { types: string; default: string }>)) {
      const files = typeof target === 'string' ? [target] : [target.types, target.default];
      for (const f of files) expect(fs.existsSync(path.join(inst.pkgDir, f)), `${sub} → ${f}`).toBe(true);
    }
    // The shipped sample is the repository's, byte for byte (dot files and ignore rules included).
    expect(listFiles(ws).sort()).toEqual(listFiles(SAMPLE).sort());
    for (const rel of listFiles(SAMPLE)) expect(fs.readFileSync(path.join(ws, rel)).equals(fs.readFileSync(path.join(SAMPLE, rel))), rel).toBe(true);
  });

  it(`keeps node_modules within ${MAX_INSTALL_KIB / 1024} MiB`, () => {
    const kib = diskKiB(path.join(inst.app, 'node_modules'));
    console.log(`installed size: ${(kib / 1024).toFixed(1)} MiB (${kib} KiB) in node_modules; the package itself ${(diskKiB(inst.pkgDir) / 1024).toFixed(1)} MiB`);
    expect(kib).toBeLessThanOrEqual(MAX_INSTALL_KIB);
  });

  it('indexes, searches and outlines the shipped sample with the installed hci, with the source tree\'s hits', async () => {
    const version = hciInstalled('--version');
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(PACKAGE.version);
    // The same sample indexed meanwhile in this process from source (grammars from node_modules).
    const copy = unpackSample(path.join(inst.pkgDir, 'dist/sample-workspace.zip'), path.join(inst.tmp, 'ws-source'));
    const [index, reference] = await Promise.all([
      runAsync(path.join(inst.app, 'node_modules/.bin/hci'), ['index', ws, '--json']),
      (async () => {
        const w = await openWorkspace(copy);
        try {
          return { summary: await w.index({}), answer: await w.search({ query: 'GetCatalogItemsAsync' }) };
        } finally {
          w.close();
        }
      })(),
    ]);
    expect(index.code, index.stderr).toBe(0);
    nodeSummary = JSON.parse(index.stdout);
    expect(nodeSummary).toMatchObject({ status: 'ok', parse_fallback: 0, files_indexed: reference.summary.files_indexed });
    expect(nodeSummary.files_indexed).toBeGreaterThan(70);
    const search = hciInstalled('search', 'GetCatalogItemsAsync', '--root', ws, '--json');
    expect(search.code, search.stderr).toBe(0);
    const answer = JSON.parse(search.stdout);
    expect(answer.status).toBe('ok');
    expect(answer.hits[0].path).toBe(CATALOG);
    expect(hitsOf(answer)).toEqual(hitsOf(reference.answer as never));
    const outline = hciInstalled('outline', path.join(ws, CATALOG), '--root', ws, '--json');
    expect(outline.code, outline.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(outline.stdout).symbols)).toContain('"name":"GetCatalogItemsAsync"');
    // The installed CLI's V8 code cache (runtimes/node/code-cache.ts), in a compile cache folder of its
    // own: the first search makes one for the bundle's base and one for the SQLite glue, the next uses
    // them (a missing or refused cache would be written again).
    // Node's compile cache folder exists from Node 22.1 (module.enableCompileCache); on an older Node the
    // CLI runs without it, which the search above already showed.
    if (typeof (await import('node:module')).enableCompileCache !== 'function') return;
    const cacheRoot = path.join(inst.tmp, 'compile-cache');
    const cached = { ...inst.env, NODE_COMPILE_CACHE: cacheRoot };
    const searchCached = () => run(path.join(inst.app, 'node_modules/.bin/hci'), ['search', 'GetCatalogItemsAsync', '--root', ws, '--json'], { env: cached });
    const cacheFiles = () => (fs.readdirSync(cacheRoot, { recursive: true }) as string[]).filter((f) => f.endsWith('.search.cache')).sort()
      // Name and V8 data (after the 12-byte header, whose run counter a run that used the cache bumps in place).
      .map((f) => [path.basename(f).replace(/^(hci-cli-(?:base|sqlite3))-.*\.script\.js/, '$1'), fs.readFileSync(path.join(cacheRoot, f)).subarray(12).toString('base64')] as const);
    expect(hitsOf(JSON.parse(searchCached().stdout))).toEqual(hitsOf(answer));
    const made = cacheFiles();
    expect(made.map(([f]) => f)).toEqual(['hci-cli-base.search.cache', 'hci-cli-sqlite3.search.cache']);
    expect(hitsOf(JSON.parse(searchCached().stdout))).toEqual(hitsOf(answer));
    expect(cacheFiles(), 'used, its V8 data not made again (the same search compiles nothing new)').toEqual(made);
  }, 90_000);

  it('runs `hci demo` on the shipped sample: unpacked into a temp folder, indexed, searched, removed', () => {
    const before = new Set(fs.readdirSync(demoTmp));
    const r = run(path.join(inst.app, 'node_modules/.bin/hci'), ['demo'], { env: { ...inst.env, TMPDIR: demoTmp } });
    expect(r.code, r.stderr).toBe(0);
    const unpacked = /hci demo — indexing (\S+) \(the bundled sample/.exec(r.stdout)?.[1];
    expect(unpacked, r.stdout.slice(0, 300)).toBeDefined();
    expect(path.dirname(unpacked!)).toBe(demoTmp);
    expect(r.stdout).toMatch(new RegExp(`indexed ${nodeSummary.files_indexed} files`));
    expect(r.stdout).toContain(CATALOG);
    expect(r.stdout).toContain('appsettings.json');
    expect(fs.readdirSync(demoTmp).filter((f) => !before.has(f) && f !== 'node-compile-cache'), 'the unpacked sample is removed').toEqual([]);
  }, 90_000);

  it('serves MCP to the SDK Client, started exactly as the installed `hci setup` writes a host\'s configuration', async () => {
    const project = unpackSample(path.join(inst.pkgDir, 'dist/sample-workspace.zip'), path.join(inst.tmp, 'ws-setup'));
    const setup = hciInstalled('setup', 'cursor', project, '--no-instructions');
    expect(setup.code, setup.stderr).toBe(0);
    const server = (JSON.parse(fs.readFileSync(path.join(project, '.cursor', 'mcp.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers.hci;
    // This node and the installed package's own bin/hci.js (through node_modules/.bin's link), by absolute path.
    expect(server.args).toEqual([fs.realpathSync(path.join(inst.pkgDir, 'bin', 'hci.js')), 'mcp', project]);
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      cwd: inst.tmp,
      env: inst.env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'hci-install-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toMatchObject({ name: 'hci', version: PACKAGE.version });
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['search', 'explain_result', 'outline', 'status', 'reindex']));
      // A project set up before its first index: the server builds it in the background; search until it is done.
      let sc = { status: 'indexing', hits: [] as Array<{ path: string }> };
      for (const deadline = Date.now() + 60_000; sc.status === 'indexing' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 300))) {
        const r = await client.callTool({ name: 'search', arguments: { query: 'GetCatalogItemsAsync' } }, undefined, { timeout: 60_000 });
        sc = r.structuredContent as typeof sc;
      }
      expect(sc.status, stderr).toBe('ok');
      expect(sc.hits[0].path).toBe(CATALOG);
    } finally {
      await client.close();
    }
  }, 90_000);

  it.skipIf(!deno)(titled('runs its Deno entry in a real Deno process: reads the Node-built index and indexes a copy, same hits', { Deno: deno }), () => {
    const script = path.join(inst.app, 'deno-probe.mjs');
    fs.writeFileSync(script, [
      `import { openWorkspace } from '${PACKAGE.name}/deno';`,
      'const [root, mode] = Deno.args;',
      'const ws = await openWorkspace(root);',
      "const summary = mode === 'index' ? await ws.index({}) : null;",
      "const res = await ws.search({ query: 'GetCatalogItemsAsync' });",
      'console.log(JSON.stringify({ summary, res }));',
      'ws.close();',
    ].join('\n'));
    const runDeno = (root: string, mode: string) => {
      const r = run(deno, ['run', '--no-prompt', `--allow-read=${root},${path.join(inst.app, 'node_modules')}`, `--allow-write=${path.join(root, '.hci')}`, '--allow-sys=hostname', script, root, mode], { env: { ...inst.env, DENO_NO_UPDATE_CHECK: '1' } });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { summary: { files_indexed: number; parse_fallback: number } | null; res: { status: string; hits: Array<Record<string, unknown>> } };
    };
    const node = JSON.parse(hciInstalled('search', 'GetCatalogItemsAsync', '--root', ws, '--json').stdout);
    const read = runDeno(ws, 'search');
    expect(read.res.status).toBe('ok');
    expect(hitsOf(read.res)).toEqual(hitsOf(node));
    const copy = unpackSample(path.join(inst.pkgDir, 'dist/sample-workspace.zip'), path.join(inst.tmp, 'ws-deno'));
    const built = runDeno(copy, 'index');
    expect(built.summary).toMatchObject({ files_indexed: nodeSummary.files_indexed, parse_fallback: 0 });
    expect(hitsOf(built.res)).toEqual(hitsOf(node));
  }, 90_000);

  it.skipIf(!deno)(titled('runs the Deno CLI from the installed package with the documented command (docs/runtimes.md), same hits', { Deno: deno }), () => {
    const nm = path.join(inst.app, 'node_modules');
    const cli = path.join(inst.pkgDir, 'dist/runtimes/deno/cli.js');
    const r = run(deno, ['run', '--node-modules-dir=manual', '--no-prompt', `--allow-read=${ws},${nm}`, `--allow-write=${path.join(ws, '.hci')}`, '--allow-sys=hostname', cli, 'search', 'GetCatalogItemsAsync', '--root', ws, '--json'], { cwd: inst.tmp, env: { ...inst.env, DENO_NO_UPDATE_CHECK: '1' } });
    expect(r.code, r.stderr).toBe(0);
    const node = JSON.parse(hciInstalled('search', 'GetCatalogItemsAsync', '--root', ws, '--json').stdout);
    expect(hitsOf(JSON.parse(r.stdout))).toEqual(hitsOf(node));
  }, 90_000);

  it.skipIf(!deno)(titled('serves MCP under Deno from the installed package (bundled SDK), to the SDK Client', { Deno: deno }), async () => {
    const copy = unpackSample(path.join(inst.pkgDir, 'dist/sample-workspace.zip'), path.join(inst.tmp, 'ws-deno-mcp'));
    const nm = path.join(inst.app, 'node_modules');
    const transport = new StdioClientTransport({
      command: deno,
      args: ['run', '--no-prompt', `--allow-read=${copy},${nm}`, `--allow-write=${path.join(copy, '.hci')}`, '--allow-sys=hostname', path.join(inst.pkgDir, 'dist/runtimes/deno/mcp.js'), copy],
      cwd: inst.app, env: { ...inst.env, DENO_NO_UPDATE_CHECK: '1' }, stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'hci-install-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toMatchObject({ name: 'hci', version: PACKAGE.version });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search', 'reindex', 'status']));
      const r = await client.callTool({ name: 'reindex', arguments: { wait_ms: 50_000 } }, undefined, { timeout: 90_000 });
      expect((r.structuredContent as { status: string }).status, stderr).not.toBe('error');
      const found = await client.callTool({ name: 'search', arguments: { query: 'GetCatalogItemsAsync' } }, undefined, { timeout: 60_000 });
      const sc = found.structuredContent as { status: string; hits: Array<{ path: string }> };
      expect(sc.status, stderr).toBe('ok');
      expect(sc.hits[0].path).toBe(CATALOG);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('builds a Vite page from its browser entries that indexes the sample in headless Chromium, same hits', async (ctx) => {
    const web = path.join(inst.app, 'web');
    fs.mkdirSync(web);
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>\n');
    fs.writeFileSync(path.join(web, 'main.js'), [
      `import { connectHci } from '${PACKAGE.name}/browser';`,
      `import HciWorker from '${PACKAGE.name}/browser/worker?worker';`,
      'globalThis.probe = async (zipUrl) => {',
      '  const hci = await connectHci(new HciWorker());',
      "  const ws = await hci.open('probe', { kind: 'zip', bytes: await (await fetch(zipUrl)).arrayBuffer(), name: 'sample.zip' });",
      '  const summary = await ws.index({});',
      "  const res = await ws.search({ query: 'GetCatalogItemsAsync' });",
      '  await ws.close();',
      '  return { summary, res };',
      '};',
    ].join('\n'));
    const { hciVitePlugin } = (await import(pathToFileURL(path.join(inst.pkgDir, 'dist/runtimes/browser/vite-plugin.js')).href)) as typeof import('../runtimes/browser/vite-plugin.ts');
    const { build } = await import('vite');
    const outDir = path.join(inst.tmp, 'web-dist');
    await build({
      configFile: false, root: web, logLevel: 'error',
      plugins: [hciVitePlugin()], worker: { format: 'es', plugins: () => [hciVitePlugin()] },
      optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
      build: { outDir, emptyOutDir: true, minify: false, reportCompressedSize: false, target: 'es2022' },
    });
    const assets = listFiles(outDir);
    for (const g of Object.values(GRAMMARS)) {
      const base = path.basename(g.file);
      expect(assets.some((a) => path.basename(a).startsWith(base.replace(/\.wasm$/, '')) && a.endsWith('.gz')), `${base} (gzipped) emitted`).toBe(true);
    }
    expect(assets.some((a) => /\/tree-sitter-[\w-]+\.wasm$/.test(a))).toBe(true);
    expect(assets.some((a) => /\/sqlite3-[\w-]+\.wasm$/.test(a))).toBe(true);

    // The page in headless Chromium: the Worker fetches and inflates the gzipped grammars. Without
    // Chromium (never in CI: runtimes required) the test says it was skipped instead of passing.
    if (!chromium) return ctx.skip(CHROMIUM_MISSING);
    const server = await serveStatic(outDir);
    server.put('/sample.zip', fs.readFileSync(path.join(inst.pkgDir, 'dist/sample-workspace.zip')));
    const session = await launchChromium(chromium);
    try {
      await session.page.goto(server.url);
      await session.page.waitForFunction(() => 'probe' in globalThis, undefined, { timeout: 30_000 });
      const got = (await session.page.evaluate(() => (globalThis as unknown as { probe(u: string): Promise<unknown> }).probe('/sample.zip'))) as { summary: { files_indexed: number; parse_fallback: number }; res: { status: string; hits: Array<Record<string, unknown>> } };
      expect(got.summary).toMatchObject({ files_indexed: nodeSummary.files_indexed, parse_fallback: 0 });
      expect(hitsOf(got.res)).toEqual(hitsOf(JSON.parse(hciInstalled('search', 'GetCatalogItemsAsync', '--root', ws, '--json').stdout)));
      expect(session.requests.filter((u) => !u.startsWith(`${server.url}/`) && !/^(data|blob|about):/.test(u))).toEqual([]);
    } finally {
      await session.close();
      await server.close();
    }
  }, 120_000);

  it('type-checks a consumer of every export from the shipped .d.ts (Node, Deno, browser, worker, Vite plugin)', async () => {
    const tsc = path.join(REPO, 'node_modules/typescript/bin/tsc');
    const probe = path.join(inst.app, 'types');
    fs.mkdirSync(probe);
    const name = PACKAGE.name;
    // A wrong assignment each: without real types (an unresolved module is `any`) it would not error.
    fs.writeFileSync(path.join(probe, 'node.ts'), [
      `import { openWorkspace } from '${name}/node';`,
      `import { openWorkspace as openDeno } from '${name}/deno';`,
      `import { HciError, type SearchResponse } from '${name}';`,
      `import { hciVitePlugin } from '${name}/browser/vite';`,
      'export async function probe(): Promise<number> {',
      "  const ws = await openWorkspace('.');",
      "  const res: SearchResponse = await ws.search({ query: 'x' });",
      '  // @ts-expect-error start_line is a number',
      '  const wrong: string = res.hits[0].start_line;',
      "  const d = await openDeno('.');",
      '  d.close();',
      "  return res.hits[0].start_line + String(wrong).length + (new HciError('usage', 'm', 'h').code.length) + hciVitePlugin().name.length;",
      '}',
    ].join('\n'));
    fs.writeFileSync(path.join(probe, 'web.ts'), [
      `import { connectHci, type BrowserWorkspace } from '${name}/browser';`,
      `import HciWorker from '${name}/browser/worker?worker';`,
      'export async function probe(): Promise<BrowserWorkspace> {',
      '  const hci = await connectHci(new HciWorker());',
      "  // @ts-expect-error open takes a name first",
      '  await hci.open(42);',
      "  return hci.open('repo');",
      '}',
    ].join('\n'));
    fs.writeFileSync(path.join(probe, 'worker.d.ts'), "declare module '*?worker' { const W: { new (): Worker }; export default W; }\n");
    const common = { target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, noUnusedLocals: true, noUnusedParameters: true, verbatimModuleSyntax: true };
    const configs = {
      'tsconfig.node.json': { compilerOptions: { ...common, module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: ['node'], typeRoots: [path.join(REPO, 'node_modules/@types')] }, files: ['node.ts'] },
      // What a fresh create-vite app sets (bundler resolution, erasable syntax only, no Node types).
      'tsconfig.web.json': { compilerOptions: { ...common, module: 'ESNext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [], erasableSyntaxOnly: true, moduleDetection: 'force', noUncheckedSideEffectImports: true }, files: ['web.ts', 'worker.d.ts'] },
    };
    await Promise.all(Object.entries(configs).map(async ([file, cfg]) => {
      fs.writeFileSync(path.join(probe, file), JSON.stringify(cfg, null, 2));
      const r = await runAsync(process.execPath, [tsc, '-p', path.join(probe, file)], { cwd: probe });
      expect(`${r.stdout}${r.stderr}`, file).toBe('');
      expect(r.code, file).toBe(0);
    }));
  }, 90_000);
});

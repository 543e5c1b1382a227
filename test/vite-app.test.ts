// A web developer's first try, as docs/runtimes.md tells it: a fresh create-vite app (the real create-vite
// CLI, pinned in devDependencies, `vanilla-ts` template, its own package.json, tsconfig and build
// script untouched) that installs the packed tarball (`npm pack`) beside the template's own
// TypeScript and Vite, takes its vite.config.ts and src/main.ts from docs/runtimes.md's `vite-app` blocks,
// and builds with the template's `npm run build` (`tsc && vite build`). Claims: it type-checks and
// builds with no error; the page's own chunk stays small (sideEffects lets the bundler drop what the
// page does not import: no SQLite glue, no core engine in it); the Worker, the SQLite wasm and every
// grammar of the table are emitted, and no second sqlite3 Worker; and the built page, served from
// 127.0.0.1, indexes the shipped sample zip in headless Chromium and finds the same first hit as the CLI.
// @lane package
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { GRAMMARS } from '../core/languages/grammars.ts';
import { REPO, PACKAGE, NETWORK_ENV } from './helpers/installed-package.ts';
import { launchChromium, listFiles, serveStatic } from './helpers/browser.ts';
import { chromiumBinary, titled } from './helpers/runtimes.ts';

const chromium = chromiumBinary();
import { tmpDir } from './helpers/tmp-workspace.ts';

/** docs/runtimes.md, "In a Vite app": the page a web developer is told to write. */
const GUIDE = fs.readFileSync(path.join(REPO, 'docs', 'runtimes.md'), 'utf8');
/** The page's own JS, gzipped: the guide's page is a few lines over connectHci. */
const MAX_PAGE_GZ = 16 * 1024;

/** The guide's ```ts vite-app <file>``` blocks: file → text. */
function readmeAppFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of GUIDE.matchAll(/^```ts vite-app (\S+)\n([\s\S]*?)^```$/gm)) out[m[1]] = m[2];
  return out;
}

let tmp = '';
let app = '';
let env: Record<string, string> = {};
let built: { code: number | null; out: string } = { code: null, out: '' };

function run(cmd: string, args: string[], cwd: string, timeout = 240_000) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('a fresh create-vite app over the packed tarball', () => {
  beforeAll(() => {
    tmp = tmpDir('hci-vite-app-');
    env = { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: process.env.HOME ?? tmp, NO_COLOR: '1' };
    for (const k of NETWORK_ENV) if (process.env[k]) env[k] = process.env[k]!;
    const pack = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as Array<{ filename: string }>;
    const tarball = path.join(tmp, pack[0].filename);
    const scaffold = run(process.execPath, [path.join(REPO, 'node_modules/create-vite/index.js'), 'my-app', '--template', 'vanilla-ts', '--no-interactive', '--no-immediate'], tmp);
    if (scaffold.code !== 0) throw new Error(`create-vite failed:\n${scaffold.out}`);
    app = path.join(tmp, 'my-app');
    const install = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], app);
    if (install.code !== 0) throw new Error(`npm install failed:\n${install.out}`);
    for (const [file, text] of Object.entries(readmeAppFiles())) fs.writeFileSync(path.join(app, file), text);
    built = run('npm', ['run', 'build'], app);
  }, 400_000);

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('is the template as create-vite writes it, with the guide\'s two files and the tarball as a dependency', () => {
    expect(Object.keys(readmeAppFiles()).sort()).toEqual(['src/main.ts', 'vite.config.ts']);
    const pj = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pj.scripts.build).toBe('tsc && vite build');
    expect(Object.keys(pj.devDependencies).sort()).toEqual(['typescript', 'vite']);
    expect(pj.dependencies[PACKAGE.name]).toMatch(/^file:.*\.tgz$/);
    const tsconfig = fs.readFileSync(path.join(app, 'tsconfig.json'), 'utf8');
    expect(tsconfig).toContain('"moduleResolution": "bundler"');
    expect(tsconfig).toContain('"erasableSyntaxOnly": true');
  });

  it('builds with the template\'s `tsc && vite build`: no type error inside hci, no error at all', () => {
    expect(built.code, built.out).toBe(0);
    expect(built.out).not.toMatch(/error TS\d+/);
    expect(built.out).toContain('built in');
  });

  it('emits the Worker, the SQLite wasm and every grammar, one sqlite3 Worker glue, and a small page chunk', () => {
    const dist = path.join(app, 'dist');
    const assets = listFiles(dist);
    for (const g of Object.values(GRAMMARS)) {
      const base = path.basename(g.file).replace(/\.wasm$/, '');
      expect(assets.some((a) => path.basename(a).startsWith(base) && a.endsWith('.gz')), `${base} (gzipped) emitted`).toBe(true);
    }
    expect(assets.filter((a) => /\/sqlite3-[\w-]+\.wasm$/.test(a))).toHaveLength(1);
    expect(assets.some((a) => /\/worker-[\w-]+\.js$/.test(a))).toBe(true);
    expect(assets.filter((a) => /sqlite3-worker1/.test(a))).toEqual([]);
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const entry = [...html.matchAll(/src="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(entry).toHaveLength(1);
    const code = fs.readFileSync(path.join(dist, entry[0]));
    const gz = zlib.gzipSync(code, { level: 9 }).length;
    console.log(`create-vite page: entry ${(code.length / 1024).toFixed(1)} KB (${(gz / 1024).toFixed(1)} KB gzip)`);
    expect(gz).toBeLessThanOrEqual(MAX_PAGE_GZ);
    // What the page does not import stays out of its chunk (the Worker has the engine).
    expect(code.toString()).not.toContain('sqlite3');
    expect(code.toString()).not.toContain('tree-sitter');
  });

  it.skipIf(!chromium)(titled('runs in headless Chromium: indexes the shipped sample zip and searches as you type', { Chromium: chromium }), async () => {
    const server = await serveStatic(path.join(app, 'dist'));
    const session = await launchChromium(chromium);
    try {
      const page = session.page;
      await page.goto(server.url);
      await page.waitForSelector('#zip');
      await page.setInputFiles('#zip', path.join(REPO, 'dist/sample-workspace.zip'));
      // On a timeout, say where the run stood (the page shows the last progress report: phase, files done/total).
      await page.waitForFunction(() => /files indexed/.test(document.querySelector('#out')?.textContent ?? ''), undefined, { timeout: 90_000 }).catch(async (e: Error) => {
        throw new Error(`${e.message}; the page shows "${(await page.textContent('#out').catch(() => null)) ?? '(no #out)'}"`);
      });
      expect(Number(/(\d+) files indexed/.exec((await page.textContent('#out')) ?? '')?.[1])).toBeGreaterThan(70);
      await page.fill('#q', 'GetCatalogItemsAsync');
      await page.waitForFunction(() => (document.querySelector('#out')?.textContent ?? '').includes('CatalogService.cs'), undefined, { timeout: 30_000 });
      const first = ((await page.textContent('#out')) ?? '').split('\n')[0];
      expect(first).toMatch(/^src\/Contoso\.Shop\.Application\/Catalog\/CatalogService\.cs:\d+-\d+$/);
      const shots = path.join(REPO, 'test-output/vite-app');
      fs.mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: path.join(shots, 'create-vite-page.png') });
      expect(session.requests.filter((u) => !u.startsWith(`${server.url}/`) && !/^(data|blob|about):/.test(u))).toEqual([]);
    } finally {
      await session.close();
      await server.close();
    }
  }, 120_000);
});

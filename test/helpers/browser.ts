// Browser test plumbing: builds the test page (test/browser, with the hci Worker) with Vite, serves
// it and any fixtures from a tiny static server on 127.0.0.1, and drives headless Chromium through
// playwright-core with a fresh profile. Nothing here reaches beyond 127.0.0.1.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import type { BrowserContext, Page } from 'playwright-core';
import type { Harness } from '../browser/page.ts';
import { tmpDir } from './tmp-workspace.ts';

export const REPO = path.resolve(import.meta.dirname, '../..');

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Builds test/browser (or another page folder) with the repository's vite.config.ts into a fresh temp folder (about 2 s). */
export async function buildTestPage(root = path.join(REPO, 'test/browser')): Promise<string> {
  const outDir = tmpDir('hci-page-');
  const { build } = await import('vite');
  await build({
    configFile: path.join(REPO, 'vite.config.ts'),
    root,
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, minify: false, reportCompressedSize: false },
  });
  return outDir;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json', '.zip': 'application/zip', '.sqlite': 'application/vnd.sqlite3', '.css': 'text/css',
};

export interface StaticServer {
  url: string;
  /** Serves bytes at a path (e.g. '/fixtures/sample.zip'). */
  put(urlPath: string, bytes: Uint8Array): void;
  close(): Promise<void>;
}

/** A static file server on 127.0.0.1 over `dir`, plus in-memory fixtures. */
export async function serveStatic(dir: string): Promise<StaticServer> {
  const extra = new Map<string, Uint8Array>();
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const type = TYPES[path.extname(urlPath)] ?? 'application/octet-stream';
    if (urlPath === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const mem = extra.get(urlPath);
    if (mem) {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(mem);
      return;
    }
    const file = path.join(dir, urlPath === '/' ? 'index.html' : urlPath);
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    put: (p, b) => void extra.set(p, b),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Every file under `root` (forward-slash relative paths), without any `.hci` folder. */
export function listFiles(root: string, dir = root): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === '.hci' ? [] : listFiles(root, p);
    return e.isFile() ? [path.relative(root, p).split(path.sep).join('/')] : [];
  });
}

/** A .zip of a folder (no `.hci`), under a single top folder like GitHub's archives. */
export function zipFolder(root: string, top = 'workspace'): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const rel of listFiles(root)) files[`${top}/${rel}`] = fs.readFileSync(path.join(root, rel));
  return zipSync(files, { level: 6 });
}

export interface BrowserSession {
  context: BrowserContext;
  /** The first tab, on the test page once open() ran. */
  page: Page;
  userDataDir: string;
  /** Every URL any page or Worker of this browser requested. */
  requests: string[];
  /** Points the first tab at the test page and waits for its Worker. */
  open(url: string): Promise<Page>;
  /** Opens the test page in another tab (same origin, same OPFS). */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Launches Chromium (headless, a fresh profile, only 127.0.0.1 is ever visited). */
export async function launchChromium(executablePath: string): Promise<BrowserSession> {
  const { chromium } = await import('playwright-core');
  const userDataDir = tmpDir('hci-chromium-');
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath, headless: true, args: CHROMIUM_ARGS });
  const requests: string[] = [];
  context.on('request', (r) => void requests.push(r.url()));
  const watch = (page: Page) => {
    page.on('pageerror', (e) => console.error(`[page error] ${String(e)}`));
    page.on('console', (m) => {
      if (m.type() === 'error') console.error(`[page console] ${m.text()}`);
    });
    return page;
  };
  // A persistent context starts with one blank tab: it becomes the first page.
  const page = watch(context.pages()[0] ?? (await context.newPage()));
  let url = '';
  return {
    context, page, userDataDir, requests,
    async open(u: string) {
      url = u;
      await page.goto(url);
      await ready(page);
      return page;
    },
    async newPage() {
      const p = watch(await context.newPage());
      await p.goto(url);
      await ready(p);
      return p;
    },
    close: async () => {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => 'harness' in window, undefined, { timeout: 30_000 });
  const r = await call(page, 'ready');
  if (r !== true) throw new Error(`test page did not start: ${JSON.stringify(r)}`);
}

type HarnessResult<K extends keyof Harness> = Awaited<ReturnType<Harness[K]>>;
type Ok<R> = R extends { ok: infer T } ? T : never;

/** Calls window.harness[name](...args) in the page; returns its `ok` value or throws its error. */
export async function call<K extends keyof Harness>(page: Page, name: K, ...args: Parameters<Harness[K]>): Promise<Ok<HarnessResult<K>>> {
  const r = (await page.evaluate(
    ([n, a]) => (window as unknown as { harness: Record<string, (...x: unknown[]) => unknown> }).harness[n as string](...(a as unknown[])),
    [name, args] as const,
  )) as { ok?: unknown; error?: { code: string; message: string; hint?: string } };
  if (r.error) throw Object.assign(new Error(`${String(name)}: ${r.error.code}: ${r.error.message}`), r.error);
  return r.ok as Ok<HarnessResult<K>>;
}

/** Like call(), but returns the error (code, message, hint) instead of throwing it. */
export async function callError<K extends keyof Harness>(page: Page, name: K, ...args: Parameters<Harness[K]>): Promise<{ code: string; message: string; hint?: string } | null> {
  try {
    await call(page, name, ...args);
    return null;
  } catch (e) {
    const err = e as { code?: string; message: string; hint?: string };
    return { code: err.code ?? 'unknown', message: err.message, hint: err.hint };
  }
}

export interface SamplePage {
  session: BrowserSession;
  server: StaticServer;
  /** The test page, its Worker ready; `workspace`, when given, is served zipped at /fixtures/sample.zip. */
  page: Page;
  close(): Promise<void>;
}

/** Builds the test page and launches Chromium side by side, serves both, and opens the page. */
export async function openSamplePage(chromium: string, workspace?: string): Promise<SamplePage> {
  const [out, session] = await Promise.all([buildTestPage(), launchChromium(chromium)]);
  const server = await serveStatic(out);
  if (workspace) server.put('/fixtures/sample.zip', zipFolder(workspace));
  const page = await session.open(server.url);
  return {
    session, server, page,
    close: async () => {
      await session.close();
      await server.close();
      fs.rmSync(out, { recursive: true, force: true });
    },
  };
}

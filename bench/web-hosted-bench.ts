// The explorer's first query against a hosted index (issue 36's published index, opened by a link's
// ?index=<url>; runtimes/browser/xhr-reader.ts reads it a range at a time): the production build
// and a packed index served from one 127.0.0.1 origin, the index's requests counted by the server
// (HTTP ranges answered, `Cache-Control: no-store`, so every read the Worker makes reaches it). Per
// query, in a fresh browser context (nothing cached): opening the link (until the Worker and the page
// stop reading), the query typed in one go (first), then another query of another kind (warm, new)
// and the first one again (warm, repeated) — requests, bytes, and keystroke → painted. The queries
// are bench/remote.ts's, so the figures sit beside the Node reader's (bench/results/remote-*.md).
//
//   npm run build && node dist/bench/web-hosted-bench.js (--index FILE.sqlite | --root INDEXED_DIR [--page-size 16384])
//     [--app DIR] [--json out.json]
//
// Owns these measurements; what they measure is runtimes/browser/xhr-reader.ts, runtimes/shared/
// {remote-file,http-vfs}.ts, core/index/pack.ts and the explorer's open path (web-demo/src/workspaces/hosted.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { QUERIES } from './remote.ts';
import { buildApp, CHROMIUM_ARGS, serve } from './web-demo-bench.ts';
import { commitInfo } from './lib/record.ts';
import { isMain, median, optInt, optString, parseArgs } from './lib/util.ts';

interface Counts {
  requests: number;
  bytes: number;
}

/** The app's files, and the index under /hosted/ with HTTP ranges; counts the index's requests and bytes. */
async function serveWithIndex(appDir: string, indexFile: string): Promise<{ url: string; counts: Counts; close(): Promise<void> }> {
  const counts: Counts = { requests: 0, bytes: 0 };
  const server = await serve(appDir, {}, (req, res, p) => {
    if (!p.startsWith('/hosted/')) return false;
    const file = p === '/hosted/index.sqlite' ? indexFile : p === '/hosted/index.sqlite.json' ? `${indexFile}.json` : '';
    if (!file || !fs.existsSync(file)) return void res.writeHead(404).end(), true;
    counts.requests++;
    const size = fs.statSync(file).size;
    const common = { 'Accept-Ranges': 'bytes', 'Cache-Control': 'no-store', ETag: `"${size}"`, 'Content-Type': file.endsWith('.json') ? 'application/json' : 'application/octet-stream' };
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (req.method === 'HEAD') return void res.writeHead(200, { ...common, 'Content-Length': String(size) }).end(), true;
    const start = range ? Number(range[1]) : 0;
    const end = range ? Math.min(range[2] ? Number(range[2]) : size - 1, size - 1) : size - 1;
    if (range && (start >= size || start > end)) return void res.writeHead(416, { ...common, 'Content-Range': `bytes */${size}` }).end(), true;
    counts.bytes += end - start + 1;
    res.writeHead(range ? 206 : 200, { ...common, ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}), 'Content-Length': String(end - start + 1) });
    fs.createReadStream(file, { start, end }).pipe(res);
    return true;
  });
  return { ...server, counts };
}

interface Step {
  query: string;
  requests: number;
  bytes: number;
  /** Keystroke → painted, and the Worker's own search time (the page's perf marks). */
  ms: number;
  worker_ms: number;
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  const { opts } = parseArgs(argv);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-web-hosted-'));
  let indexFile = optString(opts, 'index');
  const root = optString(opts, 'root');
  if (!indexFile && !root) throw new Error('give --index <packed index.sqlite> or --root <an indexed workspace> to pack');
  if (!indexFile) {
    const { openWorkspace } = await import('../runtimes/node/workspace.ts');
    const { nodePackTarget } = await import('../runtimes/node/pack-target.ts');
    indexFile = path.join(work, 'index.sqlite');
    const ws = await openWorkspace(path.resolve(root!));
    try {
      await ws.pack(nodePackTarget(indexFile), { fileName: 'index.sqlite', pageSize: optInt(opts, 'page-size', 16384) });
    } finally {
      ws.close();
    }
  }
  indexFile = path.resolve(indexFile);
  const prebuilt = optString(opts, 'app');
  const appDir = prebuilt ? path.resolve(prebuilt) : path.join(work, 'app');
  if (!prebuilt) await buildApp(appDir);
  const server = await serveWithIndex(appDir, indexFile);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.HCI_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const kinds = Object.entries(QUERIES);
  const rows: Array<{ kind: string; open: Counts & { ms: number }; first: Step; warm_new: Step; warm_repeated: Step }> = [];
  try {
    for (const [k, [kind, qs]] of kinds.entries()) {
      for (const [i, query] of qs.entries()) {
        // Another kind's query as the warm one: other terms, other pages.
        const [, others] = kinds[(k + 1) % kinds.length];
        const other = others[i % others.length];
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const page = await context.newPage();
        const snap = (): Counts => ({ ...server.counts });
        /** Waits until the index gets no request for `quietMs` (the Worker and the page are done reading). */
        const settle = async (quietMs = 600) => {
          let last = server.counts.requests;
          let since = Date.now();
          while (Date.now() - since < quietMs) {
            await new Promise((r) => setTimeout(r, 50));
            if (server.counts.requests !== last) (last = server.counts.requests), (since = Date.now());
          }
        };
        const step = async (q: string): Promise<Step> => {
          const before = snap();
          const seen = await page.evaluate(() => (window as unknown as { __hciPerf: { typing: unknown[] } }).__hciPerf.typing.length);
          await page.fill('#search-input', q);
          await page.waitForFunction(
            ([n, text]) => (window as unknown as { __hciPerf: { typing: Array<{ query: string }> } }).__hciPerf.typing.slice(n as number).some((s) => s.query === text),
            [seen, q] as const,
            { timeout: 120_000 },
          );
          await settle();
          const t = await page.evaluate(
            ([n, text]) => (window as unknown as { __hciPerf: { typing: Array<{ query: string; ms: number; worker_ms: number }> } }).__hciPerf.typing.slice(n as number).find((s) => s.query === text)!,
            [seen, q] as const,
          );
          const after = snap();
          return { query: q, requests: after.requests - before.requests, bytes: after.bytes - before.bytes, ms: Math.round(t.ms * 10) / 10, worker_ms: t.worker_ms };
        };
        const before = snap();
        const t0 = Date.now();
        await page.goto(`${server.url}/?index=${encodeURIComponent('/hosted/index.sqlite')}`);
        await page.waitForSelector('#search-input:not([disabled])', { timeout: 120_000 });
        await page.waitForFunction(() => performance.getEntriesByName('hci-workspace-open').length > 0, undefined, { timeout: 120_000 });
        const openMs = Date.now() - t0;
        await settle(1000);
        const opened = snap();
        const first = await step(query);
        const warmNew = await step(other);
        // The same query again: emptied first, so the box changes and the page asks again.
        await page.fill('#search-input', '');
        await settle(300);
        const warmRepeated = await step(query);
        rows.push({ kind, open: { requests: opened.requests - before.requests, bytes: opened.bytes - before.bytes, ms: openMs }, first, warm_new: warmNew, warm_repeated: warmRepeated });
        console.error(`${kind} "${query}": open ${opened.requests - before.requests} req ${opened.bytes - before.bytes} B ${openMs} ms; first ${first.requests} req ${first.bytes} B ${first.ms} ms; warm new "${other}" ${warmNew.requests} req ${warmNew.bytes} B ${warmNew.ms} ms; repeated ${warmRepeated.requests} req ${warmRepeated.ms} ms`);
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const manifest = fs.existsSync(`${indexFile}.json`) ? JSON.parse(fs.readFileSync(`${indexFile}.json`, 'utf8')) : null;
  const med = (f: (r: (typeof rows)[number]) => number) => median(rows.map(f));
  const report = {
    commit: commitInfo(),
    load: os.loadavg().map((x) => Math.round(x * 10) / 10),
    index: { bytes: fs.statSync(indexFile).size, page_size: manifest?.page_size ?? null, repository: manifest?.repository ?? null, files: manifest?.files ?? null, chunks: manifest?.chunks ?? null },
    medians: {
      open: { requests: med((r) => r.open.requests), bytes: med((r) => r.open.bytes), ms: med((r) => r.open.ms) },
      first: { requests: med((r) => r.first.requests), bytes: med((r) => r.first.bytes), ms: med((r) => r.first.ms), worker_ms: med((r) => r.first.worker_ms) },
      warm_new: { requests: med((r) => r.warm_new.requests), bytes: med((r) => r.warm_new.bytes), ms: med((r) => r.warm_new.ms), worker_ms: med((r) => r.warm_new.worker_ms) },
      warm_repeated: { requests: med((r) => r.warm_repeated.requests), bytes: med((r) => r.warm_repeated.bytes), ms: med((r) => r.warm_repeated.ms) },
    },
    by_kind: Object.fromEntries(kinds.map(([kind]) => {
      const of = rows.filter((r) => r.kind === kind);
      return [kind, { queries: of.length, first_requests: median(of.map((r) => r.first.requests)), first_bytes: median(of.map((r) => r.first.bytes)), first_ms: median(of.map((r) => r.first.ms)), warm_new_requests: median(of.map((r) => r.warm_new.requests)), warm_new_bytes: median(of.map((r) => r.warm_new.bytes)) }];
    })),
    rows,
  };
  const mb = (b: number) => `${(b / 1048576).toFixed(2)} MB`;
  const m = report.medians;
  console.log(`hosted index ${report.index.repository ?? indexFile} (${mb(report.index.bytes)}, ${report.index.page_size}-byte pages), ${rows.length} queries, load ${report.load.join(' ')}`);
  console.log(`open (link → searchable, until reads stop): ${m.open.requests} requests, ${mb(m.open.bytes)}, ${m.open.ms} ms (medians)`);
  console.log(`first query: ${m.first.requests} requests, ${mb(m.first.bytes)}, keystroke → painted ${m.first.ms} ms (Worker ${m.first.worker_ms} ms)`);
  console.log(`warm, new query: ${m.warm_new.requests} requests, ${mb(m.warm_new.bytes)}, ${m.warm_new.ms} ms (Worker ${m.warm_new.worker_ms} ms); warm, repeated: ${m.warm_repeated.requests} requests, ${m.warm_repeated.ms} ms`);
  for (const [kind, v] of Object.entries(report.by_kind)) console.log(`  ${kind}: first ${v.first_requests} requests ${mb(v.first_bytes)} ${v.first_ms} ms; warm new ${v.warm_new_requests} requests ${mb(v.warm_new_bytes)}`);
  const json = optString(opts, 'json');
  if (json) fs.writeFileSync(json, JSON.stringify(report, null, 2));
  fs.rmSync(work, { recursive: true, force: true });
}

if (isMain(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

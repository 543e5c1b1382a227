// KNN latency of the vector scan in Node, Deno and headless Chromium: exact top-k over a
// deterministic clustered set (default 50,000 vectors at 384 and 128 dims, k = 20), for int8 and
// f32 through the WASM SIMD kernel and its JS twin; p50/p95/max per case, int8 recall@k against
// f32, and whether both backends returned identical hits. The body is bench/lib/knn-run.ts, run
// as is in each runtime (Node in process, Deno on the sources, Chromium on the compiled modules of
// dist/ served from 127.0.0.1).
//
//   node dist/bench/knn-bench.js [--count 50000] [--dims 384,128] [--k 20] [--queries 50] [--repeats 100]
//                                [--runtimes node,deno,chromium] [--out DIR]
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { runKnn, type KnnRunOptions, type KnnRunResult } from './lib/knn-run.ts';
import { fmtNum, markdownTable, optInt, optList, optString, parseArgs, repoRoot, writeJson, runMain } from './lib/util.ts';

type Runtime = 'node' | 'deno' | 'chromium';

function denoBin(): string | null {
  const p = path.join(repoRoot(), 'node_modules/.bin/deno');
  return fs.existsSync(p) ? p : null;
}

function chromiumBin(): string | null {
  for (const p of [process.env.HCI_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser']) if (p && fs.existsSync(p)) return p;
  return null;
}

function inDeno(o: KnnRunOptions): KnnRunResult {
  const deno = denoBin();
  if (!deno) throw new Error('deno is missing (node_modules/.bin/deno): run `npm ci`');
  const r = spawnSync(deno, ['run', '--no-prompt', path.join(repoRoot(), 'bench/knn-deno.ts'), JSON.stringify(o)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`deno failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as KnnRunResult;
}

async function inChromium(o: KnnRunOptions): Promise<KnnRunResult> {
  const exe = chromiumBin();
  if (!exe) throw new Error('Chromium is missing (/usr/bin/chromium or $HCI_CHROMIUM)');
  const dist = path.join(repoRoot(), 'dist');
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (p === '/') {
      const page = "<!doctype html><title>knn</title><script type=module>import { runKnn } from '/bench/lib/knn-run.js'; window.runKnn = runKnn;</script>";
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    }
    const file = path.join(dist, p);
    if (!file.startsWith(dist) || !fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(fs.readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: exe, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => 'runKnn' in window, undefined, { timeout: 30_000 });
    return (await page.evaluate((opts) => (window as unknown as { runKnn(o: unknown): Promise<unknown> }).runKnn(opts), o)) as KnnRunResult;
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
}

export interface KnnBenchRow extends KnnRunResult {
  runtime: Runtime;
}

export function formatKnn(rows: readonly KnnBenchRow[]): string {
  const f = (x: number) => fmtNum(x, 2);
  const out = [markdownTable(
    ['runtime', 'vectors', 'encoding', 'backend', 'p50 ms', 'p95 ms', 'max ms', 'load ms', 'runs'],
    rows.flatMap((r) => r.cases.map((c) => [r.runtime, `${r.count} × ${r.dims}`, c.encoding, c.backend, f(c.p50), f(c.p95), f(c.max), fmtNum(c.loadMs, 0), String(c.samples)])),
  )];
  out.push('', markdownTable(['runtime', 'vectors', `int8 recall@${rows[0]?.k ?? 20} vs f32`, 'WASM = JS hits'], rows.map((r) => [r.runtime, `${r.count} × ${r.dims}`, fmtNum(r.int8RecallAtK, 3), r.backendsAgree ? 'identical' : 'DIFFER'])));
  return out.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const dims = optList(opts, 'dims').map(Number);
  const runtimes = (optList(opts, 'runtimes').length ? optList(opts, 'runtimes') : ['node', 'deno', 'chromium']) as Runtime[];
  const rows: KnnBenchRow[] = [];
  for (const d of dims.length ? dims : [384, 128]) {
    const o: KnnRunOptions = { count: optInt(opts, 'count', 50_000), dims: d, k: optInt(opts, 'k', 20), queries: optInt(opts, 'queries', 50), repeats: optInt(opts, 'repeats', 100) };
    for (const rt of runtimes) {
      process.stderr.write(`knn: ${rt}, ${o.count} × ${d}…\n`);
      const r = rt === 'node' ? await runKnn(o) : rt === 'deno' ? inDeno(o) : await inChromium(o);
      rows.push({ runtime: rt, ...r });
    }
  }
  const text = formatKnn(rows);
  process.stdout.write(`${text}\n`);
  const out = optString(opts, 'out');
  if (out) {
    writeJson(path.join(out, 'knn-bench.json'), rows);
    fs.writeFileSync(path.join(out, 'knn-bench.md'), `${text}\n`);
  }
  return rows.every((r) => r.backendsAgree) ? 0 : 1;
}

await runMain(import.meta.url, 'knn-bench', main);

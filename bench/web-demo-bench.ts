// The web-demo explorer's targets, measured in headless Chromium over its production build served on
// 127.0.0.1: the app's own JS gzipped (entry, lazy chunks, the Worker; wasm apart), start-up (first
// paint, the Worker answering, a stored workspace searchable after a reload; a chunk counts with the
// chunks it imports statically, which load with it), indexing a ~750-file
// repository from a .zip (FluentAvalonia from the devset corpus when present, else a generated one),
// and search as you type from keystroke to results painted (p50/p95 over every keystroke). Beside each
// of the app's indexing runs, the bare browser runtime (the test page, test/browser: the same Worker
// with no app around it) indexes the same .zip in the same browser: the baseline the app is held to.
//
//   npm run build && node dist/bench/web-demo-bench.js [--corpus DIR] [--runs 3] [--json out.json]
//     [--app DIR]        measure an app built before (a copy of web-demo/dist) instead of building it: A/B
//     [--settings TOML]  a .hci/settings.toml put into the zip (e.g. 'coverage_boost = 0')
//     [--files N]        zip N of the corpus's files, evenly spaced over its sorted paths (the target's
//                        750-file repository out of FluentAvalonia's 825; its ignore files always in)
//     [--typed 'A|B c']  the queries typed key by key (default: ten a C# / Avalonia explorer would type)
//     [--more]           ten more queries typed after those (TYPED_MORE; twice the samples), the first
//                        ten's keystrokes also reported alone
//     [--timeout-s N]    how long an indexing run may take (default 300; a ~5,000-file repository needs more)
//     [--no-bare]        no bare-runtime runs beside the app's (no app/bare ratio)
//     [--trace FILE]     a Chromium trace of the reopen and the typing (JSON, for chrome://tracing or
//                        Perfetto; its CPU profiler slows the reopen measured)
//
// Memory (Linux): the app's tab runs in a Chromium of its own (the bare runtime in another), whose
// processes are sampled from /proc (bench/lib/browser-memory.ts): the tab's renderer process, which
// holds the page and its Workers (JS heaps, SQLite's and tree-sitter's WASM memories), peaks per phase
// (idle before indexing, each indexing run, reopening, typing) and its kernel high-water mark; beside
// them the page's and the hci Worker's JS heaps (CDP) and the origin's storage (the OPFS index).
//
// An indexing run that fails (the panel ends in failed or cancelled, or records no run) is reported
// with the panel's message and the bench exits 1 after printing what it measured.
//
// The machine is shared: figures are medians of --runs; compare them with ratios, not across days.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { generateCorpus } from './corpus-gen.ts';
import { pageWorkers, sampleBrowserMemory, type BrowserMemoryReport, type WorkerMemory } from './lib/browser-memory.ts';
import { commitInfo } from './lib/record.ts';
import { isMain, median, optInt, optString, parseArgs, percentile, repoRoot } from './lib/util.ts';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json',
};
/** The dev set's FluentAvalonia, where this machine keeps it (the shared corpora, or an older copy). */
const DEVSET = ['/work/corpora/devset/FluentAvalonia', '/work/devset-corpus/FluentAvalonia'].find((d) => fs.existsSync(d)) ?? '';
/** Queries typed key by key, as someone exploring a C# / Avalonia code base would. */
const TYPED = ['NavigationView', 'ContentDialog', 'ColorPicker', 'TabView', 'InfoBar', 'settings expander', 'FrameNavigationOptions', 'Theme', 'CornerRadius', 'ItemsRepeater'];
/**
 * Typed after TYPED with --more (the controls of the library's UI/Controls folder and two phrases), for
 * twice the samples: one run of TYPED's ~120 keystrokes moves p95 by ~10 ms (six keystrokes make its
 * slowest 5%). The keystrokes of TYPED are also reported alone, as before.
 */
const TYPED_MORE = ['BreadcrumbBar', 'CommandBarFlyout', 'NumberBox', 'ProgressRing', 'TeachingTip', 'TaskDialog', 'InfoBadge', 'RangeSlider', 'menu flyout item', 'symbol icon source'];

function files(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === '.git' || e.name === '.hci' ? [] : files(p, base);
    return e.isFile() ? [path.relative(base, p).split(path.sep).join('/')] : [];
  });
}

/** `n` of the files, evenly spaced over the sorted paths (folders and languages mixed as in the whole); dotfiles (.gitignore, …) always kept. */
export function sampleFiles(list: string[], n: number): string[] {
  const sorted = [...list].sort();
  const dot = sorted.filter((f) => path.posix.basename(f).startsWith('.'));
  const rest = sorted.filter((f) => !path.posix.basename(f).startsWith('.'));
  const want = n - dot.length;
  if (want >= rest.length) return sorted;
  const kept = new Set(dot);
  for (let k = 0; k < Math.max(0, want); k++) kept.add(rest[Math.floor((k * rest.length) / want)]);
  return sorted.filter((f) => kept.has(f));
}

export async function buildApp(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: path.join(repoRoot(), 'web-demo/vite.config.ts'), mode: 'production', logLevel: 'error', build: { outDir, emptyOutDir: true } });
}

/** The bare runtime's test page (test/browser: the hci Worker and window.harness), minified like the app. */
async function buildBarePage(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: path.join(repoRoot(), 'vite.config.ts'), root: path.join(repoRoot(), 'test/browser'), mode: 'production', logLevel: 'error', build: { outDir, emptyOutDir: true } });
}

/** Gzipped sizes of the build's JS: the entry the page loads, its lazy chunks, the Worker's chunks. */
function jsSizes(outDir: string) {
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const entry = [...html.matchAll(/src="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const all = files(outDir).filter((f) => f.endsWith('.js') && f !== 'sw.js');
  const gz = (f: string) => zlib.gzipSync(fs.readFileSync(path.join(outDir, f)), { level: 9 }).length;
  // The Worker's chunks are the ones that import (or are) the sqlite-wasm glue; the rest are the page's.
  const workerEntry = all.find((f) => /(^|\/)worker-[^/]+\.js$/.test(f));
  const workerChunks = workerEntry ? [workerEntry] : [];
  for (let i = 0; i < workerChunks.length; i++) {
    const code = fs.readFileSync(path.join(outDir, workerChunks[i]), 'utf8');
    for (const f of all) if (!workerChunks.includes(f) && code.includes(path.basename(f))) workerChunks.push(f);
  }
  const page = all.filter((f) => !workerChunks.includes(f));
  const sum = (list: string[]) => list.reduce((n, f) => n + gz(f), 0);
  // What loads with a chunk: the chunk and every chunk it imports statically (`import … from "./x.js"`),
  // the chunks shared between a Worker's entry and its lazy chunks included; `import("./x.js")` is lazy.
  const withStaticImports = (start: string[]): string[] => {
    const seen = [...start];
    for (let i = 0; i < seen.length; i++) {
      const code = fs.readFileSync(path.join(outDir, seen[i]), 'utf8');
      for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)) {
        const f = path.posix.join(path.posix.dirname(seen[i]), m[1]);
        if (!seen.includes(f) && all.includes(f)) seen.push(f);
      }
    }
    return seen;
  };
  const entryLoad = withStaticImports(entry);
  const workerStart = workerEntry ? withStaticImports([workerEntry]) : [];
  // The Worker's chunks by when they load: its entry at start; sqlite-wasm's JS glue (the chunk
  // holding sqlite3's emscripten code) when a workspace opens; the rest on first use — tree-sitter
  // and each language's chunker when indexing, the settings schema only for a .hci/settings.toml.
  const isGlue = (f: string) => fs.readFileSync(path.join(outDir, f), 'utf8').includes('LICENSE for the sqlite3 WebAssembly/JavaScript APIs');
  const glue = workerChunks.filter((f) => !workerStart.includes(f) && isGlue(f));
  const lazy = workerChunks.filter((f) => !workerStart.includes(f) && !glue.includes(f));
  return {
    entry_gz: sum(entryLoad),
    page_all_gz: sum(page),
    worker_gz: sum(workerChunks),
    /** The Worker's entry with the chunks it imports statically: what loads before it answers. */
    worker_entry_gz: sum(workerStart),
    worker_start_chunks: workerStart.length,
    /** What loads before a workspace is searchable: the page's entry, the Worker's start, the SQLite glue (the ≤ 150 KB target). */
    start_gz: sum(entryLoad) + sum(workerStart) + sum(glue),
    worker_sqlite_glue_gz: sum(glue),
    worker_lazy_gz: sum(lazy),
    worker_lazy: Object.fromEntries(lazy.map((f): [string, number] => [path.basename(f).replace(/-[\w-]{8}\.js$/, ''), gz(f)]).sort((a, b) => b[1] - a[1]).slice(0, 6)),
    total_js_gz: sum(all),
    wasm_bytes: files(outDir).filter((f) => f.endsWith('.wasm')).reduce((n, f) => n + fs.statSync(path.join(outDir, f)).size, 0),
  };
}

/** Serves `dir`'s files on 127.0.0.1, `extra` paths as zips, and what `handle` takes (it returns true) its way. */
export async function serve(
  dir: string,
  extra: Record<string, Uint8Array> = {},
  handle?: (req: http.IncomingMessage, res: http.ServerResponse, pathname: string) => boolean,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (handle?.(req, res, p)) return;
    if (extra[p]) return void res.writeHead(200, { 'content-type': 'application/zip' }).end(extra[p]);
    const file = path.join(dir, p === '/' ? 'index.html' : p);
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/**
 * A Chromium trace (CDP Tracing: the page's and its Workers' threads, task by task, with frames and
 * paints, and V8's CPU samples of each thread: which functions a long task ran) from now until the
 * returned function is called, which gives its events — the reopen's and typing's (`--trace FILE`), to see
 * where a slow keystroke's time went (load it in chrome://tracing or Perfetto).
 */
async function startTrace(cdp: import('playwright-core').CDPSession): Promise<() => Promise<unknown[]>> {
  const events: unknown[] = [];
  cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => void events.push(...e.value));
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'v8.execute', 'blink.user_timing', 'toplevel', 'v8', 'disabled-by-default-v8.cpu_profiler'] },
  });
  return async () => {
    await cdp.send('Tracing.end');
    await done;
    return events;
  };
}

interface Perf {
  /** rendered_ms and frame_ms: from builds whose app/perf.ts records them. */
  typing: Array<{ query: string; ms: number; answered_ms: number; worker_ms: number; rendered_ms?: number; frame_ms?: number; replaced_by?: string }>;
  /** From builds whose app/perf.ts counts them: keystrokes still unpainted when the field was emptied. */
  cleared?: { keystrokes: number };
  runs: Array<{ workspace: string; wall_ms: number; phases: Record<string, number>; summary: { files_indexed: number; chunks_written: number; took_ms: number } }>;
}

interface BareRun {
  wall_ms: number;
  summary: { files_indexed: number; chunks_written: number; took_ms: number };
}

/** The bare runtime indexes the served zip as a new workspace (the test page's harness: open, index). */
async function bareIndex(page: import('playwright-core').Page, name: string): Promise<BareRun> {
  return page.evaluate(async (n) => {
    type R<T> = { ok?: T; error?: { code: string; message: string } };
    const h = (window as unknown as { harness: Record<string, (...a: unknown[]) => Promise<R<unknown>>> }).harness;
    // Where the run is, for a bench that gives up waiting (bareStage).
    const at = (stage: string) => ((window as unknown as { benchStage: string }).benchStage = stage);
    const t0 = performance.now();
    at('open');
    const opened = await h.openZip(n, '/fixtures/repo.zip');
    if (opened.error) throw new Error(`${opened.error.code}: ${opened.error.message}`);
    at('index');
    const r = (await h.index(n)) as R<{ summary: BareRun['summary'] }>;
    if (r.error) throw new Error(`${r.error.code}: ${r.error.message}`);
    const wall = Math.round(performance.now() - t0);
    // Closed at once: an open workspace warms its search cache in idle time (worker-api.ts), which
    // would run beside the app's next indexing run in the other tab.
    at('close');
    await h.close(n);
    at('closed');
    return { wall_ms: wall, summary: r.ok!.summary };
  }, name);
}

/**
 * Waits for the app's indexing run of `workspace` to end and returns what the page recorded — or,
 * when it failed, was cancelled or recorded nothing, why (the panel's text), instead of a run.
 */
async function appIndexRun(page: import('playwright-core').Page, workspace: string, timeoutMs: number): Promise<Perf['runs'][number] | { failed: string }> {
  const panel = await page
    .waitForSelector('.index-panel.phase-done, .index-panel.phase-failed, .index-panel.phase-cancelled', { timeout: timeoutMs })
    .catch((e: Error) => e);
  if (panel instanceof Error) return { failed: `no end of indexing within ${timeoutMs / 1000} s (${panel.message.split('\n')[0]})` };
  const cls = (await panel.getAttribute('class')) ?? '';
  const perf = (await page.evaluate(() => (window as unknown as { __hciPerf?: Perf }).__hciPerf)) ?? { typing: [], runs: [] };
  const run = perf.runs.filter((r) => r.workspace === workspace).pop();
  if (!cls.includes('phase-done') || !run) {
    const text = ((await panel.textContent()) ?? '').replace(/\s+/g, ' ').trim().slice(0, 300);
    return { failed: `${/phase-(\w+)/.exec(cls)?.[1] ?? 'unknown'} phase, ${run ? 'a run recorded' : 'no run recorded'}: ${text}` };
  }
  return run;
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  const { opts } = parseArgs(argv, ['no-bare', 'more']);
  const withBare = !opts['no-bare'];
  const began = Date.now();
  /** Where a long run is (stderr): a step and the seconds since the bench began. */
  const step = (what: string) => process.stderr.write(`[${((Date.now() - began) / 1000).toFixed(0)} s] ${what}\n`);
  const runs = optInt(opts, 'runs', 3);
  const corpusArg = optString(opts, 'corpus');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-web-bench-'));
  let corpus = corpusArg ?? DEVSET;
  if (!corpus) {
    corpus = path.join(work, 'g750');
    generateCorpus(corpus, { files: 750 });
  }
  const all = files(corpus);
  const sampled = optInt(opts, 'files', 0);
  const list = sampled > 0 ? sampleFiles(all, sampled) : all;
  const zip: Record<string, Uint8Array> = {};
  for (const f of list) zip[`repo/${f}`] = fs.readFileSync(path.join(corpus, f));
  const settingsToml = optString(opts, 'settings');
  if (settingsToml) zip['repo/.hci/settings.toml'] = new TextEncoder().encode(settingsToml.replace(/\\n/g, '\n') + '\n');
  const zipBytes = Buffer.from(zipSync(zip, { level: 6 }));
  // Given to the page as a file on disk: playwright refuses buffers over 50 MB.
  const zipPath = path.join(work, 'repo.zip');
  fs.writeFileSync(zipPath, zipBytes);
  const first = optString(opts, 'typed')?.split('|').filter(Boolean) ?? TYPED;
  const typed = opts.more ? [...first, ...TYPED_MORE] : first;
  const timeoutMs = optInt(opts, 'timeout-s', 300) * 1000;
  const prebuilt = optString(opts, 'app');
  const outDir = prebuilt ? path.resolve(prebuilt) : path.join(work, 'app');
  const bareDir = path.join(work, 'bare');
  if (!prebuilt) await buildApp(outDir);
  await buildBarePage(bareDir);
  const sizes = jsSizes(outDir);
  const server = await serve(outDir);
  const bareServer = await serve(bareDir, { '/fixtures/repo.zip': zipBytes });
  const { chromium } = await import('playwright-core');
  const userDataDir = path.join(work, 'profile');
  const launch = (dir: string) => chromium.launchPersistentContext(dir, { executablePath: process.env.HCI_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const context = await launch(userDataDir);
  // The bare runtime in a Chromium of its own: the app's browser then holds the app's tab alone.
  const bareContext = await launch(path.join(work, 'profile-bare'));
  const memory = sampleBrowserMemory(userDataDir);
  const page = context.pages()[0] ?? (await context.newPage());
  let crashed = false;
  page.on('crash', () => {
    crashed = true;
    step('the app tab crashed');
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  const bare = bareContext.pages()[0] ?? (await bareContext.newPage());
  await bare.goto(`${bareServer.url}/`);
  await bare.waitForFunction(() => 'harness' in window);
  const marks = () =>
    page.evaluate(() => {
      const at = (n: string) => performance.getEntriesByName(n)[0]?.startTime ?? null;
      return { fcp: at('first-contentful-paint'), ready: at('hci-ready'), open: at('hci-workspace-open') };
    });
  try {
    const start: Array<{ fcp: number | null; ready: number | null }> = [];
    const indexing: Array<{ workspace: string; wall_ms: number; took_ms: number; files: number; chunks: number; phases: Record<string, number> }> = [];
    const bareRuns: Array<{ wall_ms: number; took_ms: number; files: number; chunks: number }> = [];
    const failures: string[] = [];
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const workers = await pageWorkers(cdp);
    /** The page's own JS heap (its main thread) and each Worker's JS heap, MB. */
    const pageHeap = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const m = (n: string) => Math.round(((metrics.find((x) => x.name === n)?.value ?? NaN) / 1048576) * 10) / 10;
      return { js_heap_used_mb: m('JSHeapUsedSize'), js_heap_total_mb: m('JSHeapTotalSize'), workers: await workers.measure() };
    };
    const heaps: Record<string, { js_heap_used_mb: number; js_heap_total_mb: number; workers: WorkerMemory[] }> = {};
    const storage: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Interleaved with the app's runs, so both see the same load.
      // The tab in front is the one measured: a background tab's frames and timers are throttled.
      if (withBare) {
        await bare.bringToFront();
        step(`bare runtime: indexing run ${i + 1}`);
        const b = await Promise.race([
          bareIndex(bare, `bare-${i}`),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs).unref()),
        ]).catch(async (e: Error) => {
          const stage = await bare.evaluate(() => (window as unknown as { benchStage?: string }).benchStage).catch(() => '?');
          failures.push(`bare runtime run ${i + 1}: ${e.message} (stage: ${stage})`);
          return null;
        });
        step(`bare runtime: run ${i + 1} ${b ? `took ${b.summary.took_ms} ms` : 'failed'}`);
        if (b) bareRuns.push({ wall_ms: b.wall_ms, took_ms: b.summary.took_ms, files: b.summary.files_indexed, chunks: b.summary.chunks_written });
      }
      await page.bringToFront();
      await page.goto(`${server.url}/`);
      await page.waitForSelector('html[data-ready="true"]');
      step(`app: indexing run ${i + 1}`);
      start.push(await marks());
      memory?.phase(i === 0 ? 'idle' : `between-${i}`);
      const named = path.join(work, `repo-${i}.zip`);
      fs.renameSync(i === 0 ? zipPath : path.join(work, `repo-${i - 1}.zip`), named);
      await page.setInputFiles('#zip-input', named);
      memory?.phase(`index-${i + 1}`);
      const r = await appIndexRun(page, `repo-${i}`, timeoutMs);
      step(`app: run ${i + 1} ${'failed' in r ? `failed: ${r.failed}` : `took ${r.summary.took_ms} ms`}`);
      memory?.phase(`after-index-${i + 1}`);
      if ('failed' in r) {
        failures.push(`app indexing run ${i + 1}: ${crashed ? 'the tab crashed (out of memory?); ' : ''}${r.failed}`);
        if (crashed) break;
        continue;
      }
      heaps[`after-index-${i + 1}`] = await pageHeap();
      storage.push(await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? NaN));
      indexing.push({ workspace: r.workspace, wall_ms: r.wall_ms, took_ms: r.summary.took_ms, files: r.summary.files_indexed, chunks: r.summary.chunks_written, phases: r.phases });
    }
    if (!indexing.length) {
      const m = memory?.stop();
      const peaks = m?.tab ? `\n  the tab's renderer: peak ${m.tab.hwm_mb} MB; by phase ${JSON.stringify(m.tab.phases)}` : '';
      throw new Error(`no indexing run of the app succeeded:\n  ${failures.join('\n  ')}${peaks}`);
    }
    await bareContext.close();
    await page.bringToFront();
    const lastIndexed = indexing[indexing.length - 1].workspace;
    // A reload with the last workspace in the URL: how soon is it searchable?
    const reopen: number[] = [];
    // Traced from the reopen on: the first keystrokes land while the Worker's open and warm-up run
    // (and V8's CPU profiler starts here, not in the middle of the first keystroke's search).
    const traceFile = optString(opts, 'trace');
    const tracing = traceFile ? await startTrace(cdp) : null;
    step('reopen');
    memory?.phase('reopen');
    for (let i = 0; i < runs; i++) {
      await page.goto(`${server.url}/#/w/${lastIndexed}`);
      await page.reload();
      await page.waitForSelector('#search-input:not([disabled])');
      // The input is enabled as the workspace opens; the mark follows its first status answer.
      await page.waitForFunction(() => performance.getEntriesByName('hci-workspace-open').length > 0);
      reopen.push((await marks()).open ?? NaN);
    }
    // Search as you type: ~110 ms between keys (a fast typist), every keystroke a query.
    step('typing');
    memory?.phase('typing');
    await page.click('#search-input');
    /** How many keystrokes the first queries (--typed, or TYPED) made: those alone are the measure before --more. */
    let firstSamples = 0;
    for (const [i, q] of typed.entries()) {
      await page.fill('#search-input', '');
      await page.keyboard.type(q, { delay: 110 });
      await page.waitForTimeout(300);
      if (i === first.length - 1) firstSamples = await page.evaluate(() => (window as unknown as { __hciPerf: Perf }).__hciPerf.typing.length);
    }
    if (tracing && traceFile) {
      fs.writeFileSync(traceFile, JSON.stringify({ traceEvents: await tracing() }));
      step(`trace of the reopen and the typing written to ${traceFile}`);
    }
    const perf = (await page.evaluate(() => (window as unknown as { __hciPerf: Perf }).__hciPerf)) as Perf;
    heaps['after-typing'] = await pageHeap();
    const mem: BrowserMemoryReport | null = memory?.stop() ?? null;
    const paint = perf.typing.map((s) => s.ms);
    const worker = perf.typing.map((s) => s.worker_ms);
    const answered = perf.typing.map((s) => s.answered_ms);
    // The page's part, step by step: answer → rendered (script), → its frame began (waiting for it), → painted.
    const split = perf.typing.every((s) => s.rendered_ms !== undefined && s.frame_ms !== undefined)
      ? { render: perf.typing.map((s) => s.rendered_ms! - s.answered_ms), wait: perf.typing.map((s) => s.frame_ms! - s.rendered_ms!), paint: perf.typing.map((s) => s.ms - s.frame_ms!) }
      : null;
    const keystrokes = perf.typing.map((t) => ({ query: t.query, ms: Math.round(t.ms * 10) / 10, answered_ms: Math.round(t.answered_ms * 10) / 10, worker_ms: t.worker_ms, ...(t.replaced_by !== undefined ? { replaced_by: t.replaced_by } : {}) }));
    // Keystrokes typed (each character of each query) beside those measured: a keystroke whose own
    // answer a later key's replaced counts until that answer is painted (builds from session web7 on;
    // earlier builds left it out), one unpainted when the field was emptied is counted apart.
    const keysTyped = typed.reduce((n, q) => n + q.length, 0);
    const replacedKeys = perf.typing.filter((t) => t.replaced_by !== undefined).length;
    const firstPaint = paint.slice(0, firstSamples);
    const report = {
      commit: commitInfo(),
      corpus: path.resolve(corpus) === DEVSET ? 'FluentAvalonia (devset)' : corpus,
      corpus_files: list.length,
      ...(list.length < all.length ? { corpus_files_of: all.length } : {}),
      load: os.loadavg().map((x) => Math.round(x * 10) / 10),
      zip_bytes: zipBytes.length,
      typed,
      js: sizes,
      start_ms: { fcp_median: median(start.map((s) => s.fcp ?? NaN)), worker_ready_median: median(start.map((s) => s.ready ?? NaN)), reopen_searchable_median: median(reopen) },
      index_ms: {
        runs: indexing, took_median: median(indexing.map((r) => r.took_ms)), wall_median: median(indexing.map((r) => r.wall_ms)),
        bare_runs: bareRuns, bare_took_median: median(bareRuns.map((r) => r.took_ms)), bare_wall_median: median(bareRuns.map((r) => r.wall_ms)),
        app_over_bare: median(indexing.map((r) => r.took_ms / median(bareRuns.map((b) => b.took_ms)))),
      },
      typing_ms: { samples: paint.length, keystrokes_typed: keysTyped, replaced: replacedKeys, cleared_unpainted: perf.cleared?.keystrokes ?? null, keystroke_to_paint_p50: percentile(paint, 50), keystroke_to_paint_p95: percentile(paint, 95),
        ...(typed.length > first.length ? { first_queries: { queries: first.length, samples: firstPaint.length, keystroke_to_paint_p50: percentile(firstPaint, 50), keystroke_to_paint_p95: percentile(firstPaint, 95) } } : {}), keystroke_to_answer_p50: percentile(answered, 50), keystroke_to_answer_p95: percentile(answered, 95), worker_search_p50: percentile(worker, 50), worker_search_p95: percentile(worker, 95), page_split: split && Object.fromEntries(Object.entries(split).map(([k, v]) => [k, { p50: percentile(v, 50), p95: percentile(v, 95) }])),
        // Every keystroke in typing order (the first query's are the page's first searches after a reload).
        keystrokes,
        // The keystrokes at and above p95: which queries make the tail, and whose part it was.
        slowest: [...keystrokes].sort((x, y) => y.ms - x.ms).slice(0, Math.max(1, Math.ceil(keystrokes.length * 0.05))) },
      memory: mem && {
        /** The app tab's renderer process (page + Workers): its kernel peak, and the peak sampled in each phase. */
        tab_peak_mb: mem.tab?.hwm_mb ?? null,
        tab_phases_mb: mem.tab?.phases ?? null,
        browser_total_peak_mb: mem.total_peak_mb,
        page_js_heap: heaps,
        opfs_usage_bytes: storage,
        processes: mem.processes.map((p) => ({ type: p.type, hwm_mb: p.hwm_mb })),
        samples: mem.samples,
        sample_ms: mem.sample_ms,
      },
    };
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`web-demo bench — ${report.corpus}, ${report.corpus_files}${list.length < all.length ? ` of its ${all.length}` : ''} files; load average ${report.load.join(' ')}`);
    console.log(`JS gzip: entry ${kb(sizes.entry_gz)}, page incl. lazy chunks ${kb(sizes.page_all_gz)}, Worker ${kb(sizes.worker_gz)}, all ${kb(sizes.total_js_gz)} (target ≤ 150 KB; wasm ${kb(sizes.wasm_bytes)} apart)`);
    console.log(`JS gzip loaded before a workspace is searchable: ${kb(sizes.start_gz)} (page entry ${kb(sizes.entry_gz)} + Worker start ${kb(sizes.worker_entry_gz)} in ${sizes.worker_start_chunks} chunks + sqlite-wasm glue ${kb(sizes.worker_sqlite_glue_gz)}; target ≤ 150 KB)`);
    console.log(`Worker JS gzip by when it loads: at start ${kb(sizes.worker_entry_gz)} (its entry and the chunks it imports statically), sqlite-wasm glue on open ${kb(sizes.worker_sqlite_glue_gz)}, on first use ${kb(sizes.worker_lazy_gz)} (${Object.entries(sizes.worker_lazy).map(([n, b]) => `${n} ${kb(b)}`).join(', ')}, …)`);
    console.log(`start: first paint ${report.start_ms.fcp_median.toFixed(0)} ms, Worker ready ${report.start_ms.worker_ready_median.toFixed(0)} ms, stored workspace searchable after reload ${report.start_ms.reopen_searchable_median.toFixed(0)} ms (target ≤ 1000)`);
    console.log(`index: ${indexing.map((r) => `${r.files} files/${r.chunks} chunks in ${r.took_ms} ms`).join('; ')} — median ${report.index_ms.took_median} ms, wall ${report.index_ms.wall_median} ms (target ≤ 3000 for 750 files)`);
    console.log(`index phases (app, median ms): ${Object.keys(indexing[0]?.phases ?? {}).map((k) => `${k} ${median(indexing.map((r) => r.phases[k] ?? NaN)).toFixed(0)}`).join(', ')}`);
    console.log(`bare runtime, same zip, interleaved: ${bareRuns.map((r) => `${r.files} files/${r.chunks} chunks in ${r.took_ms} ms`).join('; ')} — median ${report.index_ms.bare_took_median} ms, wall ${report.index_ms.bare_wall_median} ms; app/bare ${report.index_ms.app_over_bare.toFixed(2)}x`);
    console.log(`typing: ${paint.length} keystrokes of ${keysTyped} typed (${replacedKeys} measured to a later key's answer, which replaced theirs${perf.cleared ? `; ${perf.cleared.keystrokes} unpainted when the field was emptied` : ''}), keystroke→painted p50 ${report.typing_ms.keystroke_to_paint_p50.toFixed(1)} ms, p95 ${report.typing_ms.keystroke_to_paint_p95.toFixed(1)} ms (target ≤ 30); answer in the page p50 ${report.typing_ms.keystroke_to_answer_p50.toFixed(1)} ms, p95 ${report.typing_ms.keystroke_to_answer_p95.toFixed(1)} ms; Worker search p50 ${report.typing_ms.worker_search_p50} ms, p95 ${report.typing_ms.worker_search_p95} ms`);
    const fq = report.typing_ms.first_queries;
    if (fq) console.log(`typing, the first ${fq.queries} queries alone (the measure without --more): ${fq.samples} keystrokes, keystroke→painted p50 ${fq.keystroke_to_paint_p50.toFixed(1)} ms, p95 ${fq.keystroke_to_paint_p95.toFixed(1)} ms`);
    const ps = report.typing_ms.page_split;
    const pp = (k: 'render' | 'wait' | 'paint') => `${ps![k].p50.toFixed(1)}/${ps![k].p95.toFixed(1)}`;
    if (ps) console.log(`typing, the page's part (p50/p95 ms): answer→rendered ${pp('render')}, rendered→its frame began ${pp('wait')}, →painted ${pp('paint')}`);
    console.log(`typing, slowest 5%: ${report.typing_ms.slowest.map((t) => `"${t.query}" ${t.ms} ms (answer ${t.answered_ms}, Worker ${t.worker_ms})`).join('; ')}`);
    if (report.memory) {
      const m = report.memory;
      console.log(`memory: the app tab's renderer (page + Workers) peak ${m.tab_peak_mb} MB (VmHWM); sampled peaks by phase: ${Object.entries(m.tab_phases_mb ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')} MB; all of its Chromium's processes at once ${m.browser_total_peak_mb} MB; page JS heap ${Object.entries(heaps).map(([k, v]) => `${k} ${v.js_heap_used_mb}/${v.js_heap_total_mb}`).join(', ')} MB used/total; the hci Worker's JS heap ${Object.entries(heaps).map(([k, v]) => `${k} ${v.workers.map((w) => `${w.js_used_mb}/${w.js_total_mb}`).join('; ')}`).join(', ')} MB used/total; OPFS usage ${storage.map((b) => `${(b / 1048576).toFixed(1)} MB`).join(', ')}`);
    }
    if (failures.length) console.log(`FAILED runs (${failures.length}), left out of the medians:\n  ${failures.join('\n  ')}`);
    const json = optString(opts, 'json');
    if (json) fs.writeFileSync(json, JSON.stringify({ ...report, failures }, null, 2));
    if (failures.length) process.exitCode = 1;
  } finally {
    memory?.stop();
    await bareContext.close().catch(() => {});
    await context.close();
    await server.close();
    await bareServer.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

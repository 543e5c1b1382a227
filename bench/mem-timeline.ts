// Where a cold index's memory goes, over time: one `hci index --full`-like pass (openWorkspace, then
// index({ full: true })) with a sample every `--every` ms of the process's RSS (and its peak so far),
// V8's heap, the ArrayBuffers it owns, the SQLite WASM heap (its linear memory, which never shrinks)
// and what SQLite's allocator holds (sqlite3_memory_used, and its high-water mark), each tagged with
// the pass's phase and files done. Writes a TSV timeline and prints the sample at each peak.
// Measuring only: no setting of the pass is changed unless asked (`--settings JSON`, merged into the
// workspace's settings).
// What the main thread holds at a point of the pass: `--snapshot-at-files N` writes a V8 heap snapshot
// (`--snapshot FILE`, default <out>.heapsnapshot; a snapshot collects first, so it holds live objects
// only) when the pass has done N files, and with `--heap-profile FILE` V8's sampling heap profiler runs
// from the start and its profile of the objects still live then (their allocating stacks) is written
// at the same point. bench/heap-summary.ts groups either by constructor, retainer or allocating function.
// `--smaps`: the RSS by kind of mapping (node binary, malloc's heaps and arenas, WebAssembly memories, the
// rest: V8) at the largest RSS read.
//   node --experimental-transform-types bench/mem-timeline.ts --root DIR --out timeline.tsv [--every 250] [--settings '{…}'] [--smaps]
//        [--snapshot-at-files N [--snapshot FILE] [--heap-profile FILE]]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import { loadEngine } from '../core/sqlite/engine.ts';
import { parseArgs } from './lib/util.ts';
import { keepYoungGenerationSmall } from '../runtimes/node/young-generation.ts';
import { Worker } from 'node:worker_threads';
import * as v8 from 'node:v8';
import * as inspector from 'node:inspector';

interface Sample { t: number; rss: number; workerHeap: number; hwm: number; heapUsed: number; heapTotal: number; arrayBuffers: number; wasm: number; sqliteUsed: number; sqliteHigh: number; phase: string; files: number }

const MB = (n: number) => (n / 1048576).toFixed(1);

function status(): { rss: number; hwm: number } {
  const s = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/**
 * Resident bytes by kind of mapping: the node binary and other files; malloc's main heap ([heap]); a
 * WebAssembly memory (anonymous, reserved with guard regions: 4 GiB or more of address space); malloc's
 * thread arenas (anonymous, 64 MiB-aligned reservations of 64 MiB or 128 MiB, as glibc makes them, their
 * used part read-write and the rest no-access; one that adjoins other anonymous mappings is counted with
 * them); everything else anonymous (V8's heap pages and code, stacks).
 */
function smapsByKind(): Map<string, number> {
  // Mappings in address order; a reservation is a run of adjacent anonymous ones (its used part and its no-access rest).
  const maps: { start: number; end: number; name: string; rss: number }[] = [];
  for (const l of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(l);
    if (head) maps.push({ start: parseInt(head[1], 16), end: parseInt(head[2], 16), name: head[3], rss: 0 });
    const rss = /^Rss:\s+(\d+) kB/.exec(l);
    if (rss && maps.length) maps[maps.length - 1].rss = Number(rss[1]) * 1024;
  }
  const kinds = new Map<string, number>();
  const add = (k: string, b: number) => kinds.set(k, (kinds.get(k) ?? 0) + b);
  for (let i = 0; i < maps.length; ) {
    const m = maps[i];
    if (m.name) {
      add(m.name === '[heap]' ? 'malloc main heap' : m.name.startsWith('/') ? (/\/node$/.test(m.name) ? 'node binary' : 'other files') : m.name, m.rss);
      i++;
      continue;
    }
    let j = i + 1;
    while (j < maps.length && !maps[j].name && maps[j].start === maps[j - 1].end) j++;
    const size = maps[j - 1].end - m.start;
    const rss = maps.slice(i, j).reduce((n, x) => n + x.rss, 0);
    const MiB64 = 64 * 2 ** 20;
    add(size >= 4 * 2 ** 30 ? 'wasm memories' : m.start % MiB64 === 0 && (size === MiB64 || size === 2 * MiB64) ? 'malloc arenas' : 'anonymous (V8 heaps, code, stacks)', rss);
    i = j;
  }
  return kinds;
}

async function main(): Promise<void> {
  const { opts } = parseArgs(process.argv.slice(2), []);
  const root = path.resolve(String(opts.root));
  const out = String(opts.out ?? 'mem-timeline.tsv');
  const every = Number(opts.every ?? 250);
  const settings = opts.settings ? JSON.parse(String(opts.settings)) : undefined;
  fs.rmSync(path.join(root, '.hci'), { recursive: true, force: true });
  keepYoungGenerationSmall(); // as `hci` and the bench's hci-index worker start
  const engine = await loadEngine();
  const { capi, wasm } = engine.sqlite3 as unknown as {
    capi: { sqlite3_status64(op: number, cur: number, hi: number, reset: number): number; SQLITE_STATUS_MEMORY_USED: number };
    wasm: { alloc(n: number): number; peek(p: number, t: string): bigint | number; heap8u(): Uint8Array };
  };
  const cell = wasm.alloc(16);
  /** SQLite's allocator: bytes held now and its high-water mark (sqlite3_status64 MEMORY_USED). */
  const memStatus = (): [number, number] => {
    capi.sqlite3_status64(capi.SQLITE_STATUS_MEMORY_USED, cell, cell + 8, 0);
    return [Number(wasm.peek(cell, 'i64')), Number(wasm.peek(cell + 8, 'i64'))];
  };
  const samples: Sample[] = [];
  // --smaps: the process's resident memory by kind of mapping (/proc/self/smaps), read whenever the RSS
  // passed its largest earlier reading by 2 MB, so the last one read is the breakdown at the pass's peak.
  const smapsOn = !!opts.smaps;
  let smapsAt: { rss: number; files: number; phase: string; kinds: Map<string, number> } | null = null;
  let phase = 'open';
  let files = 0;
  const t0 = performance.now();
  const sample = () => {
    const m = process.memoryUsage();
    const st = status();
    if (smapsOn && st.rss > (smapsAt?.rss ?? 0) + 2 * 1048576) smapsAt = { rss: st.rss, files, phase, kinds: smapsByKind() };
    const [used, high] = memStatus();
    samples.push({
      t: performance.now() - t0, rss: st.rss, workerHeap: workerHeap(), hwm: st.hwm, heapUsed: m.heapUsed, heapTotal: m.heapTotal, arrayBuffers: m.arrayBuffers,
      wasm: wasm.heap8u().byteLength, sqliteUsed: used, sqliteHigh: high, phase, files,
    });
  };
  // The parse workers' V8 heaps (total committed), read with Worker.getHeapStatistics as each sample is taken.
  const workers = new Set<Worker>();
  const heapOf = new Map<Worker, number>();
  const workerHeap = () => {
    for (const w of workers) {
      void (w as Worker & { getHeapStatistics(): Promise<{ total_heap_size: number }> }).getHeapStatistics().then((h) => void (workers.has(w) && heapOf.set(w, h.total_heap_size)), () => heapOf.delete(w)); // a read answered after the worker's exit is not counted
    }
    return [...heapOf.values()].reduce((a, b) => a + b, 0);
  };
  const timer = setInterval(sample, every);
  // Each parse worker reply (for --per-file FILE) (the file, its bytes, tree-sitter's memory in that
  // worker after it, the process's RSS then), read by wrapping worker_threads' Worker: the pool is
  // the product's, unchanged.
  // Kept only when asked: a row per file (and reading /proc per reply) is the bench's own heap and CPU.
  const perFileOut = opts['per-file'] ? String(opts['per-file']) : null;
  const perFile: string[] = ['t\tworker\tpath\tbytes\ttreeSitterMB\trssMB'];
  /** Parse workers the pass started (each retire starts one more). */
  let startedWorkers = () => 0;
  {
    const sent = new Map<string, { path: string; bytes: number }>();
    const ids = new WeakMap<object, number>();
    startedWorkers = () => nextWorker;
    let nextWorker = 0;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, m: unknown, t?: never) {
      const r = m as { id?: number; path?: string; bytes?: Uint8Array };
      if (!ids.has(this)) {
        ids.set(this, ++nextWorker);
        workers.add(this);
        this.once('exit', () => (workers.delete(this), heapOf.delete(this)));
      }
      if (perFileOut && r && typeof r.id === 'number' && r.path) sent.set(`${ids.get(this)}:${r.id}`, { path: r.path, bytes: r.bytes?.length ?? 0 });
      return post.call(this, m, t);
    } as typeof post;
    const emit = Worker.prototype.emit;
    Worker.prototype.emit = function (this: Worker, ev: string | symbol, ...args: unknown[]) {
      const m = args[0] as { id?: number; memoryBytes?: number } | undefined;
      if (perFileOut && ev === 'message' && m && typeof m.memoryBytes === 'number') {
        const key = `${ids.get(this)}:${m.id}`;
        const f = sent.get(key);
        sent.delete(key);
        perFile.push([Math.round(performance.now() - t0), ids.get(this), f?.path ?? '?', f?.bytes ?? 0, MB(m.memoryBytes), MB(status().rss)].join('\t'));
      }
      return emit.call(this, ev, ...args);
    } as typeof emit;
  }
  // The main thread at a chosen point: a heap snapshot and the sampling profile of what is live then.
  const snapAt = opts['snapshot-at-files'] !== undefined ? Number(opts['snapshot-at-files']) : null;
  const profileOut = opts['heap-profile'] ? String(opts['heap-profile']) : null;
  const session = profileOut ? new inspector.Session() : null;
  const ask = (method: string, params: object = {}) =>
    new Promise<unknown>((res, rej) => session!.post(method, params, (e, r) => (e ? rej(e) : res(r))));
  if (session) {
    session.connect();
    await ask('HeapProfiler.startSampling', { samplingInterval: 32768 });
  }
  let snapped = false;
  const snapshot = () => {
    snapped = true;
    sample();
    const m = process.memoryUsage();
    console.log(`at ${files} files, before the snapshot: heap ${MB(m.heapUsed)}/${MB(m.heapTotal)} buffers ${MB(m.arrayBuffers)} rss ${MB(m.rss)} MB`);
    if (session) {
      // Posted now, answered synchronously by the inspector (its callback runs before post returns).
      session.post('HeapProfiler.getSamplingProfile', {}, (e, r) => {
        if (!e) fs.writeFileSync(profileOut!, JSON.stringify((r as { profile: unknown }).profile));
      });
    }
    const file = v8.writeHeapSnapshot(opts.snapshot ? String(opts.snapshot) : `${out}.heapsnapshot`);
    console.log(`heap snapshot: ${file}`);
  };
  const ws = await openWorkspace(root, settings ? { settings } : {});
  const c0 = process.cpuUsage();
  const summary = await ws.index({
    full: true,
    onProgress: (p: { phase: string; filesDone: number }) => {
      if (p.phase !== phase) sample();
      phase = p.phase;
      files = p.filesDone;
      if (snapAt !== null && !snapped && phase === 'index' && files >= snapAt) snapshot();
    },
  } as never);
  phase = 'done';
  sample();
  clearInterval(timer);
  const cpu = process.cpuUsage(c0);
  if (session) {
    await ask('HeapProfiler.stopSampling');
    session.disconnect();
  }
  await ws.close();
  const cols = ['t', 'rss', 'hwm', 'workerHeap', 'heapUsed', 'heapTotal', 'arrayBuffers', 'wasm', 'sqliteUsed', 'sqliteHigh', 'phase', 'files'] as const;
  fs.writeFileSync(out, [cols.join('\t'), ...samples.map((s) => cols.map((c) => (typeof s[c] === 'number' && c !== 't' && c !== 'files' ? MB(s[c] as number) : String(Math.round(Number(s[c])) || s[c]))).join('\t'))].join('\n') + '\n');
  if (perFileOut) fs.writeFileSync(perFileOut, perFile.join('\n') + '\n');
  const at = (k: keyof Sample) => samples.reduce((a, b) => ((b[k] as number) > (a[k] as number) ? b : a));
  const line = (s: Sample) => `t ${(s.t / 1000).toFixed(1)} s ${s.phase} ${s.files} files: rss ${MB(s.rss)} (peak ${MB(s.hwm)}) parse workers' heaps ${MB(s.workerHeap)} heap ${MB(s.heapUsed)}/${MB(s.heapTotal)} buffers ${MB(s.arrayBuffers)} sqlite wasm ${MB(s.wasm)} used ${MB(s.sqliteUsed)} high ${MB(s.sqliteHigh)} MB`;
  console.log(`${summary.files_indexed} files, ${summary.chunks_written} chunks, ${summary.batches} batches, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, parse workers started ${startedWorkers()}`);
  console.log(`peak RSS sample: ${line(at('rss'))}`);
  console.log(`largest V8 heap: ${line(at('heapTotal'))}`);
  console.log(`largest parse worker heaps: ${line(at('workerHeap'))}`);
  console.log(`largest SQLite use: ${line(at('sqliteUsed'))}`);
  console.log(`end: ${line(samples[samples.length - 1]!)}`);
  if (smapsAt) {
    const a = smapsAt as { rss: number; files: number; phase: string; kinds: Map<string, number> };
    console.log(`resident by mapping at the largest RSS read (${MB(a.rss)} MB, ${a.phase} ${a.files} files): ${[...a.kinds].sort((x, y) => y[1] - x[1]).map(([k, b]) => `${k} ${MB(b)}`).join(', ')} MB`);
  }
}

void main();

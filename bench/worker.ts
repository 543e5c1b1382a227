// One measured engine run. The benchmark starts each in its own Node process, so peak RSS is that
// engine's alone (`node --expose-gc dist/bench/worker.js <task.json> <result.json>`); the smoke
// test calls runTask() in-process. Owns what is timed and what is not, per engine.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import { createNodeIndexStorage } from '../runtimes/node/node-storage.ts';
import type { IndexSummary } from '../core/index.ts';
import { bm25Search, loadDump, openNative, openWasmOnDisk, poolFor, type SqlAdapter } from './baselines/sql-store.ts';
import { createMiniSearch, createOrama, type JsEngine } from './baselines/js-engines.ts';
import { docsOfLine, openIndex, streamDumpLines } from './lib/chunks.ts';
import { loadEngine } from '../core/sqlite/engine.ts';
import { DEFAULT_INCLUDE_EXTENSIONS } from '../core/settings.ts';
import { fileSize, gc, isMain, now, peakRss } from './lib/util.ts';
import { keepYoungGenerationSmall } from '../runtimes/node/young-generation.ts';
import { createMemoryRelief } from '../runtimes/node/memory-relief.ts';

const cpuSince = (c: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
};

/**
 * Which queries a search task runs, in order, each list distinct from the others: `reopen` each
 * right after a fresh open in this process (hci's per-connection caches empty; JIT warm), then
 * `warmup` once each (not measured), then `measured` once each (warm, first time seen in this
 * process), then `measured` again `repeat` times (warm, repeated — what a cache serves best).
 */
export interface QueryPlan {
  reopen: string[];
  warmup: string[];
  measured: string[];
  repeat: number;
  limit: number;
}

export type Task =
  | { task: 'baseline' }
  | { task: 'idle' }
  | { task: 'hci-index'; root: string; edits: number; noops: number; semantic?: boolean; /** Settings the workspace opens with (index-threads.ts --build-settings). */ settings?: Record<string, unknown> }
  | { task: 'hci-search'; root: string; plan: QueryPlan }
  | { task: 'sql-store'; engine: 'native' | 'wasm'; dump: string; dir: string; filesPerTxn: number; unsynced?: boolean; plan: QueryPlan }
  | { task: 'js-engine'; engine: 'orama' | 'minisearch'; dump: string; plan: QueryPlan }
  /** One query in a new process (cold: no JIT, no caches but the OS's): open, then the query, each timed. */
  | { task: 'cold-query'; engine: 'hci' | 'native'; root: string; dbFile?: string; query: string; limit: number };

export interface MemoryFigures {
  /** Peak RSS of the whole process (ru_maxrss). */
  peakRss: number;
  /** RSS once the inputs were loaded, before the measured work (the part not due to the engine). */
  rssBefore: number;
  /** JS heap retained by the index after GC (JS engines only). */
  heapRetained?: number;
}

export interface IndexFigures {
  ms: number;
  /** CPU time (user + system, all threads of the process) spent on the same work: steadier than wall time on a busy machine. */
  cpuMs: number;
  files: number;
  chunks: number;
  bytes: number;
  transactions?: number;
  /** hci's cold build ran without syncs (core/index/cold-build.ts: where the storage names the boot): the SQL replays do the same. */
  unsynced?: boolean;
  /** Index size on disk (SQLite engines). */
  diskBytes?: number;
}

export interface QueryFigures {
  /** Warm, repeated: `measured` × `repeat` after they ran once (ms). */
  samples: number[];
  /** Warm, first time seen: each `measured` query once, after the warm-up set (ms). */
  warmFirst: number[];
  /** Each `reopen` query right after opening the index again in this process (ms); for in-memory engines, the first query after the build. */
  afterOpen: number[];
  /** Queries that returned no result (a sanity check, not a metric). */
  empty: number;
}

export interface TaskResult {
  task: string;
  engine: string;
  label: string;
  memory: MemoryFigures;
  index?: IndexFigures;
  /** WASM engine load + workspace open (hci only); for cold-query, the open in a new process. */
  openMs?: number;
  /** cold-query: the one query's time. */
  queryMs?: number;
  /** edit*: a whole incremental pass after each edit (scan + stat of every file); path*: index({ paths: [file] }), what the watcher runs. */
  incremental?: { editMs: number[]; noopMs: number[]; editedFile: string; filesIndexed: number[]; pathEditMs: number[]; pathFilesIndexed: number[]; pathFilesScanned: number[] };
  queries?: QueryFigures;
  /** hci only: the same BM25 SQL run directly on hci's WASM connection (no boosts, snippets, freshness). */
  rawQueries?: QueryFigures;
  summary?: IndexSummary;
  error?: string;
}

/**
 * Runs a plan. `open` gives a fresh handle (a new connection: its caches empty); the handle of the
 * last reopen serves the warm passes. Before the reopens, one handle answers the first warm-up query
 * (not measured): each `afterOpen` figure is then a reopen in a process that has searched (JIT warm,
 * as the plan says) — the process's very first search, code compiled for the first time, is the
 * `cold-query` task's (a new process), not a reopen's. An engine that cannot reopen (in memory)
 * passes no `reopen` list in its plan and its first warm-up query is reported as `afterOpen`.
 */
async function runPlan<H>(
  plan: QueryPlan, open: () => Promise<H> | H, close: (h: H) => void, run: (h: H, q: string) => Promise<number> | number,
): Promise<QueryFigures> {
  let empty = 0;
  const timed = async (h: H, q: string) => {
    const t = now();
    if ((await run(h, q)) === 0) empty++;
    return now() - t;
  };
  const afterOpen: number[] = [];
  let h: H | null = null;
  if (plan.reopen.length) {
    // The process's first search (compiling the search path) is no reopen's: see above.
    const first = await open();
    try {
      await run(first, plan.warmup[0] ?? plan.reopen[0]);
    } finally {
      close(first);
    }
  }
  for (const q of plan.reopen) {
    if (h !== null) close(h);
    h = await open();
    afterOpen.push(await timed(h, q));
  }
  h ??= await open();
  try {
    for (const [i, q] of plan.warmup.entries()) {
      const ms = await timed(h, q);
      if (i === 0 && !plan.reopen.length) afterOpen.push(ms);
    }
    const warmFirst: number[] = [];
    for (const q of plan.measured) warmFirst.push(await timed(h, q));
    const counted = empty;
    const samples: number[] = [];
    for (let r = 0; r < plan.repeat; r++) for (const q of plan.measured) samples.push(await timed(h, q));
    empty = counted; // the repeated passes find no new empty answers
    return { samples, warmFirst, afterOpen, empty };
  } finally {
    close(h);
  }
}

/** The file an incremental run edits: the median-sized .cs file, else the median-sized indexable file (deterministic). */
function pickEditTarget(root: string): string {
  const found: Array<{ rel: string; size: number }> = [];
  const exts = new Set(DEFAULT_INCLUDE_EXTENSIONS);
  const walk = (dir: string, rel: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (['.hci', '.git', 'bin', 'obj', 'node_modules'].includes(e.name)) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(dir, e.name), r);
      else if (e.isFile() && exts.has(path.extname(e.name).toLowerCase())) found.push({ rel: r, size: fs.statSync(path.join(dir, e.name)).size });
    }
  };
  walk(root, '');
  const cs = found.filter((f) => f.rel.endsWith('.cs'));
  const pool = cs.length ? cs : found;
  if (!pool.length) throw new Error(`no indexable file to edit under ${root}`);
  pool.sort((a, b) => a.size - b.size || (a.rel < b.rel ? -1 : 1));
  return pool[pool.length >> 1].rel;
}

async function hciIndex(t: Extract<Task, { task: 'hci-index' }>): Promise<TaskResult> {
  fs.rmSync(path.join(t.root, '.hci'), { recursive: true, force: true });
  const t0 = now();
  // With `semantic`, the cold index only, with the semantic channel on (its default provider): the peak RSS of that pass.
  const settings = { ...t.settings, ...(t.semantic ? { semantic: { enabled: true } } : {}) };
  const ws = await openWorkspace(t.root, Object.keys(settings).length ? { settings: settings as never } : {});
  const openMs = now() - t0;
  const rssBefore = process.memoryUsage().rss;
  try {
    const c1 = process.cpuUsage();
    const t1 = now();
    const summary = await ws.index({ full: true });
    const ms = now() - t1;
    const cpuMs = cpuSince(c1);
    const peak = peakRss();
    const diskBytes = fileSize(path.join(t.root, '.hci', 'index.sqlite'));
    const res: TaskResult = {
      task: t.task, engine: t.semantic ? 'hci-semantic' : 'hci', label: t.semantic ? 'hci (WASM, full pipeline, semantic on)' : 'hci (WASM, full pipeline)', openMs, summary,
      memory: { peakRss: peak, rssBefore },
      index: { ms, cpuMs, files: summary.files_indexed, chunks: summary.chunks_written, bytes: summary.bytes_read, transactions: summary.batches, diskBytes, unsynced: !!createNodeIndexStorage(t.root).bootId?.() },
    };
    if (t.semantic) return res;
    // Warm incremental runs in the same process: nothing changed, then one file edited.
    const noopMs: number[] = [];
    for (let i = 0; i < t.noops; i++) {
      const s = now();
      await ws.index();
      noopMs.push(now() - s);
    }
    const editedFile = pickEditTarget(t.root);
    const abs = path.join(t.root, editedFile);
    const original = fs.readFileSync(abs);
    const editMs: number[] = [];
    const filesIndexed: number[] = [];
    const pathEditMs: number[] = [];
    const pathFilesIndexed: number[] = [];
    const pathFilesScanned: number[] = [];
    try {
      for (let i = 0; i < t.edits; i++) {
        fs.writeFileSync(abs, Buffer.concat([original, Buffer.from(`// bench edit ${i + 1}: touched by the incremental benchmark\n`)]));
        const s = now();
        const sum = await ws.index();
        editMs.push(now() - s);
        filesIndexed.push(sum.files_indexed);
      }
      // The same edits, indexed the way the MCP watcher does: only the changed path, no tree scan.
      for (let i = 0; i < t.edits; i++) {
        fs.writeFileSync(abs, Buffer.concat([original, Buffer.from(`// bench path edit ${i + 1}: touched by the incremental benchmark\n`)]));
        const s = now();
        const sum = await ws.index({ paths: [editedFile] });
        pathEditMs.push(now() - s);
        pathFilesIndexed.push(sum.files_indexed);
        pathFilesScanned.push(sum.files_scanned);
      }
    } finally {
      fs.writeFileSync(abs, original);
      const later = new Date(Date.now() + 2000);
      fs.utimesSync(abs, later, later);
      await ws.index(); // leave the index matching the pristine corpus
    }
    res.incremental = { editMs, noopMs, editedFile, filesIndexed, pathEditMs, pathFilesIndexed, pathFilesScanned };
    return res;
  } finally {
    ws.close();
  }
}

async function hciSearch(t: Extract<Task, { task: 'hci-search' }>): Promise<TaskResult> {
  const t0 = now();
  const first = await openWorkspace(t.root);
  const openMs = now() - t0;
  first.close();
  const rssBefore = process.memoryUsage().rss;
  const queries = await runPlan(t.plan, () => openWorkspace(t.root), (ws) => ws.close(), async (ws, q) => {
    const r = await ws.search({ query: q, limit: t.plan.limit });
    if (r.status === 'error' || r.status === 'no_index') throw new Error(`hci search failed for "${q}": ${r.error?.message}`);
    return r.hits.length;
  });
  // The identical candidate SQL on a WASM connection of its own: the engine's share of a search.
  const rawQueries = await runPlan(t.plan, async (): Promise<SqlAdapter> => {
    const db = await openIndex(t.root);
    return {
      label: 'wasm', exec: (s) => void db.exec(s), prepare: () => { throw new Error('read-only'); },
      all: (s, p) => db.selectArrays(s, p as never) as unknown[][], close: () => db.close(),
    };
  }, (a) => a.close(), (a, q) => bm25Search(a, q, t.plan.limit).length);
  return { task: t.task, engine: 'hci', label: 'hci search (in-process)', openMs, memory: { peakRss: peakRss(), rssBefore }, queries, rawQueries };
}

/** Where a sql-store task writes its database (native: a plain file; WASM: hci's own layout, through hci's VFS). */
export function sqlStoreFile(engine: 'native' | 'wasm', dir: string): string {
  return engine === 'native' ? path.join(dir, 'native.sqlite') : path.join(dir, '.hci', 'index.sqlite');
}

async function sqlStore(t: Extract<Task, { task: 'sql-store' }>): Promise<TaskResult> {
  const { meta, lines } = streamDumpLines(t.dump);
  fs.rmSync(t.dir, { recursive: true, force: true });
  fs.mkdirSync(t.dir, { recursive: true });
  const dbFile = sqlStoreFile(t.engine, t.dir);
  const open = () => (t.engine === 'native' ? openNative(dbFile) : openWasmOnDisk(t.dir));
  const db = await open();
  const label = db.label;
  gc();
  const rssBefore = process.memoryUsage().rss;
  let load: ReturnType<typeof loadDump>;
  let cpuMs: number;
  // The loader's garbage (one JSON line per file, base64 blobs) is collected the way hci's pass
  // collects its own (the indexer's relief between batches; the young generation kept small, below):
  // left to V8, it made the peak — dotnet-8's native load peaked at 335 MB (bench-dotnet-8-lead9.md), 187 MB
  // with this (bench-dotnet-8-mem10.md); the store itself grows 1.08x over Avalonia's chunks (store-memory-mem10.md).
  const relief = createMemoryRelief();
  try {
    const c1 = process.cpuUsage();
    load = loadDump(db, meta, lines, t.filesPerTxn, { onCommit: () => void relief.relieve(), unsynced: t.unsynced });
    cpuMs = cpuSince(c1);
  } finally {
    db.close();
  }
  const peak = peakRss();
  const queries = await runPlan(t.plan, open, (d) => d.close(), (d, q) => bm25Search(d, q, t.plan.limit).length);
  return {
    task: t.task, engine: t.engine === 'native' ? 'native' : 'wasm-store', label,
    memory: { peakRss: peak, rssBefore },
    index: { ms: load.ms, cpuMs, files: load.files, chunks: load.chunks, bytes: load.bytes, transactions: load.transactions, diskBytes: fileSize(dbFile) },
    queries,
  };
}

async function jsEngine(t: Extract<Task, { task: 'js-engine' }>): Promise<TaskResult> {
  const { meta, lines } = streamDumpLines(t.dump);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  const c1 = process.cpuUsage();
  const t0 = now();
  const engine: JsEngine = t.engine === 'orama' ? await createOrama(meta.ftsColumns) : createMiniSearch(meta.ftsColumns);
  let chunks = 0;
  let files = 0;
  for (const line of lines) {
    files++;
    for (const d of docsOfLine(line, meta.ftsColumns)) {
      const r = engine.add(d);
      if (r instanceof Promise) await r;
      chunks++;
    }
  }
  const ms = now() - t0;
  const cpuMs = cpuSince(c1);
  const peak = peakRss();
  gc();
  const heapRetained = process.memoryUsage().heapUsed - heapBefore;
  // In memory there is nothing to reopen: the first warm-up query is the first after the build.
  const plan = { ...t.plan, reopen: [], warmup: [...t.plan.reopen, ...t.plan.warmup] };
  const queries = await runPlan(plan, () => engine, () => {}, async (e, q) => (await e.search(q, poolFor(t.plan.limit))).length);
  return {
    task: t.task, engine: t.engine, label: engine.name,
    memory: { peakRss: peak, rssBefore, heapRetained },
    index: { ms, cpuMs, files, chunks, bytes: meta.sourceBytes },
    queries,
  };
}

async function coldQuery(t: Extract<Task, { task: 'cold-query' }>): Promise<TaskResult> {
  const t0 = now();
  if (t.engine === 'hci') {
    const ws = await openWorkspace(t.root);
    const openMs = now() - t0;
    try {
      const t1 = now();
      const r = await ws.search({ query: t.query, limit: t.limit });
      const queryMs = now() - t1;
      if (r.status === 'error' || r.status === 'no_index') throw new Error(`hci search failed for "${t.query}": ${r.error?.message}`);
      return { task: t.task, engine: 'hci', label: 'hci, new process', openMs, queryMs, memory: { peakRss: peakRss(), rssBefore: 0 } };
    } finally {
      ws.close();
    }
  }
  const db = await openNative(t.dbFile!);
  const openMs = now() - t0;
  try {
    const t1 = now();
    bm25Search(db, t.query, t.limit);
    const queryMs = now() - t1;
    return { task: t.task, engine: 'native', label: db.label, openMs, queryMs, memory: { peakRss: peakRss(), rssBefore: 0 } };
  } finally {
    db.close();
  }
}

export async function runTask(t: Task): Promise<TaskResult> {
  switch (t.task) {
    case 'baseline':
      // A bare worker: Node and this module graph, nothing loaded or indexed — every engine's common floor.
      gc();
      return { task: 'baseline', engine: 'baseline', label: 'bare worker process (Node + bench modules)', memory: { peakRss: peakRss(), rssBefore: process.memoryUsage().rss } };
    case 'cold-query':
      return coldQuery(t);
    case 'idle':
      await loadEngine();
      return { task: 'idle', engine: 'idle', label: 'node + WASM engine loaded, nothing indexed', memory: { peakRss: peakRss(), rssBefore: process.memoryUsage().rss } };
    // hci's own runs use the heap setting `hci` starts with (bin/hci.js), so the figures are the CLI's.
    case 'hci-index':
      keepYoungGenerationSmall();
      return hciIndex(t);
    case 'hci-search':
      keepYoungGenerationSmall();
      return hciSearch(t);
    case 'sql-store':
      keepYoungGenerationSmall();
      return sqlStore(t);
    case 'js-engine':
      return jsEngine(t);
  }
}

if (isMain(import.meta.url)) {
  const [taskFile, resultFile] = process.argv.slice(2);
  const task = JSON.parse(fs.readFileSync(taskFile, 'utf8')) as Task;
  try {
    const res = await runTask(task);
    fs.writeFileSync(resultFile, JSON.stringify(res));
  } catch (e) {
    fs.writeFileSync(resultFile, JSON.stringify({ task: task.task, engine: task.task, label: task.task, memory: { peakRss: 0, rssBefore: 0 }, error: (e as Error).stack ?? String(e) }));
    process.exitCode = 1;
  }
}

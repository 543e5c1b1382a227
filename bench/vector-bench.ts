// The semantic channel's costs, measured on one corpus in one run (the machine is shared: every
// figure is a ratio against a baseline from the same run, plus medians over interleaved repeats):
// a full index with semantic search off and on (learned), each in its own Node process — wall and
// CPU time, the vector phase and its steps, peak RSS, index size (growth over the keyword-only
// file); query overhead (warm hybrid against warm keyword on the same queries, and the first
// hybrid query after a commit, which loads the scan); KNN latency over the index's own vectors in
// Node and over a same-sized synthetic set in Deno and Chromium (bench/knn-bench.ts); and the
// native check: Node's node:sqlite with the npm sqlite-vec package loaded, vec_distance_cosine /
// vec_distance_l2 over the same index file, against hci's scan.
//
//   node dist/bench/vector-bench.js [--files 13000] [--repeat 3] [--dims 192] [--queries 60] [--runtimes node,deno,chromium] [--record]
//   (13,000 generated files ≈ 50k chunks: the scale the targets are stated at)
//   --provider pretrained: the shipped code model instead of the learned one (--dims then unused)
//   --root DIR: a real tree (copied first; e.g. Avalonia's, bench/corpora.json) instead of a generated one;
//   its queries from --queries-file (golden .jsonl, repeatable; the question and paraphrase kinds first:
//   identifier queries are routed to keyword alone and would hide the channel's cost)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { openWorkspace } from '../runtimes/node/index.ts';
import { keepYoungGenerationSmall } from '../runtimes/node/young-generation.ts';
import { generateCorpus } from './corpus-gen.ts';
import { commitInfo, recordResult } from './lib/record.ts';
import { copyTree, fmtNum, latencyStats, markdownTable, median, optInt, optList, optString, parseArgs, repoRoot, slug, writeJson, runMain } from './lib/util.ts';
import { readGolden } from './lib/queries.ts';
import { formatKnn, type KnnBenchRow } from './knn-bench.ts';

interface BuildRun {
  semantic: boolean;
  wallMs: number;
  cpuMs: number;
  keywordMs: number;
  vectorMs: number;
  phases: Record<string, number>;
  peakRssMb: number;
  indexBytes: number;
  chunks: number;
}

/** One full index in this (child) process: `node vector-bench.js --child <root> <semantic 0|1> <dims>`. */
async function child(root: string, semantic: boolean, dims: number, provider: string): Promise<BuildRun> {
  fs.rmSync(path.join(root, '.hci'), { recursive: true, force: true });
  const ws = await openWorkspace(root, { settings: { semantic: { enabled: semantic, dims, provider } } as never });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const s = await ws.index({ full: true });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const st = await ws.status();
  ws.close();
  return {
    semantic, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, keywordMs: s.took_ms, vectorMs: s.vectors?.took_ms ?? 0, phases: s.vectors?.phases ?? {},
    peakRssMb: process.resourceUsage().maxRSS / 1024, indexBytes: st.size?.index_bytes ?? 0, chunks: s.vectors?.chunks ?? st.index?.chunks ?? 0,
  };
}

/** Query texts from golden files: questions and paraphrases first (they reach the vector channel), then the rest. */
function realQueries(files: readonly string[]): string[] {
  if (!files.length) throw new Error('--root needs --queries-file <golden.jsonl> (the corpus has no generated queries)');
  const all = files.flatMap((f) => readGolden(f));
  const first = all.filter((g) => ['paraphrase', 'natural-language', 'behaviour', 'architecture', 'docs'].includes(g.kind));
  return [...new Set([...first, ...all.filter((g) => !first.includes(g))].map((g) => g.query))];
}

function runChild(root: string, semantic: boolean, dims: number, provider: string): BuildRun {
  const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', root, semantic ? '1' : '0', String(dims), provider], { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (r.status !== 0) throw new Error(`index run failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as BuildRun;
}

interface QueryFigures {
  keyword: ReturnType<typeof latencyStats>;
  hybrid: ReturnType<typeof latencyStats>;
  /** Per query: hybrid time minus keyword time (the semantic channel's own cost). */
  overhead: ReturnType<typeof latencyStats>;
  /**
   * The same, in this process's CPU time (process.cpuUsage around each call): on a shared machine
   * a wall-clock p95 of a 1 ms call is mostly the scheduler (the process waits for a core); CPU
   * time is what the call itself costs, GC on the main thread included.
   */
  overheadCpu: ReturnType<typeof latencyStats>;
  /**
   * Per query, the median of its repeats (hybrid − keyword, CPU time), then p50/p95 across the
   * queries: what a query costs, with GC pauses (which land on whichever call triggers them) left
   * to the medians.
   */
  overheadPerQueryCpu: ReturnType<typeof latencyStats>;
  /**
   * The same in the main thread's CPU time (process.threadCpuUsage: the thread a search runs on;
   * process CPU adds the GC and compiler threads, which run beside it): null where Node lacks it.
   */
  overheadPerQueryThread: ReturnType<typeof latencyStats> | null;
  /** How many times each query ran each way (the per-query figures are medians of that many). */
  queryRepeats: number;
  firstAfterCommitMs: number;
  knnNode: { p50: number; p95: number; cpuP50: number; cpuP95: number; loadMs: number; backend: string; count: number; dims: number };
}

/** CPU milliseconds of this process so far (user + system). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU milliseconds of this thread so far (Node ≥ 23.9), else NaN. */
function threadMs(): number {
  const f = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
  if (!f) return NaN;
  const u = f.call(process);
  return (u.user + u.system) / 1000;
}

/**
 * How many times each query runs each way (it was 3). Per query the figure is the median of its
 * repeats; the p95 across 60 queries is the third slowest query's. In a same-run A/B of two builds
 * whose answers were identical (60 Avalonia queries, load 14, medians of 5), the twelve queries
 * slowest in one copy took 0.2–5.5 ms in the other: the tail is mostly noise (a GC step or a cold
 * cache landing on a call of one side), which more repeats keep out of the medians.
 */
const QUERY_REPEATS = 5;

async function queries(root: string, dims: number, provider: string, queryTexts: readonly string[], repeats = QUERY_REPEATS): Promise<QueryFigures & { nativeCheck: NativeCheck }> {
  const ws = await openWorkspace(root, { settings: { semantic: { enabled: true, dims, provider } } as never });
  // Hybrid in a workspace of its own: one session would hand hybrid's keyword half the FTS answer the
  // keyword search of the same query cached a moment before (SearchSession.recent), hiding its cost.
  const wsHybrid = await openWorkspace(root, { settings: { semantic: { enabled: true, dims, provider } } as never });
  try {
    for (const q of queryTexts.slice(0, 5)) {
      await ws.search({ query: q, mode: 'keyword' });
      await wsHybrid.search({ query: q, mode: 'hybrid' });
    }
    const kw: number[] = [];
    const hy: number[] = [];
    const over: number[] = [];
    const overCpu: number[] = [];
    const overThread: number[] = [];
    for (let rep = 0; rep < repeats; rep++) {
      for (const q of queryTexts) {
        // Interleaved, the same query both ways: load changes hit both alike.
        let c = cpuMs();
        let th = threadMs();
        let t = performance.now();
        await ws.search({ query: q, limit: 10, mode: 'keyword' });
        const a = performance.now() - t;
        const ac = cpuMs() - c;
        const at = threadMs() - th;
        c = cpuMs();
        th = threadMs();
        t = performance.now();
        await wsHybrid.search({ query: q, limit: 10, mode: 'hybrid' });
        const b = performance.now() - t;
        const bc = cpuMs() - c;
        const bt = threadMs() - th;
        kw.push(a);
        hy.push(b);
        over.push(b - a);
        overCpu.push(bc - ac);
        overThread.push(bt - at);
      }
    }
    // A commit (one file touched and re-indexed), then the first hybrid query: it reloads the scan.
    const file = fs.readdirSync(root, { recursive: true }).map(String).find((p) => p.endsWith('.cs'))!;
    fs.appendFileSync(path.join(root, file), '\n// touched\n');
    await ws.index({ paths: [file.split(path.sep).join('/')] });
    let t = performance.now();
    await ws.search({ query: queryTexts[0], limit: 10, mode: 'hybrid' });
    const firstAfterCommitMs = performance.now() - t;
    // KNN alone over the index's own vectors (the scan the vector channel runs).
    const { loadPackedVectors, currentModel } = await import('../core/vector/store.ts');
    const { KnnIndex } = await import('../core/vector/knn.ts');
    const { LearnedProvider } = await import('../core/vector/learned/provider.ts');
    const { IndexStore } = await import('../core/index/store.ts');
    const { createNodeIndexStorage } = await import('../runtimes/node/node-storage.ts');
    const { loadEngine } = await import('../core/sqlite/engine.ts');
    const store = await IndexStore.open(createNodeIndexStorage(root), await loadEngine(), { create: false, lockTimeoutMs: 5000 });
    try {
      const { packed, data } = await store.read((db) => {
        const m = currentModel(db)!;
        return { packed: loadPackedVectors(db, m), data: db.selectValue('SELECT data FROM vector_models WHERE id = ?', [m.id]) as Uint8Array };
      });
      t = performance.now();
      const knn = await KnnIndex.create(packed);
      const loadMs = performance.now() - t;
      // The query vectors as the channel makes them: the shipped model's, or the index's learned one.
      const qv = provider === 'pretrained'
        ? (await import('../core/vector/learned/model.ts')).LearnedModel.fromBytes(new Uint8Array(fs.readFileSync((await import('../runtimes/node/code-model.ts')).codeModelPath()))).embed(queryTexts).vectors
        : LearnedProvider.fromBytes(data).embedWithCoverage(queryTexts).vectors;
      const times: number[] = [];
      const cpuTimes: number[] = [];
      for (let rep = 0; rep < 10; rep++) {
        queryTexts.forEach((_, i) => {
          const c = cpuMs();
          const s = performance.now();
          knn.search(qv.subarray(i * packed.dims, (i + 1) * packed.dims), { k: 20 });
          times.push(performance.now() - s);
          cpuTimes.push(cpuMs() - c);
        });
      }
      const st = latencyStats(times);
      const sc = latencyStats(cpuTimes);
      const nativeCheck = sqliteVecCheck(path.join(root, '.hci/index.sqlite'), knn, qv, packed.dims, packed.scale!, queryTexts.length);
      return {
        keyword: latencyStats(kw), hybrid: latencyStats(hy), overhead: latencyStats(over), overheadCpu: latencyStats(overCpu),
        overheadPerQueryCpu: latencyStats(queryTexts.map((_, i) => median(overCpu.filter((_, j) => j % queryTexts.length === i)))),
        overheadPerQueryThread: overThread.every((x) => Number.isNaN(x)) ? null : latencyStats(queryTexts.map((_, i) => median(overThread.filter((_, j) => j % queryTexts.length === i)))),
        queryRepeats: repeats, firstAfterCommitMs,
        knnNode: { p50: st.p50, p95: st.p95, cpuP50: sc.p50, cpuP95: sc.p95, loadMs, backend: knn.backend, count: knn.count, dims: packed.dims }, nativeCheck,
      };
    } finally {
      store.close();
    }
  } finally {
    ws.close();
    wsHybrid.close();
  }
}

interface NativeCheck {
  available: boolean;
  note: string;
  sqliteVersion?: string;
  vecVersion?: string;
  queries?: number;
  /** Share of hci's top 10 that sqlite-vec's cosine / L2 top 10 hold, and rank-1 agreement. */
  cosineOverlap10?: number;
  l2Overlap10?: number;
  rank1Same?: number;
  nativeMsPerQuery?: number;
}

/** node:sqlite + the sqlite-vec npm package over the index file: the same nearest neighbours? */
function sqliteVecCheck(file: string, knn: { search(q: Float32Array, o: { k: number }): Array<{ id: number }> }, qv: Float32Array, dims: number, scale: number, n: number): NativeCheck {
  let sqliteVec: { load(db: unknown): void; getLoadablePath(): string };
  let DatabaseSync: new (p: string, o?: Record<string, unknown>) => { prepare(s: string): { all(...a: unknown[]): Array<Record<string, unknown>>; get(...a: unknown[]): Record<string, unknown> }; close(): void };
  try {
    const require = createRequire(import.meta.url);
    sqliteVec = require('sqlite-vec');
    DatabaseSync = require('node:sqlite').DatabaseSync;
  } catch (e) {
    return { available: false, note: `sqlite-vec or node:sqlite not available here: ${(e as Error).message}` };
  }
  const db = new DatabaseSync(file, { readOnly: true, allowExtension: true });
  try {
    sqliteVec.load(db);
    const v = db.prepare('SELECT sqlite_version() s, vec_version() v').get();
    const cos = db.prepare('SELECT chunk_id FROM chunk_vectors ORDER BY vec_distance_cosine(vec_int8(vec), vec_int8(?)), chunk_id LIMIT 10');
    const l2 = db.prepare('SELECT chunk_id FROM chunk_vectors ORDER BY vec_distance_l2(vec_int8(vec), vec_int8(?)), chunk_id LIMIT 10');
    let oc = 0;
    let ol = 0;
    let same = 0;
    let ms = 0;
    let asked = 0;
    for (let i = 0; i < n; i++) {
      const q = qv.subarray(i * dims, (i + 1) * dims);
      if (!q.some((x) => x !== 0)) continue;
      asked++;
      // The query quantized with the model's scale: int8 like the stored rows.
      const qi = new Int8Array(dims);
      for (let j = 0; j < dims; j++) qi[j] = Math.max(-127, Math.min(127, Math.round(q[j] / scale)));
      const blob = new Uint8Array(qi.buffer);
      const ours = knn.search(q, { k: 10 }).map((h) => h.id);
      const t = performance.now();
      const c = cos.all(blob).map((r) => Number(r.chunk_id));
      ms += performance.now() - t;
      const l = l2.all(blob).map((r) => Number(r.chunk_id));
      oc += c.filter((id) => ours.includes(id)).length / Math.max(1, ours.length);
      ol += l.filter((id) => ours.includes(id)).length / Math.max(1, ours.length);
      if (c[0] === ours[0]) same++;
    }
    return {
      available: true, note: 'sqlite-vec installed from npm (prebuilt vec0.so in sqlite-vec-linux-x64): no toolchain', sqliteVersion: String(v.s), vecVersion: String(v.v),
      queries: asked, cosineOverlap10: oc / asked, l2Overlap10: ol / asked, rank1Same: same / asked, nativeMsPerQuery: ms / asked,
    };
  } finally {
    db.close();
  }
}

function knnOtherRuntimes(runtimes: readonly string[], count: number, dims: number): KnnBenchRow[] {
  const others = runtimes.filter((r) => r !== 'node');
  if (!others.length) return [];
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-knn-'));
  try {
    const r = spawnSync(process.execPath, [path.join(path.dirname(fileURLToPath(import.meta.url)), 'knn-bench.js'), '--count', String(count), '--dims', String(dims), '--runtimes', ['node', ...others].join(','), '--out', out], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0 && !fs.existsSync(path.join(out, 'knn-bench.json'))) throw new Error(r.stderr);
    return JSON.parse(fs.readFileSync(path.join(out, 'knn-bench.json'), 'utf8')) as KnnBenchRow[];
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

export async function main(argv: string[]): Promise<number> {
  // As bin/hci.js does for the CLI and the MCP server (runtimes/node/young-generation.ts): the
  // figures are those of the processes hci starts.
  keepYoungGenerationSmall();
  if (argv[0] === '--child') {
    process.stdout.write(`${JSON.stringify(await child(argv[1], argv[2] === '1', Number(argv[3]), argv[4] ?? 'learned'))}\n`);
    return 0;
  }
  const { opts } = parseArgs(argv, ['record']);
  const files = optInt(opts, 'files', 13000);
  const repeat = optInt(opts, 'repeat', 3);
  const dims = optInt(opts, 'dims', 192);
  const provider = optString(opts, 'provider') ?? 'learned';
  const tree = optString(opts, 'root');
  const runtimes = optList(opts, 'runtimes').length ? optList(opts, 'runtimes') : ['node', 'deno', 'chromium'];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-vbench-'));
  const log = (s: string) => process.stderr.write(`${s}\n`);
  try {
    const root = path.join(work, 'corpus');
    const gen = tree ? { files: copyTree(path.resolve(tree), root).files, queries: realQueries(optList(opts, 'queries-file')) } : generateCorpus(root, { files, seed: 7 });
    const runs: BuildRun[] = [];
    for (let i = 0; i < repeat; i++) {
      for (const semantic of i % 2 ? [true, false] : [false, true]) {
        log(`index ${i + 1}/${repeat}, semantic ${semantic ? 'on' : 'off'}…`);
        runs.push(runChild(root, semantic, dims, provider));
      }
    }
    // Leave the semantic index in place for the query figures.
    runs.push(runChild(root, true, dims, provider));
    const off = runs.filter((r) => !r.semantic);
    const on = runs.filter((r) => r.semantic);
    const pairs = off.map((o, i) => ({ o, s: on[i] }));
    log('queries…');
    const q = await queries(root, dims, provider, gen.queries.slice(0, optInt(opts, 'queries', 60)));
    log('KNN in the other runtimes…');
    let knn: KnnBenchRow[] = [];
    try {
      knn = knnOtherRuntimes(runtimes, q.knnNode.count, q.knnNode.dims);
    } catch (e) {
      log(`knn-bench failed: ${(e as Error).message}`);
    }
    const report = {
      commit: commitInfo(), corpus: tree ? path.basename(tree) : `generated-${files}`, provider, files: gen.files, chunks: on[0].chunks, dims, repeat, load: os.loadavg(),
      builds: runs, medians: {
        keywordOnlyWallMs: median(off.map((r) => r.wallMs)), semanticWallMs: median(on.map((r) => r.wallMs)),
        vectorPhaseMs: median(on.map((r) => r.vectorMs)), keywordPassMs: median(on.map((r) => r.keywordMs)),
        vectorOverKeyword: median(pairs.map((p) => p.s.vectorMs / p.o.wallMs)),
        extraCpu: median(pairs.map((p) => p.s.cpuMs / p.o.cpuMs - 1)),
        growth: median(pairs.map((p) => p.s.indexBytes / p.o.indexBytes - 1)),
        peakRssOffMb: median(off.map((r) => r.peakRssMb)), peakRssOnMb: median(on.map((r) => r.peakRssMb)),
        phases: Object.fromEntries(Object.keys(on[0].phases).map((k) => [k, median(on.map((r) => r.phases[k] ?? 0))])),
      },
      queries: q, knn,
    };
    const text = formatVectorBench(report);
    const outDir = path.join(repoRoot(), 'bench-results');
    const name = tree ? `bench-vectors-${slug(path.basename(tree))}-${provider}` : `bench-vectors-${files}${provider === 'learned' ? '' : `-${provider}`}`;
    writeJson(path.join(outDir, `${name}.json`), report);
    fs.writeFileSync(path.join(outDir, `${name}.md`), `${text}\n`);
    if (opts.record === true) recordResult(name, report, text);
    process.stdout.write(`\n${text}\n`);
    return 0;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

type Report = {
  commit: ReturnType<typeof commitInfo>; corpus?: string; provider?: string; files: number; chunks: number; dims: number; repeat: number; load: number[];
  builds: BuildRun[]; medians: Record<string, number | Record<string, number>>; queries: QueryFigures & { nativeCheck: NativeCheck }; knn: KnnBenchRow[];
};

export function formatVectorBench(r: Report): string {
  const m = r.medians as Record<string, number> & { phases: Record<string, number> };
  const s = (ms: number) => `${fmtNum(ms / 1000, 2)} s`;
  const ms = (x: number) => `${fmtNum(x, 2)} ms`;
  const q = r.queries;
  const out = [
    `### Semantic channel costs: ${r.corpus && !r.corpus.startsWith('generated') ? `${r.corpus}, ${r.files} files` : `${r.files} generated files`}, ${r.chunks} chunks, ${r.provider === 'pretrained' ? `the shipped code model (pretrained, ${r.queries.knnNode.dims} dims)` : `learned ${r.dims} dims`} (${r.repeat} interleaved runs each way; load ${r.load.map((x) => fmtNum(x, 1)).join(' / ')}; commit ${r.commit.sha?.slice(0, 10) ?? '?'})`,
    '',
    markdownTable(['figure', 'median', 'target'], [
      ['full index, semantic off (wall)', s(m.keywordOnlyWallMs), ''],
      ['full index, semantic on (wall)', s(m.semanticWallMs), ''],
      ['of which the vector phase (after the keyword pass)', s(m.vectorPhaseMs), ''],
      ['vector phase / keyword-only index time (paired runs, wall)', `${fmtNum(100 * m.vectorOverKeyword, 0)}%`, '≤ 25%'],
      ['extra CPU time, semantic on / off (paired runs)', `+${fmtNum(100 * m.extraCpu, 0)}%`, '≤ 25%'],
      ['index growth (semantic on / off)', `+${fmtNum(100 * m.growth, 0)}%`, '≤ 60%'],
      ['peak RSS, semantic off / on', `${fmtNum(m.peakRssOffMb, 0)} / ${fmtNum(m.peakRssOnMb, 0)} MB`, '≤ 300 MB'],
      ['query overhead: hybrid − keyword, same query, warm (p50 / p95)', `${ms(q.overhead.p50)} / ${ms(q.overhead.p95)}`, 'p95 ≤ 5 ms'],
      ['the same in CPU time (p50 / p95)', `${ms(q.overheadCpu.p50)} / ${ms(q.overheadCpu.p95)}`, 'p95 ≤ 5 ms'],
      [`the same per query (CPU, median of its ${q.queryRepeats} repeats; p50 / p95 across queries)`, `${ms(q.overheadPerQueryCpu.p50)} / ${ms(q.overheadPerQueryCpu.p95)}`, 'p95 ≤ 5 ms'],
      ...(q.overheadPerQueryThread ? [[`the same in the search thread's CPU time (median of ${q.queryRepeats}; p50 / p95)`, `${ms(q.overheadPerQueryThread.p50)} / ${ms(q.overheadPerQueryThread.p95)}`, 'p95 ≤ 5 ms']] : []),
      ['warm keyword / hybrid (p50 / p95)', `${ms(q.keyword.p50)} / ${ms(q.keyword.p95)} · ${ms(q.hybrid.p50)} / ${ms(q.hybrid.p95)}`, ''],
      ['first hybrid query after a commit (loads the scan)', ms(q.firstAfterCommitMs), ''],
      [`KNN over the index's ${q.knnNode.count} vectors, Node (${q.knnNode.backend}), p50 / p95`, `${ms(q.knnNode.p50)} / ${ms(q.knnNode.p95)} (load ${fmtNum(q.knnNode.loadMs, 0)} ms)`, 'p95 ≤ 8 ms'],
      ['the same in CPU time (p50 / p95)', `${ms(q.knnNode.cpuP50)} / ${ms(q.knnNode.cpuP95)}`, 'p95 ≤ 8 ms'],
    ]),
    '',
    `vector phase steps (median ms): ${Object.entries(m.phases).map(([k, v]) => `${k} ${fmtNum(v, 0)}`).join(', ')}`,
    '',
  ];
  if (r.knn.length) out.push(`KNN, ${r.knn[0].count} × ${r.knn[0].dims} synthetic (bench/knn-bench.ts), per runtime:`, '', formatKnn(r.knn), '');
  const n = q.nativeCheck;
  out.push(n.available
    ? `sqlite-vec native check: node:sqlite ${n.sqliteVersion} + sqlite-vec ${n.vecVersion} (${n.note}) over the same index file, ${n.queries} queries: ` +
      `top-10 overlap with hci's scan — vec_distance_cosine ${fmtNum(n.cosineOverlap10!, 3)}, vec_distance_l2 ${fmtNum(n.l2Overlap10!, 3)}; rank 1 the same ${fmtNum(100 * n.rank1Same!, 0)}%; ` +
      `${fmtNum(n.nativeMsPerQuery!, 1)} ms per query (a full table scan in C, no index)`
    : `sqlite-vec native check: not run (${n.note})`);
  return out.join('\n');
}

await runMain(import.meta.url, 'vector-bench', main);

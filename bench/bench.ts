// `npm run bench`: hci side by side with the native limit and the alternatives, on one corpus, in
// one run. hci (WASM) cold full index, index size, peak RSS, warm incremental re-index, search
// latency (new process, first after open, warm new, warm repeated) in-process and through the CLI;
// the same chunks, schema and queries through native SQLite (Node's built-in node:sqlite) and through
// hci's WASM store alone; Orama and MiniSearch on the same chunks; ripgrep on the same tree when `rg`
// exists; then the latencies unit tests must not assert (bench/latency.ts) and message ↔ code
// traceability at scale (bench/intercom-bench.ts: a 10,000-message thread) and a first MCP start from
// a clone (bench/mcp-start.ts). Each engine runs in its
// own Node process, reading its input from disk as it goes, so its peak RSS is its own over the same
// bare-process floor. Prints tables (ratios against native from the same run) and writes
// bench-results/bench-<corpus>.json and .md; `--record` also writes a compact copy with the commit
// it was measured at to bench/results/ (committed; what the README cites).
//
//   npm run bench                                # the sample workspace and a generated 2,000-file solution
//   npm run bench -- --corpus generated --files 5000
//   npm run bench -- --corpus generated --files 13000 --repeat 1   # ≈ 50k chunks: the scale two targets name
//   npm run bench -- --corpus avalonia --repeat 2   # a pinned public repository of bench/corpora.json (materialized once)
//   npm run bench -- --corpus dotnet-8 --repeat 1   # eight .NET repositories side by side (~10x Avalonia)
//   npm run bench -- --corpus ~/src/my-repo      # any folder (copied to a temp dir first)
//   options: --repeat N (3) · --query-repeat N (5) · --cold-queries N (5 per run) · --reopen-queries N (10)
//            --cli-queries N (5 per run) · --edits N (5) · --engines hci,native,wasm,orama,minisearch,rg,cli,latency,intercom,mcp-start,vectors,literal
//            --rg PATH · --profile · --out DIR · --record · --keep · --tag T (files named bench-<corpus>-T)
//            --engines …,semantic (also a cold index with semantic search on: its peak RSS)
//            --compare LABEL (a recorded bench/results/bench-LABEL.json: this corpus's figures over that one's)
//   npm run bench -- --corpus avalonia,dotnet-8 --compare avalonia --engines hci,native --repeat 1 --record
//            several corpora in one run; --compare naming one of them compares the later ones with it, measured in
//            the same run under the same load (the base is then not recorded on its own: its figures are in scale)
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './corpus-gen.ts';
import { dumpChunks, type DumpMeta } from './lib/chunks.ts';
import { summarizeProfile, type ProfileSummary } from './lib/cpu-profile.ts';
import { deriveQueries, readGolden } from './lib/queries.ts';
import { shuffled, sliceQueries } from './lib/plan.ts';
import { commitInfo, recordResult } from './lib/record.ts';
import { arenaCapEnv } from '../runtimes/node/malloc-arenas.ts';
import { formatBench, judgeTargets, latencyOf, readRecorded, scaleAgainst, type BenchReport, type EngineRow } from './lib/report.ts';
import { copyTree, fmtMB, fmtMs, latencyStats, MB, median, now, optInt, optList, optString, parseArgs, repoRoot, sampleWorkspaceDir, slug, writeJson, runMain } from './lib/util.ts';
import { folderInCorpus, materializeCorpus, readManifest } from './lib/materialize.ts';
import { findRipgrep, ripgrepOnce, ripgrepVersion } from './baselines/grep-and-windows.ts';
import { runTask, sqlStoreFile, type Task, type TaskResult } from './worker.ts';
import { formatLatency, runLatency } from './latency.ts';
import { runIntercomBench } from './intercom-bench.ts';
import { runMcpStartBench } from './mcp-start.ts';
import { main as runVectorBench } from './vector-bench.ts';
import { runLiteralBench } from './literal-bench.ts';

export { formatBench };
export type { BenchReport, EngineRow, TargetCheck } from './lib/report.ts';
export const ALL_ENGINES = ['hci', 'native', 'wasm', 'orama', 'minisearch', 'rg', 'cli', 'latency', 'intercom', 'literal'] as const;
/** Engines run only when named: `semantic` (a cold index with the semantic channel on, for its peak RSS). */
export const EXTRA_ENGINES = ['semantic'] as const;

export interface BenchOptions {
  /** 'sample', 'generated', or a folder. */
  corpus: string;
  /** Size of the generated solution. */
  files: number;
  seed: number;
  /** Independent runs of every engine (figures are medians across runs). */
  repeat: number;
  /** Repeated passes over the measured queries (after they ran once each). */
  queryRepeat: number;
  /** Queries answered one per new process, per run (hci and native). */
  coldQueries: number;
  /** Queries each answered right after reopening the index in a warm process. */
  reopenQueries: number;
  cliQueries: number;
  edits: number;
  engines: string[];
  /** Run engines in this process instead of one child process each (no RSS attribution; for tests). */
  inProcess: boolean;
  outDir: string | null;
  /** Also write a compact copy to bench/results/ (committed). */
  record: boolean;
  /** Appended to the result files' names (bench-<corpus>-<tag>): a run of a few engines kept beside the corpus's full record. */
  tag?: string;
  workDir?: string;
  keep: boolean;
  rg?: string | null;
  limit: number;
  maxQueries: number;
  profile: boolean;
  /** A recorded result (bench/results/bench-<label>.json) this corpus's figures are compared with: how cost grows with size. */
  compare?: string;
  /** This corpus runs as the base of a later corpus's in-run comparison. */
  asBase?: boolean;
  /** The base of `compare` when it ran earlier in this same invocation (`--corpus avalonia,dotnet-8 --compare avalonia`). */
  compareReport?: BenchReport;
  log: (line: string) => void;
}

export const DEFAULT_BENCH: Omit<BenchOptions, 'corpus' | 'log'> = {
  files: 2000, seed: 1, repeat: 3, queryRepeat: 5, coldQueries: 5, reopenQueries: 10, cliQueries: 5, edits: 5, engines: [...ALL_ENGINES], inProcess: false,
  outDir: null, record: false, keep: false, rg: undefined, limit: 10, maxQueries: 200, profile: false,
};

// ---------------------------------------------------------------------------------------------

function workerScript(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return path.join(path.dirname(here), 'worker.js');
  return path.join(repoRoot(), 'dist', 'bench', 'worker.js');
}

let taskSeq = 0;

async function runWorker(task: Task, o: BenchOptions, work: string, extraNodeArgs: string[] = []): Promise<TaskResult> {
  if (o.inProcess) return runTask(task);
  const dir = path.join(work, 'tasks');
  fs.mkdirSync(dir, { recursive: true });
  const n = ++taskSeq;
  const taskFile = path.join(dir, `${n}-${task.task}.json`);
  const resultFile = path.join(dir, `${n}-${task.task}.result.json`);
  fs.writeFileSync(taskFile, JSON.stringify(task));
  const script = workerScript();
  if (!fs.existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first`);
  const stderr: string[] = [];
  const code = await new Promise<number>((resolve, reject) => {
    // Every engine's process runs under the malloc arena cap `hci index` gives itself on Linux
    // (runtimes/node/malloc-arenas.ts), the bare floor included: the same process set-up for all.
    const env = arenaCapEnv(['index'], process.env, process.platform) ?? process.env;
    const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=4096', ...extraNodeArgs, script, taskFile, resultFile], { stdio: ['ignore', 'ignore', 'pipe'], env });
    child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
    child.on('error', reject);
    child.on('exit', (c) => resolve(c ?? 1));
  });
  const res = fs.existsSync(resultFile) ? (JSON.parse(fs.readFileSync(resultFile, 'utf8')) as TaskResult) : null;
  if (!res || res.error || code !== 0) throw new Error(`worker ${task.task} failed (exit ${code}): ${res?.error ?? stderr.join('').slice(-2000)}`);
  return res;
}

interface Corpus {
  label: string;
  kind: 'sample' | 'generated' | 'path' | 'pinned';
  dir: string;
  queries: string[];
  /** A pinned corpus: its repositories, commits, and how many files the mirror lacked. */
  pins?: Array<{ repo: string; commit: string; missing: number }>;
}

async function prepareCorpus(o: BenchOptions, work: string): Promise<Corpus> {
  const dir = path.join(work, 'corpus');
  fs.rmSync(dir, { recursive: true, force: true });
  if (o.corpus === 'sample') {
    copyTree(sampleWorkspaceDir(), dir);
    const golden = readGolden(path.join(repoRoot(), 'bench', 'golden', 'sample-workspace.jsonl'));
    return { label: 'sample-workspace', kind: 'sample', dir, queries: golden.map((g) => g.query) };
  }
  if (o.corpus === 'generated') {
    const gen = generateCorpus(dir, { files: o.files, seed: o.seed });
    // The generator's fixed set first, then its planted facts in a fixed shuffled order: enough
    // distinct queries for the disjoint latency slices (bench/lib/plan.ts).
    return { label: `generated-${o.files}`, kind: 'generated', dir, queries: [...new Set([...gen.queries, ...shuffled(gen.golden.map((g) => g.query))])] };
  }
  const src = path.resolve(o.corpus);
  if (!fs.existsSync(src) && readManifest()[o.corpus]) {
    // A named corpus of bench/corpora.json: pinned public repositories, materialized once into the
    // cache (bench/lib/materialize.ts); one repository is the workspace, several sit side by side in it.
    const c = await materializeCorpus(o.corpus, { log: o.log });
    if (c.repos.length === 1) copyTree(c.repos[0].dir, dir);
    else for (const r of c.repos) copyTree(r.dir, path.join(dir, folderInCorpus(r, c.entry.repos)));
    return { label: o.corpus, kind: 'pinned', dir, queries: [], pins: c.repos.map((r) => ({ repo: r.repo, commit: r.commit, missing: r.missing.length })) };
  }
  if (!fs.existsSync(src) || !fs.statSync(src).isDirectory()) throw new Error(`${src} is not a folder, nor a corpus of bench/corpora.json (${Object.keys(readManifest()).join(', ')})`);
  copyTree(src, dir);
  return { label: slug(path.basename(src)), kind: 'path', dir, queries: [] };
}


function pool(results: readonly TaskResult[], pick: (r: TaskResult) => number[] | undefined): number[] {
  return results.flatMap((r) => pick(r) ?? []);
}

function rowOf(engine: string, label: string, results: TaskResult[], baselineRss: number, search?: TaskResult[], raw = false): EngineRow {
  const row: EngineRow = { engine, label, runs: results.length };
  const idx = results.map((r) => r.index).filter((x): x is NonNullable<typeof x> => !!x);
  if (idx.length) {
    const ms = idx.map((i) => i.ms);
    row.index = {
      ms: median(ms), msMin: Math.min(...ms), msMax: Math.max(...ms), cpuMs: median(idx.map((i) => i.cpuMs)), files: idx[0].files, chunks: idx[0].chunks, bytes: idx[0].bytes,
      diskBytes: idx[0].diskBytes, transactions: idx[0].transactions,
    };
    const peak = median(results.map((r) => r.memory.peakRss));
    const heap = results.map((r) => r.memory.heapRetained).filter((x): x is number => x !== undefined);
    row.memory = { peakRss: peak, overBaseline: Math.max(0, peak - baselineRss), rssBefore: median(results.map((r) => r.memory.rssBefore)), heapRetained: heap.length ? median(heap) : undefined };
  }
  const from = search ?? results;
  const q = (r: TaskResult) => (raw ? r.rawQueries : r.queries);
  const repeat = pool(from, (r) => q(r)?.samples);
  if (repeat.length) {
    row.queries = { ...latencyStats(repeat), empty: Math.max(...from.map((r) => q(r)?.empty ?? 0)) };
    row.latency = { afterOpen: latencyOf(pool(from, (r) => q(r)?.afterOpen)), warmFirst: latencyOf(pool(from, (r) => q(r)?.warmFirst)), warmRepeat: latencyStats(repeat) };
  }
  return row;
}

function withCold(row: EngineRow, cold: readonly TaskResult[]): EngineRow {
  if (!cold.length) return row;
  const stats = latencyStats(cold.map((c) => c.queryMs!));
  row.latency = { ...row.latency, cold: { ...stats, openP50: median(cold.map((c) => c.openMs!)) } };
  return row;
}

const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined && b > 0 ? a / b : null);

// ---------------------------------------------------------------------------------------------

export async function runBench(opts: Partial<BenchOptions> & { corpus: string }): Promise<BenchReport> {
  const o: BenchOptions = { ...DEFAULT_BENCH, log: () => {}, ...opts };
  const t0 = now();
  const started = new Date().toISOString();
  const commit = commitInfo();
  const loadAvgStart = os.loadavg();
  const work = o.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'hci-bench-'));
  fs.mkdirSync(work, { recursive: true });
  const notes: string[] = [];
  const want = (e: string) => o.engines.includes(e);
  try {
    const corpus = await prepareCorpus(o, work);
    o.log(`corpus ${corpus.label}: ${corpus.dir}`);
    const rg = want('rg') ? findRipgrep(o.rg) : null;
    if (want('rg') && !rg) notes.push('ripgrep column skipped: `rg` was not found (install it with `apt-get install ripgrep`, or pass --rg PATH / set HCI_BENCH_RG).');
    if (o.inProcess) notes.push('engines ran in-process (--in-process): RSS figures are not attributable to one engine.');

    const runs: TaskResult[][] = [];
    const byEngine = new Map<string, TaskResult[]>();
    const add = (k: string, r: TaskResult) => byEngine.set(k, [...(byEngine.get(k) ?? []), r]);
    const all = (k: string) => byEngine.get(k) ?? [];
    const dump = path.join(work, 'chunks.jsonl');
    let meta: DumpMeta | null = null;
    let slices: ReturnType<typeof sliceQueries> | null = null;
    let queries = corpus.queries;
    const cliSamples: number[] = [];
    /** `node -e 0`, one before each CLI search (interleaved, so both see the same load). */
    const nodeStartSamples: number[] = [];
    let cliEmpty = 0;
    const rgSamples: number[] = [];
    let profileSummary: ProfileSummary | undefined;
    /** The parse workers' profiles (--profile), in thread order. */
    let workerProfiles: ProfileSummary[] = [];

    for (let rep = 0; rep < o.repeat; rep++) {
      const run: TaskResult[] = [];
      const push = (k: string, r: TaskResult) => (run.push(r), add(k, r));
      push('baseline', await runWorker({ task: 'baseline' }, o, work));
      o.log(`run ${rep + 1}/${o.repeat}: hci cold index…`);
      const profDir = path.join(work, 'profile');
      const profArgs = o.profile && rep === 0 && !o.inProcess ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
      const hci = await runWorker({ task: 'hci-index', root: corpus.dir, edits: o.edits, noops: 3 }, o, work, profArgs);
      push('hci', hci);
      if (profArgs.length) {
        // One profile per thread (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile): thread 0 is the
        // process's main thread, the others its parse workers.
        const profs = fs.readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile')).map((f) => ({ f, thread: Number(f.split('.')[4]) })).sort((a, b) => a.thread - b.thread);
        const main = profs.find((p) => p.thread === 0) ?? profs[0];
        if (main) profileSummary = summarizeProfile(path.join(profDir, main.f));
        workerProfiles = profs.filter((p) => p !== main).map((p) => summarizeProfile(path.join(profDir, p.f), 20, 'parse-worker'));
      }
      if (rep === 0) {
        meta = await dumpChunks(corpus.dir, dump);
        if (!queries.length) queries = deriveQueries(dump);
        queries = queries.slice(0, o.maxQueries);
        slices = sliceQueries(queries, o);
        if (!slices.disjoint) notes.push(`the query set (${queries.length}) is too small to keep the latency slices disjoint: they overlap.`);
        o.log(`  ${meta.files} files, ${meta.chunks} chunks, ${fmtMB(meta.sourceBytes)}; ${queries.length} queries`);
      }
      const { plan, coldByRun } = slices!;
      const cold = coldByRun[rep] ?? [];
      const filesPerTxn = Math.max(1, Math.ceil(meta!.files / Math.max(1, hci.index?.transactions ?? 1)));
      const unsyncedNote = "hci's cold build ran without syncs (core/index/cold-build.ts): the SQL replays (native, hci store only) commit as many batches without syncs too, between one synced commit before and one after.";
      if (hci.index?.unsynced && !notes.includes(unsyncedNote)) notes.push(unsyncedNote);
      if (want('semantic')) {
        o.log('  hci cold index, semantic search on…');
        push('hci-semantic', await runWorker({ task: 'hci-index', root: corpus.dir, edits: 0, noops: 0, semantic: true }, o, work));
      }
      if (want('hci')) {
        o.log('  hci search (in-process)…');
        push('hci-search', await runWorker({ task: 'hci-search', root: corpus.dir, plan }, o, work));
        for (const q of cold) push('hci-cold', await runWorker({ task: 'cold-query', engine: 'hci', root: corpus.dir, query: q, limit: o.limit }, o, work));
      }
      if (want('native')) {
        o.log('  native SQLite (same chunks)…');
        const dir = path.join(work, 'native');
        push('native', await runWorker({ task: 'sql-store', engine: 'native', dump, dir, filesPerTxn, unsynced: hci.index?.unsynced, plan }, o, work));
        for (const q of cold) push('native-cold', await runWorker({ task: 'cold-query', engine: 'native', root: dir, dbFile: sqlStoreFile('native', dir), query: q, limit: o.limit }, o, work));
      }
      if (want('wasm')) {
        o.log('  hci store only (WASM, same chunks)…');
        push('wasm-store', await runWorker({ task: 'sql-store', engine: 'wasm', dump, dir: path.join(work, 'wasm'), filesPerTxn, unsynced: hci.index?.unsynced, plan }, o, work));
      }
      for (const e of ['orama', 'minisearch'] as const) {
        if (!want(e)) continue;
        o.log(`  ${e} (same chunks)…`);
        push(e, await runWorker({ task: 'js-engine', engine: e, dump, plan }, o, work));
      }
      if (rg) {
        o.log('  ripgrep…');
        for (const qq of plan.warmup) ripgrepOnce(rg, corpus.dir, qq); // the page cache, as for every engine
        for (const qq of plan.measured) {
          const t = now();
          ripgrepOnce(rg, corpus.dir, qq);
          rgSamples.push(now() - t);
        }
      }
      if (want('cli') && o.cliQueries > 0) {
        o.log('  hci CLI…');
        const bin = path.join(repoRoot(), 'bin', 'hci.js');
        for (const qq of cold.slice(0, o.cliQueries)) {
          const t0 = now();
          await bareNodeStart();
          nodeStartSamples.push(now() - t0);
          const t = now();
          const hits = await cliSearch(bin, corpus.dir, qq, o.limit);
          cliSamples.push(now() - t);
          if (hits === 0) cliEmpty++;
        }
      }
      runs.push(run);
    }

    // ------------------------------------------------------------------ aggregate
    const baselineRss = median(all('baseline').map((r) => r.memory.peakRss));
    const engines: EngineRow[] = [];
    const hciRuns = all('hci');
    const hciRow = withCold(rowOf('hci', 'hci (WASM): scan, read, chunk, write', hciRuns, baselineRss, byEngine.get('hci-search')), all('hci-cold'));
    engines.push(hciRow);
    if (byEngine.has('hci-semantic')) engines.push(rowOf('hci-semantic', 'hci (WASM), semantic search on: cold index', all('hci-semantic'), baselineRss));
    if (byEngine.has('wasm-store')) engines.push(rowOf('wasm-store', 'hci store only (WASM + hci VFS, same chunks)', all('wasm-store'), baselineRss));
    if (byEngine.has('native')) engines.push(withCold(rowOf('native', `native SQLite (${all('native')[0].label}, same chunks)`, all('native'), baselineRss), all('native-cold')));
    if (byEngine.has('orama')) engines.push(rowOf('orama', 'Orama 3.1 (same chunks, in memory)', all('orama'), baselineRss));
    if (byEngine.has('minisearch')) engines.push(rowOf('minisearch', 'MiniSearch 7.2 (same chunks, in memory)', all('minisearch'), baselineRss));
    if (byEngine.has('hci-search')) {
      const raw = rowOf('hci-fts-sql', 'hci candidate SQL only (WASM; no boosts/snippets)', all('hci-search'), baselineRss, undefined, true);
      if (raw.queries) engines.push(raw);
    }
    if (cliSamples.length) {
      const stats = latencyStats(cliSamples);
      engines.push({ engine: 'cli', label: 'hci CLI `hci search --json` (new process each, end to end)', runs: o.repeat, queries: { ...stats, empty: cliEmpty }, latency: { cold: { ...stats, openP50: NaN } } });
      const bare = latencyStats(nodeStartSamples);
      engines.push({ engine: 'node-start', label: '`node -e 0` (a bare Node start, interleaved with the CLI searches)', runs: o.repeat, queries: { ...bare, empty: 0 }, latency: { cold: { ...bare, openP50: NaN } } });
    }
    if (rg && rgSamples.length) {
      const stats = latencyStats(rgSamples);
      engines.push({ engine: 'rg', label: `${ripgrepVersion(rg)} (no index; one rg process per query)`, runs: o.repeat, queries: { ...stats, empty: 0 }, latency: { warmFirst: stats } });
    }

    const get = (e: string) => engines.find((x) => x.engine === e);
    const native = get('native');
    const over = (e?: EngineRow) => e?.memory?.overBaseline;
    const ratios: Record<string, number | null> = {
      index_time_vs_native: ratio(hciRow.index?.ms, native?.index?.ms),
      index_cpu_vs_native: ratio(hciRow.index?.cpuMs, native?.index?.cpuMs),
      store_only_index_cpu_vs_native: ratio(get('wasm-store')?.index?.cpuMs, native?.index?.cpuMs),
      store_only_index_time_vs_native: ratio(get('wasm-store')?.index?.ms, native?.index?.ms),
      search_p50_vs_native_sql: ratio(hciRow.latency?.warmFirst?.p50, native?.latency?.warmFirst?.p50),
      search_p95_vs_native_sql: ratio(hciRow.latency?.warmFirst?.p95, native?.latency?.warmFirst?.p95),
      search_cold_p50_vs_native: ratio(hciRow.latency?.cold?.p50, native?.latency?.cold?.p50),
      candidate_sql_p95_wasm_vs_native: ratio(get('hci-fts-sql')?.latency?.warmFirst?.p95, native?.latency?.warmFirst?.p95),
      index_size_vs_source: ratio(hciRow.index?.diskBytes, hciRow.index?.bytes),
      index_size_vs_native: ratio(hciRow.index?.diskBytes, native?.index?.diskBytes),
      index_time_vs_orama: ratio(hciRow.index?.ms, get('orama')?.index?.ms),
      index_time_vs_minisearch: ratio(hciRow.index?.ms, get('minisearch')?.index?.ms),
      store_only_index_time_vs_orama: ratio(get('wasm-store')?.index?.ms, get('orama')?.index?.ms),
      store_only_index_time_vs_minisearch: ratio(get('wasm-store')?.index?.ms, get('minisearch')?.index?.ms),
      peak_rss_vs_orama: ratio(over(hciRow), over(get('orama'))),
      peak_rss_vs_minisearch: ratio(over(hciRow), over(get('minisearch'))),
      store_only_peak_rss_vs_orama: ratio(over(get('wasm-store')), over(get('orama'))),
      store_only_peak_rss_vs_minisearch: ratio(over(get('wasm-store')), over(get('minisearch'))),
      peak_rss_abs_vs_orama: ratio(hciRow.memory?.peakRss, get('orama')?.memory?.peakRss),
      peak_rss_abs_vs_minisearch: ratio(hciRow.memory?.peakRss, get('minisearch')?.memory?.peakRss),
      cli_search_p50_vs_node_start: ratio(get('cli')?.queries?.p50, get('node-start')?.queries?.p50),
    };

    const inc = hciRuns.map((r) => r.incremental!).filter(Boolean);
    const editSamples = inc.flatMap((i) => i.editMs);
    const noopSamples = inc.flatMap((i) => i.noopMs);
    const pathSamples = inc.flatMap((i) => i.pathEditMs ?? []);
    const incremental = inc.length
      ? {
          openMs: median(hciRuns.map((r) => r.openMs ?? Number.NaN)), noopMs: median(noopSamples), editMs: median(editSamples),
          editP95: latencyStats(editSamples).p95, editedFile: inc[0].editedFile, filesIndexed: inc.flatMap((i) => i.filesIndexed), samples: editSamples, noopSamples,
          pathEditMs: median(pathSamples), pathEditP95: latencyStats(pathSamples).p95, pathSamples,
          pathFilesIndexed: inc.flatMap((i) => i.pathFilesIndexed ?? []), pathFilesScanned: inc.flatMap((i) => i.pathFilesScanned ?? []),
        }
      : undefined;

    const os1 = os.cpus();
    const plan = slices?.plan;
    const corpusInfo = { label: corpus.label, kind: corpus.kind, ...(corpus.pins ? { pins: corpus.pins } : {}), files: meta?.files ?? 0, chunks: meta?.chunks ?? 0, sourceBytes: meta?.sourceBytes ?? 0, queries: queries.length, path: corpus.dir };
    const report: BenchReport = {
      corpus: corpusInfo,
      commit,
      machine: { node: process.version, platform: `${process.platform} ${process.arch}`, cpus: os1.length, cpuModel: os1[0]?.model ?? '', totalMemMB: Math.round(os.totalmem() / MB), loadAvgStart, loadAvgEnd: os.loadavg() },
      started, tookMs: now() - t0, options: { ...o, log: undefined },
      baselineRss,
      querySlices: { cold: slices?.coldByRun.flat().length ?? 0, reopen: plan?.reopen.length ?? 0, warmup: plan?.warmup.length ?? 0, measured: plan?.measured.length ?? 0, disjoint: slices?.disjoint ?? false },
      engines, incremental, ratios, targets: [], profile: profileSummary, ...(workerProfiles.length ? { workerProfiles } : {}), notes, runs,
    };
    if (o.compare && o.compare !== corpus.label) report.scale = o.compareReport ? scaleAgainst(report, o.compareReport, true) : scaleAgainst(report, readRecorded(o.compare));
    report.targets = judgeTargets(report);
    if (o.outDir) {
      const base = path.join(o.outDir, fileLabel(corpus.label, o.tag));
      writeJson(`${base}.json`, report);
      fs.writeFileSync(`${base}.md`, `${formatBench(report)}\n`);
    }
    // The base of an in-run comparison is not recorded on its own (it ran only as a base; its figures are in scale.baseFigures).
    if (o.record && !(o.compare === corpus.label && o.asBase)) recordResult(fileLabel(corpus.label, o.tag), report, formatBench(report));
    return report;
  } finally {
    if (!o.keep && !o.workDir) fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The result files' name: bench-<corpus>, or bench-<corpus>-<tag>. */
const fileLabel = (label: string, tag?: string) => `bench-${label}${tag ? `-${tag}` : ''}`;

/** One `node -e 0`: what any Node CLI pays before its first line of code. */
function bareNodeStart(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`node -e 0 exited ${code}`))));
  });
}

function cliSearch(bin: string, root: string, query: string, limit: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'search', query, '--root', root, '--json', '-k', String(limit)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        const r = JSON.parse(Buffer.concat(out).toString()) as { status: string; hits?: unknown[] };
        if (r.status === 'error' || r.status === 'no_index') reject(new Error(`hci search "${query}" → ${r.status} (exit ${code})`));
        else resolve(r.hits?.length ?? 0);
      } catch (e) {
        reject(new Error(`hci search "${query}" printed no JSON (exit ${code}): ${(e as Error).message}`));
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------

export async function main(argv: string[]): Promise<number> {
  const { opts, positional } = parseArgs(argv, ['in-process', 'profile', 'keep', 'record', 'help']);
  const compare = optString(opts, 'compare');
  if (opts.help) {
    process.stdout.write(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n') + '\n');
    return 0;
  }
  const corpusArg = optString(opts, 'corpus') ?? positional[0];
  // Several corpora, comma-separated, run one after the other; `--compare` naming one of them compares the later ones with it (same run, same load).
  const corpora = corpusArg ? corpusArg.split(',').filter(Boolean) : ['sample', 'generated'];
  const inRun = new Map<string, BenchReport>();
  const engineList = optList(opts, 'engines');
  const engines = engineList.length ? engineList : [...ALL_ENGINES];
  const outDir = path.resolve(optString(opts, 'out') ?? path.join(repoRoot(), 'bench-results'));
  const record = opts.record === true;
  const tag = optString(opts, 'tag');
  const log = (s: string) => process.stderr.write(`${s}\n`);
  for (const corpus of corpora) {
    const report = await runBench({
      corpus,
      files: optInt(opts, 'files', DEFAULT_BENCH.files),
      seed: optInt(opts, 'seed', DEFAULT_BENCH.seed),
      repeat: Math.max(1, optInt(opts, 'repeat', DEFAULT_BENCH.repeat)),
      queryRepeat: Math.max(1, optInt(opts, 'query-repeat', DEFAULT_BENCH.queryRepeat)),
      coldQueries: optInt(opts, 'cold-queries', DEFAULT_BENCH.coldQueries),
      reopenQueries: optInt(opts, 'reopen-queries', DEFAULT_BENCH.reopenQueries),
      cliQueries: optInt(opts, 'cli-queries', DEFAULT_BENCH.cliQueries),
      edits: Math.max(1, optInt(opts, 'edits', DEFAULT_BENCH.edits)),
      engines,
      inProcess: opts['in-process'] === true,
      profile: opts.profile === true,
      keep: opts.keep === true,
      rg: optString(opts, 'rg'),
      limit: optInt(opts, 'limit', DEFAULT_BENCH.limit),
      maxQueries: optInt(opts, 'max-queries', DEFAULT_BENCH.maxQueries),
      outDir, record, log, compare, tag,
      asBase: compare !== undefined && corpora.length > 1 && corpus === compare,
      compareReport: compare !== undefined ? inRun.get(compare) : undefined,
    });
    inRun.set(corpus, report);
    process.stdout.write(`\n${formatBench(report)}\n\n(${fmtMs(report.tookMs)}; written to ${path.join(outDir, `${fileLabel(report.corpus.label, tag)}.json`)} and .md)\n`);
  }
  // The latencies unit tests used to assert (watcher, MCP round trips, lock waits, chunking, scanning):
  // measured here once per bench run, on their own fixtures, not per corpus.
  // By default with the default corpora; with --corpus only when --engines names it.
  if (engineList.length ? engineList.includes('latency') : !corpusArg) {
    const lat = await runLatency({ log });
    const text = formatLatency(lat);
    writeJson(path.join(outDir, 'bench-latency.json'), lat);
    fs.writeFileSync(path.join(outDir, 'bench-latency.md'), `${text}\n`);
    if (record) recordResult('bench-latency', lat, text);
    process.stdout.write(`\n${text}\n`);
  }
  // Traceability at scale (10,000 messages, 20,000 attachments): sidecar rebuild and find p50/p95, each
  // beside a baseline measured in the same run. Like the latency suite: default corpora, or --engines intercom.
  if (engineList.length ? engineList.includes('intercom') : !corpusArg) {
    log('intercom: a 10,000-message thread with 20,000 attachments…');
    const { markdown } = await runIntercomBench(['--out', outDir, ...(record ? ['--record'] : [])]);
    process.stdout.write(`\n${markdown}\n`);
  }
  // A first MCP start from a clone as `hci setup` writes the server (bench/mcp-start.ts: cold compile cache,
  // no index) beside `node -e 0`. Default corpora, or --engines mcp-start.
  if (engineList.length ? engineList.includes('mcp-start') : !corpusArg) {
    log('mcp-start: first MCP starts from a fresh copy…');
    const { markdown } = await runMcpStartBench(['--out', outDir, ...(record ? ['--record'] : [])]);
    process.stdout.write(`\n${markdown}\n`);
  }
  // The semantic channel's costs (bench/vector-bench.ts: build ratio, growth, RSS, query overhead, KNN
  // per runtime) on a generated solution of --files files (2,000 by default; 13,000 ≈ 50k chunks, the
  // targets' scale). Default corpora, or --engines vectors.
  if (engineList.length ? engineList.includes('vectors') : !corpusArg) {
    log('vectors: full index with semantic search off and on…');
    await runVectorBench(['--files', String(optInt(opts, 'files', 2000)), '--repeat', '1', ...(record ? ['--record'] : [])]);
  }
  // Literal and regex search beside ripgrep (trigram index size, latency, the ripgrep oracle, the CJK
  // fixture): default corpora (a generated 2,000-file solution), or --engines literal with --files.
  if (engineList.length ? engineList.includes('literal') : !corpusArg) {
    log('literal: literal and regex search beside ripgrep…');
    const { markdown } = await runLiteralBench(['--out', outDir, '--files', String(engineList.length ? optInt(opts, 'files', 2000) : 2000), ...(record ? ['--record'] : [])]);
    process.stdout.write(`\n${markdown}\n`);
  }
  return 0;
}

await runMain(import.meta.url, 'bench', main);

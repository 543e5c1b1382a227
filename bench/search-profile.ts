// Where a warm new keyword query's CPU goes, for the slowest queries rather than the median: one
// process per build opens the indexed tree, runs its first search (not profiled), then a derived set
// of new queries (bench/lib/queries.ts deriveQueries, the bench's kinds of query, shuffled as the
// bench's plan shuffles them) under V8's sampling profiler (node:inspector, 100 µs), each query's
// search-thread CPU and its window of profile samples recorded. The slowest share of the queries
// (`--slowest`, default 10%: by that build's thread CPU) is then read from the samples inside their
// windows only: self time by category (bench/lib/cpu-profile.ts categoryOf), the top functions by
// self time, and inclusive time of the search's own functions (a sample counts once for each
// distinct core/search/, core/index/ or core/sqlite/ function on its stack) — what a p95 query
// spends, beside the same for every query. With `--b`, a second build profiles the same queries in
// its own process (queries' answers compared: a cost change must answer the same). `--alloc`: each
// build runs the queries once more in a process of its own under V8's sampling heap profiler (every
// 4 KB allocated, objects the collector freed included) — what the queries allocate, per query, and
// the top allocating functions with their callers (the garbage collector's share of a slow query is
// paid for by what every query allocates). Owns that profile reading only; the latency figures of
// record are bench.js's, the A/B of CPU is search-ab.ts's.
//
//   node --experimental-transform-types bench/search-profile.ts --a DIST [--b DIST] --root INDEXED_TREE [--queries 300] [--slowest 10] [--top 25] [--alloc] [--save FILE] [--md out.md]
//   (`--save FILE`: each build's profile, windows and cut written to FILE.<build>.json for a closer look)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Session } from 'node:inspector/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dumpChunks } from './lib/chunks.ts';
import { deriveQueries } from './lib/queries.ts';
import { shuffled } from './lib/plan.ts';
import { categoryOf } from './lib/cpu-profile.ts';
import { markdownTable, median, optInt, optString, parseArgs, percentile, runMain } from './lib/util.ts';

interface Ws { search(req: { query: string; limit: number }): Promise<{ hits?: unknown[]; error?: unknown }>; close(): void }
interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

/** One query's search: its thread CPU and its window on the profiler's clock (µs). */
interface Window { q: string; cpu: number; from: number; to: number }

/** What one build's process hands back: per query its window, the profile's reading of the slowest and of all. */
interface ChildOut { windows: Window[]; pages: Record<string, string>; slow: Reading; all: Reading }

/** Profile samples read over some windows: total ms, self ms by category and by function, inclusive ms by function. */
interface Reading { ms: number; categories: Record<string, number>; self: Record<string, number>; inclusive: Record<string, number> }

const threadMs = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};

/** The microsecond clock V8's profile timestamps use (monotonic, as hrtime). */
const clockUs = () => Number(process.hrtime.bigint() / 1000n);

/** A frame's name as the tables show it: function and dist-relative file:line. */
function frameName(n: ProfileNode): string {
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url ? url.replace(/^file:\/\/.*?\/(dist|node_modules)\//, '').replace(/^file:\/\//, '') : '';
  return `${functionName || '(anonymous)'}${where ? ` ${where}:${lineNumber + 1}` : ''}`;
}

/** Frames whose inclusive time the tables list: hci's search, index reading and SQLite wrapper code. */
const OWN = /\/(core\/search|core\/index|core\/sqlite|core\/text|runtimes\/node)\//;

/** Reads the profile's samples that fall inside `windows` (sorted by start). */
function read(p: Profile, windows: readonly Window[]): Reading {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out: Reading = { ms: 0, categories: {}, self: {}, inclusive: {} };
  const sorted = [...windows].sort((a, b) => a.from - b.from);
  let w = 0;
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    while (w < sorted.length && sorted[w].to < t) w++;
    if (w >= sorted.length) break;
    if (t < sorted[w].from) continue;
    // The sample's weight: the time to the next sample (the interval it stands for).
    const ms = (p.timeDeltas[i + 1] ?? p.timeDeltas[i]) / 1000;
    const leaf = byId.get(p.samples[i])!;
    out.ms += ms;
    const cat = categoryOf(leaf.callFrame.url, leaf.callFrame.functionName || '(anonymous)');
    out.categories[cat] = (out.categories[cat] ?? 0) + ms;
    const self = frameName(leaf);
    out.self[self] = (out.self[self] ?? 0) + ms;
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id)!;
      if (!OWN.test(n.callFrame.url) && id !== leaf.id) continue;
      const name = frameName(n);
      if (seen.has(name)) continue;
      seen.add(name);
      out.inclusive[name] = (out.inclusive[name] ?? 0) + ms;
    }
  }
  return out;
}

/** What one build's queries allocate (`--alloc`): KB per query, and the top allocators (function ⇐ caller) in MB. */
interface Allocs { perQueryKb: number; top: Array<[string, number]> }

/** One build's pass over the queries in this (new) process under the sampling heap profiler (`--alloc`). */
async function allocChild(dist: string, root: string, queries: string[]): Promise<Allocs> {
  const open = ((await import(pathToFileURL(path.join(dist, 'runtimes/node/index.js')).href)) as { openWorkspace: (root: string) => Promise<Ws> }).openWorkspace;
  const ws = await open(root);
  const session = new Session();
  session.connect();
  type Node = { callFrame: ProfileNode['callFrame']; selfSize: number; children: Node[] };
  try {
    await ws.search({ query: queries[0], limit: 10 });
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    for (const q of queries.slice(1)) await ws.search({ query: q, limit: 10 });
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
    const by = new Map<string, number>();
    let total = 0;
    const walk = (n: Node, caller: string): void => {
      const name = frameName({ id: 0, callFrame: n.callFrame });
      if (n.selfSize) {
        const key = `${name} ⇐ ${caller}`;
        by.set(key, (by.get(key) ?? 0) + n.selfSize);
        total += n.selfSize;
      }
      for (const c of n.children) walk(c, name);
    };
    walk(profile.head, '');
    return { perQueryKb: total / 1024 / (queries.length - 1), top: [...by].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => [k, v / 1024 / 1024]) };
  } finally {
    session.disconnect();
    ws.close();
  }
}

/** One build's pass over the queries in this (new) process, profiled. */
async function child(dist: string, root: string, queries: string[], slowest: number, save?: string): Promise<ChildOut> {
  const open = ((await import(pathToFileURL(path.join(dist, 'runtimes/node/index.js')).href)) as { openWorkspace: (root: string) => Promise<Ws> }).openWorkspace;
  const ws = await open(root);
  const pages: Record<string, string> = {};
  const windows: Window[] = [];
  const session = new Session();
  session.connect();
  try {
    // The process's first search compiles the search path (not a warm query's cost).
    await ws.search({ query: queries[0], limit: 10 });
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    const started = clockUs();
    await session.post('Profiler.start');
    for (const q of queries.slice(1)) {
      const from = clockUs();
      const c = threadMs();
      const a = await ws.search({ query: q, limit: 10 });
      const cpu = threadMs() - c;
      windows.push({ q, cpu, from, to: clockUs() });
      pages[q] = JSON.stringify(a.hits ?? a.error ?? a);
    }
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    // The windows are on hrtime's clock; the profile's must be the same one (both monotonic µs).
    if (Math.abs(profile.startTime - started) > 50_000) throw new Error(`the profile's clock is not hrtime's (start ${profile.startTime} µs, hrtime ${started} µs)`);
    const cut = percentile(windows.map((w) => w.cpu), 100 - slowest);
    if (save) fs.writeFileSync(save, JSON.stringify({ profile, windows, cut }));
    return { windows, pages, slow: read(profile, windows.filter((w) => w.cpu >= cut)), all: read(profile, windows) };
  } finally {
    session.disconnect();
    ws.close();
  }
}

const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const pct = (x: number, of: number) => `${((100 * x) / (of || 1)).toFixed(1)}%`;

/** The tables of one build's reading: the slowest queries' self time by category, top self functions and top inclusive. */
function tables(label: string, o: ChildOut, top: number): string {
  const { slow, all } = o;
  const cats = Object.keys({ ...slow.categories, ...all.categories }).sort((a, b) => (slow.categories[b] ?? 0) - (slow.categories[a] ?? 0));
  const catRows = cats.filter((c) => (slow.categories[c] ?? 0) / slow.ms >= 0.005 || (all.categories[c] ?? 0) / all.ms >= 0.005)
    .map((c) => [c, f1(slow.categories[c] ?? 0), pct(slow.categories[c] ?? 0, slow.ms), pct(all.categories[c] ?? 0, all.ms)]);
  const selfRows = Object.entries(slow.self).sort((a, b) => b[1] - a[1]).slice(0, top).map(([f, ms]) => [f, f1(ms), pct(ms, slow.ms), pct(all.self[f] ?? 0, all.ms)]);
  const incRows = Object.entries(slow.inclusive).sort((a, b) => b[1] - a[1]).slice(0, top).map(([f, ms]) => [f, f1(ms), pct(ms, slow.ms), pct(all.inclusive[f] ?? 0, all.ms)]);
  return [
    `### ${label}`,
    '',
    markdownTable(['self time by category', 'slowest ms', 'slowest share', 'all queries share'], catRows),
    '',
    markdownTable(['top functions, self time (slowest queries)', 'ms', 'share', 'all queries share'], selfRows, ['l', 'r', 'r', 'r']),
    '',
    markdownTable(['hci functions, inclusive time (slowest queries)', 'ms', 'share', 'all queries share'], incRows, ['l', 'r', 'r', 'r']),
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['alloc']);
  const root = optString(opts, 'root');
  const slowest = optInt(opts, 'slowest', 10);
  if (optString(opts, 'alloc-child')) {
    const queries = JSON.parse(fs.readFileSync(optString(opts, 'queries-file')!, 'utf8')) as string[];
    process.stdout.write(JSON.stringify(await allocChild(path.resolve(optString(opts, 'alloc-child')!), root!, queries)));
    return 0;
  }
  if (optString(opts, 'child')) {
    const queries = JSON.parse(fs.readFileSync(optString(opts, 'queries-file')!, 'utf8')) as string[];
    process.stdout.write(JSON.stringify(await child(path.resolve(optString(opts, 'child')!), root!, queries, slowest, optString(opts, 'save'))));
    return 0;
  }
  const a = optString(opts, 'a');
  const b = optString(opts, 'b');
  if (!a || !root) throw new Error('usage: search-profile --a DIST [--b DIST] --root INDEXED_TREE [--queries 300] [--slowest 10] [--top 25] [--md out.md]');
  const n = optInt(opts, 'queries', 300);
  const top = optInt(opts, 'top', 25);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-search-profile-'));
  try {
    const dump = path.join(tmp, 'chunks.jsonl');
    await dumpChunks(root, dump);
    const queries = shuffled(deriveQueries(dump, n));
    const file = path.join(tmp, 'queries.json');
    fs.writeFileSync(file, JSON.stringify(queries));
    const builds = b ? { A: path.resolve(a), B: path.resolve(b) } : { A: path.resolve(a) };
    const loads = [os.loadavg()[0]];
    const runs: Record<string, ChildOut> = {};
    for (const [s, dist] of Object.entries(builds)) {
      const p = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', dist, '--root', root, '--queries-file', file, '--slowest', String(slowest), ...(optString(opts, 'save') ? ['--save', `${optString(opts, 'save')}.${s}.json`] : [])], { encoding: 'utf8', maxBuffer: 1 << 30 });
      if (p.status !== 0) throw new Error(`build ${s}: ${p.stderr}`);
      runs[s] = JSON.parse(p.stdout) as ChildOut;
      loads.push(os.loadavg()[0]);
    }
    const allocs: Record<string, Allocs> = {};
    if (opts.alloc === true) {
      for (const [s, dist] of Object.entries(builds)) {
        const p = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--alloc-child', dist, '--root', root, '--queries-file', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
        if (p.status !== 0) throw new Error(`build ${s}: ${p.stderr}`);
        allocs[s] = JSON.parse(p.stdout) as Allocs;
      }
    }
    const allocMd = Object.entries(allocs).flatMap(([s, a]) => [
      `### ${s}: what the queries allocate (sampling heap profiler, every 4 KB, collected objects included): ${a.perQueryKb.toFixed(0)} KB per query`,
      '',
      markdownTable(['function ⇐ caller', 'MB over all queries'], a.top.map(([k, v]) => [k, v.toFixed(1)]), ['l', 'r']),
      '',
    ]);
    const differ = runs.B ? Object.keys(runs.A.pages).filter((q) => runs.A.pages[q] !== runs.B.pages[q]) : [];
    const cpuRow = (s: string) => {
      const cpu = runs[s].windows.map((w) => w.cpu);
      const cut = percentile(cpu, 100 - slowest);
      return [s, String(cpu.length), `${f2(percentile(cpu, 50))} / ${f2(percentile(cpu, 95))}`, f2(cut), String(cpu.filter((x) => x >= cut).length), f1(runs[s].slow.ms), f1(cpu.reduce((x, y) => x + y, 0))];
    };
    const slowQ = [...runs.A.windows].sort((x, y) => y.cpu - x.cpu).slice(0, 12).map((w) => [w.q, f2(w.cpu), ...(runs.B ? [f2(runs.B.windows.find((v) => v.q === w.q)?.cpu ?? NaN)] : [])]);
    const md = [
      `Builds: ${Object.entries(builds).map(([s, d]) => `${s} = ${d}`).join(', ')}; tree ${root}; ${queries.length - 1} new queries (derived as the bench derives its set, ${n} asked, shuffled), warm, one process per build, profiled at 100 µs.`,
      `Node ${process.version}, ${os.cpus().length} cores, load average (1 min) ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}.`,
      ...(runs.B ? [`Answers: ${differ.length ? `${differ.length} queries answered differently: ${differ.slice(0, 10).join(', ')}` : `all ${Object.keys(runs.A.pages).length} queries' hits identical between the builds`}.`] : []),
      '',
      markdownTable(['build', 'queries', 'thread CPU p50 / p95 (ms, under the profiler)', `slowest ${slowest}% from (ms)`, 'slowest queries', 'their samples (ms)', 'CPU of all (ms)'], Object.keys(runs).map(cpuRow)),
      '',
      markdownTable(['slowest queries (A)', 'A thread CPU ms', ...(runs.B ? ['B thread CPU ms'] : [])], slowQ),
      '',
      ...Object.entries(runs).map(([s, o]) => tables(`${s}: the slowest ${slowest}% of the queries (by ${s}'s thread CPU) beside all`, o, top)),
      '',
      `Median CPU per query: ${Object.entries(runs).map(([s, o]) => `${s} ${f2(median(o.windows.map((w) => w.cpu)))} ms`).join(', ')}.`,
      '',
      ...allocMd,
    ].join('\n');
    console.log(md);
    const out = optString(opts, 'md');
    if (out) fs.writeFileSync(out, md);
    return differ.length ? 1 : 0;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await runMain(import.meta.url, 'search-profile', main);

// Same-run A/B of the hybrid query's cost between two builds: build A's and build B's workspaces
// open on one index (built with semantic search on), every golden query asked in keyword and in
// hybrid mode on each build, the builds alternated query by query (the order flipped every repeat),
// each call's CPU time read for the search thread (process.threadCpuUsage) and for the process.
// Reports, per build, hybrid − keyword per query (the median of its repeats; p50 / p95 across the
// queries) and how many first pages differ between the builds (a cost change must answer the same).
// Owns that comparison only; the full semantic cost run (index builds, KNN, native check) is
// vector-bench.ts's.
//
//   node dist/bench/hybrid-ab.js --a OLD/dist --b NEW/dist --root INDEXED_TREE --queries-file a.jsonl,b.jsonl [--queries 60] [--repeats 5]
//   (each dist/ as `npm run build` writes it; the tree already indexed with [semantic] provider as --provider, default pretrained)
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readGolden } from './lib/queries.ts';
import { markdownTable, median, optInt, optList, optString, parseArgs, percentile, runMain } from './lib/util.ts';

interface Hit { path: string; start_line: number }
interface Ws { search(req: { query: string; limit: number; mode: 'keyword' | 'hybrid' }): Promise<{ hits: Hit[] }>; close(): void }
type Open = (root: string, opts: { settings: unknown }) => Promise<Ws>;

const ms = (x: number) => `${x.toFixed(2)} ms`;

/** CPU milliseconds of the search thread (Node ≥ 23.9; NaN elsewhere) and of the process. */
function cpu(): { thread: number; process: number } {
  const f = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
  const t = f ? f.call(process) : null;
  const p = process.cpuUsage();
  return { thread: t ? (t.user + t.system) / 1000 : NaN, process: (p.user + p.system) / 1000 };
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const [a, b, root] = [optString(opts, 'a'), optString(opts, 'b'), optString(opts, 'root')];
  if (!a || !b || !root) throw new Error('usage: hybrid-ab --a DIST --b DIST --root TREE --queries-file golden.jsonl[,…]');
  const golden = optList(opts, 'queries-file').flatMap((f) => readGolden(f));
  // The question and paraphrase kinds first, as vector-bench asks them (identifier queries are routed to keyword alone).
  const first = golden.filter((g) => ['paraphrase', 'natural-language', 'behaviour', 'architecture', 'docs'].includes(g.kind));
  const queries = [...new Set([...first, ...golden.filter((g) => !first.includes(g))].map((g) => g.query))].slice(0, optInt(opts, 'queries', 60));
  const repeats = optInt(opts, 'repeats', 5);
  const settings = { semantic: { enabled: true, provider: optString(opts, 'provider') ?? 'pretrained' } };
  const builds = { A: path.resolve(a), B: path.resolve(b) } as const;
  const ws: Record<'A' | 'B', { keyword: Ws; hybrid: Ws }> = {} as never;
  for (const [name, dist] of Object.entries(builds) as ['A' | 'B', string][]) {
    const open = ((await import(pathToFileURL(path.join(dist, 'runtimes/node/index.js')).href)) as { openWorkspace: Open }).openWorkspace;
    // Hybrid in a workspace of its own (as vector-bench: one session would hand hybrid keyword's cached FTS answer).
    ws[name] = { keyword: await open(root, { settings }), hybrid: await open(root, { settings }) };
  }
  try {
    const page = (r: { hits: Hit[] }) => r.hits.map((h) => `${h.path}:${h.start_line}`).join(',');
    const differ = { keyword: 0, hybrid: 0 };
    for (const query of queries) {
      for (const mode of ['keyword', 'hybrid'] as const) {
        const [x, y] = [await ws.A[mode].search({ query, limit: 10, mode }), await ws.B[mode].search({ query, limit: 10, mode })];
        if (page(x) !== page(y)) differ[mode]++;
      }
    }
    const took = { A: { keyword: [] as { thread: number; process: number }[][], hybrid: [] as { thread: number; process: number }[][] }, B: { keyword: [] as { thread: number; process: number }[][], hybrid: [] as { thread: number; process: number }[][] } };
    for (const s of ['A', 'B'] as const) for (const m of ['keyword', 'hybrid'] as const) took[s][m] = queries.map(() => []);
    for (let r = 0; r < repeats; r++) {
      const order = r % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const);
      for (let i = 0; i < queries.length; i++) {
        for (const s of order) {
          for (const mode of ['keyword', 'hybrid'] as const) {
            const c = cpu();
            await ws[s][mode].search({ query: queries[i], limit: 10, mode });
            const d = cpu();
            took[s][mode][i].push({ thread: d.thread - c.thread, process: d.process - c.process });
          }
        }
      }
    }
    const rows: string[][] = [];
    for (const s of ['A', 'B'] as const) {
      for (const clock of ['thread', 'process'] as const) {
        const per = (m: 'keyword' | 'hybrid') => queries.map((_, i) => median(took[s][m][i].map((t) => t[clock])));
        const over = queries.map((_, i) => median(took[s].hybrid[i].map((h, j) => h[clock] - took[s].keyword[i][j][clock])));
        const [kw, hy] = [per('keyword'), per('hybrid')];
        rows.push([`${s} (${builds[s]})`, clock, `${ms(percentile(over, 50))} / ${ms(percentile(over, 95))}`, `${ms(percentile(kw, 50))} / ${ms(percentile(kw, 95))}`, `${ms(percentile(hy, 50))} / ${ms(percentile(hy, 95))}`]);
      }
    }
    console.log(`${queries.length} queries × ${repeats} repeats each way per build, builds alternated; first pages that differ between A and B: keyword ${differ.keyword}, hybrid ${differ.hybrid}\n`);
    console.log(markdownTable(['build', 'CPU clock', 'hybrid − keyword per query (p50 / p95)', 'keyword (p50 / p95)', 'hybrid (p50 / p95)'], rows));
    return 0;
  } finally {
    for (const s of ['A', 'B'] as const) {
      ws[s].keyword.close();
      ws[s].hybrid.close();
    }
  }
}

await runMain(import.meta.url, 'hybrid-ab', main);

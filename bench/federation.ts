// Many repositories in one search, measured against ONE index of their union (issue 36, part 3):
// each repository copied and indexed on its own, and all of them copied side by side into one folder
// and indexed once; then every golden query of every repository asked three ways — the union index
// (paths `<repo>/…`), the federation with the merged BM25 statistics (core/service/federation.ts), and
// the federation with each index's own statistics (naive merge by score) — file-level R@5 and
// MRR@10 per golden set, the merged/union ratio (target ≥ 0.98 on every set), and warm latency
// (median, p95) of the merged and the union search on this machine (load printed beside them).
// The union's folders are the repositories' names, or with --neutral r0, r1, … : a name such as
// FluentValidation puts its words (porter: "valid") into the path of every chunk of that repository
// in the union, which the separate indexes never see.
//   npm run build && node dist/bench/federation.js --corpora /work/corpora/broad --repos A,B,C [--neutral] [--record] [--work DIR]
// (--work DIR: the copies and indexes go there and are kept; a later run with the same DIR reuses them.
// --workers N: the merged search is also run with each repository's part on one of N worker threads;
// --shared-pool X: the merged search's keyword pool split across the repositories, in union pools
// (0: a whole pool each; default the federation's SHARED_POOL); --shared-rerank X: rerank's text-signal
// pools split likewise (0: each repository's own; default SHARED_RERANK); --sets A,B: ask only these golden
// sets (the federation and the union stay of every --repos); --no-naive: skip the naive and alone columns.)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Federation, HciService, type RepoSearch } from '../core/service/index.ts';
import type { SearchAnswer } from '../core/contract/search.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { createNodeRepoSearchPool } from '../runtimes/node/repo-search-pool.ts';
import { readBroadSet } from './lib/golden-set.ts';
import { distinct, scoreQuery } from './lib/metrics.ts';
import { commitInfo, recordResult } from './lib/record.ts';
import { copyTree, fmtNum, markdownTable, mean, median, optList, optString, parseArgs, percentile, repoRoot, runMain } from './lib/util.ts';

interface SetRow {
  repo: string;
  queries: number;
  union: { r5: number; mrr: number };
  merged: { r5: number; mrr: number };
  naive: { r5: number; mrr: number };
  alone: { r5: number; mrr: number };
  ratio: number;
  /** Queries whose R@5 differs between merged and union, with both top-5 file lists. */
  differ: Array<{ query: string; union: string[]; merged: string[]; relevant: string[] }>;
}

const LIMIT = 10;

async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['record', 'keep', 'neutral', 'no-naive']);
  const folder = (repo: string, i: number) => (opts.neutral ? `r${i}` : repo);
  const corpora = optString(opts, 'corpora') ?? '/work/corpora/broad';
  const repos = optList(opts, 'repos');
  if (repos.length < 2) throw new Error('--repos A,B[,C…]: at least two repositories');
  // --work DIR: build the indexes there, or reuse those an earlier run with the same --work left (kept).
  const reuse = optString(opts, 'work');
  const work = reuse ? path.resolve(reuse) : fs.mkdtempSync(path.join(os.tmpdir(), 'hci-federation-'));
  const built = (dir: string) => reuse !== undefined && fs.existsSync(path.join(dir, '.hci', 'index.sqlite'));
  const open = (root: string) => new HciService({ root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
  const services: HciService[] = [];
  const partsToClose: RepoSearch[] = [];
  try {
    const members = [];
    for (const [i, repo] of repos.entries()) {
      const dir = path.join(work, 'apart', repo);
      const ready = built(dir);
      if (!ready) copyTree(path.join(corpora, repo), dir);
      if (!built(path.join(work, 'union'))) copyTree(path.join(corpora, repo), path.join(work, 'union', folder(repo, i)));
      const svc = open(dir);
      services.push(svc);
      if (!ready) {
        const t0 = Date.now();
        const s = await svc.index();
        process.stderr.write(`${repo}: ${s.files_indexed} files, ${s.chunks_written} chunks in ${Date.now() - t0} ms\n`);
      }
      members.push({ repo, service: svc });
    }
    const union = open(path.join(work, 'union'));
    services.push(union);
    if (!built(path.join(work, 'union'))) {
      const t0 = Date.now();
      await union.index();
      process.stderr.write(`union: ${Date.now() - t0} ms\n`);
    }
    const shared = optString(opts, 'shared-pool');
    const rerank = optString(opts, 'shared-rerank');
    const merged = new Federation(members, { ...(shared !== undefined ? { sharedPool: Number(shared) } : {}), ...(rerank !== undefined ? { sharedRerank: Number(rerank) } : {}) });
    const sets = optList(opts, 'sets');
    const skipNaive = Boolean(opts['no-naive']);
    const naive = new Federation(members, { mergeStats: false });
    // --workers N: the same merged search with each repository's part on one of N worker threads.
    const workerCount = Number(optString(opts, 'workers') ?? 0);
    const parts = workerCount > 0 ? createNodeRepoSearchPool({ workers: workerCount })(members.map((m) => m.service.root)) : null;
    if (parts) partsToClose.push(...parts);
    const parallel = parts ? new Federation(members.map((m, i) => ({ ...m, search: parts[i] }))) : null;
    let parallelDiffer = 0;
    // Warm: every index opened and its first query answered before anything is timed.
    for (const f of [union, merged, naive, parallel]) await f?.call('search', { query: 'warm up', limit: LIMIT });
    const rows: SetRow[] = [];
    const pooled = { union: [] as number[], merged: [] as number[], naive: [] as number[] };
    const lat = { merged: [] as number[], union: [] as number[], naive: [] as number[], workers: [] as number[] };
    // Every list as `<repo>/<path>`: the union's folder names read back as repository names.
    const repoOf = new Map(repos.map((r, i) => [folder(r, i), r]));
    const files = (a: SearchAnswer, qualify: boolean) => a.hits.map((h) => {
      if (qualify) return `${h.repo}/${h.path}`;
      const slash = h.path.indexOf('/');
      return `${repoOf.get(h.path.slice(0, slash)) ?? h.path.slice(0, slash)}/${h.path.slice(slash + 1)}`;
    });
    for (const [i, repo] of repos.entries()) {
      if (sets.length && !sets.includes(repo)) continue;
      const set = readBroadSet(path.join(repoRoot(), 'bench', 'golden', `${repo}.jsonl`));
      const differ: SetRow['differ'] = [];
      const acc = { union: [] as Array<ReturnType<typeof scoreQuery>>, merged: [] as Array<ReturnType<typeof scoreQuery>>, naive: [] as Array<ReturnType<typeof scoreQuery>>, alone: [] as Array<ReturnType<typeof scoreQuery>> };
      for (const g of set) {
        const req = { query: g.query, limit: LIMIT };
        const relevant = g.relevant.map((p) => `${repo}/${p}`);
        let t = performance.now();
        const u = await union.call('search', req);
        lat.union.push(performance.now() - t);
        t = performance.now();
        const m = await merged.call('search', req);
        lat.merged.push(performance.now() - t);
        if (parallel) {
          t = performance.now();
          const p = await parallel.call('search', req);
          lat.workers.push(performance.now() - t);
          if (JSON.stringify(p.hits.map((h) => [h.hit_id, h.score])) !== JSON.stringify(m.hits.map((h) => [h.hit_id, h.score]))) parallelDiffer++;
        }
        t = performance.now();
        const none = { hits: [] } as unknown as SearchAnswer;
        const n = skipNaive ? none : await naive.call('search', req);
        lat.naive.push(performance.now() - t);
        const a = skipNaive ? none : await members[i].service.call('search', req);
        acc.union.push(scoreQuery(files(u, false), relevant));
        acc.merged.push(scoreQuery(files(m, true), relevant));
        if (acc.union.at(-1)!.recall5 !== acc.merged.at(-1)!.recall5) differ.push({ query: g.query, union: distinct(files(u, false)).slice(0, 5), merged: distinct(files(m, true)).slice(0, 5), relevant });
        acc.naive.push(scoreQuery(files(n, true), relevant));
        acc.alone.push(scoreQuery(a.hits.map((h) => `${repo}/${h.path}`), relevant));
      }
      pooled.union.push(...acc.union.map((x) => x.recall5));
      pooled.merged.push(...acc.merged.map((x) => x.recall5));
      pooled.naive.push(...acc.naive.map((x) => x.recall5));
      const agg = (xs: Array<ReturnType<typeof scoreQuery>>) => ({ r5: mean(xs.map((x) => x.recall5)), mrr: mean(xs.map((x) => x.mrr10)) });
      const row: SetRow = { repo, queries: set.length, union: agg(acc.union), merged: agg(acc.merged), naive: agg(acc.naive), alone: agg(acc.alone), ratio: 0, differ };
      row.ratio = row.union.r5 ? row.merged.r5 / row.union.r5 : 1;
      rows.push(row);
      process.stderr.write(`${repo}: union R@5 ${fmtNum(row.union.r5, 3)} merged ${fmtNum(row.merged.r5, 3)} naive ${fmtNum(row.naive.r5, 3)} alone ${fmtNum(row.alone.r5, 3)}\n`);
    }
    const report = {
      at: new Date().toISOString(),
      commit: commitInfo(),
      load: os.loadavg(),
      node: process.version,
      repos,
      union_folders: opts.neutral ? 'neutral' : 'names',
      limit: LIMIT,
      sets: rows,
      /** Every query of every set together. */
      all: { queries: pooled.union.length, union_r5: mean(pooled.union), merged_r5: mean(pooled.merged), naive_r5: mean(pooled.naive), ratio: mean(pooled.merged) / mean(pooled.union) },
      latency_ms: {
        merged: { median: median(lat.merged), p95: percentile(lat.merged, 95) },
        union: { median: median(lat.union), p95: percentile(lat.union, 95) },
        naive: { median: median(lat.naive), p95: percentile(lat.naive, 95) },
        ...(parallel ? { workers: { threads: workerCount, median: median(lat.workers), p95: percentile(lat.workers, 95), answers_differing_from_merged: parallelDiffer } } : {}),
      },
    };
    const f = (x: number) => fmtNum(x, 3);
    const md = [
      `# Many repositories in one search vs one index of their union`,
      '',
      `${repos.length} repositories (${repos.join(', ')}), the union's folders ${opts.neutral ? 'r0, r1, … (neutral names)' : 'named as the repositories'}, golden sets bench/golden/<repo>.jsonl, top ${LIMIT}, keyword mode; commit ${report.commit.sha?.slice(0, 7)}${report.commit.dirty ? ' (dirty)' : ''}, ${report.at}, Node ${process.version}, load ${report.load.map((x) => x.toFixed(1)).join(' ')}.`,
      `merged: the federation with the BM25 statistics of all indexes added up (keyword pool shared: ${shared ?? 'default'}; text-signal pools shared: ${rerank ?? 'default'}); naive: each index's own statistics, merged by score; alone: the repository's own index only (no other repository competing).${skipNaive ? ' --no-naive: the naive and alone columns were not run (their zeros mean nothing).' : ''}`,
      '',
      markdownTable(
        ['golden set', 'queries', 'union R@5 / MRR', 'merged R@5 / MRR', 'merged / union R@5', 'naive R@5 / MRR', 'alone R@5 / MRR'],
        [
          ...rows.map((r) => [r.repo, String(r.queries), `${f(r.union.r5)} / ${f(r.union.mrr)}`, `${f(r.merged.r5)} / ${f(r.merged.mrr)}`, f(r.ratio), `${f(r.naive.r5)} / ${f(r.naive.mrr)}`, `${f(r.alone.r5)} / ${f(r.alone.mrr)}`]),
          ['every query', String(report.all.queries), f(report.all.union_r5), f(report.all.merged_r5), f(report.all.ratio), f(report.all.naive_r5), ''],
        ],
      ),
      '',
      `Warm search latency over ${lat.merged.length} queries (load above; one thread, repositories asked one after the other): merged median ${fmtNum(report.latency_ms.merged.median, 1)} ms, p95 ${fmtNum(report.latency_ms.merged.p95, 1)} ms; union median ${fmtNum(report.latency_ms.union.median, 1)} ms, p95 ${fmtNum(report.latency_ms.union.p95, 1)} ms; naive merge (no statistics; asked after the merged search, so its FTS passes may be cached) median ${fmtNum(report.latency_ms.naive.median, 1)} ms, p95 ${fmtNum(report.latency_ms.naive.p95, 1)} ms.`,
      ...(parallel ? ['', `Merged with each repository's part on one of ${workerCount} worker threads (its own connection per repository; asked right after the merged search on this thread): median ${fmtNum(median(lat.workers), 1)} ms, p95 ${fmtNum(percentile(lat.workers, 95), 1)} ms; ${parallelDiffer} of ${lat.workers.length} answers differ from this thread's (hit ids and scores).`] : []),
      '',
      'Queries whose R@5 differs between merged and union (top 5 files of each):',
      '',
      ...rows.flatMap((r) => r.differ.map((d) => `- ${r.repo}: "${d.query}" — relevant ${d.relevant.join(', ')}; union ${d.union.join(', ')}; merged ${d.merged.join(', ')}`)),
    ].join('\n');
    process.stdout.write(`${md}\n`);
    if (opts.record) process.stderr.write(`recorded ${recordResult(`federation-${repos.length}${opts.neutral ? '-neutral' : ''}`, report, md)}\n`);
    return 0;
  } finally {
    for (const s of services) await s.close();
    for (const p of partsToClose) await p.close?.();
    if (!opts.keep && !reuse) fs.rmSync(work, { recursive: true, force: true });
  }
}

await runMain(import.meta.url, 'federation', main);

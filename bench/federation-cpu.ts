// CPU time of a merged search over several repositories (issue 36, federation latency), for A/B runs
// under load: on the indexes a `bench/federation.ts --work DIR` run left (DIR/apart/<repo>, DIR/union),
// every n-th golden query of the repositories asked of the federation (core/service/federation.ts,
// statistics merged) and of the union index, `--rounds` times over (default once: each query new to
// the process, as a user's next query is; a repeated one finds its counts and passes cached); per query the calling thread's CPU time (process.threadCpuUsage: the wall clock under
// load 20 is mostly other processes' time), its median and p95, and a digest of every answer (hit
// ids and scores) so two checkouts' runs can be checked to answer the same. Run two checkouts one
// after the other, several times (A B A B …), and compare medians. Owns these measurements; what
// they measure is core/service/federation.ts and repo-search.ts.
//   node --experimental-transform-types bench/federation-cpu.ts --work DIR --repos A,B,… [--every 4] [--rounds 1] [--union] [--shared-pool X] [--shared-rerank X] [--workers N] [--json out.json] [--label x]
// (--shared-pool X: the keyword pool split across the repositories, in union pools — 0: each ranks a
// whole pool of its own, as before the split; default the federation's SHARED_POOL; --shared-rerank X:
// rerank's text-signal pools split likewise — 0: each repository's own; default SHARED_RERANK;
// --workers N: each repository's part on one of N worker threads — CPU is then the whole process's
// (process.cpuUsage: every thread), and the wall time per query is recorded beside it.)
//   node --experimental-transform-types bench/federation-cpu.ts --compare a1.json,b1.json,a2.json,… [--title T] [--md out.md]
// (--compare: the runs' JSON files, in the order they ran, tabled per label: each run's median and
// p95, the median of the runs' medians per label, and whether every run of a label answered alike.)
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { Federation, HciService } from '../core/service/index.ts';
import type { SearchAnswer } from '../core/contract/search.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { createNodeRepoSearchPool } from '../runtimes/node/repo-search-pool.ts';
import { readBroadSet } from './lib/golden-set.ts';
import { commitInfo } from './lib/record.ts';
import { fmtNum, median, optInt, optList, optString, parseArgs, percentile, repoRoot, runMain } from './lib/util.ts';

const LIMIT = 10;

/** The calling thread's CPU time in ms (process.threadCpuUsage where Node has it, else the process's; `all`: every thread's). */
function cpuMs(all = false): number {
  const u = (all ? undefined : (process as unknown as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.()) ?? process.cpuUsage();
  return (u.user + u.system) / 1000;
}

interface Run {
  label: string;
  commit: { sha?: string; dirty?: boolean };
  load: number[];
  queries: number;
  merged_cpu_ms: { median: number; p95: number };
  union_cpu_ms?: { median: number; p95: number };
  answers_sha256: string;
  per_query_answers?: string[];
}

/** The runs of an A/B (their JSON files, in the order they ran) as a markdown table and a summary per label. */
function compare(files: string[], title: string): string {
  const runs = files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as Run);
  const labels = [...new Set(runs.map((r) => r.label))];
  const rows = runs.map((r, i) => `| ${i + 1} | ${r.label} | ${r.commit.sha?.slice(0, 7) ?? '?'}${r.commit.dirty ? '+' : ''} | ${r.queries} | ${fmtNum(r.merged_cpu_ms.median, 1)} | ${fmtNum(r.merged_cpu_ms.p95, 1)} | ${r.union_cpu_ms ? `${fmtNum(r.union_cpu_ms.median, 1)} / ${fmtNum(r.union_cpu_ms.p95, 1)}` : ''} | ${r.answers_sha256.slice(0, 12)} | ${r.load.map((x) => x.toFixed(1)).join(' ')} |`);
  const summary = labels.map((l) => {
    const of = runs.filter((r) => r.label === l);
    const alike = new Set(of.map((r) => r.answers_sha256)).size === 1;
    return `- ${l}: ${of.length} runs, median of the runs' medians ${fmtNum(median(of.map((r) => r.merged_cpu_ms.median)), 1)} ms, of their p95s ${fmtNum(median(of.map((r) => r.merged_cpu_ms.p95)), 1)} ms; answers ${alike ? `alike in every run (${of[0].answers_sha256.slice(0, 12)})` : 'DIFFER between runs'}`;
  });
  const same = new Set(runs.map((r) => r.answers_sha256)).size === 1;
  // Which queries two runs answered differently (a quoted literal's time budget runs out at some loads: its words answer instead).
  const differing = (a: Run, b: Run) => a.per_query_answers && b.per_query_answers ? a.per_query_answers.filter((x, i) => x !== b.per_query_answers![i]).length : null;
  const pairs = runs.slice(1).map((r, i) => `${runs[i].label}→${r.label} ${differing(runs[i], r) ?? '?'}`);
  return [
    `# ${title}`,
    '',
    `Merged search CPU time per query (the calling thread's, process.threadCpuUsage), runs in the order they ran (${labels.join(' / ')} alternated); ms. Node ${process.version}.`,
    '',
    '| run | label | commit | queries | merged median | merged p95 | union median / p95 | answers | load (1, 5, 15 min) |',
    '|--:|:--|:--|--:|--:|--:|--:|:--|:--|',
    ...rows,
    '',
    ...summary,
    `- every run's answers (hit ids and scores of every query): ${same ? 'identical' : 'not identical'}; queries answered differently by each run and the one before it: ${pairs.join(', ')}`,
    '',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['union']);
  const cmp = optList(opts, 'compare');
  if (cmp.length) {
    const md = compare(cmp, optString(opts, 'title') ?? 'Merged search CPU time, A/B');
    process.stdout.write(md);
    const out = optString(opts, 'md');
    if (out) fs.writeFileSync(out, md);
    return 0;
  }
  const work = path.resolve(optString(opts, 'work') ?? '');
  const repos = optList(opts, 'repos');
  const every = optInt(opts, 'every', 4);
  const rounds = optInt(opts, 'rounds', 1);
  if (!optString(opts, 'work') || repos.length < 2) throw new Error('--work DIR (a bench/federation.js --work folder) and --repos A,B[,C…]');
  const open = (root: string) => new HciService({ root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
  const workers = optInt(opts, 'workers', 0);
  const roots = repos.map((repo) => path.join(work, 'apart', repo));
  const parts = workers > 0 ? createNodeRepoSearchPool({ workers })(roots) : null;
  const members = repos.map((repo, i) => ({ repo, service: open(roots[i]), ...(parts ? { search: parts[i] } : {}) }));
  const union = opts.union ? open(path.join(work, 'union')) : null;
  const shared = optString(opts, 'shared-pool');
  const rerank = optString(opts, 'shared-rerank');
  const fed = new Federation(members, { ...(shared !== undefined ? { sharedPool: Number(shared) } : {}), ...(rerank !== undefined ? { sharedRerank: Number(rerank) } : {}) });
  try {
    const queries = repos.flatMap((r) => readBroadSet(path.join(repoRoot(), 'bench', 'golden', `${r}.jsonl`)).map((g) => g.query)).filter((_, i) => i % every === 0);
    await fed.call('search', { query: 'warm up', limit: LIMIT });
    await union?.call('search', { query: 'warm up', limit: LIMIT });
    const merged: number[][] = queries.map(() => []);
    const wall: number[][] = queries.map(() => []);
    const unioned: number[][] = queries.map(() => []);
    const digest = createHash('sha256');
    const answers: string[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const [i, query] of queries.entries()) {
        let c = cpuMs(workers > 0);
        const w = performance.now();
        const a: SearchAnswer = await fed.call('search', { query, limit: LIMIT });
        merged[i].push(cpuMs(workers > 0) - c);
        wall[i].push(performance.now() - w);
        if (r === 0) {
          const one = JSON.stringify([query, a.status, a.hits.map((h) => [h.hit_id, h.score])]);
          digest.update(one);
          answers.push(createHash('sha256').update(one).digest('hex').slice(0, 16));
        }
        if (union) {
          c = cpuMs();
          await union.call('search', { query, limit: LIMIT });
          unioned[i].push(cpuMs() - c);
        }
      }
    }
    // Per query its median over the rounds, then the median and p95 over the queries.
    const perQuery = (xs: number[][]) => xs.map((v) => median(v));
    const m = perQuery(merged);
    const out = {
      label: optString(opts, 'label') ?? '',
      commit: commitInfo(),
      node: process.version,
      load: os.loadavg(),
      queries: queries.length,
      rounds,
      merged_cpu_ms: { median: median(m), p95: percentile(m, 95) },
      merged_wall_ms: { median: median(perQuery(wall)), p95: percentile(perQuery(wall), 95) },
      ...(workers > 0 ? { workers } : {}),
      ...(union ? { union_cpu_ms: { median: median(perQuery(unioned)), p95: percentile(perQuery(unioned), 95) } } : {}),
      answers_sha256: digest.digest('hex'),
      per_query: m,
      /** Per query, a digest of its answer (hit ids and scores): which queries two runs answered differently. */
      per_query_answers: answers,
    };
    process.stdout.write(`${out.label} merged CPU median ${fmtNum(out.merged_cpu_ms.median, 1)} ms p95 ${fmtNum(out.merged_cpu_ms.p95, 1)} (wall ${fmtNum(out.merged_wall_ms.median, 1)} / ${fmtNum(out.merged_wall_ms.p95, 1)})${union ? ` union ${fmtNum(out.union_cpu_ms!.median, 1)} / ${fmtNum(out.union_cpu_ms!.p95, 1)}` : ''}; ${queries.length} queries; answers ${out.answers_sha256.slice(0, 12)}; load ${out.load.map((x) => x.toFixed(1)).join(' ')}\n`);
    const json = optString(opts, 'json');
    if (json) fs.writeFileSync(json, JSON.stringify(out, null, 1));
    return 0;
  } finally {
    await fed.close();
    await union?.close();
  }
}

await runMain(import.meta.url, 'federation-cpu', main);

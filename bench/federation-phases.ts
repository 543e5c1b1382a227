// Where a merged search's CPU goes (issue 36, federation p95), per phase and per repository: on the
// indexes a `bench/federation.ts --work DIR` run left (DIR/apart/<repo>), every n-th golden query of
// the repositories asked of the federation (core/service/federation.ts) with each repository's part
// (core/service/repo-search.ts) wrapped so that its calls run one at a time and each call's CPU time
// (this thread's) is charged to its phase — the statistics round (`stats`), the pool split's first
// passes (`firstPass`), its own ranking (`rank`), the merged page's rendering (`render`) — and to
// its repository; what is left of a query's CPU is the merge's own (`outside`). On one thread the
// parts' SQLite work runs one call after the other anyway, so running them one at a time changes no
// answer and no total. Reports the phases' shares, each repository's cost per query, and the slowest
// queries (the p95 side) with their phases and how many repositories widened (any-term pass).
//   node --experimental-transform-types bench/federation-phases.ts --work DIR --repos A,B,… [--every 4] [--md out.md] [--json out.json]
// Owns these measurements; what they measure is core/service/federation.ts and repo-search.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Federation, HciService, LocalRepoSearch, type RepoSearch } from '../core/service/index.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { readBroadSet } from './lib/golden-set.ts';
import { commitInfo } from './lib/record.ts';
import { fmtNum, markdownTable, mean, median, optInt, optList, optString, parseArgs, percentile, repoRoot, runMain } from './lib/util.ts';

const PHASES = ['stats', 'firstPass', 'rank', 'render'] as const;
type Phase = (typeof PHASES)[number];

const cpuMs = (): number => {
  const u = (process as unknown as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.() ?? process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The CPU of the query running now, per phase and repository (reset per query). */
interface Charges {
  by: Map<string, number>;
  widened: number;
}

/** A repository's part with each call run alone (one queue for all) and its CPU charged to `charges`. */
function timed(repo: string, inner: RepoSearch, queue: { tail: Promise<unknown> }, charges: () => Charges): RepoSearch {
  const run = <T>(phase: Phase, call: () => Promise<T>): Promise<T> => {
    const next = queue.tail.then(async () => {
      const c = cpuMs();
      try {
        return await call();
      } finally {
        const k = `${phase}|${repo}`;
        const ch = charges();
        ch.by.set(k, (ch.by.get(k) ?? 0) + cpuMs() - c);
      }
    });
    queue.tail = next.catch(() => undefined);
    return next;
  };
  return {
    stats: (phrases, heads) => run('stats', () => inner.stats(phrases, heads)),
    firstPass: (req, ks) => run('firstPass', async () => {
      const p = await inner.firstPass!(req, ks);
      if (p?.wider) charges().widened++;
      return p;
    }),
    search: (req, ctx) => run('rank', () => inner.search(req, ctx)),
    rank: (req, ctx) => run('rank', () => inner.rank!(req, ctx)),
    render: (page, at) => run('render', () => inner.render!(page, at)),
  };
}

async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const work = path.resolve(optString(opts, 'work') ?? '');
  const repos = optList(opts, 'repos');
  const every = optInt(opts, 'every', 4);
  if (!optString(opts, 'work') || repos.length < 2) throw new Error('--work DIR (a bench/federation.js --work folder) and --repos A,B[,C…]');
  const queue = { tail: Promise.resolve() as Promise<unknown> };
  let now: Charges = { by: new Map(), widened: 0 };
  const members = repos.map((repo) => {
    const service = new HciService({ root: path.join(work, 'apart', repo), host: nodeServiceHost(), surface: 'cli', watch: 'off' });
    return { repo, service, search: timed(repo, new LocalRepoSearch(service), queue, () => now) };
  });
  const fed = new Federation(members);
  const rows: Array<{ query: string; words: number; total: number; phases: Record<Phase | 'outside', number>; repos: Record<string, number>; widened: number }> = [];
  try {
    const queries = repos.flatMap((r) => readBroadSet(path.join(repoRoot(), 'bench', 'golden', `${r}.jsonl`)).map((g) => g.query)).filter((_, i) => i % every === 0);
    await fed.call('search', { query: 'warm up', limit: 10 });
    for (const query of queries) {
      now = { by: new Map(), widened: 0 };
      const c = cpuMs();
      await fed.call('search', { query, limit: 10 });
      const total = cpuMs() - c;
      const phases = { stats: 0, firstPass: 0, rank: 0, render: 0, outside: 0 } as Record<Phase | 'outside', number>;
      const perRepo: Record<string, number> = {};
      for (const [k, v] of now.by) {
        const [phase, repo] = k.split('|') as [Phase, string];
        phases[phase] += v;
        perRepo[repo] = (perRepo[repo] ?? 0) + v;
      }
      phases.outside = Math.max(0, total - PHASES.reduce((s, p) => s + phases[p], 0));
      rows.push({ query, words: query.split(/\s+/).filter(Boolean).length, total, phases, repos: perRepo, widened: now.widened });
    }
  } finally {
    await fed.close();
  }
  const totals = rows.map((r) => r.total);
  const all = rows.reduce((s, r) => s + r.total, 0);
  const share = (p: Phase | 'outside') => rows.reduce((s, r) => s + r.phases[p], 0) / all;
  const p95 = percentile(totals, 95);
  const slow = rows.filter((r) => r.total >= p95).sort((a, b) => b.total - a.total);
  const rest = rows.filter((r) => r.total < p95);
  const load = os.loadavg();
  const commit = commitInfo();
  const md = [
    '# Merged search CPU per query over several repositories: per phase and repository',
    '',
    `${repos.length} repositories (${repos.join(', ')}), ${rows.length} golden queries (every ${every}th), top 10, keyword mode, one thread, each query new to the process; CPU time of this thread (process.threadCpuUsage), each repository's calls run one at a time and charged to their phase; commit ${commit.sha?.slice(0, 7) ?? '?'}${commit.dirty ? ' (dirty)' : ''}, Node ${process.version}, load ${load.map((x) => x.toFixed(1)).join(' ')}.`,
    '',
    `Per query: median ${fmtNum(median(totals), 1)} ms, p95 ${fmtNum(p95, 1)} ms.`,
    '',
    markdownTable(['phase', 'share of all CPU', 'median per query (ms)', 'mean on the p95 side (ms)', 'mean on the rest (ms)'],
      (['stats', 'firstPass', 'rank', 'render', 'outside'] as const).map((p) => [p, `${fmtNum(100 * share(p), 1)}%`, fmtNum(median(rows.map((r) => r.phases[p])), 1), fmtNum(mean(slow.map((r) => r.phases[p])), 1), fmtNum(mean(rest.map((r) => r.phases[p])), 1)])),
    '',
    markdownTable(['repository', 'mean per query (ms)', 'median per query (ms)'],
      repos.map((r) => [r, fmtNum(mean(rows.map((x) => x.repos[r] ?? 0)), 2), fmtNum(median(rows.map((x) => x.repos[r] ?? 0)), 2)])),
    '',
    `The p95 side (${slow.length} queries at or above ${fmtNum(p95, 1)} ms): words ${fmtNum(mean(slow.map((r) => r.words)), 1)} on average against ${fmtNum(mean(rest.map((r) => r.words)), 1)} for the rest; repositories that widened ${fmtNum(mean(slow.map((r) => r.widened)), 1)} against ${fmtNum(mean(rest.map((r) => r.widened)), 1)}.`,
    '',
    markdownTable(['query', 'words', 'widened', 'total', 'stats', 'firstPass', 'rank', 'render', 'outside'],
      slow.map((r) => [r.query.length > 70 ? `${r.query.slice(0, 67)}…` : r.query, String(r.words), String(r.widened), fmtNum(r.total, 1), ...(['stats', 'firstPass', 'rank', 'render', 'outside'] as const).map((p) => fmtNum(r.phases[p], 1))])),
    '',
  ].join('\n');
  process.stdout.write(md);
  const out = optString(opts, 'md');
  if (out) fs.writeFileSync(out, md);
  const json = optString(opts, 'json');
  if (json) fs.writeFileSync(json, JSON.stringify({ commit, node: process.version, load, repos, rows }, null, 1));
  return 0;
}

await runMain(import.meta.url, 'federation-phases', main);

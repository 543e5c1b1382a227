// What each repository's part of a merged search costs (issue 36, federation latency): on the indexes
// a `bench/federation.ts --work DIR` run left (DIR/apart/<repo>, DIR/union), every n-th golden query
// of the repositories asked of the union index, then — as the federation does on one thread — every
// repository's statistics for the query's phrases (term-stats.ts StatsCache), then every
// repository's own search with the merged statistics; per repository the median and p95 of each part,
// their sums against the union's search. Owns these measurements; what they measure is
// core/service/federation.ts and repo-search.ts.
//   npm run build && node dist/bench/federation-parts.js --work DIR --repos A,B,… [--every 8] [--record]
import * as os from 'node:os';
import * as path from 'node:path';
import { HciService } from '../core/service/index.ts';
import { parseRequest } from '../core/search/pipeline.ts';
import { mergeStats, queryPhrases, StatsCache, type CorpusStats } from '../core/search/term-stats.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { readBroadSet } from './lib/golden-set.ts';
import { commitInfo, recordResult } from './lib/record.ts';
import { fmtNum, markdownTable, median, optInt, optList, optString, parseArgs, percentile, repoRoot, runMain } from './lib/util.ts';

const LIMIT = 10;

async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['record']);
  const work = path.resolve(optString(opts, 'work') ?? '');
  const repos = optList(opts, 'repos');
  const every = optInt(opts, 'every', 8);
  if (!optString(opts, 'work') || repos.length < 2) throw new Error('--work DIR (a bench/federation.js --work folder) and --repos A,B[,C…]');
  const open = (root: string) => new HciService({ root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
  const members = repos.map((repo) => ({ repo, service: open(path.join(work, 'apart', repo)), cache: new StatsCache() }));
  const union = open(path.join(work, 'union'));
  try {
    const queries = repos.flatMap((r) => readBroadSet(path.join(repoRoot(), 'bench', 'golden', `${r}.jsonl`)).map((g) => g.query)).filter((_, i) => i % every === 0);
    for (const s of [...members.map((m) => m.service), union]) await s.call('search', { query: 'warm up', limit: LIMIT });
    const t = { union: [] as number[], stats: [] as number[], search: [] as number[], merged: [] as number[] };
    const parts = members.map(() => ({ stats: [] as number[], search: [] as number[] }));
    for (const q of queries) {
      let s = performance.now();
      await union.call('search', { query: q, limit: LIMIT });
      t.union.push(performance.now() - s);
      const phrases = queryPhrases(parseRequest((await members[0].service.workspace()).settings, { query: q }));
      const own: CorpusStats[] = [];
      let stats = 0;
      for (const [i, m] of members.entries()) {
        const ws = await m.service.workspace();
        s = performance.now();
        own.push((await ws.read((db) => m.cache.read(db, phrases))).value);
        const ms = performance.now() - s;
        parts[i].stats.push(ms);
        stats += ms;
      }
      const all = mergeStats(own);
      let search = 0;
      for (const [i, m] of members.entries()) {
        s = performance.now();
        await m.service.call('search', { query: q, limit: LIMIT }, phrases.length ? { keywordStats: { all, own: own[i] } } : {});
        const ms = performance.now() - s;
        parts[i].search.push(ms);
        search += ms;
      }
      t.stats.push(stats);
      t.search.push(search);
      t.merged.push(stats + search);
    }
    const commit = commitInfo();
    const chunks = await Promise.all(members.map(async (m) => (await m.service.call('status', {})).index?.chunks ?? 0));
    const row = (xs: number[]) => [fmtNum(median(xs)), fmtNum(percentile(xs, 95))];
    const md = [
      '# What each repository\'s part of a merged search costs',
      '',
      `${repos.length} repositories, every ${every}th golden query of their sets (${queries.length} queries), top ${LIMIT}, keyword mode, each index warm (opened, one query answered); commit ${commit.sha?.slice(0, 7) ?? '?'}${commit.dirty ? ' (uncommitted changes)' : ''}, Node ${process.version}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}.`,
      'Per query: the union index\'s search; then, as the federation does on one thread, every repository\'s statistics for the query\'s phrases (StatsCache: counted once per index generation) and every repository\'s search with the merged statistics. ms, median / p95.',
      '',
      markdownTable(['part', 'chunks', 'statistics median', 'p95', 'search median', 'p95'], [
        ...members.map((m, i) => [m.repo, String(chunks[i]), ...row(parts[i].stats), ...row(parts[i].search)]),
        ['all repositories (sum)', String(chunks.reduce((a, b) => a + b, 0)), ...row(t.stats), ...row(t.search)],
      ], ['l', 'r', 'r', 'r', 'r', 'r']),
      '',
      `Merged (statistics + searches, summed per query): median ${fmtNum(median(t.merged))} ms, p95 ${fmtNum(percentile(t.merged, 95))} ms; the union index: median ${fmtNum(median(t.union))} ms, p95 ${fmtNum(percentile(t.union, 95))} ms.`,
      '',
    ].join('\n');
    console.log(md);
    if (opts.record) console.log(`recorded ${recordResult('federation-parts', { commit, repos, every, queries: queries.length, union: t.union, merged: t.merged, parts: members.map((m, i) => ({ repo: m.repo, chunks: chunks[i], ...parts[i] })) }, md)}`);
    return 0;
  } finally {
    for (const m of members) await m.service.close();
    await union.close();
  }
}

await runMain(import.meta.url, 'federation-parts', main);

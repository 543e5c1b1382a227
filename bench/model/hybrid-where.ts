// Where hybrid search moves answers against keyword, on indexes built once (the `--roots DIR` layout of
// settings-ab.ts: DIR/<repo> holds an index built with semantic on, DIR/<repo>.done names its golden
// file and set): each golden query answered in keyword and hybrid mode (ws.search, limit 50, file
// level; semantic mode too, the vector channel alone), then R@5 / MRR@10 of each, the queries hybrid
// made better / worse (by MRR), and how many have a relevant file in the first five of keyword, of
// semantic, of either (one list's or the other's: a rough ceiling for fusing the two) and of hybrid, grouped by
// what a fusion policy could route on before or after the keyword pass — the query type
// (core/search/query-type.ts), keyword's match (all / all_then_any / any: whether some chunk held
// every word, the sign that the question's vocabulary is the code's), the number of content words —
// and the queries that moved, with the first relevant file's rank in each. For choosing a routing or
// blend, and for knowing when the channel, not the fusion, is the limit; settings-ab.ts measures
// a setting once built, `npm run eval -- --semantic` is the measure of record.
//
//   node --experimental-transform-types bench/model/hybrid-where.ts --roots /work/corpora/sem [--repo A,B] [--record NAME]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../../runtimes/node/index.ts';
import { readGolden } from '../lib/queries.ts';
import { scoreQuery } from '../lib/metrics.ts';
import { markdownTable, mean, optList, optString, parseArgs, runMain } from '../lib/util.ts';
import { commitInfo, recordResult } from '../lib/record.ts';
import { parseQuery } from '../../core/search/query.ts';
import { queryType } from '../../core/search/query-type.ts';

interface Scored { r5: number; mrr: number; first: number | null }
interface Row { repo: string; set: string; query: string; kind: string; type: string; match: string; words: number; k: Scored; h: Scored; s: Scored }

const LIMIT = 50;

function score(paths: readonly string[], relevant: readonly string[]): Scored {
  const s = scoreQuery(paths, relevant);
  const files = [...new Set(paths)];
  const i = files.findIndex((p) => relevant.includes(p));
  return { r5: s.recall5, mrr: s.mrr10, first: i < 0 ? null : i + 1 };
}

const f3 = (x: number) => x.toFixed(3);
const pair = (xs: readonly Scored[]) => `${f3(mean(xs.map((s) => s.r5)))} / ${f3(mean(xs.map((s) => s.mrr)))}`;
const better = (r: Row) => r.h.mrr > r.k.mrr + 1e-9 || (r.h.mrr === r.k.mrr && r.h.r5 > r.k.r5 + 1e-9);
const worse = (r: Row) => r.h.mrr < r.k.mrr - 1e-9 || (r.h.mrr === r.k.mrr && r.h.r5 < r.k.r5 - 1e-9);

/** A relevant file among the first five files. */
const top5 = (x: Scored) => x.first !== null && x.first <= 5;

function groupTable(rows: readonly Row[], key: (r: Row) => string): string {
  const keys = [...new Set(rows.map(key))].sort();
  return markdownTable(['group', 'queries', 'keyword', 'semantic', 'hybrid', 'better / worse', 'relevant in first 5: keyword / semantic / either / hybrid'],
    keys.map((g) => {
      const rs = rows.filter((r) => key(r) === g);
      const n = (f: (r: Row) => boolean) => rs.filter(f).length;
      return [g, String(rs.length), pair(rs.map((r) => r.k)), pair(rs.map((r) => r.s)), pair(rs.map((r) => r.h)), `${rs.filter(better).length} / ${rs.filter(worse).length}`,
        `${n((r) => top5(r.k))} / ${n((r) => top5(r.s))} / ${n((r) => top5(r.k) || top5(r.s))} / ${n((r) => top5(r.h))}`];
    }));
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const dir = path.resolve(optString(opts, 'roots') ?? '/work/corpora/sem');
  const only = optList(opts, 'repo');
  const rows: Row[] = [];
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.done')).sort()) {
    const repo = f.slice(0, -'.done'.length);
    if (only.length && !only.includes(repo)) continue;
    const meta = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { golden: string; set: string };
    const ws = await openWorkspace(path.join(dir, repo), { settings: { semantic: { enabled: true, provider: optString(opts, 'provider') ?? 'pretrained' } } as never });
    try {
      for (const g of readGolden(meta.golden)) {
        const k = await ws.search({ query: g.query, limit: LIMIT, mode: 'keyword' });
        const h = await ws.search({ query: g.query, limit: LIMIT, mode: 'hybrid' });
        const v = await ws.search({ query: g.query, limit: LIMIT, mode: 'semantic' });
        const parsed = parseQuery(g.query);
        rows.push({
          repo, set: meta.set, query: g.query, kind: g.kind, type: queryType(parsed), match: k.status === 'error' ? 'error' : k.match,
          words: parsed.clauses.length,
          k: score(k.status === 'error' ? [] : k.hits.map((x) => x.path), g.relevant),
          h: score(h.status === 'error' ? [] : h.hits.map((x) => x.path), g.relevant),
          s: score(v.status === 'error' ? [] : v.hits.map((x) => x.path), g.relevant),
        });
      }
    } finally {
      ws.close();
    }
    process.stderr.write(`${repo}\n`);
  }
  const moved = rows.filter((r) => better(r) || worse(r));
  const rank = (s: Scored) => (s.first === null ? '–' : String(s.first));
  const wordBucket = (r: Row) => (r.words >= 8 ? '8+ words' : `${r.words} word${r.words === 1 ? '' : 's'}`);
  const text = [
    `### Where hybrid moves answers against keyword (provider ${optString(opts, 'provider') ?? 'pretrained'}; ws.search, limit 50, file level, R@5 / MRR@10)`, '',
    `${rows.length} queries over ${new Set(rows.map((r) => r.repo)).size} repositories; hybrid better on ${rows.filter(better).length}, worse on ${rows.filter(worse).length} (by MRR@10, then R@5); the same answer quality on the rest.`, '',
    '#### Per repository', '',
    groupTable(rows, (r) => r.repo), '',
    '#### By query type and keyword match (all: every hit holds every word; all_then_any: some chunk held every word; any: none did)', '',
    groupTable(rows, (r) => `${r.type} · ${r.match}`), '',
    '#### Queries of type question or mixed, by content words (query clauses)', '',
    groupTable(rows.filter((r) => r.type !== 'symbol'), wordBucket), '',
    '#### By golden kind (type question or mixed)', '',
    groupTable(rows.filter((r) => r.type !== 'symbol'), (r) => r.kind), '',
    '#### The queries that moved (first relevant file\'s rank: keyword → hybrid)', '',
    markdownTable(['', 'repository', 'type · match', 'kind', 'rank', 'query'],
      moved.map((r) => [better(r) ? '+' : '−', r.repo, `${r.type} · ${r.match}`, r.kind, `${rank(r.k)} → ${rank(r.h)}`, r.query.length > 90 ? `${r.query.slice(0, 87)}…` : r.query])), '',
  ].join('\n');
  const name = optString(opts, 'record');
  if (name) recordResult(name, { commit: commitInfo(), rows }, text);
  process.stdout.write(`${text}\n`);
  return 0;
}

await runMain(import.meta.url, 'hybrid-where', main);

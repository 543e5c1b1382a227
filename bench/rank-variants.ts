// `node --experimental-transform-types bench/rank-variants.ts`: several ranking set-ups side by side
// over indexes already built, one process (rank-probe.ts measures one set-up in full: short pages,
// latency, type names; `npm run eval` stays the measure of record). Per golden set and set-up: the
// eval's file-level R@5 / MRR@10 over the distinct files of a 50-hit answer, overall and by query type
// (core/search/query-type.ts: symbol / question / mixed), identifier queries at rank 1 (kind
// identifier or symbol, or a symbol-type query), and the queries whose R@5 or MRR@10 moved against
// the first set-up, commit-style queries (golden kind `commit`) per set, and nDCG@10 over the first ten hits as returned (bench/lib/metrics.ts ndcg10Returned:
// a file's second chunk takes a slot; the first ten of the 50-hit answer are the page of ten, depth.ts).
// Only the 50-hit search runs, so a set-up costs a third of a rank-probe run.
//
//   node --experimental-transform-types bench/rank-variants.ts --set Mud=<golden.jsonl>@<indexed root> [--set …]
//        --variant base='{}' --variant demo06='{"demo_path_penalty":0.6}' [--mode hybrid] [--out results.json] [--md results.md]
// (--mode: the search mode every set-up asks, default the request's default, keyword; hybrid and
// semantic need indexes built with semantic search on, as the probe indexes are.)
import * as fs from 'node:fs';
import { openWorkspace } from '../runtimes/node/index.ts';
import { readGolden } from './lib/queries.ts';
import { scoreQuery } from './lib/metrics.ts';
import { markdownTable, mean, optString, parseArgs, runMain } from './lib/util.ts';
import { parseQuery } from '../core/search/query.ts';
import { queryType } from '../core/search/query-type.ts';
import { defaultSettings } from '../core/settings.ts';

interface Row {
  set: string;
  id: string;
  query: string;
  kind: string;
  type: string;
  /** Per set-up: [R@5, MRR@10, R@1, nDCG@10 as returned, nDCG@10 over distinct files]. */
  by: Record<string, [number, number, number, number, number]>;
}

const TYPES = ['symbol', 'question', 'mixed'] as const;

const isIdentifier = (r: Row) => r.kind === 'identifier' || r.kind === 'symbol' || r.type === 'symbol';

/** `R@5/MRR@10` of rows under one set-up. */
function agg(rows: readonly Row[], v: string): string {
  if (!rows.length) return '–';
  return `${mean(rows.map((r) => r.by[v][0])).toFixed(3)} / ${mean(rows.map((r) => r.by[v][1])).toFixed(3)}`;
}

export function report(rows: readonly Row[], variants: readonly string[]): string {
  const sets = [...new Set(rows.map((r) => r.set))];
  const out: string[] = [];
  out.push('R@5 / MRR@10 per set and set-up (identifier queries at rank 1 last):\n');
  out.push(markdownTable(['set', 'n', ...variants, 'id@1'], sets.map((s) => {
    const rs = rows.filter((r) => r.set === s);
    const ids = rs.filter(isIdentifier);
    return [s, String(rs.length), ...variants.map((v) => agg(rs, v)), variants.map((v) => `${ids.filter((r) => r.by[v][2] === 1).length}/${ids.length}`).join(' ')];
  })));
  out.push('\nnDCG@10 over the first ten hits as returned (over the same list collapsed to distinct files), per set and set-up:\n');
  out.push(markdownTable(['set', 'n', ...variants], sets.map((s) => {
    const rs = rows.filter((r) => r.set === s);
    return [s, String(rs.length), ...variants.map((v) => `${mean(rs.map((r) => r.by[v][3])).toFixed(3)} (${mean(rs.map((r) => r.by[v][4])).toFixed(3)})`)];
  })));
  out.push('\nBy query type, every set but `sample` pooled (per query):\n');
  const pooled = rows.filter((r) => r.set !== 'sample');
  out.push(markdownTable(['type', 'n', ...variants], TYPES.map((t) => {
    const rs = pooled.filter((r) => r.type === t);
    return [t, String(rs.length), ...variants.map((v) => agg(rs, v))];
  })));
  out.push('\nQuestions per set (R@5 / MRR@10):\n');
  out.push(markdownTable(['set', 'n', ...variants], sets.map((s) => {
    const rs = rows.filter((r) => r.set === s && r.type === 'question');
    return [s, String(rs.length), ...variants.map((v) => agg(rs, v))];
  })));
  const commits = rows.filter((r) => r.kind === 'commit');
  if (commits.length) {
    out.push('\nCommit-style queries (golden kind `commit`) per set (R@5 / MRR@10):\n');
    out.push(markdownTable(['set', 'n', ...variants], [...sets, 'all'].map((s) => {
      const rs = s === 'all' ? commits : commits.filter((r) => r.set === s);
      return [s, String(rs.length), ...variants.map((v) => agg(rs, v))];
    }).filter((r) => r[1] !== '0')));
  }
  const [base, ...others] = variants;
  for (const v of others) {
    const upDown = (k: number) => {
      let up = 0;
      let down = 0;
      for (const s of sets) {
        if (s === 'sample') continue;
        const d = rows.filter((r) => r.set === s).reduce((a, r) => a + r.by[v][k] - r.by[base][k], 0);
        if (d > 1e-9) up++;
        else if (d < -1e-9) down++;
      }
      return [up, down];
    };
    const [up, down] = upDown(1);
    const [nUp, nDown] = upDown(3);
    const lost = rows.filter((r) => isIdentifier(r) && r.by[base][2] === 1 && r.by[v][2] !== 1);
    out.push(`\n**${v}** against ${base}: MRR@10 up on ${up} sets, down on ${down}; nDCG@10 as returned up on ${nUp}, down on ${nDown} (sample not counted); identifier queries that lost rank 1: ${lost.length}${lost.length ? ` (${lost.map((r) => `${r.set} ${r.id}`).join(', ')})` : ''}\n`);
    const moved = rows.filter((r) => Math.abs(r.by[v][1] - r.by[base][1]) > 1e-9 || Math.abs(r.by[v][0] - r.by[base][0]) > 1e-9);
    if (moved.length) out.push('```\n' + moved.map((r) => `${r.set.padEnd(18)} ${r.type.padEnd(8)} ${r.kind.padEnd(12)} MRR ${r.by[base][1].toFixed(2)} -> ${r.by[v][1].toFixed(2)}  R@5 ${r.by[base][0].toFixed(2)} -> ${r.by[v][0].toFixed(2)}  ${r.query.slice(0, 90)}`).join('\n') + '\n```');
  }
  return out.join('\n') + '\n';
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const sets = ([] as string[]).concat((opts.set as string | string[] | undefined) ?? []);
  const variants: Array<[string, Record<string, unknown>]> = ([] as string[]).concat((opts.variant as string | string[] | undefined) ?? []).map((spec) => {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new Error(`--variant NAME=JSON, got ${spec}`);
    return [spec.slice(0, eq), JSON.parse(spec.slice(eq + 1)) as Record<string, unknown>];
  });
  if (!sets.length || !variants.length) throw new Error('give at least one --set NAME=golden.jsonl@root and one --variant NAME=JSON');
  const changeWords = defaultSettings().change_words;
  const mode = optString(opts, 'mode') as 'keyword' | 'semantic' | 'hybrid' | undefined;
  const rows: Row[] = [];
  for (const spec of sets) {
    const m = /^([^=]+)=(.+)@(.+)$/.exec(spec);
    if (!m) throw new Error(`--set NAME=golden.jsonl@root, got ${spec}`);
    const [, name, golden, root] = m;
    const gs = readGolden(golden);
    const setRows: Row[] = gs.map((g) => ({ set: name, id: g.id!, query: g.query, kind: g.kind, type: queryType(parseQuery(g.query, { change_words: changeWords })), by: {} }));
    for (const [v, settings] of variants) {
      const ws = await openWorkspace(root, { settings });
      try {
        for (let i = 0; i < gs.length; i++) {
          const res = await ws.search({ query: gs[i].query, limit: 50, ...(mode ? { mode } : {}) });
          const s = scoreQuery(res.hits.map((h) => h.path), gs[i].relevant);
          setRows[i].by[v] = [s.recall5, s.mrr10, s.recall1, s.ndcg10Returned, s.ndcg10];
        }
      } finally {
        ws.close();
      }
      process.stderr.write(`${name} ${v} done\n`);
    }
    rows.push(...setRows);
  }
  const names = variants.map(([v]) => v);
  const md = report(rows, names);
  process.stdout.write(md);
  const file = optString(opts, 'out');
  if (file) fs.writeFileSync(file, JSON.stringify({ variants: Object.fromEntries(variants), rows }, null, 1));
  const mdFile = optString(opts, 'md');
  if (mdFile) fs.writeFileSync(mdFile, md);
  return 0;
}

await runMain(import.meta.url, 'rank-variants', main);

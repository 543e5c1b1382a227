// Search settings A/B on indexes built once: for every evaluation repository whose index was built
// with semantic search on (`--roots DIR`: DIR/<repo> holds it, DIR/<repo>.done names its golden file
// and set — /work/corpora/<name>/setup.ts-style), each golden query answered in keyword and hybrid
// mode (ws.search at limit 50, file level) under the base settings and under each variant (settings
// merged over the base: `--variants 'nb={"neighbour_terms":2}'`), nothing re-indexed. Reports per
// repository and per kind R@5 / MRR@10 for every engine × variant, the queries a variant made better
// or worse against the base of the same mode, and keyword rank-1 hits lost (identifier queries
// first). For settings that rank (the index stays as it is); `npm run eval` is the measure of record.
//
//   node dist/bench/model/settings-ab.js --roots /work/corpora/sem --variants 'nb={"neighbour_terms":2}' [--modes keyword,hybrid] [--variant-modes hybrid] [--record NAME]
// --variant-modes: the modes the variants are run in (default: every mode); a fusion setting changes hybrid only.
// --model FILE: the code model the workspaces are opened with (default the package's models/code-model.bin):
// the candidate model reembed.ts re-embedded the copies with.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWithModel } from '../lib/open-with-model.ts';
import { readGolden } from '../lib/queries.ts';
import { scoreQuery } from '../lib/metrics.ts';
import { fmtNum, markdownTable, mean, optList, optString, parseArgs, runMain } from '../lib/util.ts';
import { commitInfo, recordResult } from '../lib/record.ts';
import { parseVariants } from './fusion-dump.ts';

interface Built { name: string; root: string; golden: string; set: string }

const LIMIT = 50;
const SET_ORDER = ['sample', 'dev', 'broad'];

function builtRoots(dir: string, only: readonly string[]): Built[] {
  const out: Built[] = [];
  for (const f of fs.readdirSync(dir)) {
    if (!f.endsWith('.done')) continue;
    const name = f.slice(0, -'.done'.length);
    if (only.length && !only.includes(name)) continue;
    const meta = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { golden: string; set: string };
    out.push({ name, root: path.join(dir, name), golden: meta.golden, set: meta.set });
  }
  return out.sort((a, b) => SET_ORDER.indexOf(a.set) - SET_ORDER.indexOf(b.set) || a.name.localeCompare(b.name));
}

interface QueryScore { id: string; kind: string; r1: number; r5: number; mrr: number }
interface EngineRun { engine: string; scores: QueryScore[]; ms: number[] }

const f3 = (x: number) => fmtNum(x, 3);
const sgn = (x: number) => `${x >= 0 ? '+' : ''}${f3(x)}`;

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const dir = path.resolve(optString(opts, 'roots') ?? '/work/corpora/sem');
  const variants = { base: {}, ...parseVariants(optString(opts, 'variants')) } as Record<string, Record<string, unknown>>;
  const modes = optList(opts, 'modes').length ? optList(opts, 'modes') : ['keyword', 'hybrid'];
  const variantModes = optList(opts, 'variant-modes').length ? optList(opts, 'variant-modes') : modes;
  const base = JSON.parse(optString(opts, 'settings') ?? '{}') as Record<string, unknown>;
  const provider = optString(opts, 'provider') ?? 'pretrained';
  const table: string[][] = [];
  const kinds: string[][] = [];
  const rows: unknown[] = [];
  for (const b of builtRoots(dir, optList(opts, 'repo'))) {
    const golden = readGolden(b.golden);
    const runs: EngineRun[] = [];
    for (const [vname, v] of Object.entries(variants)) {
      const ws = await openWithModel(b.root, optString(opts, 'model'), { settings: { ...base, ...v, semantic: { enabled: true, provider, ...(base.semantic as object), ...(v.semantic as object) } } as never });
      try {
        for (const mode of vname === 'base' ? modes : modes.filter((m) => variantModes.includes(m))) {
          const run: EngineRun = { engine: `${mode}${vname === 'base' ? '' : `:${vname}`}`, scores: [], ms: [] };
          for (const g of golden) {
            const t0 = performance.now();
            const r = await ws.search({ query: g.query, limit: LIMIT, mode: mode as 'keyword' | 'hybrid' });
            run.ms.push(performance.now() - t0);
            const s = scoreQuery(r.status === 'error' ? [] : r.hits.map((h) => h.path), g.relevant);
            run.scores.push({ id: g.id ?? g.query, kind: g.kind, r1: s.recall1, r5: s.recall5, mrr: s.mrr10 });
          }
          runs.push(run);
        }
      } finally {
        ws.close();
      }
    }
    const kw = runs.find((r) => r.engine === 'keyword')!;
    for (const run of runs) {
      const mode = run.engine.split(':')[0];
      const ref = runs.find((r) => r.engine === mode)!;
      const better = run.scores.filter((s, i) => s.mrr > ref.scores[i].mrr).length;
      const worse = run.scores.filter((s, i) => s.mrr < ref.scores[i].mrr).length;
      const lost = kw ? run.scores.filter((s, i) => kw.scores[i].r1 > 0 && !(s.r1 > 0)).map((s) => s.id) : [];
      const idLost = lost.filter((id) => ['identifier', 'symbol'].includes(run.scores.find((s) => s.id === id)!.kind));
      const r5 = mean(run.scores.map((s) => s.r5));
      const mrr = mean(run.scores.map((s) => s.mrr));
      const byKind: Record<string, { n: number; r5: number; mrr: number }> = {};
      for (const k of [...new Set(run.scores.map((s) => s.kind))].sort()) {
        const ks = run.scores.filter((s) => s.kind === k);
        byKind[k] = { n: ks.length, r5: mean(ks.map((s) => s.r5)), mrr: mean(ks.map((s) => s.mrr)) };
      }
      const sorted = [...run.ms].sort((a, c) => a - c);
      const p50 = sorted[Math.floor(sorted.length / 2)];
      rows.push({ set: b.set, repo: b.name, engine: run.engine, queries: run.scores.length, r5, mrr, byKind, better, worse, keywordRank1Lost: lost, p50Ms: p50, queriesScored: run.scores });
      table.push([b.set, b.name, run.engine, String(run.scores.length), `${f3(r5)} / ${f3(mrr)}`,
        run.engine === mode ? '–' : `${sgn(r5 - mean(ref.scores.map((s) => s.r5)))} / ${sgn(mrr - mean(ref.scores.map((s) => s.mrr)))}`,
        run.engine === mode ? '–' : `${better} / ${worse}`, `${lost.length} (${idLost.length} identifier)`, fmtNum(p50, 1)]);
      kinds.push([b.name, run.engine, ...Object.entries(byKind).map(([k, m]) => `${k} ${f3(m.r5)}/${f3(m.mrr)} (${m.n})`)].map((x) => x) as string[]);
    }
    process.stderr.write(`${b.name}: ${golden.length} queries × ${runs.length} engines\n`);
  }
  // Pooled per engine: every query of every repository.
  const engines = [...new Set((rows as Array<{ engine: string }>).map((r) => r.engine))];
  const pooled = engines.map((e) => {
    const rs = (rows as Array<{ engine: string; queriesScored: QueryScore[]; set: string; repo: string; r5: number; mrr: number }>).filter((r) => r.engine === e);
    const all = rs.flatMap((r) => r.queriesScored);
    const para = all.filter((s) => s.kind === 'paraphrase');
    const devPara = rs.filter((r) => r.set === 'dev').flatMap((r) => r.queriesScored).filter((s) => s.kind === 'paraphrase');
    const kwRows = (rows as Array<{ engine: string; repo: string; r5: number; mrr: number }>).filter((r) => r.engine === 'keyword');
    const behind = rs.filter((r) => {
      const k = kwRows.find((x) => x.repo === r.repo);
      return !!k && (r.r5 < k.r5 - 1e-9 || r.mrr < k.mrr - 1e-9);
    }).map((r) => r.repo);
    return [e, String(all.length), `${f3(mean(all.map((s) => s.r5)))} / ${f3(mean(all.map((s) => s.mrr)))}`, `${f3(mean(para.map((s) => s.r5)))} (${para.length})`, `${f3(mean(devPara.map((s) => s.r5)))} (${devPara.length})`, e === 'keyword' || !kwRows.length ? '–' : `${behind.length}: ${behind.join(', ') || '–'}`];
  });
  const text = [`### Settings A/B on one index per repository (provider ${provider}; ws.search, limit 50, file level, R@5 / MRR@10)`, '',
    `Variants (merged over the base settings ${JSON.stringify(base)}): ${Object.entries(variants).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join('; ')}. Δ and better / worse: against the base settings of the same mode (by MRR per query). Rank-1 lost: keyword (base) rank-1 hits this engine does not have at rank 1.`, '',
    markdownTable(['set', 'repository', 'engine', 'queries', 'R@5 / MRR', 'Δ vs base', 'better / worse', 'keyword rank-1 lost', 'p50 ms'], table), '',
    '#### Pooled (every query of every repository)', '',
    markdownTable(['engine', 'queries', 'R@5 / MRR', 'paraphrase R@5 (all)', 'paraphrase R@5 (dev)', 'repositories behind keyword (R@5 or MRR)'], pooled), '',
    '#### Per kind (R@5 / MRR (queries))', '',
    ...kinds.map((k) => `- ${k.join(' · ')}`), ''].join('\n');
  const name = optString(opts, 'record');
  if (name) recordResult(name, { commit: commitInfo(), variants, base, provider, rows: (rows as Array<Record<string, unknown>>).map(({ queriesScored, ...r }) => ({ ...r, scores: (queriesScored as QueryScore[]).map((q) => [q.id, q.r1, q.r5, q.mrr]) })) }, text);
  process.stdout.write(`${text}\n`);
  return 0;
}

await runMain(import.meta.url, 'settings-ab', main);

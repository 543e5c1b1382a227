// Compares code models through the product's search path from settings-ab.ts records (`--record`):
// one record per model, each made over index copies re-embedded with that model (a model change
// re-embeds without re-chunking), the base record (or `--keyword`'s) also holding the keyword engine. Per repository:
// keyword, then each model's semantic (vector channel alone) and hybrid R@5 / MRR@10; per model the
// sets its hybrid gains / loses against the base model's hybrid (by MRR@10, and by R@5), pooled and
// paraphrase figures, the dev sets, and the identifier queries (kinds identifier / symbol, from the
// golden files the roots' `.done` files name) that hold rank 1 in keyword but lose it in the model's
// hybrid. Reads records only: the figures are settings-ab's. The decision rule it serves is the
// shipping rule of issue 33 (gains on most sets, no dev set drops, no identifier rank 1 lost).
//
//   node --experimental-transform-types bench/model/path-compare.ts --roots DIR --base NAME=REC.json
//        --variant NAME=REC.json … [--keyword REC.json (when the base record has no keyword rows)] [--note 'how the records were made'] [--md OUT.md]
// REC.json#V takes a record's settings variant V (settings-ab --variants) as that model's engines: fusion settings side by side.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readGolden } from '../lib/queries.ts';
import { fmtNum, markdownTable, mean, optList, optString, parseArgs, runMain } from '../lib/util.ts';

type Query = [id: string, r1: number, r5: number, mrr: number];
interface Row { set: string; repo: string; engine: string; r5: number; mrr: number; byKind: Record<string, { n: number; r5: number; mrr: number }>; scores: Query[] }
interface Model { name: string; file: string; rows: Row[]; commit?: { sha?: string | null } }

const f3 = (x: number) => fmtNum(x, 3);
const pair = (r: { r5: number; mrr: number } | undefined) => (r ? `${f3(r.r5)} / ${f3(r.mrr)}` : '–');
const EPS = 1e-9;

/**
 * `NAME=REC.json`, or `NAME=REC.json#V`: the record's settings variant V (its engines `hybrid:V`,
 * `semantic:V`) as the model's hybrid and semantic — fusion settings compared like models.
 */
function load(spec: string): Model {
  const eq = spec.indexOf('=');
  const [file, variant] = spec.slice(eq + 1).split('#');
  const rec = JSON.parse(fs.readFileSync(file, 'utf8')) as { rows: Row[]; commit?: { sha?: string | null } };
  const rows = variant === undefined ? rec.rows : rec.rows.flatMap((r) => {
    const [engine, v] = r.engine.split(':');
    if (engine === 'keyword' && v === undefined) return [r];
    return v === variant ? [{ ...r, engine }] : [];
  });
  return { name: spec.slice(0, eq), file: `${path.basename(file)}${variant === undefined ? '' : `#${variant}`}`, rows, commit: rec.commit };
}

/** Query id → kind, per repository, from the golden files the roots' `.done` files name. */
function kinds(roots: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const f of fs.readdirSync(roots).filter((x) => x.endsWith('.done'))) {
    const meta = JSON.parse(fs.readFileSync(path.join(roots, f), 'utf8')) as { golden: string };
    out.set(f.slice(0, -'.done'.length), new Map(readGolden(meta.golden).map((g) => [g.id ?? g.query, g.kind])));
  }
  return out;
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const base = load(optString(opts, 'base')!);
  const models = [base, ...optList(opts, 'variant').map(load)];
  const kindOf = kinds(path.resolve(optString(opts, 'roots')!));
  // The keyword engine: the base record's, or another record's (`--keyword`) when the base ran without it.
  const kwModel = optString(opts, 'keyword') ? load(`keyword=${optString(opts, 'keyword')}`) : base;
  const repos = kwModel.rows.filter((r) => r.engine === 'keyword').map((r) => ({ set: r.set, repo: r.repo }));
  const row = (m: Model, repo: string, engine: string) => m.rows.find((r) => r.repo === repo && r.engine === engine);
  const kw = (repo: string) => row(kwModel, repo, 'keyword')!;

  const perSet = repos.map(({ set, repo }) => [set, repo, String(kw(repo).scores.length), pair(kw(repo)),
    ...models.flatMap((m) => [pair(row(m, repo, 'semantic')), pair(row(m, repo, 'hybrid'))])]);

  const summary: string[][] = [];
  const lostLines: string[] = [];
  for (const m of models) {
    let up = 0, down = 0, upR5 = 0, downR5 = 0, aheadKw = 0, behindKw = 0;
    const all: Query[] = [], sem: Query[] = [], para: Query[] = [], devPara: Query[] = [];
    const lost: string[] = [], lostVsBase: string[] = [];
    const dev: string[] = [];
    for (const { set, repo } of repos) {
      const h = row(m, repo, 'hybrid')!, hb = row(base, repo, 'hybrid')!, k = kw(repo);
      if (h.mrr > hb.mrr + EPS) up++; else if (h.mrr < hb.mrr - EPS) down++;
      if (h.r5 > hb.r5 + EPS) upR5++; else if (h.r5 < hb.r5 - EPS) downR5++;
      if (h.r5 > k.r5 + EPS || h.mrr > k.mrr + EPS) { if (!(h.r5 < k.r5 - EPS || h.mrr < k.mrr - EPS)) aheadKw++; }
      if (h.r5 < k.r5 - EPS || h.mrr < k.mrr - EPS) behindKw++;
      all.push(...h.scores);
      sem.push(...(row(m, repo, 'semantic')?.scores ?? []));
      const kinds = kindOf.get(repo) ?? new Map<string, string>();
      for (const q of h.scores) if (kinds.get(q[0]) === 'paraphrase') (set === 'dev' ? [para, devPara] : [para]).forEach((a) => a.push(q));
      for (let i = 0; i < h.scores.length; i++) {
        const id = h.scores[i][0];
        if (!['identifier', 'symbol'].includes(kinds.get(id) ?? '')) continue;
        if (k.scores[i][1] > 0 && !(h.scores[i][1] > 0)) lost.push(`${repo}: ${id}`);
        if (hb.scores[i][1] > 0 && !(h.scores[i][1] > 0)) lostVsBase.push(`${repo}: ${id}`);
      }
      if (set === 'dev') dev.push(`${repo} ${pair(h)}`);
    }
    const pooled = (qs: Query[]) => (qs.length ? `${f3(mean(qs.map((q) => q[2])))} / ${f3(mean(qs.map((q) => q[3])))}` : '–');
    summary.push([m.name, m === base ? '–' : `${up} / ${down}`, m === base ? '–' : `${upR5} / ${downR5}`, `${aheadKw} / ${behindKw}`,
      pooled(all), pooled(sem), `${f3(mean(para.map((q) => q[2])))} (${para.length})`, `${f3(mean(devPara.map((q) => q[2])))} (${devPara.length})`,
      dev.join('; '), `${lost.length}`, m === base ? '–' : `${lostVsBase.length}`]);
    if (lost.length || lostVsBase.length) lostLines.push(`- ${m.name}: vs keyword ${lost.join(', ') || '–'}; vs ${base.name} hybrid ${lostVsBase.join(', ') || '–'}`);
  }

  const kindLines = repos.map(({ repo }) => {
    const k = kw(repo);
    return `- ${repo} · ${Object.entries(k.byKind).map(([kind, v]) => `${kind} (${v.n}): keyword ${f3(v.r5)}/${f3(v.mrr)}${models.map((m) => {
      const h = row(m, repo, 'hybrid')?.byKind[kind], s = row(m, repo, 'semantic')?.byKind[kind];
      return ` · ${m.name} sem ${s ? `${f3(s.r5)}/${f3(s.mrr)}` : '–'} hyb ${h ? `${f3(h.r5)}/${f3(h.mrr)}` : '–'}`;
    }).join('')}`).join(' | ')}`;
  });

  const text = [`### Models through the product path (settings-ab records; base model ${base.name})`, '',
    ...(optString(opts, 'note') ? [optString(opts, 'note')!, ''] : []),
    `Records: ${models.map((m) => `${m.name} ${m.file}${m.commit?.sha ? ` (commit ${m.commit.sha.slice(0, 7)})` : ''}`).join('; ')}.`, '',
    '#### Per repository (R@5 / MRR@10; semantic = the vector channel alone)', '',
    markdownTable(['set', 'repository', 'queries', 'keyword', ...models.flatMap((m) => [`${m.name} semantic`, `${m.name} hybrid`])], perSet), '',
    `#### Per model (hybrid against ${base.name}'s hybrid, per set; pooled over every query)`, '',
    markdownTable(['model', 'sets up / down (MRR)', 'sets up / down (R@5)', 'sets ahead / behind keyword', 'hybrid pooled R@5 / MRR', 'semantic pooled R@5 / MRR', 'paraphrase R@5 (all)', 'paraphrase R@5 (dev)', 'dev hybrid', 'identifier rank-1 lost vs keyword', `… vs ${base.name} hybrid`], summary), '',
    ...(lostLines.length ? ['Identifier / symbol queries that lost rank 1:', '', ...lostLines, ''] : ['No identifier or symbol query lost rank 1.', '']),
    '#### Per kind (R@5 / MRR@10)', '', ...kindLines, ''].join('\n');
  const md = optString(opts, 'md');
  if (md) fs.writeFileSync(md, `${text}\n`);
  process.stdout.write(`${text}\n`);
  return 0;
}

await runMain(import.meta.url, 'path-compare', main);

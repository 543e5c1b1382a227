// The confidence gate's thresholds fitted offline, leave one repository out: on fusion-dump.ts's lists
// (keyword's finished ranking, the vector channel's neighbours by cosine), every gate of a grid
// (fusion-replay.ts `cgate:VGAP:KLEAD:AT`, `cgany`, `cgtype:stated`) is replayed once per query; for each
// repository the gate that does best on the other repositories (repositories up minus down against the replayed
// default fusion, ties broken by the summed Δ(R@5 + MRR@10); no identifier query losing keyword's rank 1) is chosen and the
// held-out repository is scored with it. Reports per set and per golden kind (paraphrase especially):
// held-out against keyword and against the default fusion, identifier rank-1 losses, the gate each fold
// chose, what the gate can read (how often the vector channel's first file is relevant where a gate would
// act, by cosine lead), and the gate fitted on every repository (the one to confirm through the product path).
//
// `--objective sum`: the summed Δ alone (a few repositories' large gains can outweigh most repositories' losses).
//
//   node --experimental-transform-types bench/model/fusion-gate.ts --dump DIR [--grid narrow|wide] [--objective sets|sum] [--record NAME]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseQuery } from '../../core/search/query.ts';
import { queryType } from '../../core/search/query-type.ts';
import { distinct, scoreQuery } from '../lib/metrics.ts';
import { fmtNum, markdownTable, mean, optString, parseArgs, runMain } from '../lib/util.ts';
import { commitInfo, recordResult } from '../lib/record.ts';
import { DEFAULT_VARIANT, gateSignals, parseVariant, replay, type DumpQuery } from './fusion-replay.ts';
import { keywordRoute } from '../../core/search/fuse.ts';

interface Dump { set: string; repo: string; provider: string; queries: DumpQuery[] }
interface S { r5: number; mrr: number; r1: boolean }

/**
 * The grid: every gate the folds choose from (`default` = no gate). `wide`: more thresholds, the
 * vector file lifted to rank 1 too, the guard opened to 0, every fusion type.
 */
export function gateGrid(kind: 'narrow' | 'wide' = 'narrow'): string[] {
  const out = ['default'];
  if (kind === 'wide') {
    for (const vg of [0.01, 0.02, 0.03, 0.04, 0.05, 0.07, 0.1, 0.15])
      for (const kl of ['1.05', '1.1', '1.2', '1.35', '1.5', '2', 'Infinity'])
        for (const any of [false, true]) {
          if (any && kl === 'Infinity') continue;
          for (const at of [1, 2, 3])
            for (const g of [null, 0]) out.push(`cgate:${vg}:${kl}:${at}${any ? '+cgany' : ''}${g === null ? '' : `+cgguard:${g}`}`);
        }
    return out;
  }
  for (const vg of [0.02, 0.03, 0.05, 0.07, 0.1])
    for (const kl of ['1.1', '1.2', '1.5', 'Infinity'])
      for (const any of [false, true]) {
        if (any && kl === 'Infinity') continue;
        for (const at of [2, 3])
          for (const type of ['', '+cgtype:stated']) out.push(`cgate:${vg}:${kl}:${at}${any ? '+cgany' : ''}${type}`);
      }
  return out;
}

const isIdentifier = (q: DumpQuery) => q.kind === 'identifier' || q.kind === 'symbol' || queryType(parseQuery(q.query)) === 'symbol';

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const dir = path.resolve(optString(opts, 'dump') ?? 'bench-results/fusion-dump');
  const dumps = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Dump)
    .sort((a, b) => a.repo.localeCompare(b.repo));
  const gridKind = (optString(opts, 'grid') ?? 'narrow') as 'narrow' | 'wide';
  const objective = optString(opts, 'objective') ?? 'sets';
  const grid = gateGrid(gridKind);
  const sc = (files: readonly string[], rel: readonly string[]): S => {
    const s = scoreQuery(files, rel);
    return { r5: s.recall5, mrr: s.mrr10, r1: s.recall1 > 0 };
  };
  // Scores per repository, per variant, per query (replayed once).
  const kw = dumps.map((d) => d.queries.map((q) => sc(distinct(q.keyword.map((r) => r[0])), q.relevant)));
  const product = dumps.map((d) => d.queries.map((q) => sc(distinct(q.hybrid.map((r) => r[0])), q.relevant)));
  const byVar = new Map<string, S[][]>();
  for (const name of grid) {
    const v = name === 'default' ? DEFAULT_VARIANT : parseVariant(name);
    byVar.set(name, dumps.map((d) => d.queries.map((q) => sc(replay(q, v), q.relevant))));
  }
  const ids = dumps.map((d) => d.queries.map(isIdentifier));
  const cmpOf = (a: { r5: number; mrr: number }, b: { r5: number; mrr: number }) => (a.r5 < b.r5 - 1e-9 || a.mrr < b.mrr - 1e-9 ? 'down' : a.r5 > b.r5 + 1e-9 || a.mrr > b.mrr + 1e-9 ? 'up' : 'level');
  const m = (xs: readonly S[]) => ({ r5: mean(xs.map((x) => x.r5)), mrr: mean(xs.map((x) => x.mrr)) });
  const idLost = (ri: number, s: readonly S[]) => kw[ri].filter((k, i) => ids[ri][i] && k.r1 && !s[i].r1).length;
  const def = byVar.get('default')!;
  // A gate's fit on a set of repositories: per repository Δ(R@5 + MRR) against the default, summed; -Infinity with an identifier loss.
  // Repositories up minus repositories down (R@5 or MRR), the summed Δ(R@5 + MRR) breaking ties (a gate that
  // wins a large sum on a few repositories and loses most is the mechanism the keep rule drops).
  const fit = (name: string, repos: readonly number[]) => {
    const s = byVar.get(name)!;
    let t = 0;
    let net = 0;
    for (const ri of repos) {
      if (idLost(ri, s[ri]) > idLost(ri, def[ri])) return -Infinity;
      const a = m(s[ri]);
      const b = m(def[ri]);
      const c = cmpOf(a, b);
      net += c === 'up' ? 1 : c === 'down' ? -1 : 0;
      t += a.r5 - b.r5 + a.mrr - b.mrr;
    }
    return objective === 'sum' ? t : net + Math.max(-0.99, Math.min(0.99, t));
  };
  const best = (repos: readonly number[]) => {
    let bn = 'default';
    let bf = fit('default', repos);
    for (const name of grid) {
      const f = fit(name, repos);
      if (f > bf + 1e-12) [bn, bf] = [name, f];
    }
    return bn;
  };
  const all = dumps.map((_, i) => i);
  const chosen = all.map((h) => best(all.filter((i) => i !== h)));
  const held = all.map((h) => byVar.get(chosen[h])![h]);
  const f3 = (x: number) => fmtNum(x, 3);
  const sgn = (x: number) => `${x >= 0 ? '+' : ''}${f3(x)}`;
  const pair = (x: { r5: number; mrr: number }) => `${f3(x.r5)} / ${f3(x.mrr)}`;
  const cmp = cmpOf;
  const rows: string[][] = [];
  const count = { kw: { up: 0, down: 0 }, def: { up: 0, down: 0 }, product: { up: 0, down: 0 } };
  for (const ri of all) {
    const k = m(kw[ri]);
    const p = m(product[ri]);
    const d = m(def[ri]);
    const h = m(held[ri]);
    const para = dumps[ri].queries.map((q, i) => i).filter((i) => dumps[ri].queries[i].kind === 'paraphrase');
    const pr = (s: readonly S[]) => (para.length ? f3(mean(para.map((i) => s[i].r5))) : '–');
    for (const [key, base] of [['kw', k], ['def', d], ['product', p]] as const) {
      const c = cmp(h, base);
      if (c !== 'level') count[key][c]++;
    }
    rows.push([dumps[ri].set, dumps[ri].repo, String(dumps[ri].queries.length), pair(k), pair(p), pair(d), pair(h), cmp(h, k), cmp(h, d),
      `${pr(kw[ri])} / ${pr(def[ri])} / ${pr(held[ri])} (${para.length})`, String(idLost(ri, held[ri])), `\`${chosen[ri]}\``]);
  }
  // Per golden kind, every held-out repository pooled (and the dev pair apart).
  const kinds = [...new Set(dumps.flatMap((d) => d.queries.map((q) => q.kind)))].sort();
  const kindRows: string[][] = [];
  for (const scope of ['all', 'dev'] as const) {
    for (const kind of kinds) {
      const pick = (src: S[][]) => all.filter((ri) => scope === 'all' || dumps[ri].set === 'dev').flatMap((ri) => src[ri].filter((_, i) => dumps[ri].queries[i].kind === kind));
      const n = pick(kw).length;
      if (!n) continue;
      kindRows.push([scope, kind, String(n), pair(m(pick(kw))), pair(m(pick(product))), pair(m(pick(def))), pair(m(pick(held)))]);
    }
  }
  const finalGate = best(all);
  const fin = byVar.get(finalGate)!;
  const finRows = all.map((ri) => [dumps[ri].repo, pair(m(def[ri])), pair(m(fin[ri])), cmp(m(fin[ri]), m(def[ri])), cmp(m(fin[ri]), m(kw[ri])), String(idLost(ri, fin[ri]))]);
  const opened = (name: string) => {
    // How many non-routed queries the gate moved (answer's top 5 differs from the default's).
    const v = parseVariant(name);
    let moved = 0;
    for (const d of dumps) for (const q of d.queries) if (JSON.stringify(replay(q, v).slice(0, 5)) !== JSON.stringify(replay(q, DEFAULT_VARIANT).slice(0, 5))) moved++;
    return moved;
  };
  // What the gate can read: per cosine-gap bucket, the fused queries whose vector first file stands outside the
  // default's top two (where a gate would act), and how many of those files are relevant.
  const buckets: Array<[number, number]> = [[0, 0.02], [0.02, 0.05], [0.05, 0.1], [0.1, 2]];
  const sigRows = buckets.map(([lo, hi]) => {
    let n = 0;
    let act = 0;
    let rel = 0;
    let paraAct = 0;
    let paraRel = 0;
    for (const d of dumps) for (const q of d.queries) {
      if (keywordRoute(parseQuery(q.query)) || !q.vector.length) continue;
      const perFile = new Map<string, number>();
      const vec = q.vector.filter((r) => {
        const k = (perFile.get(r[0]) ?? 0) + 1;
        perFile.set(r[0], k);
        return k <= 2;
      }).slice(0, 50);
      const sig = gateSignals(q.keyword, vec);
      if (sig.vgap < lo || sig.vgap >= hi) continue;
      n++;
      if (replay(q, DEFAULT_VARIANT).slice(0, 2).includes(sig.vfile)) continue;
      act++;
      const r = q.relevant.includes(sig.vfile);
      if (r) rel++;
      if (q.kind === 'paraphrase') {
        paraAct++;
        if (r) paraRel++;
      }
    }
    return [`${lo}–${hi}`, String(n), String(act), String(rel), `${paraAct} / ${paraRel}`];
  });
  const text = [
    `### Confidence-gated fusion guard, leave one repository out (${dumps.length} repositories, ${grid.length} gates of the ${gridKind} grid; dumps ${dumps[0]?.provider ?? ''})`, '',
    `Each row: the gate chosen on the other repositories (${objective === 'sum' ? 'the summed Δ(R@5 + MRR@10) against the replayed default fusion' : 'repositories up minus down against the replayed default fusion, ties broken by the summed Δ(R@5 + MRR@10)'}; no identifier rank-1 loss), scored on the held-out repository. \`product\` is hybrid as shipped (its own answer), \`default\` its replay here. Paraphrase R@5: keyword / default / held-out gate.`, '',
    markdownTable(['set', 'repository', 'n', 'keyword', 'product hybrid', 'default (replay)', 'held-out gate', 'vs keyword', 'vs default', 'paraphrase R@5', 'id rank-1 lost vs keyword', 'gate chosen on the others'], rows), '',
    `Held-out gate against keyword: ${count.kw.up} up / ${count.kw.down} down; against the default replay: ${count.def.up} up / ${count.def.down} down; against the product's hybrid: ${count.product.up} up / ${count.product.down} down.`, '',
    '#### Per golden kind (held-out answers pooled; `dev` = MudBlazor + FluentAvalonia), R@5 / MRR@10', '',
    markdownTable(['scope', 'kind', 'n', 'keyword', 'product hybrid', 'default (replay)', 'held-out gate'], kindRows), '',
    '#### What the gate reads: the vector channel\'s first file where a gate would act', '',
    'Fused queries (not routed to keyword) by the cosine lead of the vector list\'s first file over its second; of them, those whose first vector file stands outside the default fusion\'s top two files, and how many of those files are relevant (paraphrases apart).', '',
    markdownTable(['cosine lead', 'fused queries', 'first vector file outside the top two', 'of them relevant', 'paraphrases: outside / relevant'], sigRows), '',
    `#### Fitted on all ${dumps.length}: \`${finalGate}\` (top 5 changed on ${finalGate === 'default' ? 0 : opened(finalGate)} queries)`, '',
    markdownTable(['repository', 'default (replay)', 'gate', 'vs default', 'vs keyword', 'id rank-1 lost vs keyword'], finRows), '',
  ].join('\n');
  const name = optString(opts, 'record');
  if (name) recordResult(name, { commit: commitInfo(), grid: gridKind, objective, chosen: Object.fromEntries(all.map((ri) => [dumps[ri].repo, chosen[ri]])), finalGate }, text);
  process.stdout.write(`${text}\n`);
  return 0;
}

await runMain(import.meta.url, 'fusion-gate', main);

// `node --experimental-transform-types bench/rerank-fit.ts`: learns how rerank's factors combine,
// offline, from a dump of bench/rerank-dump.ts. A candidate is re-scored as fused × Π factor^w (one
// exponent per named factor, or per factor and query group), its pass re-ordered distinct files first
// by the product's own file-tiers.ts, and each query's file-level R@5 / MRR@10 / R@1 computed as the
// eval does (bench/lib/metrics.ts). Raises computed from other candidates' scores (declaration,
// paired_file, canonical_variant) keep the value the product gave them (exponent 1): replaying them
// would be a second rerank. With every w = 1 the replay must give the product's answer (checked
// first: the share of queries whose first ten files equal the product's).
//
// Exponents are fitted by coordinate ascent over a small grid on the mean of the sets' MRR@10, with a
// penalty `--lambda` × |w − 1| per factor (a weight that moves to fit one set is noise), and checked
// leave-one-repository-out: for each set, fitted on the others, measured on it. `--by none|type|stated`:
// one vector, one per query type (symbol / question / mixed), or per symbol / asked / stated
// (query-type.ts isStated). The sample set is reported, never fitted on.
//
//   node --experimental-transform-types bench/rerank-fit.ts --dump dump.ndjson [--by type] [--lambda 0.002] [--md out.md]
//        [--json weights.json] [--only GROUP: fit that group's exponents only] [--sanity: the replay check only]
import * as fs from 'node:fs';
import type { Candidate } from '../core/search/candidates.ts';
import { newFileCounts, tierByFile } from '../core/search/file-tiers.ts';
import { distinct, scoreQuery } from './lib/metrics.ts';
import { markdownTable, mean, optString, parseArgs, runMain } from './lib/util.ts';
import type { DumpQuery } from './rerank-dump.ts';

/** Raises (set from other candidates' scores): kept as the product gave them. */
const FIXED = new Set(['declaration', 'paired_file', 'canonical_variant']);
/** The exponents tried for each factor. */
const GRID = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3];
const HELD_OUT_ONLY = new Set(['sample']);

interface Cand {
  path: string;
  fileId: number;
  hash: string;
  startLine: number;
  group?: string;
  /** log(fused × fixed factors). */
  fixed: number;
  /** The fitted factors' indexes and logs. */
  k: Int32Array;
  v: Float64Array;
}

type Shell = Candidate & { group?: string };

interface Pass {
  shells?: Shell[];
  maxHitsPerFile: number;
  sameFileFactor: number;
  collapseCopies?: boolean;
  cands: Cand[];
}

interface Q {
  set: string;
  id: string;
  query: string;
  kind: string;
  type: string;
  group: number;
  relevant: string[];
  answer: string[];
  passes: Pass[];
  /** The fitted factors this query's candidates hold. */
  has: Set<number>;
}

interface Score {
  r5: number;
  mrr: number;
  r1: number;
  /** The first ten distinct files, and the first ten hits' paths. */
  top: string[];
  hits: string[];
}

const isIdentifier = (q: Q) => q.kind === 'identifier' || q.kind === 'symbol' || q.type === 'symbol';

function groupNames(by: string): string[] {
  return by === 'type' ? ['symbol', 'question', 'mixed'] : by === 'stated' ? ['symbol', 'asked', 'stated'] : ['all'];
}

function groupOf(by: string, d: DumpQuery): number {
  if (by === 'type') return ['symbol', 'question', 'mixed'].indexOf(d.type);
  if (by === 'stated') return d.stated ? 2 : d.type === 'symbol' ? 0 : 1;
  return 0;
}

function load(file: string, by: string): { qs: Q[]; factors: string[] } {
  const factors: string[] = [];
  const index = new Map<string, number>();
  const qs: Q[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const d = JSON.parse(line) as DumpQuery;
    const has = new Set<number>();
    const passes = d.passes.map((p) => ({
      maxHitsPerFile: p.maxHitsPerFile, sameFileFactor: p.sameFileFactor, collapseCopies: p.collapseCopies,
      cands: p.cands.map((c) => {
        let fixed = Math.log(c.b);
        const k: number[] = [];
        const v: number[] = [];
        for (const [name, f] of c.x) {
          if (FIXED.has(name) || !(f > 0)) {
            fixed += Math.log(f);
            continue;
          }
          if (f === 1) continue;
          let i = index.get(name);
          if (i === undefined) index.set(name, (i = factors.push(name) - 1));
          k.push(i);
          v.push(Math.log(f));
          has.add(i);
        }
        return { path: c.p, fileId: c.f, hash: c.h, startLine: c.l, group: c.g, fixed, k: Int32Array.from(k), v: Float64Array.from(v) };
      }),
    }));
    qs.push({ set: d.set, id: d.id, query: d.query, kind: d.kind, type: d.type, group: groupOf(by, d), relevant: d.relevant, answer: d.answer, passes, has });
  }
  return { qs, factors };
}

/** The replayed list's paths under exponents `w` (w[group × nFactors + factor]). */
function replay(q: Q, w: Float64Array, nf: number): string[] {
  const perFile = newFileCounts();
  const out: string[] = [];
  const off = q.group * nf;
  for (const p of q.passes) {
    // (The candidates are built once and reset on each replay: tierByFile sorts them and adds its factors.)
    p.shells ??= p.cands.map((c) => ({ path: c.path, fileId: c.fileId, hash: c.hash, startLine: c.startLine, score: 0, factors: [], group: c.group }) as unknown as Shell);
    const shells = p.shells;
    for (let i = 0; i < shells.length; i++) {
      const c = p.cands[i];
      let s = c.fixed;
      for (let j = 0; j < c.k.length; j++) s += w[off + c.k[j]] * c.v[j];
      const sh = shells[i];
      sh.score = Math.exp(s);
      sh.factors.length = 0;
      sh.fileRank = undefined;
    }
    const cands = [...shells];
    const ranked = tierByFile(cands, { maxHitsPerFile: p.maxHitsPerFile, sameFileFactor: p.sameFileFactor, collapseCopies: p.collapseCopies, groupOf: (c) => (c as Shell).group }, perFile);
    for (const c of ranked) out.push(c.path);
  }
  return out;
}

function score(q: Q, w: Float64Array, nf: number): Score {
  const paths = replay(q, w, nf);
  const s = scoreQuery(paths, q.relevant);
  return { r5: s.recall5, mrr: s.mrr10, r1: s.recall1, top: distinct(paths).slice(0, 10), hits: paths.slice(0, 10) };
}

/** Mean over `sets` of each set's mean MRR@10. */
function objective(mrr: Float64Array, qs: readonly Q[], sets: readonly string[]): number {
  const sum = new Map<string, [number, number]>();
  qs.forEach((q, i) => {
    const s = sum.get(q.set) ?? [0, 0];
    s[0] += mrr[i];
    s[1]++;
    sum.set(q.set, s);
  });
  return mean(sets.map((s) => {
    const [a, n] = sum.get(s)!;
    return a / n;
  }));
}

/**
 * Coordinate ascent over the grid on the training sets' mean MRR@10 − lambda × Σ|w − 1|; sweeps until
 * no weight moves (at most `sweeps`). Only the queries holding a factor are re-scored when it moves.
 */
function fit(qs: readonly Q[], train: readonly string[], nf: number, ng: number, lambda: number, only: number | null, sweeps = 4): Float64Array {
  const w = new Float64Array(nf * ng).fill(1);
  const inTrain = new Set(train);
  const idx = qs.map((q, i) => (inTrain.has(q.set) ? i : -1)).filter((i) => i >= 0);
  const tq = idx.map((i) => qs[i]);
  const mrr = Float64Array.from(tq.map((q) => score(q, w, nf).mrr));
  const penalty = () => lambda * w.reduce((a, x) => a + Math.abs(x - 1), 0);
  let best = objective(mrr, tq, train) - penalty();
  for (let sweep = 0; sweep < sweeps; sweep++) {
    let moved = false;
    for (let g = 0; g < ng; g++) {
      if (only !== null && g !== only) continue;
      for (let f = 0; f < nf; f++) {
        const touched = tq.map((q, i) => (q.group === g && q.has.has(f) ? i : -1)).filter((i) => i >= 0);
        if (!touched.length) continue;
        const at = g * nf + f;
        const was = w[at];
        let bestValue = was;
        let bestMrr: Float64Array | null = null;
        for (const value of GRID) {
          if (value === was) continue;
          w[at] = value;
          const trial = Float64Array.from(mrr);
          for (const i of touched) trial[i] = score(tq[i], w, nf).mrr;
          const o = objective(trial, tq, train) - penalty();
          if (o > best + 1e-9) {
            best = o;
            bestValue = value;
            bestMrr = trial;
          }
        }
        w[at] = bestValue;
        if (bestMrr) {
          mrr.set(bestMrr);
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return w;
}

/**
 * Exponents as setting factor_weights (rows all / symbol / question / mixed / stated): `asked` goes to
 * the question and mixed rows, and the stated row repeats each of their factors (1 included), since a
 * stated query reads its type's row first.
 */
export function asSetting(w: ArrayLike<number>, factors: readonly string[], by: string): Record<string, Record<string, number>> {
  const nf = factors.length;
  const row = (g: number, all = false): Record<string, number> => Object.fromEntries(factors.map((f, i): [string, number] => [f, w[g * nf + i]]).filter(([, x]) => all || x !== 1));
  if (by === 'type') return { symbol: row(0), question: row(1), mixed: row(2) };
  if (by === 'stated') {
    const asked = row(1);
    const stated = row(2, true);
    return { symbol: row(0), question: asked, mixed: asked, stated: Object.fromEntries(Object.entries(stated).filter(([f, x]) => x !== 1 || f in asked)) };
  }
  return { all: row(0) };
}

const fmt = (rows: readonly Score[]) => (rows.length ? `${mean(rows.map((r) => r.r5)).toFixed(3)} / ${mean(rows.map((r) => r.mrr)).toFixed(3)}` : '–');

function weightsTable(w: Float64Array, factors: readonly string[], groups: readonly string[]): string {
  const nf = factors.length;
  const rows = factors.map((f, i) => [f, ...groups.map((_, g) => w[g * nf + i].toString())]).filter((r) => r.slice(1).some((x) => x !== '1'));
  return rows.length ? markdownTable(['factor', ...groups], rows) : '(every exponent 1)\n';
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const dump = optString(opts, 'dump');
  if (!dump) throw new Error('give --dump dump.ndjson (bench/rerank-dump.ts)');
  const by = optString(opts, 'by') ?? 'none';
  const lambda = Number(optString(opts, 'lambda') ?? '0.002');
  const groups = groupNames(by);
  // --only GROUP: only that group's exponents move (the others stay 1).
  const onlyName = optString(opts, 'only');
  const only = onlyName === undefined ? null : groups.indexOf(onlyName);
  if (only === -1) throw new Error(`--only: one of ${groups.join(', ')}`);
  const { qs, factors } = load(dump, by);
  const nf = factors.length;
  const ng = groups.length;
  const ones = new Float64Array(nf * ng).fill(1);
  const base = qs.map((q) => score(q, ones, nf));
  const sets = [...new Set(qs.map((q) => q.set))];
  const fitted = sets.filter((s) => !HELD_OUT_ONLY.has(s));
  const out: string[] = [];
  out.push(`Dump ${dump}: ${qs.length} queries over ${sets.length} sets; ${nf} factors fitted (${factors.join(', ')}); kept as given: ${[...FIXED].join(', ')}. Grouping: ${by} (${groups.join(', ')})${onlyName ? `, only ${onlyName} fitted` : ''}; grid ${GRID.join(', ')}; penalty ${lambda} × |w − 1|.\n`);
  // Sanity: the replay at w = 1 against the product's own answer.
  const same = qs.filter((q, i) => base[i].top.join('\n') === distinct(q.answer).slice(0, 10).join('\n'));
  const sameMetric = qs.filter((q, i) => {
    const a = scoreQuery(q.answer, q.relevant);
    return a.mrr10 === base[i].mrr && a.recall5 === base[i].r5;
  });
  const sameHits = qs.filter((q, i) => base[i].hits.join('\n') === q.answer.slice(0, 10).join('\n'));
  out.push(`Replay at w = 1 against the product's answer: first ten files identical for ${same.length} of ${qs.length} queries (${((100 * same.length) / qs.length).toFixed(1)}%); first ten hits identical for ${sameHits.length} (${((100 * sameHits.length) / qs.length).toFixed(1)}%; past the tenth hit the product lists deeper depth tiers, depth.ts, which the replay of the first tier does not); R@5 and MRR@10 identical for ${sameMetric.length} (${((100 * sameMetric.length) / qs.length).toFixed(1)}%).\n`);
  const differ = qs.filter((q, i) => base[i].hits.join('\n') !== q.answer.slice(0, 10).join('\n'));
  if (differ.length) out.push('First ten hits that differ:\n```\n' + differ.map((q) => `${q.set} ${q.id} (${q.type}) ${q.query.slice(0, 80)}`).join('\n') + '\n```\n');
  if (opts.sanity) {
    process.stdout.write(out.join('\n') + '\n');
    return 0;
  }
  // Leave one repository out.
  const held: Score[] = new Array(qs.length);
  const foldWeights = new Map<string, Float64Array>();
  for (const s of sets) {
    const w = fit(qs, fitted.filter((x) => x !== s), nf, ng, lambda, only);
    foldWeights.set(s, w);
    qs.forEach((q, i) => {
      if (q.set === s) held[i] = score(q, w, nf);
    });
    process.stderr.write(`fold ${s} done\n`);
  }
  const all = fit(qs, fitted, nf, ng, lambda, only);
  const inSample = qs.map((q) => score(q, all, nf));
  let up = 0;
  let down = 0;
  const product = qs.map((q) => scoreQuery(q.answer, q.relevant));
  out.push('Per set, R@5 / MRR@10: the product, the replay at w = 1 (base), leave-one-repository-out held out (fitted on the other sets), and fitted on all the sets (in sample):\n');
  out.push(markdownTable(['set', 'n', 'product', 'base (w = 1)', 'held out', 'in sample', 'MRR', 'id@1 base → held'], sets.map((s) => {
    const ix = qs.map((q, i) => (q.set === s ? i : -1)).filter((i) => i >= 0);
    const b = ix.map((i) => base[i]);
    const h = ix.map((i) => held[i]);
    const d = mean(h.map((x) => x.mrr)) - mean(b.map((x) => x.mrr));
    if (!HELD_OUT_ONLY.has(s)) {
      if (d > 1e-9) up++;
      else if (d < -1e-9) down++;
    }
    const ids = ix.filter((i) => isIdentifier(qs[i]));
    return [s, String(ix.length), `${mean(ix.map((i) => product[i].recall5)).toFixed(3)} / ${mean(ix.map((i) => product[i].mrr10)).toFixed(3)}`, fmt(b), fmt(h), fmt(ix.map((i) => inSample[i])),
      d > 1e-9 ? 'up' : d < -1e-9 ? 'down' : '=', `${ids.filter((i) => base[i].r1 === 1).length} → ${ids.filter((i) => held[i].r1 === 1).length} of ${ids.length}`];
  })));
  const lost = qs.filter((q, i) => isIdentifier(q) && base[i].r1 === 1 && held[i].r1 !== 1);
  out.push(`\nHeld out against base: MRR@10 up on ${up} sets, down on ${down} (of ${fitted.length}; sample not counted); identifier queries that lost rank 1: ${lost.length}${lost.length ? ` (${lost.map((q) => `${q.set} ${q.id}`).join(', ')})` : ''}.\n`);
  const pooled = qs.map((q, i) => i).filter((i) => !HELD_OUT_ONLY.has(qs[i].set));
  out.push('By query type, every set but sample pooled (R@5 / MRR@10):\n');
  out.push(markdownTable(['type', 'n', 'base', 'held out', 'in sample'], ['symbol', 'question', 'mixed'].map((t) => {
    const ix = pooled.filter((i) => qs[i].type === t);
    return [t, String(ix.length), fmt(ix.map((i) => base[i])), fmt(ix.map((i) => held[i])), fmt(ix.map((i) => inSample[i]))];
  })));
  out.push('\nExponents fitted on all the sets but sample (1 unless listed):\n');
  out.push(weightsTable(all, factors, groups));
  out.push(`\nAs setting factor_weights: \`${JSON.stringify(asSetting(all, factors, by))}\`\n`);
  out.push('\nHow often each fold moved each exponent (of the folds; a weight moved by few folds fits few sets):\n');
  const moves = factors.flatMap((f, i) => groups.map((g, j) => {
    const vals = [...foldWeights.values()].map((w) => w[j * nf + i]);
    const n = vals.filter((v) => v !== 1).length;
    return n ? [f, g, String(n), [...new Set(vals)].sort((a, b) => a - b).join(' ')] : null;
  })).filter((r): r is string[] => r !== null);
  out.push(moves.length ? markdownTable(['factor', 'group', 'folds moved', 'values'], moves) : '(none moved)\n');
  const md = out.join('\n') + '\n';
  process.stdout.write(md);
  const mdFile = optString(opts, 'md');
  if (mdFile) fs.writeFileSync(mdFile, md);
  const jsonFile = optString(opts, 'json');
  // (folds: each held-out set's exponents, fitted on the others — to check them through the product path.)
  if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify({ by, lambda, groups, factors, weights: Array.from(all), factor_weights: asSetting(all, factors, by), folds: Object.fromEntries([...foldWeights].map(([s, w]) => [s, asSetting(w, factors, by)])) }, null, 1));
  return 0;
}

await runMain(import.meta.url, 'rerank-fit', main);

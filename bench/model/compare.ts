// Offline comparison of semantic models on golden sets, for choosing the pretrained code model's
// recipe: for each set (an indexed corpus and its queries), the keyword ranking (hci, in process),
// then per variant — `learned` (trained on the corpus, as `hci index` would), `pre:FILE` (a
// pretrained model file; one with a query table, format 2, embeds the queries with it), `asym:CHUNKFILE|QUERYFILE`, `combo:FILE:W` (both, concatenated: cosine = W·pretrained + (1−W)·learned)
// — and mixes of them (parts joined by `+`, `@weight` each) — the vector channel's file ranking (exact KNN over f32 vectors) and the seed fusion with keyword
// (bench/lib/fusion-proto.ts), at file level per query kind, and how many queries have a relevant
// file in the first five of the vector list, of keyword's or the vector's (the either-list ceiling); over several sets, each
// set's vector figures side by side and the sets each variant gains / loses. The pipeline's own figures come from
// bench/semantic-eval.ts; this is the fast loop that picks what goes into it.
//
//   node dist/bench/model/compare.js --set NAME=ROOT:GOLDEN … --variants learned,pre:/tmp/a.bin,combo:/tmp/a.bin:0.5
import * as path from 'node:path';
import { openWorkspace } from '../../runtimes/node/index.ts';
import { KnnIndex } from '../../core/vector/knn.ts';
import { LearnedModel } from '../../core/vector/learned/model.ts';
import { LearnedProvider } from '../../core/vector/learned/provider.ts';
import { concatHalves } from '../../core/vector/combined/embedder.ts';
import { readIndexChunks } from '../lib/index-chunks.ts';
import { filesOf, fuse, SEED_FUSION, type ScoredFile } from '../lib/fusion-proto.ts';
import { readGolden, type GoldenQuery } from '../lib/queries.ts';
import { scoreQuery } from '../lib/metrics.ts';
import { fmtNum, markdownTable, mean, optList, parseArgs, runMain } from '../lib/util.ts';

interface Outcome { kind: string; r5: number; mrr: number; r1: boolean; top5: boolean }
interface M { n: number; r5: number; mrr: number }

function outcome(g: GoldenQuery, ranked: readonly string[]): Outcome {
  const s = scoreQuery(ranked, g.relevant);
  return { kind: g.kind, r5: s.recall5, mrr: s.mrr10, r1: s.recall1 > 0, top5: [...new Set(ranked)].slice(0, 5).some((p) => g.relevant.includes(p)) };
}

function agg(xs: readonly Outcome[]): M {
  return { n: xs.length, r5: mean(xs.map((x) => x.r5)), mrr: mean(xs.map((x) => x.mrr)) };
}

/** Row-major unit vectors [√w·a | √(1−w)·b], renormalized: the combined provider's arithmetic. */
export const concatRows = concatHalves;

const models = new Map<string, LearnedModel>();
async function modelFile(file: string): Promise<LearnedModel> {
  let m = models.get(file);
  if (!m) {
    const fs = await import('node:fs');
    m = LearnedModel.fromBytes(new Uint8Array(fs.readFileSync(file)));
    models.set(file, m);
  }
  return m;
}

interface SetSpec { name: string; root: string; golden: string }

export async function compare(sets: readonly SetSpec[], variants: readonly string[], log: (s: string) => void): Promise<string> {
  const out: string[] = [];
  const pooled = new Map<string, { vec: Outcome[]; fused: Outcome[]; lost: number; either: number }>();
  let kwPool: Outcome[] = [];
  // Per set: keyword's figures and each variant's vector and fused figures (the summary across sets).
  const perSet: Array<{ name: string; kw: M; vec: Map<string, M>; fused: Map<string, M> }> = [];
  for (const set of sets) {
    const golden = readGolden(set.golden);
    const kinds = [...new Set(golden.map((g) => g.kind))].sort();
    // The chunks first: the workspace may still hold its index when closed.
    const chunks = await readIndexChunks(set.root);
    const ws = await openWorkspace(set.root);
    const kwFiles = new Map<string, ScoredFile[]>();
    try {
      for (const g of golden) {
        const r = await ws.search({ query: g.query, limit: 30 });
        kwFiles.set(g.query, filesOf(r.hits));
      }
    } finally {
      ws.close();
    }
    const kw = golden.map((g) => outcome(g, kwFiles.get(g.query)!.map((f) => f.path)));
    kwPool = kwPool.concat(kw);
    const setRow = { name: set.name, kw: agg(kw), vec: new Map<string, M>(), fused: new Map<string, M>() };
    perSet.push(setRow);
    const texts = chunks.map((c) => c.text);
    const ids = chunks.map((c) => c.id);
    const pathOf = new Map(chunks.map((c) => [c.id, c.path]));
    log(`${set.name}: ${chunks.length} chunks, ${golden.length} queries`);
    let learned: LearnedModel | null = null;
    const learnedModel = () => {
      if (!learned) learned = new LearnedProvider({}).train(texts).model;
      return learned;
    };
    const rows: string[][] = [];
    const head = ['variant', ...['all', ...kinds].map((k) => `${k} (${golden.filter((g) => k === 'all' || g.kind === k).length})`), 'r1 lost', 'first 5 / either'];
    rows.push(['keyword', ...['all', ...kinds].map((k) => { const m = agg(kw.filter((o) => k === 'all' || o.kind === k)); return `${fmtNum(m.r5, 3)} / ${fmtNum(m.mrr, 3)}`; }), '', String(kw.filter((o) => o.top5).length)]);
    for (const v of variants) {
      // A variant is parts joined by '+', each `learned`, `pre:FILE` or `asym:CHUNKFILE|QUERYFILE`, with `@weight` (default 1):
      // the parts' unit vectors concatenated, each times √(its share of the weights).
      const t0 = performance.now();
      const parts: Array<{ docs: Float32Array; queries: Float32Array; dims: number; w: number }> = [];
      for (const item of v.split('+')) {
        const [spec, wText] = item.split('@');
        const w = wText === undefined ? 1 : Number(wText);
        const [kind, args] = [spec.split(':')[0], spec.slice(spec.indexOf(':') + 1)];
        let docModel: LearnedModel;
        let queryModel: LearnedModel;
        if (kind === 'learned') docModel = queryModel = learnedModel();
        else if (kind === 'pre') docModel = queryModel = await modelFile(args);
        else if (kind === 'asym') {
          const [d, q] = args.split('|');
          docModel = await modelFile(d);
          queryModel = await modelFile(q);
        } else throw new Error(`unknown variant part ${item}`);
        // A model with a query table (format 2) embeds the queries with it.
        parts.push({ docs: docModel.embed(texts).vectors, queries: queryModel.embedQueries(golden.map((g) => g.query)).vectors, dims: docModel.dims, w });
      }
      let docs = parts[0].docs;
      let queries = parts[0].queries;
      let dims = parts[0].dims;
      let wSum = parts[0].w;
      for (const part of parts.slice(1)) {
        const share = wSum / (wSum + part.w);
        docs = concatRows(docs, dims, part.docs, part.dims, share);
        queries = concatRows(queries, dims, part.queries, part.dims, share);
        dims += part.dims;
        wSum += part.w;
      }
      const embedMs = performance.now() - t0;
      const knn = await KnnIndex.create({ dims, quantization: 'f32', data: docs, ids });
      const vec: Outcome[] = [];
      const fused: Outcome[] = [];
      golden.forEach((g, i) => {
        const hits = knn.search(queries.subarray(i * dims, (i + 1) * dims), { k: 30 });
        const vf = filesOf(hits.map((h) => ({ path: pathOf.get(h.id)!, score: h.score })));
        vec.push(outcome(g, vf.map((f) => f.path)));
        fused.push(outcome(g, fuse(kwFiles.get(g.query)!, vf, SEED_FUSION)));
      });
      const lost = kw.filter((k, i) => k.r1 && !fused[i].r1).length;
      // The either-list ceiling: queries with a relevant file in the first five of keyword's list or the vector channel's.
      const either = kw.filter((k, i) => k.top5 || vec[i].top5).length;
      const p = pooled.get(v) ?? { vec: [], fused: [], lost: 0, either: 0 };
      p.vec.push(...vec);
      p.fused.push(...fused);
      p.lost += lost;
      p.either += either;
      pooled.set(v, p);
      setRow.vec.set(v, agg(vec));
      setRow.fused.set(v, agg(fused));
      const cell = (xs: Outcome[], k: string) => { const m = agg(xs.filter((o) => k === 'all' || o.kind === k)); return `${fmtNum(m.r5, 3)} / ${fmtNum(m.mrr, 3)}`; };
      const name = v.replace(/\|/g, '\\|'); // asym's '|' inside a table cell
      rows.push([`${name} vector`, ...['all', ...kinds].map((k) => cell(vec, k)), '', `${vec.filter((o) => o.top5).length} / ${either}`]);
      rows.push([`${name} fused`, ...['all', ...kinds].map((k) => cell(fused, k)), String(lost), String(fused.filter((o) => o.top5).length)]);
      log(`  ${v}: embedded in ${fmtNum(embedMs / 1000, 1)} s`);
    }
    out.push(`### ${set.name} (${chunks.length} chunks) — R@5 / MRR@10`, '', markdownTable(head, rows), '');
  }
  if (sets.length > 1) {
    const kinds = [...new Set(kwPool.map((o) => o.kind))].sort();
    const cell = (xs: Outcome[], k: string) => { const m = agg(xs.filter((o) => k === 'all' || o.kind === k)); return `${fmtNum(m.r5, 3)} / ${fmtNum(m.mrr, 3)}`; };
    const rows = [['keyword', ...['all', ...kinds].map((k) => cell(kwPool, k)), '', String(kwPool.filter((o) => o.top5).length)]];
    for (const [v, p] of pooled) {
      const name = v.replace(/\|/g, '\\|');
      rows.push([`${name} vector`, ...['all', ...kinds].map((k) => cell(p.vec, k)), '', `${p.vec.filter((o) => o.top5).length} / ${p.either}`]);
      rows.push([`${name} fused`, ...['all', ...kinds].map((k) => cell(p.fused, k)), String(p.lost), String(p.fused.filter((o) => o.top5).length)]);
    }
    out.push(`### pooled (${sets.map((s) => s.name).join(' + ')})`, '', markdownTable(['variant', ...['all', ...kinds].map((k) => `${k} (${kwPool.filter((o) => k === 'all' || o.kind === k).length})`), 'r1 lost', 'first 5 / either'], rows), '');
    out.push(...acrossSets(perSet, [...pooled.keys()]));
  }
  return out.join('\n');
}

/** Per set each variant's vector channel (R@5 / MRR@10), and per variant the sets it gains / loses against the first variant's vector channel and its fused list against keyword (by MRR@10, then by R@5). */
function acrossSets(perSet: ReadonlyArray<{ name: string; kw: M; vec: Map<string, M>; fused: Map<string, M> }>, variants: readonly string[]): string[] {
  const f = (m: M | undefined) => (m ? `${fmtNum(m.r5, 3)} / ${fmtNum(m.mrr, 3)}` : '–');
  const esc = (v: string) => v.replace(/\|/g, '\\|');
  const rows = perSet.map((s) => [s.name, f(s.kw), ...variants.map((v) => f(s.vec.get(v)))]);
  const count = (pick: (s: (typeof perSet)[number]) => [M | undefined, M | undefined], key: 'mrr' | 'r5') => {
    let up = 0;
    let down = 0;
    for (const s of perSet) {
      const [a, b] = pick(s);
      if (!a || !b) continue;
      if (b[key] > a[key] + 1e-9) up++;
      else if (b[key] < a[key] - 1e-9) down++;
    }
    return `${up} / ${down}`;
  };
  const first = variants[0];
  const counts = variants.map((v) => [esc(v),
    v === first ? '–' : count((s) => [s.vec.get(first), s.vec.get(v)], 'mrr'), v === first ? '–' : count((s) => [s.vec.get(first), s.vec.get(v)], 'r5'),
    count((s) => [s.kw, s.fused.get(v)], 'mrr'), count((s) => [s.kw, s.fused.get(v)], 'r5')]);
  return [
    '### per set: the vector channel alone (R@5 / MRR@10)', '', markdownTable(['set', 'keyword', ...variants.map((v) => `${esc(v)} vector`)], rows), '',
    `### sets up / down: vector against ${esc(first)}'s vector, fused against keyword`, '',
    markdownTable(['variant', 'vector MRR', 'vector R@5', 'fused vs keyword MRR', 'fused vs keyword R@5'], counts), '',
  ];
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const sets = ([] as string[]).concat((opts.set as string | string[]) ?? []).map((s) => {
    const [name, rest] = s.split('=');
    const [root, golden] = rest.split(':');
    return { name, root: path.resolve(root), golden: path.resolve(golden) };
  });
  const text = await compare(sets, optList(opts, 'variants'), (s) => process.stderr.write(`${s}\n`));
  process.stdout.write(`${text}\n`);
  return 0;
}

await runMain(import.meta.url, 'compare', main);

// A query-side table in the shipped model's own space (experiments; `asym:` in compare.ts): the
// text ↔ code alignment (xal.ts's two sides, doc words and code tokens over the model's vocabulary)
// read as a map from how people describe code to the code tokens it names, applied to the model's
// word vectors. Each word's query row is its own unit row mixed with its bridge row
//   bridge(w) = Σ_c a(c) · ⟨doc(w), code(c)⟩ · pre(c)   = doc(w) · W,  W = Σ_c a(c) · code(c)ᵀ · pre(c)
// (a: the model's SIF weight, so frequent tokens do not dominate; W is rank × dims, so the sum over
// every code token costs one V × rank × dims product): q(w) = unit((1−β)·pre(w) + β·unit(bridge(w))),
// written as the model's query table (format 2): chunks keep the model's table and vectors. `--concat W --corpus FILE` instead writes one format 2 model whose
// chunk rows are [√W·pre(c) | √(1−W)·code(c)] and query rows [√W·pre(w) | √(1−W)·doc(w)] (the common
// component and int8 scale refitted on the corpus's windows, as train.ts does): the shipped model and
// the alignment's two sides in one file. Owns those constructions; the tables are train.ts's.
//
//   node --experimental-transform-types bench/model/bridge.ts --pre models/code-model.bin
//        --xal-query X.bin.xal-query.bin --xal-code X.bin.xal-code.bin --beta 0.5 --out Q.bin
//        [--concat 0.5 --corpus WORK/corpus-….bin]
import * as fs from 'node:fs';
import { LearnedModel } from '../../core/vector/learned/model.ts';
import { int8Rows } from '../../core/vector/learned/train.ts';
import { concatModel, unitRows } from './xal.ts';
import { loadCorpus } from './train.ts';
import { optString, parseArgs, runMain } from '../lib/util.ts';

/** The bridge rows doc(w) · W (V × pre.dims), W = Σ_c a(c) · code(c)ᵀ · pre(c). */
export function bridgeRows(pre: LearnedModel, docSide: LearnedModel, codeSide: LearnedModel): Float64Array {
  const V = pre.header.vocabSize;
  if (docSide.vocab.length !== V || codeSide.vocab.length !== V || docSide.vocab.some((t, i) => t !== pre.vocab[i])) throw new Error('bridge: the three models must share one vocabulary');
  const D = pre.dims;
  const R = docSide.dims;
  const P = unitRows(pre);
  const Xd = unitRows(docSide);
  const Xc = unitRows(codeSide);
  const W = new Float64Array(R * D);
  for (let c = 0; c < V; c++) {
    const a = pre.weights[c];
    for (let r = 0; r < R; r++) {
      const x = a * Xc[c * R + r];
      if (x === 0) continue;
      for (let j = 0; j < D; j++) W[r * D + j] += x * P[c * D + j];
    }
  }
  const out = new Float64Array(V * D);
  for (let w = 0; w < V; w++) {
    for (let r = 0; r < R; r++) {
      const x = Xd[w * R + r];
      if (x === 0) continue;
      for (let j = 0; j < D; j++) out[w * D + j] += x * W[r * D + j];
    }
  }
  return out;
}

/** The shipped model with a query table (format 2): rows unit((1−β)·pre(w) + β·unit(bridge(w))) over its vocabulary, SIF weights and common component. */
export function bridgeModel(pre: LearnedModel, bridge: Float64Array, beta: number): LearnedModel {
  const V = pre.header.vocabSize;
  const D = pre.dims;
  const P = unitRows(pre);
  const rows = new Float64Array(V * D);
  for (let w = 0; w < V; w++) {
    let n = 0;
    for (let j = 0; j < D; j++) n += bridge[w * D + j] ** 2;
    const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let j = 0; j < D; j++) rows[w * D + j] = (1 - beta) * P[w * D + j] + beta * bridge[w * D + j] * inv;
  }
  return pre.withQueryTable(int8Rows(rows, D, V, D));
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const read = (k: string) => LearnedModel.fromBytes(new Uint8Array(fs.readFileSync(optString(opts, k)!)));
  const pre = read('pre');
  const concat = optString(opts, 'concat');
  if (concat !== undefined) {
    for (const w of concat.split(',')) {
      const out = optString(opts, 'out')!.replace('W', w);
      fs.writeFileSync(out, concatModel(pre, read('xal-query'), read('xal-code'), Number(w), loadCorpus(optString(opts, 'corpus')!)).toBytes());
      process.stderr.write(`concat: w ${w} → ${out}\n`);
    }
    return 0;
  }
  const bridge = bridgeRows(pre, read('xal-query'), read('xal-code'));
  for (const b of (optString(opts, 'beta') ?? '0.5').split(',')) {
    const out = optString(opts, 'out')!.replace('BETA', b);
    fs.writeFileSync(out, bridgeModel(pre, bridge, Number(b)).toBytes());
    process.stderr.write(`bridge: β ${b} → ${out}\n`);
  }
  return 0;
}

await runMain(import.meta.url, 'bridge', main);

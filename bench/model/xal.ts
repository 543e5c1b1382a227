// Text ↔ code alignment for the pretrained code model: from pairs the repositories hold — a doc
// comment and the code it documents, a commit subject and the lines the commit changed — the
// doc-word × code-token association matrix (each pair adds 1/√(|doc|·|code|) to every (doc word,
// code token) it holds), its PPMI (row and column marginals, context smoothing 0.75, the largest
// `maxPerRow` entries per row kept), and a truncated SVD M ≈ U·Σ·Vᵀ. Doc words get U·Σ^p (the
// query side: how people describe code), code tokens V·Σ^p = Mᵀ·U·Σ^(p−1) (the chunk side): a
// query's words and a chunk's code meet in one space even when they share no token. Owns the pair
// matrix, the two sides' word rows, and the model that puts them beside a pretrained model's rows
// (concatModel: chunk rows [pre | code side], query rows [pre | doc side], format 2); the models
// around them are train.ts's.
import { marginalLogs } from '../../core/vector/learned/ppmi.ts';
import { transposeCsr, type Csr } from '../../core/vector/learned/sparse.ts';
import { randomizedSvd } from '../../core/vector/learned/svd.ts';
import { denseOps } from '../../core/vector/learned/dense.ts';
import { ppmiRow, rowScratch } from './cooc.ts';
import type { TokenCorpus } from '../../core/vector/learned/cooccur.ts';
import { quantizeRows, type LearnedModel } from '../../core/vector/learned/model.ts';
import { modelFromWordRows } from '../../core/vector/learned/train.ts';

export interface PairIds {
  /** Per pair: its distinct doc-side ids then its distinct code-side ids, in docStart/codeStart order. */
  doc: Int32Array;
  docStart: Int32Array;
  code: Int32Array;
  codeStart: Int32Array;
  count: number;
}

export function pairIds(pairs: Iterable<[number[], number[]]>): PairIds {
  const doc: number[] = [];
  const code: number[] = [];
  const docStart = [0];
  const codeStart = [0];
  for (const [d, c] of pairs) {
    doc.push(...d);
    code.push(...c);
    docStart.push(doc.length);
    codeStart.push(code.length);
  }
  return { doc: Int32Array.from(doc), docStart: Int32Array.from(docStart), code: Int32Array.from(code), codeStart: Int32Array.from(codeStart), count: docStart.length - 1 };
}

/** The PPMI of the pairs' doc × code association matrix (V × V over the shared vocabulary). */
export function alignmentPpmi(p: PairIds, V: number, maxPerRow: number): Csr {
  // Pairs of each doc word (an inverted index), each pair's weight.
  const weight = new Float64Array(p.count);
  const byWord = new Int32Array(V + 1);
  for (let i = 0; i < p.count; i++) {
    const nd = p.docStart[i + 1] - p.docStart[i];
    const nc = p.codeStart[i + 1] - p.codeStart[i];
    weight[i] = nd && nc ? 1 / Math.sqrt(nd * nc) : 0;
    for (let k = p.docStart[i]; k < p.docStart[i + 1]; k++) byWord[p.doc[k] + 1]++;
  }
  for (let d = 0; d < V; d++) byWord[d + 1] += byWord[d];
  const pairsOf = new Int32Array(byWord[V]);
  const fill = byWord.slice(0, V);
  for (let i = 0; i < p.count; i++) for (let k = p.docStart[i]; k < p.docStart[i + 1]; k++) pairsOf[fill[p.doc[k]]++] = i;
  // Marginals: row d sums weight·|code| over its pairs, column c weight·|doc|.
  const rowSum = new Float64Array(V);
  const colSum = new Float64Array(V);
  for (let i = 0; i < p.count; i++) {
    const nd = p.docStart[i + 1] - p.docStart[i];
    const nc = p.codeStart[i + 1] - p.codeStart[i];
    for (let k = p.docStart[i]; k < p.docStart[i + 1]; k++) rowSum[p.doc[k]] += weight[i] * nc;
    for (let k = p.codeStart[i]; k < p.codeStart[i + 1]; k++) colSum[p.code[k]] += weight[i] * nd;
  }
  const { ln: lnCol, lnZ } = marginalLogs(colSum);
  const lnRow = marginalLogs(rowSum).ln;
  const acc = new Float64Array(V);
  const touched = new Int32Array(V);
  const rowPtr = new Int32Array(V + 1);
  const colIdx: number[] = [];
  const values: number[] = [];
  const cand = rowScratch(V);
  for (let d = 0; d < V; d++) {
    let t = 0;
    for (let q = byWord[d]; q < byWord[d + 1]; q++) {
      const i = pairsOf[q];
      const w = weight[i];
      for (let k = p.codeStart[i]; k < p.codeStart[i + 1]; k++) {
        const c = p.code[k];
        if (acc[c] === 0) touched[t++] = c;
        acc[c] += w;
      }
    }
    ppmiRow(acc, touched, t, lnZ, lnRow[d], lnCol, maxPerRow, cand, (c, v) => {
      colIdx.push(c);
      values.push(v);
    });
    rowPtr[d + 1] = colIdx.length;
  }
  return { rows: V, cols: V, rowPtr, colIdx: Int32Array.from(colIdx), values: Float32Array.from(values) };
}

/** Both sides' word rows (V × rank each, row-major): doc words U·Σ^p, code tokens Mᵀ·U·Σ^(p−1). */
export function alignmentRows(m: Csr, o: { rank: number; oversample: number; powerIterations: number; seed: number; eigPower: 0.5 | 1 }): { doc: Float64Array; code: Float64Array; rank: number; s: Float64Array } {
  const svd = randomizedSvd(m, { rank: o.rank, oversample: o.oversample, powerIterations: o.powerIterations, seed: o.seed });
  const k = svd.rank;
  const V = m.rows;
  const doc = new Float64Array(V * k);
  const sp = Float64Array.from(svd.s, (s) => (o.eigPower === 1 ? s : Math.sqrt(s)));
  for (let w = 0; w < V; w++) for (let j = 0; j < k; j++) doc[w * k + j] = svd.u[w * k + j] * sp[j];
  const code = denseOps().mulSparse(transposeCsr(m), svd.u, k);
  for (let w = 0; w < m.cols; w++) for (let j = 0; j < k; j++) code[w * k + j] = svd.s[j] > 0 ? (code[w * k + j] * sp[j]) / svd.s[j] : 0;
  return { doc, code, rank: k, s: svd.s };
}

/** A model's word rows as unit f64 rows (V × dims; zero rows stay zero). */
export function unitRows(m: LearnedModel): Float64Array {
  const { dims, vocabSize: V } = m.header;
  const out = new Float64Array(V * dims);
  for (let w = 0; w < V; w++) {
    let n = 0;
    for (let j = 0; j < dims; j++) {
      const v = m.vectors[w * dims + j] * m.rowScale[w];
      out[w * dims + j] = v;
      n += v * v;
    }
    if (n > 0) {
      const inv = 1 / Math.sqrt(n);
      for (let j = 0; j < dims; j++) out[w * dims + j] *= inv;
    }
  }
  return out;
}

/**
 * One format 2 model (the recipe's xalConcat; bridge.ts --concat): chunk rows [√w·pre | √(1−w)·code], query rows
 * [√w·pre | √(1−w)·doc] (the query table stores the doc side's columns only: queryFrom = pre's dims); common
 * component and scale from the corpus's windows.
 */
export function concatModel(pre: LearnedModel, docSide: LearnedModel, codeSide: LearnedModel, w: number, corpus: TokenCorpus): LearnedModel {
  const V = pre.header.vocabSize;
  const D = pre.dims;
  const R = codeSide.dims;
  const W = D + R;
  const P = unitRows(pre);
  const join = (x: Float64Array) => {
    const out = new Float64Array(V * W);
    const a = Math.sqrt(w);
    const b = Math.sqrt(1 - w);
    for (let t = 0; t < V; t++) {
      for (let j = 0; j < D; j++) out[t * W + j] = a * P[t * D + j];
      for (let j = 0; j < R; j++) out[t * W + D + j] = b * x[t * R + j];
    }
    return out;
  };
  if (corpus.vocab.length !== V || corpus.vocab.some((t, i) => t !== pre.vocab[i])) throw new Error('concat: the corpus is not the model\'s');
  const chunk = modelFromWordRows(corpus, join(unitRows(codeSide)), W, { ...pre.header.params, dims: W }).model;
  // The query table stores only the doc side's columns (queryFrom D): the first D are the main table's.
  const doc = unitRows(docSide);
  const b = Math.sqrt(1 - w);
  return chunk.withQueryTable({ ...quantizeRows(doc.map((x) => b * x), V, R), from: D });
}

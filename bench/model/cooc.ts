// The PPMI matrix of a corpus too large for the learned model's in-memory co-occurrence matrix
// (core/vector/learned/cooccur.ts keeps every co-occurring pair): two passes over the id sequence.
// Pass 1 sums each token's co-occurrence weights (Σ 1/d over neighbours within ±window inside its
// window of lines: the matrix's row sums, which equal its column sums). Pass 2 builds one row at a
// time in a dense accumulator, turns it into PPMI with those sums (context smoothing α = 0.75, as
// ppmi.ts) and keeps its `maxPerRow` largest entries (ties by smaller column): memory is the kept
// entries only (ppmiRow: xal.ts's rows too). Deterministic: fixed loop orders and core's own ln (and
// ppmi.ts's marginal logs). Owns only this.
import { accumulateRow, END, positionsById } from '../../core/vector/learned/cooccur.ts';
import { ln } from '../../core/vector/learned/numeric.ts';
import { marginalLogs } from '../../core/vector/learned/ppmi.ts';
import type { Csr } from '../../core/vector/learned/sparse.ts';

export function ppmiFromSequence(seq: Uint16Array, V: number, window: number, maxPerRow: number, log: (s: string) => void = () => {}): Csr {
  const inv = new Float64Array(window + 1);
  for (let d = 1; d <= window; d++) inv[d] = 1 / d;
  // Pass 1: row sums (Σ 1/d over each occurrence's neighbours), and each token's positions.
  const rowSum = new Float64Array(V);
  for (let i = 0; i < seq.length; i++) {
    const a = seq[i];
    if (a === END) continue;
    let s = 0;
    for (let d = 1; d <= window; d++) {
      if (seq[i - d] === END) break;
      s += inv[d];
    }
    for (let d = 1; d <= window; d++) {
      if (seq[i + d] === END) break;
      s += inv[d];
    }
    rowSum[a] += s;
  }
  const { posStart, pos } = positionsById(seq, V);
  const { ln: lnRow, lnZ } = marginalLogs(rowSum);
  // Pass 2: rows.
  const acc = new Float64Array(V);
  const touched = new Int32Array(V);
  const rowPtr = new Int32Array(V + 1);
  const cap = V * maxPerRow;
  const colIdx = new Int32Array(cap);
  const values = new Float32Array(cap);
  const cand = rowScratch(V);
  let nnz = 0;
  const step = Math.max(1, Math.floor(V / 10));
  for (let a = 0; a < V; a++) {
    if (a % step === 0) log(`  ppmi rows ${a}/${V}`);
    const t = accumulateRow(seq, pos, posStart, a, window, inv, acc, touched);
    ppmiRow(acc, touched, t, lnZ, lnRow[a], lnRow, maxPerRow, cand, (b, v) => {
      colIdx[nnz] = b;
      values[nnz++] = v;
    });
    rowPtr[a + 1] = nnz;
  }
  return { rows: V, cols: V, rowPtr, colIdx: colIdx.slice(0, nnz), values: values.slice(0, nnz) };
}

/** ppmiRow's candidates: room for a whole row. */
export function rowScratch(V: number): { val: Float64Array; col: Int32Array } {
  return { val: new Float64Array(V), col: new Int32Array(V) };
}

/**
 * One row a of a PPMI matrix from its accumulated co-occurrence weights (`acc` at the columns
 * touched[0 … t), cleared here): PPMI(a, b) = ln n(a,b) + ln Z − ln n(a) − 0.75·ln n(b) (`lnCtx`:
 * the context side's logs), the positive ones, of which the `max` largest (ties: smaller column)
 * go to `keep` in column order.
 */
export function ppmiRow(acc: Float64Array, touched: Int32Array, t: number, lnZ: number, lnRowA: number, lnCtx: Float64Array, max: number, cand: { val: Float64Array; col: Int32Array }, keep: (col: number, value: number) => void): void {
  let kept = 0;
  for (let i = 0; i < t; i++) {
    const b = touched[i];
    const v = ln(acc[b]) + lnZ - lnRowA - 0.75 * lnCtx[b];
    acc[b] = 0;
    if (v > 0) {
      cand.val[kept] = v;
      cand.col[kept++] = b;
    }
  }
  for (const i of largestInColumnOrder(cand.val, cand.col, kept, max)) keep(cand.col[i], cand.val[i]);
}

/** Of a row's `kept` candidates, the indices of its `max` largest (ties: smaller column), in column order. */
function largestInColumnOrder(val: Float64Array, col: Int32Array, kept: number, max: number): number[] {
  const order = Array.from({ length: kept }, (_, i) => i);
  if (kept > max) {
    order.sort((x, y) => val[y] - val[x] || col[x] - col[y]);
    order.length = max;
  }
  return order.sort((x, y) => col[x] - col[y]);
}

// Positive pointwise mutual information over a co-occurrence matrix, with context smoothing:
// PPMI(a, b) = max(0, ln( n(a,b) · Z / (n(a) · n(b)^α) )), n(a) the row sums, Z = Σ_c n(c)^α and
// α = 0.75 (which lifts rare contexts' probabilities and tames PMI's bias towards them). Entries at
// or below zero are dropped; a row may keep only its `maxPerRow` largest. Owns the transform only.
import { ln } from './numeric.ts';
import type { Csr } from './sparse.ts';

export interface PpmiOptions {
  /** Context smoothing exponent: 0.75 (the only value with an exact form here: √x·√√x). */
  alpha: 0.75;
  /** Keep at most this many entries per row (the largest; ties by smaller column). 0 = all. */
  maxPerRow: number;
}

/** PPMI of a symmetric co-occurrence matrix (column sums = row sums), as a new CSR. */
export function ppmi(m: Csr, opts: PpmiOptions): Csr {
  const { rows, rowPtr, colIdx, values } = m;
  const rowSum = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let s = 0;
    for (let p = rowPtr[r]; p < rowPtr[r + 1]; p++) s += values[p];
    rowSum[r] = s;
  }
  const { ln: lnRow, lnZ } = marginalLogs(rowSum);
  const lnCtx = lnRow.map((x) => 0.75 * x);
  const outPtr = new Int32Array(rows + 1);
  const outCol = new Int32Array(colIdx.length);
  const outVal = new Float32Array(colIdx.length);
  let nnz = 0;
  let scratchVal = new Float64Array(64);
  let scratchCol = new Int32Array(64);
  for (let r = 0; r < rows; r++) {
    const start = nnz;
    for (let p = rowPtr[r]; p < rowPtr[r + 1]; p++) {
      const c = colIdx[p];
      const v = ln(values[p]) + lnZ - lnRow[r] - lnCtx[c];
      if (v > 0) {
        outCol[nnz] = c;
        outVal[nnz++] = v;
      }
    }
    const kept = nnz - start;
    if (opts.maxPerRow > 0 && kept > opts.maxPerRow) {
      if (scratchVal.length < kept) {
        scratchVal = new Float64Array(kept);
        scratchCol = new Int32Array(kept);
      }
      const threshold = kthLargest(outVal, start, kept, opts.maxPerRow, scratchVal);
      // Keep everything above the threshold, then entries equal to it (smaller columns first) until full.
      let above = 0;
      for (let i = 0; i < kept; i++) if (outVal[start + i] > threshold) above++;
      let ties = opts.maxPerRow - above;
      let equalCols = 0;
      for (let i = 0; i < kept; i++) if (outVal[start + i] === threshold) scratchCol[equalCols++] = outCol[start + i];
      const tieCols = scratchCol.subarray(0, equalCols).sort();
      const tieLimit = ties > 0 ? tieCols[ties - 1] : -1;
      let w = start;
      for (let i = 0; i < kept; i++) {
        const v = outVal[start + i];
        const c = outCol[start + i];
        if (v > threshold || (v === threshold && ties > 0 && c <= tieLimit)) {
          if (v === threshold) ties--;
          outCol[w] = c;
          outVal[w++] = v;
        }
      }
      nnz = w;
    }
    outPtr[r + 1] = nnz;
  }
  return { rows, cols: m.cols, rowPtr: outPtr, colIdx: outCol.subarray(0, nnz), values: outVal.subarray(0, nnz) }; // views: see cooccurrence
}

/**
 * What PPMI needs of a matrix's marginals (its row sums, or the context side's column sums): ln of
 * each positive sum (0 for none) and ln Z, Z = Σ n^0.75 over them — n^0.75 = √n · √√n: sqrt is
 * exactly rounded in every runtime, pow is not. Summed in index order (the same bits everywhere).
 */
export function marginalLogs(sums: Float64Array): { ln: Float64Array; lnZ: number } {
  let z = 0;
  const out = new Float64Array(sums.length);
  for (let r = 0; r < sums.length; r++) {
    const n = sums[r];
    if (n > 0) {
      z += Math.sqrt(n) * Math.sqrt(Math.sqrt(n));
      out[r] = ln(n);
    }
  }
  return { ln: out, lnZ: ln(z) };
}

/** The k-th largest of values[start … start+n) (copies them into scratch; a sort of the copy). */
function kthLargest(values: Float32Array, start: number, n: number, k: number, scratch: Float64Array): number {
  const s = scratch.subarray(0, n);
  for (let i = 0; i < n; i++) s[i] = values[start + i];
  s.sort();
  return s[n - k];
}

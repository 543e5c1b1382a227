// A sparse matrix in CSR form and its transpose: what the randomized SVD multiplies by (M·X and,
// through the transposed CSR, Mᵀ·X; the products themselves are dense.ts's). Loops run in a fixed
// order, so results are bit-identical in every runtime. Owns only the layout; what the matrix
// holds is the caller's.

export interface Csr {
  rows: number;
  cols: number;
  /** Row r's entries are at rowPtr[r] … rowPtr[r+1]-1. Columns within a row are in no particular (but a fixed) order. */
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float32Array;
}

/** Mᵀ as CSR (entries of each row of Mᵀ in increasing row order of M). */
export function transposeCsr(m: Csr): Csr {
  const rowPtr = new Int32Array(m.cols + 1);
  for (let p = 0; p < m.colIdx.length; p++) rowPtr[m.colIdx[p] + 1]++;
  for (let c = 0; c < m.cols; c++) rowPtr[c + 1] += rowPtr[c];
  const fill = rowPtr.slice(0, m.cols);
  const colIdx = new Int32Array(m.colIdx.length);
  const values = new Float32Array(m.colIdx.length);
  for (let r = 0; r < m.rows; r++) {
    for (let p = m.rowPtr[r]; p < m.rowPtr[r + 1]; p++) {
      const q = fill[m.colIdx[p]]++;
      colIdx[q] = r;
      values[q] = m.values[p];
    }
  }
  return { rows: m.cols, cols: m.rows, rowPtr, colIdx, values };
}

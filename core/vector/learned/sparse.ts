// A sparse matrix in CSR form, its transpose, and its product with a dense row-major matrix: what
// the randomized SVD needs (M·X and, through the transposed CSR, Mᵀ·X). Loops run in a fixed order,
// so results are bit-identical in every runtime; the inner loop takes two entries of a row at a
// time (half the loads and stores of the output row, which is where the time goes in JS).
// Owns only the arithmetic; what the matrix holds is the caller's.

export interface Csr {
  rows: number;
  cols: number;
  /** Row r's entries are at rowPtr[r] … rowPtr[r+1]-1. Columns within a row are in no particular (but a fixed) order. */
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float32Array;
}

/** M · X, with X row-major `M.cols × width`; returns `M.rows × width`, row-major. */
export function mulDense(m: Csr, x: Float64Array, width: number): Float64Array {
  const y = new Float64Array(m.rows * width);
  const { rowPtr, colIdx, values } = m;
  for (let r = 0; r < m.rows; r++) {
    const yo = r * width;
    const end = rowPtr[r + 1];
    let p = rowPtr[r];
    for (; p + 1 < end; p += 2) {
      const v0 = values[p];
      const v1 = values[p + 1];
      const x0 = colIdx[p] * width;
      const x1 = colIdx[p + 1] * width;
      for (let j = 0; j < width; j++) y[yo + j] += v0 * x[x0 + j] + v1 * x[x1 + j];
    }
    if (p < end) {
      const v = values[p];
      const xo = colIdx[p] * width;
      for (let j = 0; j < width; j++) y[yo + j] += v * x[xo + j];
    }
  }
  return y;
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
